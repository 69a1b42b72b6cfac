// Renaming does not change what a program does: each pdl-unit conformance program that needs
// no model and no other file is run with `hako run` as written and with every variable it
// defines renamed (planRename, one variable after another); both runs must print the same.
#include "core/pdl/analysis/rename.h"
#include "core/pdl/programcheck.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <set>

using json = nlohmann::json;
using namespace hako;
using namespace hako::pdl;

namespace {

QString unitDir()
{
    return QStringLiteral(HAKO_SHARED_DIR "/conformance/pdl-unit");
}

struct RunResult {
    int exit = -1;
    QString out;
};

RunResult run(const QString& program, const QString& folder, const json& c)
{
    QStringList args{QStringLiteral("run"), QStringLiteral("--trust"), QStringLiteral("--stream"),
                     QStringLiteral("none")};
    if (c["scope"].is_object())
        args << QStringLiteral("-d") << QString::fromStdString(c["scope"].dump());
    args << program;
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        env.remove(QString::fromLatin1(name));
    p.setProcessEnvironment(env);
    p.setWorkingDirectory(folder);
    p.start(QStringLiteral(HAKO_BINARY_DIR "/bin/hako"), args);
    if (!p.waitForStarted())
        return {};
    if (c["stdin"].is_string())
        p.write(QByteArray::fromStdString(c["stdin"].get<std::string>()));
    p.closeWriteChannel();
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    // A printed context names each message's defining block by its def (`pdl__defsite`): a
    // rename changes that trace, not what the program does.
    static const QRegularExpression defsite(
        QStringLiteral("[,]?\\s*['\"]pdl__defsite['\"]\\s*:\\s*['\"][^'\"]*['\"]"));
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput()).remove(defsite)};
}

// `text` with every variable it defines renamed to renamed_1, renamed_2, …; `count` says how
// many were renamed.
QByteArray renameAll(QByteArray text, const QString& file, const ScopeOptions& options, int* count)
{
    *count = 0;
    std::set<std::pair<int, int>> refused;
    for (int guard = 0; guard < 200; ++guard) {
        const ProgramReport report = analyzeProgramText(text, file, options);
        if (!report.parse.program || !report.scopes)
            return text;
        const VariableDefinition* next = nullptr;
        for (const VariableDefinition& d : report.scopes->definitions) {
            if (d.span.isValid() && d.span.file == file &&
                QString::fromStdString(d.name).startsWith(QLatin1String("renamed_")) == false &&
                !refused.count({d.span.line, d.span.column})) {
                next = &d;
                break;
            }
        }
        if (!next)
            return text;
        const auto plan =
            planRename(*report.parse.program, text, *report.scopes, next->span.line,
                       next->span.column, QStringLiteral("renamed_%1").arg(*count + 1));
        if (!plan) {
            refused.insert({next->span.line, next->span.column});
            continue;
        }
        text = applyRenameEdits(text, plan->edits);
        ++*count;
    }
    return text;
}

} // namespace

class TestRenameRun : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void sameOutput()
    {
        QFile f(unitDir() + QStringLiteral("/cases.json"));
        if (!f.open(QIODevice::ReadOnly))
            QSKIP("../shared/conformance/pdl-unit is not present");
        const QByteArray data = f.readAll();
        const json cases = json::parse(data.begin(), data.end(), nullptr, false);
        QVERIFY(cases.is_array());
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        int compared = 0, variables = 0;
        for (const json& c : cases) {
            if (c["exit"] != 0)
                continue;
            const QString path = unitDir() + QStringLiteral("/programs/") +
                                 QString::fromStdString(c["program"].get<std::string>());
            QFile pf(path);
            if (!pf.open(QIODevice::ReadOnly))
                continue;
            const QByteArray text = pf.readAll();
            // Only programs that run alone: no model, no other file, no dump of the scope.
            bool alone = true;
            for (const char* word : {"model:", "read:", "include:", "import:", "file:", "pdl_scope",
                                     "lang: python", "lang: command"})
                alone = alone && !text.contains(word);
            if (!alone)
                continue;
            ScopeOptions options;
            if (c["scope"].is_object()) {
                for (const auto& [key, value] : c["scope"].items())
                    options.externalNames << QString::fromStdString(key);
            }
            int renamed = 0;
            const QByteArray changed = renameAll(text, path, options, &renamed);
            if (renamed == 0)
                continue;
            const QString copy = tmp.filePath(QFileInfo(path).fileName());
            QFile out(copy);
            QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
            out.write(changed);
            out.close();
            const QString folder = QFileInfo(path).absolutePath();
            const RunResult before = run(path, folder, c);
            const RunResult after = run(copy, folder, c);
            QVERIFY2(before.exit == after.exit && before.out == after.out,
                     qPrintable(QStringLiteral("%1: %2 variables renamed; before (exit %3): %4\n"
                                               "after (exit %5): %6")
                                    .arg(path)
                                    .arg(renamed)
                                    .arg(before.exit)
                                    .arg(before.out)
                                    .arg(after.exit)
                                    .arg(after.out)));
            ++compared;
            variables += renamed;
        }
        qInfo("%d programs run before and after renaming %d variables", compared, variables);
        QVERIFY(compared > 0);
    }
};

QTEST_GUILESS_MAIN(TestRenameRun)
#include "tst_renamerun.moc"
