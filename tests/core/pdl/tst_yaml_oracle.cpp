// Differential test: Hako's YAML loader against PyYAML's safe_load, which IBM's PDL uses to read
// programs (tests/tools/yaml_oracle.py). Python runs once per case set; every document is then
// loaded with hako::pdl::loadYaml and the two results compared by type and value, or both must
// refuse the document.

#include "core/pdl/parser/yamlvalue.h"
#include "core/pdl/value.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

using hako::pdl::Value;
using json = nlohmann::json;

namespace {

const QString kScript = QStringLiteral(HAKO_SOURCE_DIR "/tests/tools/yaml_oracle.py");
const QString kCases = QStringLiteral(HAKO_TEST_DATA_DIR "/pdl/yaml_oracle_cases.jsonl");
const QString kKnown = QStringLiteral(HAKO_TEST_DATA_DIR "/pdl/yaml_known_differences.txt");

/// Hako's value in the oracle's tagged form.
json tagValue(const Value& v)
{
    using T = Value::Type;
    switch (v.type()) {
    case T::Null:
    case T::Undefined:
        return {{"none", nullptr}};
    case T::Bool:
        return {{"bool", v.asBool()}};
    case T::Int:
        return {{"int", std::to_string(v.asInt())}};
    case T::Float:
        return {{"float", hako::pdl::formatFloat(v.asFloat())}};
    case T::String:
        return {{"str", v.asString()}};
    case T::List: {
        json items = json::array();
        for (const Value& item : v.asList())
            items.push_back(tagValue(item));
        return {{"list", items}};
    }
    case T::Dict: {
        json items = json::array();
        for (const auto& [key, value] : v.asDict())
            items.push_back(json::array({tagValue(key), tagValue(value)}));
        return {{"dict", items}};
    }
    default:
        return {{"other", "?"}};
    }
}

/// Whether a tagged value holds an int outside int64 (Hako must refuse the document).
bool exceedsInt64(const json& tagged)
{
    if (tagged.is_array()) {
        for (const json& item : tagged)
            if (exceedsInt64(item))
                return true;
        return false;
    }
    if (!tagged.is_object())
        return false;
    if (tagged.contains("int")) {
        const std::string text = tagged["int"].get<std::string>();
        errno = 0;
        char* end = nullptr;
        std::strtoll(text.c_str(), &end, 10);
        return errno == ERANGE || *end != '\0';
    }
    for (const auto& [key, item] : tagged.items())
        if (key != "str" && exceedsInt64(item))
            return true;
    return false;
}

/// What Hako must produce for a PyYAML value: a date (`2024-01-31`) stays the string it was
/// written as (README: dates are strings), which is also Python's str() of the date.
json expectedValue(const json& tagged)
{
    if (tagged.is_array()) {
        json out = json::array();
        for (const json& item : tagged)
            out.push_back(expectedValue(item));
        return out;
    }
    if (!tagged.is_object())
        return tagged;
    if (tagged.contains("other") && tagged["other"] == "date")
        return {{"str", tagged["str"]}};
    json out = json::object();
    for (const auto& [key, item] : tagged.items())
        out[key] = key == "str" ? item : expectedValue(item);
    return out;
}

QString describe(bool ok, const json& value, const QString& error)
{
    if (!ok)
        return QStringLiteral("ERROR: ") + error;
    return QString::fromStdString(value.dump(-1, ' ', false, json::error_handler_t::replace));
}

/// Documents listed as deliberate differences: a JSON string, then "  # reason".
std::set<std::string> loadKnown(const QString& path)
{
    std::set<std::string> docs;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return docs;
    while (!file.atEnd()) {
        std::string line = file.readLine().toStdString();
        while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
            line.pop_back();
        if (line.empty() || line.front() != '"')
            continue;
        const size_t hash = line.rfind("  # ");
        std::string doc = hash == std::string::npos ? line : line.substr(0, hash);
        try {
            docs.insert(json::parse(doc).get<std::string>());
        } catch (const json::exception&) {
            qWarning("unreadable known difference: %s", line.c_str());
        }
    }
    return docs;
}

QString findPython()
{
    if (QFileInfo::exists(QStringLiteral("/usr/bin/python3")))
        return QStringLiteral("/usr/bin/python3");
    return QStandardPaths::findExecutable(QStringLiteral("python3"));
}

} // namespace

class TestYamlOracle : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void compare_data();
    void compare();

private:
    QString m_python;
    std::set<std::string> m_known;
    std::map<QString, std::unique_ptr<QProcess>> m_runs;
};

