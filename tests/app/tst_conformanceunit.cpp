// Runs every program of ../shared/conformance/pdl-unit (the reference interpreter's own unit
// tests, with the reference CLI's recorded output) through `hako run` the way the reference was
// run: `--stream none`, from the program's folder, with its stdin and `-d` scope. A success case
// must print exactly the reference's stdout; a failing case must exit non-zero and report its
// error at one of the reference's line numbers.
//
// tests/data/conformance/pdl-unit-differences.txt lists the cases that differ on purpose, each
// with its reason. The test fails on any unlisted difference, and on a listed case that now
// conforms, so that the list stays true.
#include "conformancefiles.h"
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QtTest>

#include <nlohmann/json.hpp>

using json = nlohmann::json;

namespace {

QString unitDir()
{
    return QStringLiteral(HAKO_SHARED_DIR "/conformance/pdl-unit");
}

QString differencesFile()
{
    return QStringLiteral(HAKO_TEST_DATA_DIR "/conformance/pdl-unit-differences.txt");
}

// Empty when Hako's run conforms; otherwise what differs.
QString runCase(const json& c)
{
    const QString program = unitDir() + QStringLiteral("/programs/") +
                            QString::fromStdString(c["program"].get<std::string>());
    QStringList args{QStringLiteral("run"), QStringLiteral("--trust"), QStringLiteral("--stream"),
                     QStringLiteral("none")};
    if (c["scope"].is_object())
        args << QStringLiteral("-d") << QString::fromStdString(c["scope"].dump());
    args << QFileInfo(program).fileName();
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        env.remove(QString::fromLatin1(name));
    p.setProcessEnvironment(env);
    p.setWorkingDirectory(QFileInfo(program).absolutePath());
    p.start(QStringLiteral(HAKO_BINARY_DIR "/bin/hako"), args);
    if (!p.waitForStarted())
        return QStringLiteral("hako did not start");
    if (c["stdin"].is_string())
        p.write(QByteArray::fromStdString(c["stdin"].get<std::string>()));
    p.closeWriteChannel();
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        return QStringLiteral("hako run did not finish within 60 s");
    }
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    const QString err = QString::fromUtf8(p.readAllStandardError());
    if (p.exitStatus() != QProcess::NormalExit)
        return QStringLiteral("hako crashed: %1").arg(err);

    if (c["exit"] == 0) {
        if (p.exitCode() != 0)
            return QStringLiteral("exit %1: %2").arg(p.exitCode()).arg(err);
        const QString want = QString::fromStdString(c["stdout"].get<std::string>());
        if (out != want)
            return QStringLiteral("stdout differs\n  hako:      %1\n  reference: %2")
                .arg(QString::fromStdString(json(out.toStdString()).dump()),
                     QString::fromStdString(json(want.toStdString()).dump()));
        return {};
    }
    if (p.exitCode() == 0)
        return QStringLiteral("the reference fails; hako succeeded with: %1").arg(out);
    QList<int> want;
    static const QRegularExpression refLine(QStringLiteral("^[^:]+:(\\d+) - "));
    for (const auto& line : c["stderr"]) {
        auto m = refLine.match(QString::fromStdString(line.get<std::string>()));
        if (m.hasMatch() && m.captured(1).toInt() > 0)
            want << m.captured(1).toInt();
    }
    if (want.isEmpty())
        return {};
    // Hako's error lines (not the indented detail below them): `file:line - message` as the
    // reference prints them, or `file:line:col: error: …` for a program that does not parse.
    static const QRegularExpression ourLine(
        QStringLiteral("^[^\\s][^\\n]*?\\.pdl:(\\d+)(?::\\d+)?(?: - |: )"),
        QRegularExpression::MultilineOption);
    for (auto it = ourLine.globalMatch(err); it.hasNext();) {
        if (want.contains(it.next().captured(1).toInt()))
            return {};
    }
    return QStringLiteral("the reference reports line %1; hako said: %2")
        .arg(QString::number(want.first()), err);
}

} // namespace

class TestConformanceUnit : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void knownDifferencesAreCases()
    {
        const json cases = conformance::readJson(unitDir() + QStringLiteral("/cases.json"));
        if (!cases.is_array())
            QSKIP("../shared/conformance/pdl-unit is not present");
        QString error;
        const QHash<QString, QString> known =
            conformance::knownDifferences(differencesFile(), QStringLiteral(".pdl:"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QSet<QString> programs;
        for (const auto& c : cases)
            programs.insert(QString::fromStdString(c["program"].get<std::string>()));
        for (auto it = known.begin(); it != known.end(); ++it)
            QVERIFY2(programs.contains(it.key()),
                     qPrintable(QStringLiteral("%1 lists %2, which is not a pdl-unit case")
                                    .arg(differencesFile(), it.key())));
    }

    void run_data()
    {
        QTest::addColumn<int>("index");
        const json cases = conformance::readJson(unitDir() + QStringLiteral("/cases.json"));
        if (!cases.is_array()) {
            QTest::newRow("no-shared-corpus") << -1;
            return;
        }
        for (size_t i = 0; i < cases.size(); ++i)
            QTest::newRow(cases[i]["program"].get<std::string>().c_str()) << int(i);
    }

    void run()
    {
        QFETCH(int, index);
        if (index < 0)
            QSKIP("../shared/conformance/pdl-unit is not present: its cases are skipped");
        static const json cases = conformance::readJson(unitDir() + QStringLiteral("/cases.json"));
        static QString listError;
        static const QHash<QString, QString> known =
            conformance::knownDifferences(differencesFile(), QStringLiteral(".pdl:"), &listError);
        QVERIFY2(listError.isEmpty(), qPrintable(listError));
        const json& c = cases[size_t(index)];
        const QString program = QString::fromStdString(c["program"].get<std::string>());
        const QString diff = runCase(c);
        if (known.contains(program)) {
            QVERIFY2(!diff.isEmpty(),
                     qPrintable(QStringLiteral("%1 now conforms: remove it from %2")
                                    .arg(program, differencesFile())));
            return;
        }
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
    }
};

QTEST_GUILESS_MAIN(TestConformanceUnit)
#include "tst_conformanceunit.moc"
