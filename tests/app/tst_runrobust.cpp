// `hako run` as a terminal user meets it: `--stream result` (the default), `context` and `none`,
// and the messages for broken or hostile program files.
#include "hakoprocess.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

namespace {

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& content)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    f.write(content);
    return path;
}

const QByteArray kChat = "text:\n"
                         "- Hello\n"
                         "- role: system\n"
                         "  text: Be brief.\n"
                         "- model: none/echo\n"
                         "  parameters: {mock_response: Hi!}\n";

} // namespace

class TestRunRobust : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        if (!QFileInfo(hakoBinary()).isExecutable())
            QSKIP("bin/hako is not built");
    }

    void streamContextDiffersFromResult()
    {
        QTemporaryDir dir;
        const QString prog = writeFile(dir, QStringLiteral("chat.pdl"), kChat);
        const HakoOutcome none = runHako({QStringLiteral("run"), prog});
        QCOMPARE(none.exitCode, 0);
        QCOMPARE(none.out, QStringLiteral("HelloBe brief.Hi!\n"));
        const HakoOutcome context = runHako(
            {QStringLiteral("run"), QStringLiteral("--stream"), QStringLiteral("context"), prog});
        QCOMPARE(context.exitCode, 0);
        // Every message as it joined the context, then the reference's closing newline.
        QCOMPARE(context.out, QStringLiteral("\nuser: Hello\nsystem: Be brief.\nassistant: Hi!\n"));
        QCOMPARE(context.err, QString());
    }

    void streamResultIsTheDefaultAndPrintsInOrder()
    {
        QTemporaryDir dir;
        const QString prog = writeFile(dir, QStringLiteral("ask.pdl"),
                                       "text:\n- 'Hello '\n- read:\n  message: 'Name? '\n"
                                       "- '!'\n- model: none/echo\n"
                                       "  parameters: {mock_response: ' Hi!'}\n");
        // The reference's default, `--stream result`: the text before the read is printed
        // before its prompt, and nothing is printed twice.
        const HakoOutcome streamed = runHako({QStringLiteral("run"), prog}, "Ada\n");
        QCOMPARE(streamed.exitCode, 0);
        QCOMPARE(streamed.out, QStringLiteral("Hello Name? Ada! Hi!\n"));
        const HakoOutcome explicitly = runHako(
            {QStringLiteral("run"), QStringLiteral("--stream"), QStringLiteral("result"), prog},
            "Ada\n");
        QCOMPARE(explicitly.out, streamed.out);
        // `--stream none`, for scripts: only the result, once the run ends.
        const HakoOutcome none = runHako(
            {QStringLiteral("run"), QStringLiteral("--stream"), QStringLiteral("none"), prog},
            "Ada\n");
        QCOMPARE(none.exitCode, 0);
        QCOMPARE(none.out, QStringLiteral("Name? Hello Ada! Hi!\n"));
    }

    void binaryProgramIsRefused()
    {
        QTemporaryDir dir;
        const QString prog =
            writeFile(dir, QStringLiteral("image.pdl"), QByteArray("\x89PNG\r\n\x1A\n\0\0", 10));
        for (const char* sub : {"run", "check"}) {
            const HakoOutcome o = runHako({QString::fromLatin1(sub), prog});
            QCOMPARE(o.status, QProcess::NormalExit);
            QCOMPARE(o.exitCode, 1);
            const QString said = o.out + o.err; // check prints to stdout, run to stderr
            QVERIFY2(said.contains(QLatin1String("image.pdl")) &&
                         said.contains(QLatin1String("not a UTF-8 text file")) &&
                         said.contains(QLatin1String("byte offset 0")),
                     qPrintable(said));
        }
    }

    void aliasBombEndsQuickly()
    {
        QTemporaryDir dir;
        QByteArray y = "defs:\n  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
        for (int i = 1; i < 12; ++i) {
            y += "  a" + QByteArray::number(i) + ": &a" + QByteArray::number(i) + " [";
            for (int k = 0; k < 10; ++k)
                y += (k ? ", *a" : "*a") + QByteArray::number(i - 1);
            y += "]\n";
        }
        y += "text: ${ a11 }\n";
        const QString prog = writeFile(dir, QStringLiteral("bomb.pdl"), y);
        const HakoOutcome o = runHako({QStringLiteral("check"), prog});
        QCOMPARE(o.status, QProcess::NormalExit); // not killed by the 20 s limit or the OOM killer
        QCOMPARE(o.exitCode, 1);
        QVERIFY2(o.out.contains(QLatin1String("alias")) || o.err.contains(QLatin1String("alias")),
                 qPrintable(o.out + o.err));
    }
};

QTEST_GUILESS_MAIN(TestRunRobust)
#include "tst_runrobust.moc"
