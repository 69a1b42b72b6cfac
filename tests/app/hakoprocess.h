#pragma once

// Runs the built `hako` executable the way a terminal user would, with no display in the
// environment: the command line must work without a GUI application object.
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

struct HakoOutcome {
    int exitCode = -1;
    QProcess::ExitStatus status = QProcess::CrashExit;
    QString out;
    QString err;
};

inline QString hakoBinary()
{
    return QStringLiteral(HAKO_BINARY_DIR "/bin/hako");
}

/// Runs `hako ARGS…` as given: `hako run` applies the trust rule of programs from untrusted
/// folders (see runHako()).
inline HakoOutcome runHakoAsGiven(const QStringList& args, const QByteArray& stdinData = {})
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        env.remove(QString::fromLatin1(name));
    process.setProcessEnvironment(env);
    process.start(hakoBinary(), args);
    if (!stdinData.isEmpty())
        process.write(stdinData);
    process.closeWriteChannel();
    HakoOutcome outcome;
    if (!process.waitForFinished(20000)) {
        process.kill();
        process.waitForFinished();
        return outcome;
    }
    outcome.exitCode = process.exitCode();
    outcome.status = process.exitStatus();
    outcome.out = QString::fromUtf8(process.readAllStandardOutput());
    outcome.err = QString::fromUtf8(process.readAllStandardError());
    return outcome;
}

/// runHakoAsGiven(), with `--trust` added to `hako run`: the tests' programs are the project's
/// own, and the trust rule has tests of its own (tst_cli).
inline HakoOutcome runHako(QStringList args, const QByteArray& stdinData = {})
{
    if (!args.isEmpty() && args.first() == QLatin1String("run"))
        args.insert(1, QStringLiteral("--trust"));
    return runHakoAsGiven(args, stdinData);
}
