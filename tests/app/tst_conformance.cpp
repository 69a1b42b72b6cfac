// Runs every program of ../shared/conformance/pdl through `hako run` the way the reference was
// run (`--stream none`, from the program's folder, with its stdin and -d data) and compares stdout
// exactly, the failing line for error cases, and the trace's tree (kinds, ids, results) with the
// reference's trace.
#include "conformancefiles.h"
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using json = nlohmann::json;

namespace {

QString conformanceDir()
{
    return QStringLiteral(HAKO_SHARED_DIR "/conformance/pdl");
}

bool isBlock(const json& j)
{
    return j.is_object() && j.contains("kind");
}

// Results compare as JSON; closures are written differently by design (the reference dumps
// the function block, Hako writes null), so function results are not compared.
QString compareTrace(const json& ref, const json& ours, const std::string& path)
{
    if (!isBlock(ours))
        return QStringLiteral("%1: missing in Hako's trace").arg(QString::fromStdString(path));
    const std::string kind = ref["kind"];
    if (ours["kind"] != ref["kind"])
        return QStringLiteral("%1: kind %2, reference %3")
            .arg(QString::fromStdString(path), QString::fromStdString(ours["kind"].dump()),
                 QString::fromStdString(kind));
    if (kind == "function")
        return {};
    if (ours.value("pdl__id", json()) != ref.value("pdl__id", json()))
        return QStringLiteral("%1: pdl__id %2, reference %3")
            .arg(QString::fromStdString(path), QString::fromStdString(ours["pdl__id"].dump()),
                 QString::fromStdString(ref["pdl__id"].dump()));
    const json& refResult = ref.value("pdl__result", json());
    const bool refIsFunction =
        refResult.is_object() && refResult.value("kind", json()) == "function";
    // A Python object is traced by its repr, which the reference takes when it writes the trace
    // and Hako when the block finishes: `count(1)` then, `count(4)` after three next() calls.
    // The object's type must agree; its state may differ.
    auto reprType = [](const json& j) {
        static const QRegularExpression repr(
            QStringLiteral(R"(^(<[^>]*>|[A-Za-z_][\w.]*\(.*\))$)"));
        if (!j.is_string())
            return QString();
        const QString s = QString::fromStdString(j.get<std::string>());
        return repr.match(s).hasMatch() ? s.section(QLatin1Char('('), 0, 0) : QString();
    };
    const json ourResult = ours.value("pdl__result", json());
    const bool sameObjectType =
        !reprType(refResult).isEmpty() && reprType(refResult) == reprType(ourResult);
    if (ref.contains("pdl__result") && !refIsFunction && !sameObjectType && refResult != ourResult)
        return QStringLiteral("%1 (%2): result %3, reference %4")
            .arg(QString::fromStdString(path), QString::fromStdString(ref["pdl__id"].dump()),
                 QString::fromStdString(ours.value("pdl__result", json()).dump()),
                 QString::fromStdString(ref["pdl__result"].dump()));
    for (auto it = ref.begin(); it != ref.end(); ++it) {
        const std::string& key = it.key();
        const json& v = it.value();
        // Loop bodies and function bodies are written unexecuted; their runs are compared
        // under pdl__trace.
        if (key == "pdl__result" || key == "defs" || key == "return" || key == "repeat" ||
            key == "map")
            continue;
        if (isBlock(v)) {
            QString e = compareTrace(v, ours.value(key, json()), path + "." + key);
            if (!e.isEmpty())
                return e;
        } else if (v.is_array() && !v.empty() && isBlock(v.front())) {
            const json theirs = ours.value(key, json());
            if (!theirs.is_array() || theirs.size() != v.size())
                return QStringLiteral("%1.%2: %3 children, reference %4")
                    .arg(QString::fromStdString(path), QString::fromStdString(key))
                    .arg(theirs.is_array() ? int(theirs.size()) : -1)
                    .arg(int(v.size()));
            for (size_t i = 0; i < v.size(); ++i) {
                QString e =
                    compareTrace(v[i], theirs[i], path + "." + key + "[" + std::to_string(i) + "]");
                if (!e.isEmpty())
                    return e;
            }
        }
    }
    if (ref.contains("defs") && ref["defs"].is_object()) {
        for (auto it = ref["defs"].begin(); it != ref["defs"].end(); ++it) {
            const json ourDefs = ours.value("defs", json::object());
            QString e = compareTrace(it.value(), ourDefs.value(it.key(), json()),
                                     path + ".defs." + it.key());
            if (!e.isEmpty())
                return e;
        }
    }
    return {};
}

} // namespace

