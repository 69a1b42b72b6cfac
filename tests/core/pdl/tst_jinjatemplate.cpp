// Jinja statement templates (`code: … lang: jinja`): differential test against real Jinja2
// (tests/tools/jinja_template_oracle.py over hand-written and generated templates), plus error
// locations, options, lenient undefined, macros' recursion bound and the conformance examples.

#include "core/pdl/expr/jinjatemplate.h"
#include "core/pdl/parser/yamlvalue.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>
#include <QtConcurrent>

#include <nlohmann/json.hpp>

#include <map>
#include <memory>

using namespace hako;
using namespace hako::pdl;
using ojson = nlohmann::ordered_json;

namespace {

const QString kScript = QStringLiteral(HAKO_SOURCE_DIR "/tests/tools/jinja_template_oracle.py");
const QString kCases = QStringLiteral(HAKO_TEST_DATA_DIR "/parsers/jinja_cases.jsonl");
const QString kShared = QStringLiteral(HAKO_SHARED_DIR "/conformance/pdl");

QString findPython()
{
    if (QFileInfo::exists(QStringLiteral("/usr/bin/python3")))
        return QStringLiteral("/usr/bin/python3");
    return QStandardPaths::findExecutable(QStringLiteral("python3"));
}

QString quoted(const std::string& s)
{
    return QString::fromStdString(ojson(s).dump(-1, ' ', false, ojson::error_handler_t::replace));
}

Result<std::string> render(const char* source, const JinjaOptions& options = {})
{
    MapScope scope;
    scope.set("name", Value("World"));
    scope.set("items", Value(List{Value("a"), Value("b")}));
    return renderJinja(source, scope, options);
}

} // namespace

