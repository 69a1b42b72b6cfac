// A run's error in plain words: an undefined name with "did you mean" from the program's own
// definitions; anything else as its first line, the whole message kept as the detail.
#include "core/pdl/analysis/plainerror.h"
#include "core/pdl/analysis/scopeanalysis.h"
#include "core/pdl/parser/programparser.h"

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
