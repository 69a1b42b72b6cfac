// `hako prompt` and `hako run NAME@LABEL` as a script or an application uses them: save two
// versions, label one production, get it (program and rendered messages), run it while the
// file holds newer work, and the diff and history a reviewer reads.

#include "hakoprocess.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

namespace {

void write(const QString& path, const QByteArray& text)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

} // namespace

class TestPromptCli : public QObject {
    Q_OBJECT

    QTemporaryDir m_config;
    QTemporaryDir m_dir;

    HakoOutcome hako(QStringList args)
    {
        qputenv("XDG_CONFIG_HOME", m_config.path().toUtf8());
        args << QStringLiteral("--library") << m_dir.path();
        HakoOutcome o = runHakoAsGiven(args);
        qunsetenv("XDG_CONFIG_HOME");
        return o;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!QFileInfo(hakoBinary()).isExecutable())
            QSKIP("bin/hako is not built");
        if (QStandardPaths::findExecutable(QStringLiteral("git")).isEmpty())
            QSKIP("git is not installed");
    }

    void theWholeLoop()
    {
        QCOMPARE(hako({QStringLiteral("prompt"), QStringLiteral("init")}).exitCode, 0);
        const QString file = m_dir.filePath(QStringLiteral("reply.pdl"));
        write(file, "# hako-prompt: 0123456789ab\ndescription: 返信\ntext: \"v1: ${ who }\"\n");
        HakoOutcome saved = hako({QStringLiteral("prompt"), QStringLiteral("save"), file,
                                  QStringLiteral("-m"), QStringLiteral("最初")});
        QVERIFY2(saved.exitCode == 0, qPrintable(saved.err));
        write(file, "# hako-prompt: 0123456789ab\ndescription: 返信\ntext: \"v2: ${ who }!\"\n");
        QCOMPARE(hako({QStringLiteral("prompt"), QStringLiteral("save"), file}).exitCode, 0);
        HakoOutcome label =
            hako({QStringLiteral("prompt"), QStringLiteral("label"), QStringLiteral("返信"),
                  QStringLiteral("production"), QStringLiteral("1")});
        QVERIFY2(label.exitCode == 0, qPrintable(label.err));

        // Newer, unsaved work in the file does not change what production is.
        write(file, "# hako-prompt: 0123456789ab\ndescription: 返信\ntext: \"draft\"\n");
        HakoOutcome got = hako(
            {QStringLiteral("prompt"), QStringLiteral("get"), QStringLiteral("返信@production")});
        QCOMPARE(got.exitCode, 0);
        QVERIFY(got.out.contains(QLatin1String("v1: ${ who }")));

        HakoOutcome json = hako({QStringLiteral("prompt"), QStringLiteral("get"),
                                 QStringLiteral("返信@production"), QStringLiteral("--json")});
        const QJsonObject o = QJsonDocument::fromJson(json.out.toUtf8()).object();
        QCOMPARE(o.value(QLatin1String("id")).toString(), QStringLiteral("0123456789ab"));
        QCOMPARE(
            o.value(QLatin1String("version")).toObject().value(QLatin1String("version")).toInt(),
            1);

        HakoOutcome run =
            runHakoAsGiven({QStringLiteral("run"), QStringLiteral("--trust"),
                            QStringLiteral("--library"), m_dir.path(), QStringLiteral("-d"),
                            QStringLiteral("{who: 花子}"), QStringLiteral("返信@production")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QCOMPARE(run.out.trimmed(), QStringLiteral("v1: 花子"));

        HakoOutcome history =
            hako({QStringLiteral("prompt"), QStringLiteral("history"), QStringLiteral("返信")});
        QVERIFY(history.out.contains(QLatin1String("v1")));
        QVERIFY(history.out.contains(QStringLiteral("最初")));
        QVERIFY(history.out.contains(QLatin1String("[production]")));
        QVERIFY(history.out.contains(QLatin1String("label production -> v1")));

        HakoOutcome diff = hako({QStringLiteral("prompt"), QStringLiteral("diff"),
                                 QStringLiteral("返信"), QStringLiteral("1"), QStringLiteral("2")});
        QVERIFY2(diff.out.contains(QLatin1String("[-v1-]{+v2+}")), qPrintable(diff.out));

        HakoOutcome list = hako({QStringLiteral("prompt"), QStringLiteral("list")});
        QVERIFY(list.out.contains(QStringLiteral("返信\treply.pdl\tv2\tproduction=v1")));

        QCOMPARE(
            hako({QStringLiteral("prompt"), QStringLiteral("get"), QStringLiteral("返信@nope")})
                .exitCode,
            1);
        QCOMPARE(hako({QStringLiteral("prompt"), QStringLiteral("frobnicate")}).exitCode, 2);
    }

    // Two authors' libraries through one git server: a clash stops with exit 3 and changes
    // nothing; --keep-mine settles it and the other text stays in the history.
    void syncThroughTheTeamServer()
    {
        QTemporaryDir team;
        const QString server = team.filePath(QStringLiteral("team.git"));
        QCOMPARE(
            QProcess::execute(QStringLiteral("git"), {QStringLiteral("init"), QStringLiteral("-q"),
                                                      QStringLiteral("--bare"), server}),
            0);
        const QString a = team.filePath(QStringLiteral("a")),
                      b = team.filePath(QStringLiteral("b"));
        auto in = [](const QString& lib, QStringList args) {
            return runHakoAsGiven(QStringList{QStringLiteral("prompt")} + args +
                                  QStringList{QStringLiteral("--library"), lib});
        };
        const QByteArray head = "# hako-prompt: 1d1d1d1d1d1d\ndescription: 要約\n";
        QCOMPARE(in(a, {QStringLiteral("init"), a}).exitCode, 0);
        write(a + QStringLiteral("/sum.pdl"), head + "text: one\n");
        QCOMPARE(in(a, {QStringLiteral("save"), a + QStringLiteral("/sum.pdl")}).exitCode, 0);
        HakoOutcome sent = in(a, {QStringLiteral("sync"), QStringLiteral("--remote"), server});
        QVERIFY2(sent.exitCode == 0, qPrintable(sent.err));
        QCOMPARE(in(b, {QStringLiteral("init"), b}).exitCode, 0);
        HakoOutcome got = in(b, {QStringLiteral("sync"), QStringLiteral("--remote"), server});
        QVERIFY2(got.exitCode == 0, qPrintable(got.err));
        write(b + QStringLiteral("/sum.pdl"), head + "text: B\n");
        QCOMPARE(in(b, {QStringLiteral("save"), b + QStringLiteral("/sum.pdl")}).exitCode, 0);
        QCOMPARE(in(b, {QStringLiteral("sync")}).exitCode, 0);
        write(a + QStringLiteral("/sum.pdl"), head + "text: A\n");
        QCOMPARE(in(a, {QStringLiteral("save"), a + QStringLiteral("/sum.pdl")}).exitCode, 0);
        HakoOutcome clash = in(a, {QStringLiteral("sync")});
        QCOMPARE(clash.exitCode, 3);
        QVERIFY2(clash.err.contains(QLatin1String("sum.pdl")), qPrintable(clash.err));
        QVERIFY(in(a, {QStringLiteral("get"), QStringLiteral("要約")})
                    .out.contains(QLatin1String("text: A")));
        HakoOutcome kept = in(a, {QStringLiteral("sync"), QStringLiteral("--keep-mine")});
        QVERIFY2(kept.exitCode == 0, qPrintable(kept.err));
        QVERIFY(in(a, {QStringLiteral("get"), QStringLiteral("要約")})
                    .out.contains(QLatin1String("text: A")));
        QVERIFY(in(a, {QStringLiteral("history"), QStringLiteral("要約")})
                    .out.count(QLatin1Char('\n')) >= 3);
    }
};

QTEST_GUILESS_MAIN(TestPromptCli)
#include "tst_promptcli.moc"