class TstJinjaTemplate : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        m_python = findPython();
        if (m_python.isEmpty())
            return;
        QProcess probe;
        probe.start(m_python, {QStringLiteral("-c"), QStringLiteral("import jinja2")});
        if (!probe.waitForFinished(30000) || probe.exitCode() != 0) {
            m_python.clear();
            return;
        }
        for (const auto& [name, args] : runs()) {
            auto p = std::make_unique<QProcess>();
            p->start(m_python, QStringList{kScript} + args);
            m_runs[name] = std::move(p);
        }
    }

    void cleanupTestCase()
    {
        // When only some test functions ran, the oracle runs may still be going.
        for (auto& [name, p] : m_runs) {
            if (p->state() != QProcess::NotRunning) {
                p->kill();
                p->waitForFinished(5000);
            }
        }
    }

    void oracle_data()
    {
        QTest::addColumn<QString>("run");
        for (const auto& [name, args] : runs())
            QTest::newRow(qPrintable(name)) << name;
    }

    void oracle()
    {
        QFETCH(QString, run);
        if (m_python.isEmpty())
            QSKIP("python3 with jinja2 (python3-jinja2) not found; skipping the Jinja2 oracle");
        QProcess& p = *m_runs.at(run);
        QVERIFY2(p.waitForFinished(120000), "the oracle did not finish");
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        int total = 0;
        QStringList bad;
        for (const QByteArray& line : p.readAllStandardOutput().split('\n')) {
            if (line.trimmed().isEmpty())
                continue;
            const ojson c = ojson::parse(line.toStdString());
            ++total;
            const std::string tmpl = c["template"];
            MapScope scope;
            for (const auto& [k, v] : c["vars"].items())
                scope.set(k, Value::fromJson(v));
            JinjaOptions o;
            o.trimBlocks = c["options"].value("trim_blocks", false);
            o.lstripBlocks = c["options"].value("lstrip_blocks", false);
            o.keepTrailingNewline = c["options"].value("keep_trailing_newline", false);
            const Result<std::string> r = renderJinja(tmpl, scope, o);
            const bool ok = c["ok"].get<bool>();
            if (ok == r.ok() && (!ok || *r == c["value"].get<std::string>()))
                continue;
            bad << QStringLiteral("template: %1 options: %2\n    jinja: %3\n    hako:  %4")
                       .arg(quoted(tmpl), QString::fromStdString(c["options"].dump()),
                            ok ? quoted(c["value"].get<std::string>())
                               : QStringLiteral("ERROR ") +
                                     QString::fromStdString(c["error"].get<std::string>()),
                            r.ok() ? quoted(*r) : QStringLiteral("ERROR ") + r.error().message);
        }
        qInfo("%s: %d cases, %d disagree", qPrintable(run), total, int(bad.size()));
        QVERIFY(total > 0);
        for (int i = 0; i < std::min<int>(30, int(bad.size())); ++i)
            qWarning("disagreement %d: %s", i + 1, qPrintable(bad[i]));
        QVERIFY2(bad.isEmpty(), qPrintable(QStringLiteral("%1 of %2 templates disagree with Jinja2")
                                               .arg(bad.size())
                                               .arg(total)));
    }

    void undefinedNamedWithLocation()
    {
        const Result<std::string> r = render("line one\n  {{ missing.attr }}");
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.startsWith(QStringLiteral("'missing' is undefined")),
                 qPrintable(r.error().message));
        QCOMPARE(r.error().span.line, 2);
        QCOMPARE(r.error().span.column, 6);
        // The caret line shows the place.
        QVERIFY(r.error().message.endsWith(QStringLiteral("  {{ missing.attr }}\n     ^")));
    }

    void errorInsideLoopBody()
    {
        const Result<std::string> r = render("{% for x in items %}\n{{ x + 1 }}{% endfor %}");
        QVERIFY(!r.ok());
        QCOMPARE(r.error().span.line, 2);
    }

    void syntaxErrorLocation()
    {
        const Result<std::string> r = render("ok\n{% if name %}\nno end");
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QStringLiteral("'endif'")),
                 qPrintable(r.error().message));
        QCOMPARE(r.error().span.line, 2);
        QCOMPARE(r.error().span.column, 1);
        QVERIFY(checkJinja("{% if x %}{% endif %}") == std::nullopt);
        QVERIFY(checkJinja("{% bogus %}").has_value());
    }

    void lenientUndefined()
    {
        JinjaOptions o;
        o.strictUndefined = false;
        const Result<std::string> r = render(
            "{{ missing }}|{% if missing %}x{% endif %}{% for a in missing %}y{% endfor %}|", o);
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        QCOMPARE(QString::fromStdString(*r), QStringLiteral("||"));
    }

    void optionsFromParameters()
    {
        Dict p;
        p.set("trim_blocks", Value(true));
        p.set("lstrip_blocks", Value(true));
        Result<JinjaOptions> o = JinjaOptions::fromParameters(Value(p));
        QVERIFY(o.ok());
        QVERIFY(o->trimBlocks && o->lstripBlocks && !o->keepTrailingNewline);
        QVERIFY(o->strictUndefined);
        p.set("autoescape", Value(true));
        o = JinjaOptions::fromParameters(Value(p));
        QVERIFY(!o.ok());
        QVERIFY(o.error().message.contains(QStringLiteral("autoescape")));
        QVERIFY(JinjaOptions::fromParameters(Value()).ok());
    }

    void macroRecursionIsBounded()
    {
        const Result<std::string> r =
            render("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(1) }}");
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QStringLiteral("recursion")),
                 qPrintable(r.error().message));
    }

    void cacheKeysOnOptions()
    {
        JinjaOptions trim;
        trim.trimBlocks = true;
        const auto a = expr::cachedJinja("{% if 1 %}\nx{% endif %}", {});
        const auto b = expr::cachedJinja("{% if 1 %}\nx{% endif %}", {});
        const auto c = expr::cachedJinja("{% if 1 %}\nx{% endif %}", trim);
        QCOMPARE(a.get(), b.get());
        QVERIFY(a.get() != c.get());
        QCOMPARE(QString::fromStdString(*render("{% if 1 %}\nx{% endif %}", trim)),
                 QStringLiteral("x"));
        QCOMPARE(QString::fromStdString(*render("{% if 1 %}\nx{% endif %}")),
                 QStringLiteral("\nx"));
    }

    // Compiled templates are shared through the cache; renders on many threads at once
    // must each see only their own scope.
    void concurrentRenders()
    {
        const std::string tpl = "{% macro m(v) %}<{{ v }}>{% endmacro %}{% for i in range(n) %}"
                                "{{ m(i) }}{% endfor %}{{ n }}";
        QList<int> ns;
        for (int i = 0; i < 64; ++i)
            ns << i % 8;
        const QList<QString> out = QtConcurrent::blockingMapped(ns, [&](int n) {
            MapScope scope;
            scope.set("n", Value(n));
            Result<std::string> r = renderJinja(tpl, scope);
            return r.ok() ? QString::fromStdString(*r) : r.error().message;
        });
        for (int i = 0; i < ns.size(); ++i) {
            QString want;
            for (int k = 0; k < ns[i]; ++k)
                want += QStringLiteral("<%1>").arg(k);
            QCOMPARE(out[i], want + QString::number(ns[i]));
        }
    }

    void conformancePrograms_data()
    {
        QTest::addColumn<QString>("program");
        QTest::newRow("code_jinja") << "examples/tutorial/code_jinja.pdl";
        QTest::newRow("code_jinja_parameters") << "examples/tutorial/code_jinja_parameters.pdl";
    }

    // The reference's programs: `defs` of plain data, `parameters`, `code`; the command line
    // prints the result and a newline.
    void conformancePrograms()
    {
        QFETCH(QString, program);
        QFile file(kShared + "/programs/" + program);
        QFile cases(kShared + "/cases.json");
        if (!file.open(QIODevice::ReadOnly) || !cases.open(QIODevice::ReadOnly))
            QSKIP("../shared/conformance/pdl is absent; skipping the conformance examples");
        const Result<YamlValue> y = loadYaml(file.readAll(), program);
        QVERIFY(y.ok());
        const Value prog = y->toValue();
        MapScope scope;
        if (const Value* defs = prog.asDict().find("defs")) {
            for (const auto& [k, v] : defs->asDict())
                scope.set(k.asString(),
                          v.isDict() && v.asDict().find("data") ? *v.asDict().find("data") : v);
        }
        const Value* params = prog.asDict().find("parameters");
        const Result<JinjaOptions> o = JinjaOptions::fromParameters(params ? *params : Value());
        QVERIFY(o.ok());
        const Result<std::string> r =
            renderJinja(prog.asDict().find("code")->asString(), scope, *o);
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        std::string expected;
        for (const auto& c : ojson::parse(cases.readAll().toStdString()))
            if (c["program"] == program.toStdString())
                expected = c["stdout"];
        QVERIFY(!expected.empty());
        QCOMPARE(QString::fromStdString(*r + "\n"), QString::fromStdString(expected));
    }

private:
    static std::vector<std::pair<QString, QStringList>> runs()
    {
        return {
            {QStringLiteral("hand-written"), {kCases}},
            {QStringLiteral("generated seed 1"), {"--generate", "1500", "--seed", "1"}},
            {QStringLiteral("generated seed 2"), {"--generate", "1500", "--seed", "2"}},
        };
    }

    QString m_python;
    std::map<QString, std::unique_ptr<QProcess>> m_runs;
};

QTEST_GUILESS_MAIN(TstJinjaTemplate)
#include "tst_jinjatemplate.moc"