static const std::vector<std::pair<const char*, QStringList>>& oracleRuns()
{
    static const std::vector<std::pair<const char*, QStringList>> runs = {
        {"hand-written", {kCases}},
        {"generated seed 1", {"--generate", "1500", "--seed", "1"}},
        {"generated seed 2", {"--generate", "1500", "--seed", "2"}},
    };
    return runs;
}

void TestYamlOracle::initTestCase()
{
    m_python = findPython();
    if (m_python.isEmpty())
        QSKIP("python3 not found; the PyYAML oracle needs it");
    QProcess probe;
    probe.start(m_python, {QStringLiteral("-c"), QStringLiteral("import yaml")});
    if (!probe.waitForFinished(30000) || probe.exitCode() != 0)
        QSKIP("python3 cannot import yaml (install python3-yaml); skipping the oracle");
    m_known = loadKnown(kKnown);
    QVERIFY2(!m_known.empty(), qPrintable(kKnown + QStringLiteral(" is missing or empty")));
    for (const auto& [name, args] : oracleRuns()) {
        auto process = std::make_unique<QProcess>();
        process->start(m_python, QStringList{kScript} + args);
        m_runs[QString::fromLatin1(name)] = std::move(process);
    }
}

void TestYamlOracle::compare_data()
{
    QTest::addColumn<QString>("run");
    for (const auto& [name, args] : oracleRuns())
        QTest::newRow(name) << QString::fromLatin1(name);
}

void TestYamlOracle::compare()
{
    QFETCH(QString, run);
    QProcess& oracle = *m_runs.at(run);
    QVERIFY2(oracle.waitForFinished(120000), "the oracle did not finish");
    const QByteArray err = oracle.readAllStandardError();
    QVERIFY2(oracle.exitCode() == 0, err.constData());

    int total = 0, agreed = 0, known = 0, refusedByBoth = 0;
    QStringList disagreements;
    const QList<QByteArray> lines = oracle.readAllStandardOutput().split('\n');
    for (const QByteArray& line : lines) {
        if (line.trimmed().isEmpty())
            continue;
        const json c = json::parse(line.toStdString());
        const std::string doc = c["yaml"].get<std::string>();
        ++total;

        bool pyOk = c["ok"].get<bool>();
        json expected = pyOk ? expectedValue(c["value"]) : json();
        if (pyOk && exceedsInt64(c["value"]))
            pyOk = false; // Python's unbounded int; Hako must report the overflow

        bool hakoOk = false;
        json actual;
        QString hakoError;
        try {
            const auto result =
                hako::pdl::loadYaml(QByteArray::fromStdString(doc), QStringLiteral("case.yaml"));
            hakoOk = result.ok();
            if (hakoOk)
                actual = tagValue(result->toValue());
            else
                hakoError = result.error().message;
        } catch (const std::exception& e) {
            hakoError = QStringLiteral("uncaught exception: ") + QString::fromUtf8(e.what());
        }

        const bool same = pyOk == hakoOk && (!pyOk || expected == actual);
        if (same) {
            ++agreed;
            refusedByBoth += !pyOk;
            continue;
        }
        if (m_known.count(doc)) {
            ++known;
            continue;
        }
        QString pyText;
        if (pyOk)
            pyText = describe(true, expected, {});
        else if (c["ok"].get<bool>())
            pyText = QStringLiteral("must fail (int beyond 64 bits)");
        else
            pyText = describe(false, {}, QString::fromStdString(c["error"].get<std::string>()));
        disagreements << QStringLiteral("document: %1\n    pyyaml: %2\n    hako:   %3")
                             .arg(QString::fromStdString(json(doc).dump()), pyText,
                                  describe(hakoOk, actual, hakoError));
    }

    qInfo("%s: %d documents, %d agreed (%d refused by both), %d disagreed, %d known differences",
          QTest::currentDataTag(), total, agreed, refusedByBoth, int(disagreements.size()), known);
    QVERIFY2(total > 0, "the oracle produced no documents");
    if (!disagreements.isEmpty()) {
        const int limit = qEnvironmentVariableIsSet("HAKO_ORACLE_SHOW")
                              ? qEnvironmentVariableIntValue("HAKO_ORACLE_SHOW")
                              : 40;
        const int shown = std::min<int>(limit, int(disagreements.size()));
        for (int i = 0; i < shown; ++i)
            qWarning("disagreement %d: %s", i + 1, qPrintable(disagreements[i]));
        QFAIL(qPrintable(QStringLiteral("%1 of %2 documents disagree with PyYAML")
                             .arg(disagreements.size())
                             .arg(total)));
    }
}

QTEST_GUILESS_MAIN(TestYamlOracle)
#include "tst_yaml_oracle.moc"
