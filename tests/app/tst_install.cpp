// Installs the build into a temporary prefix and checks the layout a desktop user relies on,
// then runs the installed binary (found through its $ORIGIN/../lib RPATH): `--version` on its
// own, the command line from libhako_cli without the GUI libraries, the window from
// libhako_window.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

class TestInstall : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void installTree()
    {
        const QString cmake = QStandardPaths::findExecutable(QStringLiteral("cmake"));
        if (cmake.isEmpty())
            QSKIP("cmake is not on PATH");
        if (!QFileInfo(QStringLiteral(HAKO_BINARY_DIR "/bin/hako")).isExecutable())
            QSKIP("bin/hako is not built");
        QTemporaryDir prefix;
        QVERIFY(prefix.isValid());

        QProcess install;
        install.setProcessChannelMode(QProcess::MergedChannels);
        install.start(cmake, {QStringLiteral("--install"), QStringLiteral(HAKO_BINARY_DIR),
                              QStringLiteral("--prefix"), prefix.path()});
        QVERIFY(install.waitForFinished(60000));
        QVERIFY2(install.exitCode() == 0, install.readAll().constData());

        const QDir root(prefix.path());
        const QString id = QStringLiteral("io.github.hako.Hako");
        const QStringList expected = {
            QStringLiteral("bin/hako"),
            QStringLiteral("lib/libhako_util.so"),
            // The language's four floors (core/pdl).
            QStringLiteral("lib/libhako_pdl_lang.so"),
            QStringLiteral("lib/libhako_pdl_interp.so"),
            QStringLiteral("lib/libhako_pdl_trace.so"),
            QStringLiteral("lib/libhako_pdl_editor.so"),
            QStringLiteral("lib/libhako_models.so"),
            QStringLiteral("lib/libhako_docs.so"),
            QStringLiteral("lib/libhako_memory.so"),
            QStringLiteral("lib/libhako_run.so"),
            QStringLiteral("lib/libhako_workbench.so"),
            QStringLiteral("lib/libhako_widgets.so"),
            // What bin/hako loads: the command line (with `hako run`), the other commands and the
            // run bindings of documents, memory and reports when used, the window when it opens.
            QStringLiteral("lib/libhako_cli.so"),
            QStringLiteral("lib/libhako_commands.so"),
            QStringLiteral("lib/libhako_runbindings.so"),
            QStringLiteral("lib/libhako_window.so"),
            QStringLiteral("share/applications/") + id + QStringLiteral(".desktop"),
            QStringLiteral("share/mime/packages/hako-pdl.xml"),
            QStringLiteral("share/icons/hicolor/scalable/apps/") + id + QStringLiteral(".svg"),
            QStringLiteral("share/icons/hicolor/256x256/apps/") + id + QStringLiteral(".png"),
            QStringLiteral("share/icons/hicolor/16x16/apps/") + id + QStringLiteral(".png"),
            // PDL for host programs: the C++ API with its CMake package, the Python module.
            QStringLiteral("include/hako/pdl.h"),
            QStringLiteral("lib/libhako_pdl_sdk.so"),
            QStringLiteral("lib/cmake/Hako/HakoConfig.cmake"),
        };
        for (const QString& file : expected)
            QVERIFY2(QFileInfo::exists(root.filePath(file)), qPrintable(file));
        QVERIFY(QFileInfo(root.filePath(QStringLiteral("lib/hako/plugins"))).isDir());

        QFile desktop(
            root.filePath(QStringLiteral("share/applications/") + id + QStringLiteral(".desktop")));
        QVERIFY(desktop.open(QIODevice::ReadOnly));
        const QByteArray entry = desktop.readAll();
        QVERIFY(entry.contains("\nExec=hako %F\n"));
        QVERIFY(entry.contains("\nMimeType=text/x-pdl;application/x-pdl-trace+json;\n"));
        // The trace type the desktop entry claims is defined with its globs.
        QFile mime(root.filePath(QStringLiteral("share/mime/packages/hako-pdl.xml")));
        QVERIFY(mime.open(QIODevice::ReadOnly));
        const QByteArray types = mime.readAll();
        QVERIFY(types.contains("type=\"application/x-pdl-trace+json\""));
        QVERIFY(types.contains("pattern=\"*_trace.json\""));
        QVERIFY(types.contains("pattern=\"*.trace.json\""));
        QVERIFY(entry.contains("\nIcon=io.github.hako.Hako\n"));

        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("LD_LIBRARY_PATH"));
        env.remove(QStringLiteral("DISPLAY"));
        env.remove(QStringLiteral("QT_QPA_PLATFORM"));
        QTemporaryDir home;
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.path());
        const QString binary = root.filePath(QStringLiteral("bin/hako"));
        // LD_DEBUG=libs: the dynamic loader names on stderr every library it loads.
        QProcessEnvironment traced = env;
        traced.insert(QStringLiteral("LD_DEBUG"), QStringLiteral("libs"));
        QProcess hako;
        hako.setProcessEnvironment(traced);
        hako.start(binary, {QStringLiteral("--version")});
        QVERIFY(hako.waitForFinished(20000));
        QCOMPARE(hako.exitCode(), 0);
        QVERIFY(hako.readAllStandardOutput().startsWith("hako "));
        // Answered without loading Qt or any of Hako's libraries.
        QVERIFY(!hako.readAllStandardError().contains("libQt6Core"));
        // The command line is a module of its own: the installed binary must find it, and a
        // command never loads the window's libraries.
        QProcess help;
        help.setProcessEnvironment(traced);
        help.start(binary, {QStringLiteral("--help")});
        QVERIFY(help.waitForFinished(20000));
        QCOMPARE(help.exitCode(), 0);
        QVERIFY(help.readAllStandardOutput().contains("Commands:"));
        const QByteArray loaded = help.readAllStandardError();
        QVERIFY(loaded.contains("libhako_cli.so"));
        QVERIFY(!loaded.contains("libQt6Widgets"));
        QVERIFY(!loaded.contains("libQt6Gui"));
        QVERIFY(!loaded.contains("libhako_widgets"));
        // The other commands and the run bindings are found next to it when installed too.
        QTemporaryDir programs;
        const QString rounds = programs.filePath(QStringLiteral("rounds.pdl"));
        QFile program(rounds);
        QVERIFY(program.open(QIODevice::WriteOnly));
        program.write("text: ${ report.round('12,345.6百万円', '整数で') }\n");
        program.close();
        for (const auto& [args, said] :
             {std::pair{QStringList{QStringLiteral("expr"), QStringLiteral("${ 40 + 2 }")},
                        QByteArray("42\n")},
              std::pair{QStringList{QStringLiteral("run"), QStringLiteral("--no-log"),
                                    QStringLiteral("--trust"), rounds},
                        QByteArray("12346\n")}}) {
            QProcess command;
            command.setProcessEnvironment(env);
            command.start(binary, args);
            QVERIFY(command.waitForFinished(20000));
            QVERIFY2(command.exitCode() == 0, command.readAllStandardError().constData());
            QCOMPARE(command.readAllStandardOutput(), said);
        }
        // So is the window: opened offscreen, shown, and closed again.
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("HAKO_QUIT_WHEN_SHOWN"), QStringLiteral("1"));
        QProcess window;
        window.setProcessEnvironment(env);
        window.start(binary, {});
        QVERIFY(window.waitForFinished(60000));
        QVERIFY2(window.exitCode() == 0, window.readAllStandardError().constData());
        hostProgramsUseTheInstalledPackage(root, env);
    }

