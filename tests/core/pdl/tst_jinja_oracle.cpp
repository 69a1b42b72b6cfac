// Differential test: Hako's expression engine against real Jinja2 configured exactly as PDL
// configures it (tests/tools/jinja_oracle.py). Python runs once per case file; every case is
// then evaluated with hako::pdl::evaluateTemplate and the two results compared by type and value.

#include "core/pdl/expr/expression.h"
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
using ojson = nlohmann::ordered_json;

namespace {

const QString kScript = QStringLiteral(HAKO_SOURCE_DIR "/tests/tools/jinja_oracle.py");
const QString kCases = QStringLiteral(HAKO_TEST_DATA_DIR "/expr/oracle_cases.jsonl");
const QString kKnown = QStringLiteral(HAKO_TEST_DATA_DIR "/expr/oracle_known_differences.txt");

/// Hako's value in the oracle's tagged form, so Python types are compared exactly.
json tagValue(const Value& v)
{
    using T = Value::Type;
    switch (v.type()) {
    case T::Undefined:
        return {{"undefined", nullptr}};
    case T::Null:
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
        return {{v.isTuple() ? "tuple" : "list", items}};
    }
    case T::Dict: {
        json items = json::array();
        for (const auto& [key, value] : v.asDict())
            items.push_back(json::array({tagValue(key), tagValue(value)}));
        return {{"dict", items}};
    }
    case T::Callable:
        return {{"callable", v.asCallable() ? v.asCallable()->name() : std::string()}};
    }
    return {{"other", "?"}};
}

/// A case's variable as a Value. Value::fromJson takes nlohmann::json, whose objects are sorted
/// by key, so it cannot keep the insertion order Python dicts have; the oracle's output is
/// therefore parsed as ordered_json and converted here.
Value fromOrderedJson(const ojson& j)
{
    switch (j.type()) {
    case ojson::value_t::null:
        return Value();
    case ojson::value_t::boolean:
        return Value(j.get<bool>());
    case ojson::value_t::number_integer:
    case ojson::value_t::number_unsigned:
        return Value(j.get<int64_t>());
    case ojson::value_t::number_float:
        return Value(j.get<double>());
    case ojson::value_t::string:
        return Value(j.get<std::string>());
    case ojson::value_t::array: {
        hako::pdl::List items;
        for (const ojson& item : j)
            items.push_back(fromOrderedJson(item));
        return Value(std::move(items));
    }
    case ojson::value_t::object: {
        hako::pdl::Dict dict;
        for (const auto& [key, item] : j.items())
            dict.set(key, fromOrderedJson(item));
        return Value(std::move(dict));
    }
    default:
        return Value();
    }
}

/// Whether a tagged Python value holds an int outside int64: Hako's ints are 64-bit and
/// overflow is an error, so such a Jinja success must be a Hako error.
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

/// What Hako must produce for a Jinja result. Iterators and views (generators from map/select,
/// dict_items...) are lists in Hako; callables compare by kind only, as Python's and Hako's
/// names for the same builtin need not match.
json expectedValue(const json& tagged)
{
    if (tagged.contains("iter"))
        return {{"list", tagged["iter"]}};
    return tagged;
}

bool sameValue(const json& expected, const json& actual)
{
    if (expected.contains("callable"))
        return actual.contains("callable");
    return expected == actual;
}

QString describe(bool ok, const json& value, const QString& error)
{
    if (!ok)
        return QStringLiteral("ERROR: ") + error;
    return QString::fromStdString(value.dump(-1, ' ', false, json::error_handler_t::replace));
}

struct KnownDifferences {
    std::set<std::string> templates;

    void load(const QString& path)
    {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
            return;
        while (!file.atEnd()) {
            std::string line = file.readLine().toStdString();
            while (!line.empty() && (line.back() == '\n' || line.back() == '\r'))
                line.pop_back();
            if (line.empty() || line.rfind("#", 0) == 0)
                continue;
            // The reason follows the last "  # "; a template that needs escapes (newlines)
            // is written as a JSON string.
            const size_t hash = line.rfind("  # ");
            std::string tmpl = hash == std::string::npos ? line : line.substr(0, hash);
            while (!tmpl.empty() && tmpl.back() == ' ')
                tmpl.pop_back();
            if (!tmpl.empty() && tmpl.front() == '"') {
                try {
                    tmpl = json::parse(tmpl).get<std::string>();
                } catch (const json::exception&) {
                }
            }
            templates.insert(tmpl);
        }
    }
};

QString findPython()
{
    if (QFileInfo::exists(QStringLiteral("/usr/bin/python3")))
        return QStringLiteral("/usr/bin/python3");
    return QStandardPaths::findExecutable(QStringLiteral("python3"));
}

} // namespace

class TestJinjaOracle : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void compare_data();
    void compare();

