// Every path by which a command runs a program passes the same trust rule: `hako run` (the
// program, its includes and the model file beside it) and `hako eval` (the target and every
// judge program), with `--sandbox` applying to all of them; and what an untrusted file can make
// Hako print or send.

#include "hakoprocess.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

QString writeFile(const QString& path, const QByteArray& data)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(data);
    return f.fileName();
}

bool bubblewrapWorks()
{
    QProcess p;
    p.start(QStringLiteral("bwrap"),
            {QStringLiteral("--unshare-user"), QStringLiteral("--ro-bind"), QStringLiteral("/"),
             QStringLiteral("/"), QStringLiteral("true")});
    return p.waitForFinished(20000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

} // namespace

class TestTrustPaths : public QObject {
    Q_OBJECT

    QTemporaryDir m_config; // the user's settings (trusted folders) for these runs

    // `hako ARGS` with a settings folder of its own, so that trusting never touches the user's.
    HakoOutcome hako(const QStringList& args)
    {
        qputenv("XDG_CONFIG_HOME", m_config.path().toUtf8());
        HakoOutcome o = runHakoAsGiven(args);
        qunsetenv("XDG_CONFIG_HOME");
        return o;
    }

    // A suite whose target is harmless and whose judge program runs Python that leaves a mark
    // and reports whether it saw HAKO_SECRET.
    static QString writeSuite(const QTemporaryDir& dir, const QString& marker)
    {
        writeFile(dir.filePath(QStringLiteral("data.jsonl")),
                  "{\"inputs\": {\"q\": \"a\"}, \"reference\": \"a\"}\n");
        writeFile(dir.filePath(QStringLiteral("target.pdl")), "text: \"${ q }\"\n");
        writeFile(dir.filePath(QStringLiteral("judge.pdl")),
                  "lang: python\n"
                  "code: |\n"
                  "  import os\n"
                  "  open('" +
                      marker.toUtf8() +
                      "', 'w').write('judged')\n"
                      "  result = {'score': 0 if os.environ.get('HAKO_SECRET') else 1,\n"
                      "            'reason': 'secret seen' if os.environ.get('HAKO_SECRET') "
                      "else 'no secret'}\n");
        return writeFile(dir.filePath(QStringLiteral("suite.yaml")),
                         "name: judged\n"
                         "dataset: data.jsonl\n"
                         "target: target.pdl\n"
                         "evaluators:\n"
                         "  - {name: judge, type: pdl, program: judge.pdl}\n");
    }

    QStringList evalArgs(const QTemporaryDir& dir, const QString& suite)
    {
        return {QStringLiteral("eval"), suite, QStringLiteral("--store"),
                dir.filePath(QStringLiteral("eval.sqlite")), QStringLiteral("--no-log")};
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!QFileInfo(hakoBinary()).isExecutable())
            QSKIP("bin/hako is not built");
        QVERIFY(m_config.isValid());
    }

    // A judge program from an untrusted folder is refused like the target would be, and runs
    // nothing; --trust lets it run.
    void evalChecksEveryJudgeProgram()
    {
        QTemporaryDir dir;
        const QString marker = dir.filePath(QStringLiteral("judged"));
        const QString suite = writeSuite(dir, marker);
        const HakoOutcome refused = hako(evalArgs(dir, suite));
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains(QLatin1String("judge.pdl is in a folder you have not "
                                                    "trusted")),
                 qPrintable(refused.err));
        QVERIFY2(refused.err.contains(QLatin1String("Python code at judge.pdl:1")),
                 qPrintable(refused.err));
        QVERIFY(!QFile::exists(marker));

        const HakoOutcome trusted = hako(evalArgs(dir, suite) << QStringLiteral("--trust"));
        QVERIFY2(trusted.exitCode == 0, qPrintable(trusted.err + trusted.out));
        QVERIFY(QFile::exists(marker));
    }

    // --sandbox applies to the judges: their code runs without the environment's secrets, and
    // needs no trust.
    void evalSandboxCoversJudges()
    {
        if (!bubblewrapWorks())
            QSKIP("bubblewrap cannot create a sandbox here");
        QTemporaryDir dir;
        const QString marker = dir.filePath(QStringLiteral("judged"));
        const QString suite = writeSuite(dir, marker);
        qputenv("HAKO_SECRET", "sk-not-for-judges");
        const HakoOutcome o = hako(evalArgs(dir, suite) << QStringLiteral("--sandbox"));
        qunsetenv("HAKO_SECRET");
        // The sandbox sees the folder read-only: the mark cannot be left, and the judge fails
        // or scores without the secret; it must never see it.
        QVERIFY2(!o.out.contains(QLatin1String("secret seen")) &&
                     !o.err.contains(QLatin1String("secret seen")),
                 qPrintable(o.out + o.err));
        QVERIFY2(!o.err.contains(QLatin1String("in a folder you have not trusted")),
                 qPrintable(o.err));
    }

    // A hako-models.yaml beside an untrusted program names the program's own server: with a
    // `read:` of any file, a program without code could otherwise send that file there.
    void projectModelFileIsTheProgramsChoice()
    {
        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("hako-models.yaml")),
                  "endpoints:\n"
                  "  theirs:\n"
                  "    base_url: http://127.0.0.1:9/v1\n"
                  "models:\n"
                  "  \"*\": theirs\n");
        const QString prog =
            writeFile(dir.filePath(QStringLiteral("prog.pdl")), "text:\n"
                                                                "- read: /proc/self/environ\n"
                                                                "  contribute: [context]\n"
                                                                "- model: anything\n");
        const HakoOutcome refused = hako({QStringLiteral("run"), prog});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains(QLatin1String("model requests to http://127.0.0.1:9/v1 at "
                                                    "hako-models.yaml:3")),
                 qPrintable(refused.err));
        // Trusted once, the run goes ahead (and fails only because nothing listens there).
        const HakoOutcome once = hako({QStringLiteral("run"), QStringLiteral("--trust"), prog});
        QVERIFY2(!once.err.contains(QLatin1String("in a folder you have not trusted")),
                 qPrintable(once.err));
    }

    // The user's own model settings are not the program's choice: a program routed there by
    // them needs no trust.
    void userModelFileNeedsNoTrust()
    {
        QTemporaryDir dir;
        QDir(m_config.path()).mkpath(QStringLiteral("Hako/Hako"));
        writeFile(m_config.filePath(QStringLiteral("Hako/Hako/hako-models.yaml")),
                  "endpoints:\n  mine:\n    base_url: http://127.0.0.1:9/v1\n");
        const QString prog = writeFile(dir.filePath(QStringLiteral("prog.pdl")),
                                       "model: anything\n"
                                       "parameters:\n  base_url: http://127.0.0.1:9/v1\n");
        const HakoOutcome o = hako({QStringLiteral("run"), prog});
        QFile::remove(m_config.filePath(QStringLiteral("Hako/Hako/hako-models.yaml")));
        QVERIFY2(!o.err.contains(QLatin1String("in a folder you have not trusted")),
                 qPrintable(o.err));
    }

    // `include:` of a link to a file elsewhere on the machine says where the problem is but
    // never prints the file's lines.
    void includeOfALinkOutsideShowsNoContent()
    {
        QTemporaryDir outside, dir;
        const QString secret = writeFile(outside.filePath(QStringLiteral("shadow")),
                                         "root:$6$SECRETHASH:19000:0:99999:7:::\n"
                                         "text: ${ SECRET-LINE-TWO\n");
        QVERIFY(QFile::link(secret, dir.filePath(QStringLiteral("lib.pdl"))));
        const QString prog =
            writeFile(dir.filePath(QStringLiteral("prog.pdl")), "include: lib.pdl\n");
        const HakoOutcome o = hako({QStringLiteral("run"), QStringLiteral("--trust"), prog});
        QCOMPARE(o.exitCode, 1);
        QVERIFY2(o.err.contains(QLatin1String("outside the program's folder")), qPrintable(o.err));
        QVERIFY2(!o.err.contains(QLatin1String("SECRET")), qPrintable(o.err));

        // Inside the folder, the errors are shown as they are.
        writeFile(dir.filePath(QStringLiteral("own.pdl")), "text: ${ OWN-LINE\n");
        const QString own =
            writeFile(dir.filePath(QStringLiteral("prog2.pdl")), "include: own.pdl\n");
        const HakoOutcome shown = hako({QStringLiteral("run"), QStringLiteral("--trust"), own});
        QCOMPARE(shown.exitCode, 1);
        QVERIFY2(shown.err.contains(QLatin1String("errors in")), qPrintable(shown.err));
    }
};

QTEST_GUILESS_MAIN(TestTrustPaths)
#include "tst_trustpaths.moc"
