// Naming a prompt in the Prompt view writes the program's `description` with the smallest edit:
// an existing name replaced in its own style, a missing one added below the identity comment,
// any text (colons, hashes, quotes, Japanese) read back exactly as typed.

#include "core/playground/programname.h"

#include <QTest>

using namespace hako;
using namespace hako::playground;

class TestProgramName : public QObject {
    Q_OBJECT

    static QString applied(const QString& source, const QList<TextEdit>& edits)
    {
        QString out = source;
        for (qsizetype i = edits.size() - 1; i >= 0; --i)
            out.replace(edits[i].offset, edits[i].length, edits[i].replacement);
        return out;
    }

private Q_SLOTS:
    void rename_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("expected");
        QTest::newRow("replaced, plain")
            << QStringLiteral("description: 返信\ntext: hi\n") << QStringLiteral("丁寧な返信")
            << QStringLiteral("description: 丁寧な返信\ntext: hi\n");
        QTest::newRow("replaced, quoted stays quoted")
            << QStringLiteral("description: \"old\"\ntext: hi\n") << QStringLiteral("new")
            << QStringLiteral("description: \"new\"\ntext: hi\n");
        QTest::newRow("added below the identity comment")
            << QStringLiteral("# hako-prompt: 0123456789ab\ntext: hi\n") << QStringLiteral("要約")
            << QStringLiteral("# hako-prompt: 0123456789ab\ndescription: 要約\ntext: hi\n");
        QTest::newRow("a name YAML would misread is quoted")
            << QStringLiteral("text: hi\n") << QStringLiteral("返信: #1 \"急ぎ\"")
            << QString(); // only read back
        QTest::newRow("CRLF kept") << QStringLiteral("text: hi\r\n") << QStringLiteral("a")
                                   << QStringLiteral("description: a\r\ntext: hi\r\n");
    }

    void rename()
    {
        QFETCH(QString, source);
        QFETCH(QString, name);
        QFETCH(QString, expected);
        Result<QList<TextEdit>> edits = setProgramName(source, name);
        QVERIFY2(edits.ok(), qPrintable(edits ? QString() : edits.error().message));
        const QString out = applied(source, *edits);
        if (!expected.isEmpty())
            QCOMPARE(out, expected);
        QCOMPARE(programName(out).text, name);
        QVERIFY(out.endsWith(source.section(QLatin1Char('\n'), -2))); // the rest untouched
    }

    void refused()
    {
        QVERIFY(!setProgramName(QStringLiteral("- text: hi\n"), QStringLiteral("x")).ok());
        QVERIFY(!setProgramName(QStringLiteral("description: a\n"), QStringLiteral("  ")).ok());
        QVERIFY(!programName(QStringLiteral("text: [")).written());
        QCOMPARE(programName(QStringLiteral("description: 名前\n")).text, QStringLiteral("名前"));
    }
};

QTEST_GUILESS_MAIN(TestProgramName)
#include "tst_programname.moc"