class TestConformance : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void run_data()
    {
        QTest::addColumn<int>("index");
        const json cases = conformance::readJson(conformanceDir() + QStringLiteral("/cases.json"));
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
            QSKIP("../shared/conformance/pdl is not present: conformance cases skipped");
        const json cases = conformance::readJson(conformanceDir() + QStringLiteral("/cases.json"));
        const json& c = cases[size_t(index)];
        const QString program = conformanceDir() + QStringLiteral("/programs/") +
                                QString::fromStdString(c["program"].get<std::string>());
        QTemporaryDir tmp;
        const QString traceFile = tmp.filePath(QStringLiteral("trace.json"));

        QStringList args{QStringLiteral("run"),      QStringLiteral("--trust"),
                         QStringLiteral("--stream"), QStringLiteral("none"),
                         QStringLiteral("--trace"),  traceFile};
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
        QVERIFY(p.waitForStarted());
        if (c["stdin"].is_string())
            p.write(QByteArray::fromStdString(c["stdin"].get<std::string>()));
        p.closeWriteChannel();
        QVERIFY2(p.waitForFinished(60000), "hako run did not finish within 60 s");
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        const QString err = QString::fromUtf8(p.readAllStandardError());

        if (c["exit"] == 0) {
            QVERIFY2(p.exitCode() == 0,
                     qPrintable(QStringLiteral("exit %1: %2").arg(p.exitCode()).arg(err)));
            QCOMPARE(out, QString::fromStdString(c["stdout"].get<std::string>()));
            const QString refTrace =
                conformanceDir() + QStringLiteral("/traces/") +
                QString::fromStdString(c["program"].get<std::string>())
                    .replace(QLatin1String(".pdl"), QLatin1String(".trace.json"));
            if (QFileInfo::exists(refTrace)) {
                const json ours = conformance::readJson(traceFile);
                QVERIFY2(isBlock(ours), "hako wrote no trace");
                const QString diff = compareTrace(conformance::readJson(refTrace), ours, "$");
                QVERIFY2(diff.isEmpty(), qPrintable(diff));
            }
            return;
        }
        QVERIFY2(p.exitCode() != 0, qPrintable(QStringLiteral("expected a failure; got: ") + out));
        QList<int> want;
        static const QRegularExpression refLine(QStringLiteral("^[^:]+:(\\d+) - "));
        for (const auto& line : c["stderr"]) {
            auto m = refLine.match(QString::fromStdString(line.get<std::string>()));
            if (m.hasMatch() && m.captured(1).toInt() > 0)
                want << m.captured(1).toInt();
        }
        if (want.isEmpty())
            return;
        // Hako's error lines in the reference's form (not the indented detail below them).
        static const QRegularExpression ourLine(
            QStringLiteral("^[^\\s][^\\n]*?\\.pdl:(\\d+)(?::\\d+)?(?: - |: )"),
            QRegularExpression::MultilineOption);
        QList<int> got;
        for (auto it = ourLine.globalMatch(err); it.hasNext();)
            got << it.next().captured(1).toInt();
        bool found = false;
        for (int w : want)
            found = found || got.contains(w);
        QVERIFY2(found, qPrintable(QStringLiteral("reference reports line(s) %1; hako said: %2")
                                       .arg(QString::number(want.first()), err)));
    }
};

QTEST_GUILESS_MAIN(TestConformance)
#include "tst_conformance.moc"
