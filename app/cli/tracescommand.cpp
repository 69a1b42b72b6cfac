#include "cli/tracescommand.h"
#include "cli/optionparser.h"
#include "cli/output.h"

#include "core/otel/otlpfile.h"
#include "core/otel/runsources.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <map>

namespace hako {

namespace {

const char* kUsage =
    "usage: hako traces [--json] [--filter TEXT] [--sort COLUMN] FILE\n"
    "  Lists the runs of a trace file, one line each: an OTLP file (JSON or protobuf, every\n"
    "  trace in it, e.g. the Collector's file export or a Phoenix export) or a Hako or\n"
    "  reference trace (one run). Columns: run name, status (ok, error, running: its root\n"
    "  span has not arrived), start (UTC), duration, spans, tokens (prompt + completion),\n"
    "  cost (when the spans give one), errors, session (session.id) and user (user.id).\n"
    "options:\n"
    "  --json           print a JSON array instead, one object per run with the keys id,\n"
    "                   name, status, start, start_unix_nano, duration_ms, spans,\n"
    "                   prompt_tokens, completion_tokens, tokens, cost (null when unknown),\n"
    "                   errors, session, user\n"
    "  --filter TEXT    only the runs whose name, session or user hold every word of TEXT;\n"
    "                   status:ok|error|running, session:X and user:X narrow further\n"
    "  --sort COLUMN    name, status, start (the default), duration, spans, tokens, cost,\n"
    "                   errors, session or user; a leading '-' sorts descending (-tokens)\n"
    "exit status: 0 listed (also when no run matches), 1 the file cannot be read, 2 bad usage\n";

int fail(const QString& message, int code)
{
    writeText(stderr, QStringLiteral("hako traces: %1\n").arg(message));
    return code;
}

QString startText(int64_t nanos)
{
    if (nanos <= 0)
        return QStringLiteral("-");
    return QDateTime::fromMSecsSinceEpoch(nanos / 1000000, Qt::UTC)
        .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString durationText(int64_t nanos)
{
    if (nanos <= 0)
        return QStringLiteral("-");
    if (nanos < 1000000000LL)
        return QStringLiteral("%1 ms").arg(nanos / 1000000);
    return QStringLiteral("%1 s").arg(double(nanos) / 1e9, 0, 'f', 2);
}

QString money(const std::optional<double>& v)
{
    return v ? QString::number(*v, 'f', *v != 0 && *v < 0.01 ? 6 : 4) : QStringLiteral("-");
}

QString orDash(const std::string& s)
{
    return s.empty() ? QStringLiteral("-") : QString::fromStdString(s);
}

QJsonObject toJson(const otel::RunRow& r)
{
    return {
        {QStringLiteral("id"), QString::fromStdString(r.id)},
        {QStringLiteral("name"), QString::fromStdString(r.name)},
        {QStringLiteral("status"), QLatin1String(otel::runStatusName(r.status))},
        {QStringLiteral("start"),
         r.startNanos > 0 ? QDateTime::fromMSecsSinceEpoch(r.startNanos / 1000000, Qt::UTC)
                                .toString(Qt::ISODateWithMs)
                          : QString()},
        {QStringLiteral("start_unix_nano"), QString::number(r.startNanos)},
        {QStringLiteral("duration_ms"), double(r.durationNanos()) / 1e6},
        {QStringLiteral("spans"), r.spans},
        {QStringLiteral("prompt_tokens"), qint64(r.promptTokens)},
        {QStringLiteral("completion_tokens"), qint64(r.completionTokens)},
        {QStringLiteral("tokens"), qint64(r.tokens())},
        {QStringLiteral("cost"), r.cost ? QJsonValue(*r.cost) : QJsonValue()},
        {QStringLiteral("errors"), r.errors},
        {QStringLiteral("session"), QString::fromStdString(r.session)},
        {QStringLiteral("user"), QString::fromStdString(r.user)},
    };
}

void printTable(const std::vector<otel::RunRow>& rows)
{
    QList<QStringList> cells;
    for (const otel::RunRow& r : rows)
        cells.append({orDash(r.name), QLatin1String(otel::runStatusName(r.status)),
                      startText(r.startNanos), durationText(r.durationNanos()),
                      QString::number(r.spans), QString::number(r.tokens()), money(r.cost),
                      QString::number(r.errors), orDash(r.session), orDash(r.user)});
    writeText(stdout,
              table({QStringLiteral("RUN"), QStringLiteral("STATUS"), QStringLiteral("START (UTC)"),
                     QStringLiteral("DURATION"), QStringLiteral("SPANS"), QStringLiteral("TOKENS"),
                     QStringLiteral("COST"), QStringLiteral("ERRORS"), QStringLiteral("SESSION"),
                     QStringLiteral("USER")},
                    cells, {false, false, false, true, true, true, true, true, false, false}));
}

std::optional<otel::RunColumn> columnNamed(const QString& name)
{
    static const std::map<QString, otel::RunColumn> columns = {
        {QStringLiteral("name"), otel::RunColumn::Name},
        {QStringLiteral("status"), otel::RunColumn::Status},
        {QStringLiteral("start"), otel::RunColumn::Start},
        {QStringLiteral("duration"), otel::RunColumn::Duration},
        {QStringLiteral("spans"), otel::RunColumn::Spans},
        {QStringLiteral("tokens"), otel::RunColumn::Tokens},
        {QStringLiteral("cost"), otel::RunColumn::Cost},
        {QStringLiteral("errors"), otel::RunColumn::Errors},
        {QStringLiteral("session"), otel::RunColumn::Session},
        {QStringLiteral("user"), otel::RunColumn::User}};
    auto it = columns.find(name);
    return it == columns.end() ? std::nullopt : std::optional(it->second);
}

} // namespace

int tracesCommand(const QStringList& args)
{
    bool json = false;
    QString filter;
    otel::RunColumn column = otel::RunColumn::Start;
    bool ascending = true;
    QStringList files;
    OptionParser parser;
    parser.addFlag({QStringLiteral("--json")}, [&json] { json = true; });
    parser.addOption({QStringLiteral("--filter")}, [&filter](const QString& v) {
        filter = v;
        return QString();
    });
    parser.addOption({QStringLiteral("--sort")}, [&](const QString& v) {
        ascending = !v.startsWith(QLatin1Char('-'));
        std::optional<otel::RunColumn> c = columnNamed(ascending ? v : v.mid(1));
        if (!c)
            return QStringLiteral("--sort: no column '%1' (name, status, start, duration, spans, "
                                  "tokens, cost, errors, session, user)")
                .arg(v);
        column = *c;
        return QString();
    });
    parser.setPositional(
        [&files](const QString& path) {
            files.append(path);
            return QString();
        },
        1);
    const OptionParser::Parsed parsed = parser.parse(args);
    if (std::optional<int> exit =
            OptionParser::finish(parsed, QStringLiteral("hako traces"), kUsage))
        return *exit;
    if (files.size() != 1) {
        writeText(stderr, QString::fromLatin1(kUsage));
        return 2;
    }
    otel::registerOtlpTraceFormat();
    Result<std::vector<otel::RunRow>> runs = otel::readRuns(files.first());
    if (!runs)
        return fail(runs.error().message, 1);
    std::vector<otel::RunRow> rows =
        otel::filterRuns(*runs, otel::RunFilter::parse(filter.toStdString()));
    otel::sortRuns(rows, column, ascending);
    if (json) {
        QJsonArray out;
        for (const otel::RunRow& r : rows)
            out.append(toJson(r));
        writeText(stdout, QString::fromUtf8(QJsonDocument(out).toJson(QJsonDocument::Indented)));
    } else if (rows.empty()) {
        writeText(stdout, runs->empty() ? QStringLiteral("No runs.\n")
                                        : QStringLiteral("No run matches the filter.\n"));
    } else {
        printTable(rows);
    }
    return 0;
}

} // namespace hako