private:
    QString m_python;
    KnownDifferences m_known;
    // One oracle run per data row, all started in initTestCase so they run concurrently.
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

void TestJinjaOracle::initTestCase()
{
    m_python = findPython();
    if (m_python.isEmpty())
        QSKIP("python3 not found; the Jinja2 oracle needs it");
    QProcess probe;
    probe.start(m_python, {QStringLiteral("-c"), QStringLiteral("import jinja2")});
    if (!probe.waitForFinished(30000) || probe.exitCode() != 0)
        QSKIP("python3 cannot import jinja2 (install python3-jinja2); skipping the oracle");
    m_known.load(kKnown);
    for (const auto& [name, args] : oracleRuns()) {
        auto process = std::make_unique<QProcess>();
        process->start(m_python, QStringList{kScript} + args);
        m_runs[QString::fromLatin1(name)] = std::move(process);
    }
}

void TestJinjaOracle::compare_data()
{
    QTest::addColumn<QString>("run");
    for (const auto& [name, args] : oracleRuns())
        QTest::newRow(name) << QString::fromLatin1(name);
}

void TestJinjaOracle::compare()
{
    QFETCH(QString, run);
    QProcess& oracle = *m_runs.at(run);
    QVERIFY2(oracle.waitForFinished(120000), "the oracle did not finish");
    const QByteArray err = oracle.readAllStandardError();
    QVERIFY2(oracle.exitCode() == 0, err.constData());

    int total = 0, agreed = 0, known = 0;
    QStringList disagreements, knownNotes;
    const QList<QByteArray> lines = oracle.readAllStandardOutput().split('\n');
    for (const QByteArray& line : lines) {
        if (line.trimmed().isEmpty())
            continue;
        const json c = json::parse(line.toStdString());
        const ojson vars = ojson::parse(line.toStdString())["vars"];
        const std::string tmpl = c["template"].get<std::string>();
        ++total;

        bool jinjaOk = c["ok"].get<bool>();
        const QString jinjaError = QString::fromStdString(c["error"].get<std::string>());
        json expected = jinjaOk ? expectedValue(c["value"]) : json();
        if (jinjaOk && exceedsInt64(c["value"]))
            jinjaOk = false; // Python's unbounded int; Hako must report the overflow

        hako::pdl::MapScope scope;
        if (vars.is_object())
            for (const auto& [name, v] : vars.items())
                scope.set(name, fromOrderedJson(v));

        bool hakoOk = false;
        json actual;
        QString hakoError;
        try {
            const auto result = hako::pdl::evaluateTemplate(tmpl, scope);
            hakoOk = result.ok();
            if (hakoOk)
                actual = tagValue(*result);
            else
                hakoError = result.error().message;
        } catch (const std::exception& e) {
            hakoError = QStringLiteral("uncaught exception: ") + QString::fromUtf8(e.what());
        }

        const bool same = jinjaOk == hakoOk && (!jinjaOk || sameValue(expected, actual));
        if (same) {
            ++agreed;
            continue;
        }
        QString jinjaText;
        if (jinjaOk)
            jinjaText = describe(true, expected, {});
        else if (c["ok"].get<bool>())
            jinjaText =
                QStringLiteral("must fail (int beyond 64 bits): ") + describe(true, c["value"], {});
        else
            jinjaText = describe(false, {}, jinjaError);
        const QString report = QStringLiteral("template: %1\n    jinja: %2\n    hako:  %3")
                                   .arg(QString::fromStdString(json(tmpl).dump()), jinjaText,
                                        describe(hakoOk, actual, hakoError));
        if (m_known.templates.count(tmpl)) {
            ++known;
            knownNotes << report;
        } else {
            disagreements << report;
        }
    }

    qInfo("%s: %d cases, %d agreed, %d disagreed, %d known differences", QTest::currentDataTag(),
          total, agreed, int(disagreements.size()), known);
    for (const QString& note : knownNotes)
        qInfo("known difference: %s", qPrintable(note));
    QVERIFY2(total > 0, "the oracle produced no cases");
    if (!disagreements.isEmpty()) {
        // HAKO_ORACLE_SHOW=N lists more (or fewer) than the default 40 disagreements.
        const int limit = qEnvironmentVariableIsSet("HAKO_ORACLE_SHOW")
                              ? qEnvironmentVariableIntValue("HAKO_ORACLE_SHOW")
                              : 40;
        const int shown = std::min<int>(limit, int(disagreements.size()));
        for (int i = 0; i < shown; ++i)
            qWarning("disagreement %d: %s", i + 1, qPrintable(disagreements[i]));
        QFAIL(qPrintable(QStringLiteral("%1 of %2 cases disagree with Jinja2")
                             .arg(disagreements.size())
                             .arg(total)));
    }
}

QTEST_GUILESS_MAIN(TestJinjaOracle)
#include "tst_jinja_oracle.moc"
