// What a command loads, as the dynamic loader reports it (LD_DEBUG=libs): a model-free `hako run`
// loads neither SQLite, nor the desktop keyring (QtKeychain and QtDBus), nor QtNetwork (with
// Kerberos and libproxy behind it), nor the floors only some runs use (documents, memory,
// reports, OpenTelemetry, the prompt library) and the other subcommands, which are loaded when a
// command does use them, and such a command still works (issue 31: start-up).
#include "hakoprocess.h"
#include "openaitestserver.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

/// `hako ARGS…` with the dynamic loader naming every library it opens on standard error.
HakoOutcome runListingLibraries(const QStringList& args)
{
    qputenv("LD_DEBUG", "libs");
    HakoOutcome outcome = runHako(args);
    qunsetenv("LD_DEBUG");
    return outcome;
}

/// Writes `text` to `path` (a test's program); false when it cannot.
bool writeProgram(const QString& path, const QByteArray& text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

} // namespace

class TestStartupLibs : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        if (!QFileInfo(hakoBinary()).isExecutable())
            QSKIP("bin/hako is not built");
        QVERIFY(m_dir.isValid());
    }

    void modelFreeRunLoadsNoStoreNorKeyring()
    {
        const QString program = m_dir.filePath(QStringLiteral("hello.pdl"));
        QVERIFY(writeProgram(program, "text: Hello\n"));
        const HakoOutcome run =
            runListingLibraries({QStringLiteral("run"), QStringLiteral("--no-log"),
                                 QStringLiteral("--stream"), QStringLiteral("none"), program});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QStringLiteral("Hello\n"));
        QVERIFY2(run.err.contains(QLatin1String("libQt6Core")), "LD_DEBUG listed nothing");
        QVERIFY2(run.err.contains(QLatin1String("libhako_models")), "hako run loaded no models");
        for (const char* library :
             {"libsqlite3",       "libqt6keychain",      "libQt6DBus",        "libhako_keychain",
              "libQt6Network",    "libhako_net",         "libkrb5",           "libproxy",
              "libhako_commands", "libhako_runbindings", "libhako_docs",      "libuchardet",
              "libhako_memory",   "libhako_reports",     "libhako_otel",      "libhako_library",
              "libhako_eval",     "libhako_playground",  "libhako_workbench", "libhako_pdl_editor"})
            QVERIFY2(!run.err.contains(QLatin1String(library)),
                     qPrintable(QStringLiteral("hako run loaded %1").arg(QLatin1String(library))));
    }

    // Every library is looked for by a full path: never in the folder `hako` is started from (an
    // empty RUNPATH entry, as CMake's padded build RUNPATH had, is read as that folder, and a
    // libstdc++.so.6 lying there would have been loaded).
    void librariesAreNeverLookedForInTheCurrentFolder()
    {
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        QVERIFY(writeProgram(folder.filePath(QStringLiteral("hello.pdl")), "text: Hello\n"));
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("LD_DEBUG"), QStringLiteral("libs"));
        env.remove(QStringLiteral("LD_LIBRARY_PATH"));
        process.setProcessEnvironment(env);
        process.setWorkingDirectory(folder.path());
        process.start(hakoBinary(), {QStringLiteral("run"), QStringLiteral("--no-log"),
                                     QStringLiteral("--trust"), QStringLiteral("hello.pdl")});
        QVERIFY(process.waitForFinished(20000));
        QCOMPARE(process.exitCode(), 0);
        const QString err = QString::fromUtf8(process.readAllStandardError());
        static const QRegularExpression trying(QStringLiteral("trying file=(\\S+)"));
        int tried = 0;
        for (auto it = trying.globalMatch(err); it.hasNext(); ++tried) {
            const QString path = it.next().captured(1);
            QVERIFY2(path.startsWith(QLatin1Char('/')) && !path.startsWith(folder.path()),
                     qPrintable(QStringLiteral("looked for a library at %1").arg(path)));
        }
        QVERIFY2(tried > 0, "LD_DEBUG listed no search");
    }

    void modelCallLoadsTheNetworkModuleThen()
    {
        hako::testing::OpenAiTestServer server;
        QVERIFY(server.start());
        server.enqueueChat(
            hako::testing::ScriptedReply::chat(QStringLiteral("箱から、こんにちは")));
        const QString program = m_dir.filePath(QStringLiteral("ask.pdl"));
        QVERIFY(writeProgram(program, "text:\n- model: openai/gpt-4o-mini\n  input: Say hello.\n"));
        qputenv("OPENAI_BASE_URL", server.baseUrl().toUtf8());
        qputenv("OPENAI_API_KEY", "sk-startup-test");
        const HakoOutcome run =
            runListingLibraries({QStringLiteral("run"), QStringLiteral("--no-log"),
                                 QStringLiteral("--stream"), QStringLiteral("none"), program});
        qunsetenv("OPENAI_BASE_URL");
        qunsetenv("OPENAI_API_KEY");
        QVERIFY2(run.exitCode == 0, qPrintable(run.err.right(2000)));
        QVERIFY2(run.out.contains(QStringLiteral("箱から、こんにちは")), qPrintable(run.out));
        QVERIFY2(run.err.contains(QLatin1String("libhako_net")),
                 "the call loaded no network module");
        QCOMPARE(server.requests().size(), 1);
    }

    // A program naming `report.` gets the report object, from the bindings module loaded then.
    void reportBindingsLoadWithTheProgramThatNamesThem()
    {
        const QString program = m_dir.filePath(QStringLiteral("round.pdl"));
        QVERIFY(writeProgram(program, "text: ${ report.round('12,345.6百万円', '整数で') }\n"));
        const HakoOutcome run =
            runListingLibraries({QStringLiteral("run"), QStringLiteral("--no-log"),
                                 QStringLiteral("--stream"), QStringLiteral("none"), program});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err.right(2000)));
        QCOMPARE(run.out, QStringLiteral("12346\n"));
        for (const char* library : {"libhako_runbindings", "libhako_reports"})
            QVERIFY2(run.err.contains(QLatin1String(library)),
                     qPrintable(QStringLiteral("not loaded: %1").arg(QLatin1String(library))));
        QVERIFY2(!run.err.contains(QLatin1String("libhako_commands")), "loaded every command");
    }

    // --document, --otel and --memory are libhako_commands' part of a run: loaded then, and the
    // run has its `doc`, its OpenTelemetry file and its `memory`.
    void runOptionsOfOtherFloorsLoadTheirModule()
    {
        const QString text = m_dir.filePath(QStringLiteral("notes.txt"));
        QVERIFY(writeProgram(text, "一行目: 箱の話\n二行目: 別の話\n"));
        const QString program = m_dir.filePath(QStringLiteral("lines.pdl"));
        QVERIFY(writeProgram(program, "text: ${ doc.cost() }\n"));
        const QString otel = m_dir.filePath(QStringLiteral("lines.otlp.json"));
        const QString store = m_dir.filePath(QStringLiteral("lines.hakomem"));
        const HakoOutcome run = runListingLibraries(
            {QStringLiteral("run"), QStringLiteral("--no-log"), QStringLiteral("--stream"),
             QStringLiteral("none"), QStringLiteral("--document"), text, QStringLiteral("--otel"),
             otel, QStringLiteral("--memory"), store, program});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err.right(2000)));
        QCOMPARE(run.out, QStringLiteral("0\n"));
        for (const char* library : {"libhako_commands", "libhako_docs", "libhako_otel",
                                    "libhako_memory", "libhako_runbindings"})
            QVERIFY2(run.err.contains(QLatin1String(library)),
                     qPrintable(QStringLiteral("not loaded: %1").arg(QLatin1String(library))));
        QFile spans(otel);
        QVERIFY(spans.open(QIODevice::ReadOnly));
        QVERIFY2(spans.readAll().contains("resourceSpans"), "no OTLP written");
        QVERIFY(QFileInfo::exists(store));
    }

    // Every command `hako --help` lists answers its own --help with its usage (the commands
    // other than `run` are found by name in libhako_commands).
    void everyListedCommandAnswersItsUsage()
    {
        const HakoOutcome help = runHako({QStringLiteral("--help")});
        QCOMPARE(help.exitCode, 0);
        static const QRegularExpression listed(QStringLiteral("^  ([a-z]+)  "),
                                               QRegularExpression::MultilineOption);
        QStringList names;
        for (auto it = listed.globalMatch(help.out); it.hasNext();)
            names << it.next().captured(1);
        QVERIFY2(names.size() >= 13, qPrintable(help.out));
        for (const QString& name : names) {
            const HakoOutcome usage = runHako({name, QStringLiteral("--help")});
            QVERIFY2(usage.exitCode == 0 &&
                         usage.out.contains(QStringLiteral("usage: hako ") + name),
                     qPrintable(name + QStringLiteral(": ") + usage.out.left(300) + usage.err));
        }
    }

    // An installation missing a module (a packager's mistake, a half-copied folder): the
    // commands and options that need it say which file is missing and what to do, exit with an
    // error, and every other run still works.
    void aMissingModuleIsSaidAndTheRestStillRuns()
    {
        QTemporaryDir tree;
        QVERIFY(tree.isValid());
        QVERIFY(QDir(tree.path()).mkpath(QStringLiteral("bin")));
        QVERIFY(QDir(tree.path()).mkpath(QStringLiteral("lib")));
        const QString launcher = tree.filePath(QStringLiteral("bin/hako"));
        QVERIFY(QFile::copy(hakoBinary(), launcher));
        const QDir built(QFileInfo(hakoBinary()).absolutePath() + QStringLiteral("/../lib"));
        for (const QFileInfo& library : built.entryInfoList(QDir::Files)) {
            if (library.fileName() != QLatin1String("libhako_commands.so") &&
                library.fileName() != QLatin1String("libhako_runbindings.so"))
                QVERIFY(QFile::link(library.absoluteFilePath(),
                                    tree.filePath(QStringLiteral("lib/") + library.fileName())));
        }
        const QString hello = m_dir.filePath(QStringLiteral("plain.pdl"));
        const QString round = m_dir.filePath(QStringLiteral("rounds.pdl"));
        QVERIFY(writeProgram(hello, "text: Hello\n"));
        QVERIFY(writeProgram(round, "text: ${ report.round('1.5', '整数で') }\n"));
        const auto run = [&](const QStringList& args) {
            QProcess process;
            process.start(launcher, args);
            process.waitForFinished(20000);
            return std::pair{process.exitCode(), QString::fromUtf8(process.readAllStandardOutput() +
                                                                   process.readAllStandardError())};
        };
        const QStringList plainRun{QStringLiteral("run"), QStringLiteral("--no-log"),
                                   QStringLiteral("--trust"), hello};
        QCOMPARE(run(plainRun), std::pair(0, QStringLiteral("Hello\n")));
        for (const auto& [args, missing] :
             {std::pair{QStringList{QStringLiteral("check"), hello},
                        QStringLiteral("libhako_commands.so")},
              std::pair{QStringList{QStringLiteral("run"), QStringLiteral("--no-log"),
                                    QStringLiteral("--trust"), QStringLiteral("--otel"),
                                    m_dir.filePath(QStringLiteral("o.json")), hello},
                        QStringLiteral("libhako_commands.so")},
              std::pair{QStringList{QStringLiteral("run"), QStringLiteral("--no-log"),
                                    QStringLiteral("--trust"), round},
                        QStringLiteral("libhako_runbindings.so")}}) {
            const auto [exitCode, said] = run(args);
            QVERIFY2(exitCode != 0, qPrintable(args.join(QLatin1Char(' '))));
            QVERIFY2(said.contains(missing) && said.contains(QStringLiteral("reinstall")),
                     qPrintable(said));
        }
    }

    void storeCommandLoadsSqliteWhenItOpensOne()
    {
        const QString store = m_dir.filePath(QStringLiteral("notes.hakomem"));
        const HakoOutcome add = runListingLibraries(
            {QStringLiteral("memory"), QStringLiteral("--store"), store, QStringLiteral("add"),
             QStringLiteral("--text"), QStringLiteral("箱 keeps SQLite for later")});
        QVERIFY2(add.exitCode == 0, qPrintable(add.err.right(2000)));
        QVERIFY2(add.err.contains(QLatin1String("libsqlite3")), "the store opened without SQLite");
        const HakoOutcome list = runHako(
            {QStringLiteral("memory"), QStringLiteral("--store"), store, QStringLiteral("list")});
        QCOMPARE(list.exitCode, 0);
        QVERIFY2(list.out.contains(QStringLiteral("箱 keeps SQLite for later")),
                 qPrintable(list.out));
    }
};

QTEST_GUILESS_MAIN(TestStartupLibs)
#include "tst_startuplibs.moc"
