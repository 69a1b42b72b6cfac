#include "cli/checkcommand.h"
#include "cli/optionparser.h"
#include "cli/output.h"

#include "core/pdl/expr/expression.h"
#include "core/pdl/parser/yamlvalue.h"
#include "core/pdl/programcheck.h"

#include "core/util/boundedfile.h"

#include <QFile>
#include <QHash>

#include <nlohmann/json.hpp>

#include <cstdio>

namespace hako {

namespace {

QString caretFor(const QString& path, const SourceSpan& span, QHash<QString, QStringList>& cache)
{
    if (span.line <= 0 || span.column <= 0)
        return {};
    if (!cache.contains(path)) {
        QFile f(path);
        QStringList lines;
        if (f.open(QIODevice::ReadOnly))
            lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
        cache.insert(path, lines);
    }
    const QString line = cache.value(path).value(span.line - 1);
    if (line.isNull())
        return {};
    QString trimmed = line;
    if (trimmed.endsWith(QLatin1Char('\r')))
        trimmed.chop(1);
    return QString::fromStdString(pdl::caretLine(trimmed.toStdString(), 1, span.column)) +
           QLatin1Char('\n');
}

const char* kCheckUsage =
    "usage: hako check [-d YAML] [-f DATA.yaml] PROGRAM.pdl…\n"
    "  Reports YAML, structure and ${ } syntax errors, and warns about variables used but\n"
    "  never defined in reach. -d/-f name the data a run would get (their top-level keys are\n"
    "  defined). Exit 1 when there are errors; warnings alone exit 0.\n";
const char* kExprUsage =
    "usage: hako expr [--var NAME=VALUE]… [--vars FILE.json] [--repr] TEMPLATE\n"
    "  TEMPLATE is a PDL string such as '${ x + 1 }' or 'Hello ${ name }'.\n"
    "  VALUE is read as JSON when it parses as JSON, otherwise as a string.\n";

// The top-level keys of a YAML mapping (`-d`/`-f` data): names the program may read. Returns
// what is wrong with the data, or an empty string.
QString addDataNames(const QByteArray& yaml, const QString& origin, QStringList& names)
{
    const Result<pdl::YamlValue> data = pdl::loadYaml(yaml, origin);
    if (!data)
        return data.error().toString();
    if (!data->isMapping() && !data->isNull())
        return QStringLiteral("%1: the data must be a mapping").arg(origin);
    for (const auto& e : data->entries())
        names.append(QString::fromStdString(e.name));
    return {};
}

} // namespace

int checkCommand(const QStringList& args)
{
    pdl::ScopeOptions options;
    QStringList programs;
    OptionParser parser;
    parser.addOption(
        {QStringLiteral("-d"), QStringLiteral("--data")}, [&options](const QString& yaml) {
            return addDataNames(yaml.toUtf8(), QStringLiteral("-d"), options.externalNames);
        });
    parser.addOption(
        {QStringLiteral("-f"), QStringLiteral("--data-file")}, [&options](const QString& path) {
            QFile f(path);
            if (!f.open(QIODevice::ReadOnly))
                return QStringLiteral("cannot read %1: %2").arg(f.fileName(), f.errorString());
            return addDataNames(f.readAll(), f.fileName(), options.externalNames);
        });
    parser.setPositional([&programs](const QString& path) {
        programs.append(path);
        return QString();
    });
    const OptionParser::Parsed parsed = parser.parse(args);
    if (std::optional<int> exit =
            OptionParser::finish(parsed, QStringLiteral("hako check"), kCheckUsage))
        return *exit;
    if (programs.isEmpty()) {
        writeText(stderr, QString::fromLatin1(kCheckUsage));
        return 2;
    }
    int errors = 0;
    int warnings = 0;
    QHash<QString, QStringList> sources;
    for (const QString& path : programs) {
        const pdl::ProgramReport report = pdl::analyzeProgram(path, options);
        for (const Diagnostic& d : report.diagnostics) {
            if (d.severity == Severity::Error)
                ++errors;
            else if (d.severity == Severity::Warning)
                ++warnings;
            writeText(stdout, d.toString() + QLatin1Char('\n') + caretFor(path, d.span, sources));
        }
    }
    writeText(stderr, QStringLiteral("%1 error(s), %2 warning(s) in %3 program(s)\n")
                          .arg(errors)
                          .arg(warnings)
                          .arg(programs.size()));
    return errors > 0 ? 1 : 0;
}

int exprCommand(const QStringList& args)
{
    pdl::MapScope scope;
    bool repr = false;
    QString templ;
    bool haveTemplate = false;
    for (int i = 0; i < args.size(); ++i) {
        const QString& a = args.at(i);
        if (a == QLatin1String("--help") || a == QLatin1String("-h")) {
            writeText(stdout, QString::fromLatin1(kExprUsage));
            return 0;
        }
        if (a == QLatin1String("--repr")) {
            repr = true;
        } else if (a == QLatin1String("--var") && i + 1 < args.size()) {
            const QString spec = args.at(++i);
            const qsizetype eq = spec.indexOf(QLatin1Char('='));
            if (eq <= 0) {
                writeText(
                    stderr,
                    QStringLiteral("hako expr: --var needs NAME=VALUE, got '%1'\n").arg(spec));
                return 2;
            }
            const std::string raw = spec.mid(eq + 1).toStdString();
            nlohmann::ordered_json j = nlohmann::ordered_json::parse(raw, nullptr, false);
            try {
                scope.set(spec.left(eq).toStdString(),
                          j.is_discarded() ? pdl::Value(raw) : pdl::Value::fromJson(j));
            } catch (const pdl::EvalError& e) {
                writeText(stderr, QStringLiteral("hako expr: --var %1: %2\n")
                                      .arg(spec.left(eq), QString::fromStdString(e.what())));
                return 2;
            }
        } else if (a == QLatin1String("--vars") && i + 1 < args.size()) {
            const QString file = args.at(++i);
            Result<QByteArray> text = readBoundedFile(file);
            if (!text) {
                writeText(stderr, QStringLiteral("hako expr: %1\n").arg(text.error().message));
                return 2;
            }
            nlohmann::ordered_json j = nlohmann::ordered_json::parse(
                text->constData(), text->constData() + text->size(), nullptr, false);
            if (!j.is_object()) {
                writeText(stderr,
                          QStringLiteral("hako expr: %1: expected a JSON object\n").arg(file));
                return 2;
            }
            try {
                for (const auto& [k, v] : pdl::Value::fromJson(j).asDict())
                    scope.set(k.asString(), v);
            } catch (const pdl::EvalError& e) {
                // Nested deeper than Value converts (a hostile or generated file).
                writeText(stderr, QStringLiteral("hako expr: %1: %2\n")
                                      .arg(file, QString::fromStdString(e.what())));
                return 2;
            }
        } else if (!haveTemplate) {
            templ = a;
            haveTemplate = true;
        } else {
            writeText(stderr, QString::fromLatin1(kExprUsage));
            return 2;
        }
    }
    if (!haveTemplate) {
        writeText(stderr, QString::fromLatin1(kExprUsage));
        return 2;
    }
    const std::string text = templ.toStdString();
    const Result<pdl::Value> value = pdl::evaluateTemplate(text, scope);
    if (!value) {
        const Diagnostic& d = value.error();
        writeText(stderr, QStringLiteral("hako expr: %1\n").arg(d.toString()));
        if (d.span.line > 0 && d.span.column > 0)
            writeText(stderr,
                      QString::fromStdString(pdl::caretLine(text, d.span.line, d.span.column)) +
                          QLatin1Char('\n'));
        return 1;
    }
    try {
        writeText(stdout, QString::fromStdString(repr ? value->repr() : value->toText()) +
                              QLatin1Char('\n'));
    } catch (const pdl::EvalError& e) {
        writeText(stderr,
                  QStringLiteral("hako expr: error: %1\n").arg(QString::fromUtf8(e.what())));
        return 1;
    }
    return 0;
}

} // namespace hako
