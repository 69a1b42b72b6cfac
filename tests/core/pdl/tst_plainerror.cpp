// A run's error in plain words: an undefined name with "did you mean" from the program's own
// definitions; anything else as its first line, the whole message kept as the detail.
#include "core/pdl/analysis/plainerror.h"
#include "core/pdl/check/scopeanalysis.h"
#include "core/pdl/parser/programparser.h"
#include "core/pdl/programcheck.h"

#include <QTest>

using namespace hako;
using namespace hako::pdl;

class TestPlainError : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void plainWords_data()
    {
        QTest::addColumn<QByteArray>("program");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("hasDetail");
        const QByteArray prog = "defs:\n  article: x\n  名前: y\ntext:\n- ${ artcle }\n";
        QTest::newRow("misspelt")
            << prog
            << QStringLiteral("Error during the evaluation of ${ artcle }: 'artcle' is undefined")
            << QStringLiteral("`artcle` is not an input or a defined name — did you mean "
                              "`article`?")
            << true;
        QTest::newRow("nothing close")
            << prog << QStringLiteral("'question' is undefined")
            << QStringLiteral("`question` is not an input or a defined name: define it with "
                              "`def:` or `defs:`, or give it as an input")
            << true;
        QTest::newRow("japanese name")
            << prog << QStringLiteral("'名後' is undefined")
            << QStringLiteral("`名後` is not an input or a defined name — did you mean `名前`?")
            << true;
        QTest::newRow("other one-line message") << prog << QStringLiteral("division by zero")
                                                << QStringLiteral("division by zero") << false;
        QTest::newRow("multi-line message")
            << prog << QStringLiteral("Error during the evaluation of x:\ndetails here")
            << QStringLiteral("Error during the evaluation of x") << true;
    }

    // The common mistakes of someone new to PDL, as the checker really reports them, each
    // said with what to do; the checker's own words kept as the detail.
    void commonMistakes_data()
    {
        QTest::addColumn<QByteArray>("program");
        QTest::addColumn<QString>("says");
        QTest::newRow("unclosed ${")
            << QByteArray("defs:\n  name: 太郎\ntext:\n- \"こんにちは ${ name\"\n")
            << QStringLiteral("A `${` is not closed");
        QTest::newRow("full-width spaces")
            << QByteArray("defs:\n  name: 太郎\ntext:\n- \"こんにちは ${\u3000name\u3000}\"\n")
            << QStringLiteral("full-width spaces");
        QTest::newRow("colon in a text")
            << QByteArray("text:\n- お問い合わせ: 返品したい\n- 次: ok: no\n")
            << QStringLiteral("put the whole text in double quotes");
    }
    void commonMistakes()
    {
        QFETCH(QByteArray, program);
        QFETCH(QString, says);
        const ProgramReport report = analyzeProgramText(program, QStringLiteral("p.pdl"));
        QVERIFY(!report.diagnostics.empty());
        const Diagnostic& first = report.diagnostics.front();
        const PlainError plain = plainRunError(first, report.scopes.get());
        QVERIFY2(plain.text.contains(says),
                 qPrintable(plain.text + QStringLiteral(" / ") + first.message));
        QCOMPARE(plain.detail, first.message.trimmed());
        QVERIFY(!plain.text.contains(QLatin1Char('\n')));
    }

    void plainWords()
    {
        QFETCH(QByteArray, program);
        QFETCH(QString, message);
        QFETCH(QString, text);
        QFETCH(bool, hasDetail);
        const ParseResult parsed = parseProgramText(program, QStringLiteral("p.pdl"));
        QVERIFY(parsed.program);
        const ScopeAnalysis scopes = analyzeScopes(*parsed.program, program);
        Diagnostic d;
        d.message = message;
        const PlainError plain = plainRunError(d, &scopes);
        QCOMPARE(plain.text, text);
        QVERIFY(!plain.text.contains(QLatin1Char('\n')));
        QCOMPARE(!plain.detail.isEmpty(), hasDetail);
        if (hasDetail)
            QCOMPARE(plain.detail, message);
    }
};

QTEST_GUILESS_MAIN(TestPlainError)
#include "tst_plainerror.moc"