private:
    // The example host program builds against the installed CMake package alone and runs; the
    // installed Python module runs a program under Debian's python3.
    void hostProgramsUseTheInstalledPackage(const QDir& root, const QProcessEnvironment& env)
    {
        QTemporaryDir project;
        QVERIFY(QFile::copy(QStringLiteral(HAKO_SOURCE_DIR "/sdk/examples/host.cpp"),
                            project.filePath(QStringLiteral("host.cpp"))));
        QFile lists(project.filePath(QStringLiteral("CMakeLists.txt")));
        QVERIFY(lists.open(QIODevice::WriteOnly));
        lists.write(
            "cmake_minimum_required(VERSION 3.25)\nproject(host CXX)\n"
            "set(CMAKE_CXX_STANDARD 20)\nfind_package(Hako REQUIRED)\n"
            "add_executable(host host.cpp)\ntarget_link_libraries(host PRIVATE Hako::pdl)\n");
        lists.close();
        const QString cmake = QStandardPaths::findExecutable(QStringLiteral("cmake"));
        const QString build = project.filePath(QStringLiteral("build"));
        QProcess configure;
        configure.setProcessChannelMode(QProcess::MergedChannels);
        configure.start(cmake,
                        {QStringLiteral("-S"), project.path(), QStringLiteral("-B"), build,
                         QStringLiteral("-DCMAKE_PREFIX_PATH=") + root.path(),
                         QStringLiteral("-DCMAKE_CXX_FLAGS=" HAKO_TEST_CXX_FLAGS),
                         QStringLiteral("-DCMAKE_EXE_LINKER_FLAGS=" HAKO_TEST_EXE_LINKER_FLAGS)});
        QVERIFY(configure.waitForFinished(120000));
        QVERIFY2(configure.exitCode() == 0, configure.readAll().constData());
        QProcess compile;
        compile.setProcessChannelMode(QProcess::MergedChannels);
        compile.start(cmake, {QStringLiteral("--build"), build});
        QVERIFY(compile.waitForFinished(300000));
        QVERIFY2(compile.exitCode() == 0, compile.readAll().constData());
        QProcess host;
        host.setProcessEnvironment(env);
        host.start(build + QStringLiteral("/host"), {});
        QVERIFY(host.waitForFinished(60000));
        QVERIFY2(host.exitCode() == 0, host.readAllStandardError().constData());
        QCOMPARE(host.readAllStandardOutput(), QByteArray("Hello, World!\n"));

        // The Python module is built where pybind11 and Python's headers are (scripts/dev installs
        // them); then it is installed beside Debian's python3 modules.
        if (!QFileInfo::exists(QStringLiteral(HAKO_BINARY_DIR "/python/hako/pdl.py")))
            return;
        QVERIFY(QFileInfo::exists(
            root.filePath(QStringLiteral("lib/python3/dist-packages/hako/pdl.py"))));
        if (!QFileInfo::exists(QStringLiteral("/usr/bin/python3")))
            return;
        QProcessEnvironment pyEnv = env;
        if (const QString preload = QStringLiteral(HAKO_TEST_PRELOAD); !preload.isEmpty()) {
            pyEnv.insert(QStringLiteral("LD_PRELOAD"), preload); // see tests/CMakeLists.txt
            pyEnv.insert(QStringLiteral("ASAN_OPTIONS"),
                         pyEnv.value(QStringLiteral("ASAN_OPTIONS")) +
                             QStringLiteral(":detect_leaks=0"));
        }
        pyEnv.insert(QStringLiteral("PYTHONPATH"),
                     root.filePath(QStringLiteral("lib/python3/dist-packages")));
        QProcess python;
        python.setProcessEnvironment(pyEnv);
        python.start(QStringLiteral("/usr/bin/python3"),
                     {QStringLiteral("-c"), QStringLiteral("from hako.pdl import exec_str\n"
                                                           "print(exec_str('text: ${ greeting }', "
                                                           "scope={'greeting': 'こんにちは'}))")});
        QVERIFY(python.waitForFinished(60000));
        QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
        QCOMPARE(QString::fromUtf8(python.readAllStandardOutput()), QStringLiteral("こんにちは\n"));
    }
};

QTEST_GUILESS_MAIN(TestInstall)
#include "tst_install.moc"
