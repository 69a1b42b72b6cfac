#include "cli/logcommand.h"
#include "cli/optionparser.h"
#include "cli/output.h"

#include "core/promptlog/callexchange.h"
#include "core/promptlog/logsalvage.h"
#include "core/promptlog/promptlog.h"
#include "core/util/outputfile.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>
#include <optional>

namespace hako {

using namespace hako::promptlog;

namespace {

const char* kUsage =
    "usage: hako log COMMAND [OPTIONS]\n"
    "  The prompt log: every model call of every run (prompt, messages, reply, tokens, latency,\n"
    "  cost). By default the file promptlog.sqlite in the user's data folder\n"
    "  (~/.local/share/Hako/Hako), or the `log` of ~/.config/Hako/Hako/promptlog.json.\n"
    "commands:\n"
    "  list [FILTERS] [--limit N] [--json]\n"
    "      the newest calls first (50 unless --limit; 0 = all): id, time, prompt, model,\n"
    "      tokens in/out, cost, latency, status, tags\n"
    "  show ID [--json]        one call whole: its messages, reply, parameters and usage\n"
    "                          (ID is the number list prints, or the call's uid)\n"
    "  scores [--evaluator NAME] [--source human|online|experiment] [--since AGE|TIME]\n"
    "         [--limit N] [--json]\n"
    "      the newest scores of calls first: a person's annotations (source human), the\n"
    "      verdicts of `hako serve --evaluate` (online) and of experiments\n"
    "  stats --by evaluator [--since AGE|TIME] [--json]\n"
    "      per evaluator (or \"human\"): scores, their mean, how many passed\n"
    "  stats [--by prompt|version|program|tag|model|day] [--sort COLUMN] [--reverse]\n"
    "        [FILTERS] [--json]\n"
    "      per prompt (its id: one row however its lines move; shown by program and prompt\n"
    "      name), version, program, tag, model or UTC day: calls, success rate, tokens in,\n"
    "      out and in total, cost, p50/p95 latency; sorted by tokens unless --sort key|calls|\n"
    "      success|in|out|tokens|cost|p50|p95\n"
    "  export [--format jsonl|csv] [--out FILE] [FILTERS]\n"
    "      the calls, oldest first, through the privacy rules (JSON Lines keep every field\n"
    "      and import again)\n"
    "  import FILE             adds the calls of a JSON Lines export (those the log has are\n"
    "                          skipped); the privacy rules apply\n"
    "  delete-run RUN          deletes every call of one run\n"
    "  prune --older-than AGE  deletes the calls older than AGE (30d, 12h, 2w)\n"
    "  salvage NEW.sqlite      copies every call that can still be read from a damaged SQLite\n"
    "                          log (one Hako refuses to write to) into a new log file\n"
    "filters:\n"
    "  --tag T (repeatable: every one), --prompt P, --model M ('*' matches anything),\n"
    "  --status ok|failed|cancelled, --run RUN, --since AGE|TIME, --until AGE|TIME\n"
    "  --origin program|judge|playground|experiment|received (a program's own calls, an\n"
    "  evaluator's judge, the playground, an experiment's target, spans received over OTLP),\n"
    "  --prompt-id ID, --program-id ID,\n"
    "  --scored any|pass|fail (calls with a score; with one that passed and none that\n"
    "  failed; with one that failed)\n"
    "  (AGE as 2d, 12h, 30m; TIME as 2024-05-01 or 2024-05-01T10:00:00Z),\n"
    "  --search TEXT (words in the messages or the reply; any language)\n"
    "the log:\n"
    "  --db FILE               a SQLite prompt log file\n"
    "  --log URL|FILE          a postgresql://user@host:port/db URL (or a file)\n";

int fail(const QString& message, int code = 1)
{
    writeText(stderr, QStringLiteral("hako log: %1\n").arg(message));
    return code;
}

struct Options {
    QString command;
    QStringList positional;
    QString log;
    CallFilter filter;
    int limit = 50;
    bool json = false;
    QString by = QStringLiteral("prompt");
    QString sort = QStringLiteral("tokens");
    bool reverse = false;
    QString format = QStringLiteral("jsonl");
    QString out;
    QString olderThan;
    ScoreFilter scores;
};

// An age back from now ("2d") or a time ("2024-05-01", ISO 8601, UTC unless it says).
std::optional<int64_t> parseWhen(const QString& text)
{
    if (const auto age = parseAge(text))
        return QDateTime::currentMSecsSinceEpoch() - *age;
    QDateTime t = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!t.isValid()) {
        const QDate d = QDate::fromString(text, Qt::ISODate);
        if (!d.isValid())
            return std::nullopt;
        t = QDateTime(d, QTime(0, 0), Qt::UTC);
    }
    if (t.timeSpec() == Qt::LocalTime && !text.contains(QLatin1Char('+')))
        t.setTimeSpec(Qt::UTC);
    return t.toMSecsSinceEpoch();
}

QString cell(const std::optional<int64_t>& v)
{
    return v ? QString::number(*v) : QStringLiteral("-");
}

QString money(const std::optional<double>& v)
{
    if (!v)
        return QStringLiteral("-");
    return QString::number(*v, 'f', *v != 0 && *v < 0.01 ? 6 : 4);
}

QString millis(const std::optional<double>& v)
{
    return v ? QString::number(*v, 'f', 0) : QStringLiteral("-");
}

QString shortTime(int64_t ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC)
        .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

// The prompt log the options name: --db/--log, else the settings' `log`, else the default file.
std::unique_ptr<PromptLog> openLog(const Options& o, bool mustExist, QString* error)
{
    QString settingsError;
    PromptLogOptions options = PromptLogOptions::fromUserSettings(&settingsError);
    if (!settingsError.isEmpty()) {
        *error = settingsError;
        return nullptr;
    }
    QString spec = o.log;
    if (spec.isEmpty()) {
        auto settings = PromptLogSettings::load(PromptLogSettings::defaultPath());
        spec = settings && !settings->log.isEmpty() ? settings->log : PromptLog::defaultPath();
    }
    if (mustExist && !PromptLog::isPostgresUrl(spec) && !QFileInfo::exists(spec)) {
        *error = QStringLiteral("there is no prompt log at %1 (nothing has been logged there)")
                     .arg(spec);
        return nullptr;
    }
    // The CLI writes nothing through the background writer: no retention pass on its behalf.
    options.retentionDays = 0;
    auto log = PromptLog::open(spec, error, std::move(options));
    if (log && !error->isEmpty())
        return nullptr;
    return log;
}

int listCmd(PromptLog& log, Options& o)
{
    o.filter.limit = o.limit;
    auto calls = log.list(o.filter);
    if (!calls)
        return fail(calls.error().message);
    if (o.json) {
        QJsonArray out;
        for (const CallRecord& c : *calls) {
            QJsonObject j = c.toJson();
            for (const char* bulky : {"messages", "reply", "tool_calls", "inputs", "parameters"})
                j.remove(QLatin1String(bulky));
            j.insert(QLatin1String("seq"), qint64(c.id));
            out.append(j);
        }
        writeText(stdout, QString::fromUtf8(QJsonDocument(out).toJson(QJsonDocument::Indented)));
        return 0;
    }
    if (calls->isEmpty()) {
        writeText(stdout, QStringLiteral("No calls.\n"));
        return 0;
    }
    QList<QStringList> rows;
    for (const CallRecord& c : *calls)
        rows.append({QString::number(c.id), shortTime(c.startedAt), c.promptName, c.model,
                     cell(c.promptTokens), cell(c.completionTokens), money(c.cost),
                     millis(c.latencyMs), statusName(c.status), c.tags.join(QLatin1Char(' '))});
    writeText(stdout,
              table({QStringLiteral("ID"), QStringLiteral("TIME (UTC)"), QStringLiteral("PROMPT"),
                     QStringLiteral("MODEL"), QStringLiteral("IN"), QStringLiteral("OUT"),
                     QStringLiteral("COST"), QStringLiteral("MS"), QStringLiteral("STATUS"),
                     QStringLiteral("TAGS")},
                    rows, {true, false, false, false, true, true, true, true}));
    return 0;
}

// "exact_match 0 ✗ (online, 2024-05-01 10:00:00): the reasoning".
QString scoreLine(const CallScore& s)
{
    QString line = QStringLiteral("%1 %2 (%3%4, %5)")
                       .arg(s.name, s.text(), scoreSourceName(s.source),
                            s.author.isEmpty() ? QString() : QStringLiteral(" ") + s.author,
                            shortTime(s.createdAt));
    const QString note = s.note.simplified();
    if (!note.isEmpty())
        line += QStringLiteral(": ") + (note.size() > 200 ? note.left(199) + QChar(0x2026) : note);
    return line;
}

int scoresCmd(PromptLog& log, Options& o)
{
    o.scores.limit = o.limit;
    o.scores.since = o.filter.since;
    o.scores.until = o.filter.until;
    auto scores = log.scores(o.scores);
    if (!scores)
        return fail(scores.error().message);
    if (o.json) {
        QJsonArray out;
        for (const CallScore& s : *scores)
            out.append(s.toJson());
        writeText(stdout, QString::fromUtf8(QJsonDocument(out).toJson(QJsonDocument::Indented)));
        return 0;
    }
    if (scores->isEmpty()) {
        writeText(stdout, QStringLiteral("No scores.\n"));
        return 0;
    }
    QList<QStringList> rows;
    for (const CallScore& s : *scores)
        rows.append({shortTime(s.createdAt), s.callUid, s.name, scoreSourceName(s.source), s.text(),
                     s.note.simplified().left(60)});
    writeText(stdout, table({QStringLiteral("TIME (UTC)"), QStringLiteral("CALL"),
                             QStringLiteral("EVALUATOR"), QStringLiteral("SOURCE"),
                             QStringLiteral("SCORE"), QStringLiteral("NOTE")},
                            rows, {false, false, false, false, true, false}));
    return 0;
}

// `hako log stats --by evaluator`: the scores per evaluator (their time within --since/--until).
int evaluatorStatsCmd(PromptLog& log, Options& o)
{
    o.scores.since = o.filter.since;
    o.scores.until = o.filter.until;
    auto rows = log.scoreStats(o.scores);
    if (!rows)
        return fail(rows.error().message);
    auto passRate = [](const ScoreStats& r) {
        return r.judged ? std::optional<double>(double(r.passed) / double(r.judged)) : std::nullopt;
    };
    if (o.json) {
        QJsonArray out;
        for (const ScoreStats& r : *rows) {
            const auto rate = passRate(r);
            out.append(QJsonObject{
                {QStringLiteral("evaluator"), r.name},
                {QStringLiteral("scores"), qint64(r.scores)},
                {QStringLiteral("mean"), r.mean ? QJsonValue(*r.mean) : QJsonValue()},
                {QStringLiteral("passed"), qint64(r.passed)},
                {QStringLiteral("judged"), qint64(r.judged)},
                {QStringLiteral("pass_rate"), rate ? QJsonValue(*rate) : QJsonValue()}});
        }
        writeText(stdout, QString::fromUtf8(QJsonDocument(out).toJson(QJsonDocument::Indented)));
        return 0;
    }
    if (rows->isEmpty()) {
        writeText(stdout, QStringLiteral("No scores.\n"));
        return 0;
    }
    QList<QStringList> cells;
    for (const ScoreStats& r : *rows) {
        const auto rate = passRate(r);
        cells.append({r.name, QString::number(r.scores),
                      r.mean ? QString::number(*r.mean, 'f', 3) : QStringLiteral("-"),
                      rate ? QString::number(100.0 * *rate, 'f', 1) + QLatin1Char('%')
                           : QStringLiteral("-")});
    }
    writeText(stdout, table({QStringLiteral("EVALUATOR"), QStringLiteral("SCORES"),
                             QStringLiteral("MEAN"), QStringLiteral("PASSED")},
                            cells, {false, true, true, true}));
    return 0;
}

QString indentJson(const QJsonValue& v)
{
    const QJsonDocument doc =
        v.isArray() ? QJsonDocument(v.toArray()) : QJsonDocument(v.toObject());
    return QString::fromUtf8(doc.toJson(QJsonDocument::Indented)).trimmed();
}

int showCmd(PromptLog& log, const Options& o)
{
    if (o.positional.size() != 1)
        return fail(QStringLiteral("show needs one call id (see `hako log list`)"), 2);
    auto found = log.find(o.positional.first());
    if (!found)
        return fail(found.error().message);
    const CallRecord& c = *found;
    ScoreFilter ofCall;
    ofCall.callUids = {c.uid};
    auto scores = log.scores(ofCall);
    if (!scores)
        return fail(scores.error().message);
    if (o.json) {
        QJsonObject j = c.toJson();
        j.insert(QLatin1String("seq"), qint64(c.id));
        QJsonArray given;
        for (const CallScore& s : *scores)
            given.append(s.toJson());
        j.insert(QLatin1String("scores"), given);
        writeText(stdout, QString::fromUtf8(QJsonDocument(j).toJson(QJsonDocument::Indented)));
        return 0;
    }
    QString out;
    auto field = [&out](const char* name, const QString& value) {
        if (!value.isEmpty())
            out +=
                QStringLiteral("%1 %2\n").arg(QString::fromLatin1(name).leftJustified(12), value);
    };
    field("call:", QStringLiteral("%1 (%2)").arg(c.id).arg(c.uid));
    field("prompt:", c.promptId.isEmpty()
                         ? c.promptName
                         : QStringLiteral("%1 (%2)").arg(c.promptName, c.promptId));
    field("program name:", c.programId.isEmpty()
                               ? c.programName
                               : QStringLiteral("%1 (%2)").arg(c.programName, c.programId));
    field("version:", c.version);
    field("origin:", originName(c.origin));
    field("started:", isoTime(c.startedAt));
    field("run:", c.runId);
    field("program:", c.programHash.isEmpty()
                          ? c.programPath
                          : QStringLiteral("%1 (%2)").arg(c.programPath, c.programHash));
    if (c.span.isValid())
        field("source:",
              QStringLiteral("%1:%2:%3").arg(c.span.file).arg(c.span.line).arg(c.span.column));
    field("trace node:", c.traceNodeId);
    field("tags:", c.tags.join(QLatin1String(", ")));
    field("model:", c.endpoint.isEmpty()
                        ? c.model
                        : QStringLiteral("%1 (endpoint %2)").arg(c.model, c.endpoint));
    QString status = statusName(c.status);
    if (!c.finishReason.isEmpty())
        status += QStringLiteral(", finish reason %1").arg(c.finishReason);
    if (c.retries)
        status += QStringLiteral(", %1 retries").arg(c.retries);
    field("status:", status);
    field("error:", c.error);
    QString tokens = QStringLiteral("%1 in").arg(cell(c.promptTokens));
    if (c.cachedTokens)
        tokens += QStringLiteral(" (%1 cached)").arg(*c.cachedTokens);
    tokens += QStringLiteral(", %1 out").arg(cell(c.completionTokens));
    field("tokens:", tokens);
    QString latency = QStringLiteral("%1 ms").arg(millis(c.latencyMs));
    if (c.timeToFirstTokenMs)
        latency += QStringLiteral(" (first token %1 ms)").arg(millis(c.timeToFirstTokenMs));
    field("latency:", latency);
    field("cost:", money(c.cost));
    for (const CallScore& s : *scores)
        field("score:", scoreLine(s));
    if (!c.parameters.isEmpty())
        field("parameters:",
              QString::fromUtf8(QJsonDocument(c.parameters).toJson(QJsonDocument::Compact)));
    if (!c.inputs.isEmpty())
        field("inputs:", QString::fromUtf8(QJsonDocument(c.inputs).toJson(QJsonDocument::Compact)));
    if (c.contentOmitted)
        out +=
            QStringLiteral("\n(metadata only: the privacy settings kept no messages or reply)\n");
    for (const QJsonValue& m : c.messages) {
        const QJsonObject msg = m.toObject();
        const QJsonValue content = msg.value(QLatin1String("content"));
        out += QStringLiteral("\n--- %1 ---\n%2\n")
                   .arg(msg.value(QLatin1String("role")).toString(),
                        content.isString() ? content.toString() : indentJson(content));
    }
    if (!c.reply.isEmpty() || !c.contentOmitted)
        out += QStringLiteral("\n--- reply ---\n%1\n").arg(c.reply);
    if (!c.toolCalls.isEmpty())
        out += QStringLiteral("\n--- tool calls ---\n%1\n").arg(indentJson(c.toolCalls));
    writeText(stdout, out);
    return 0;
}

int statsCmd(PromptLog& log, Options& o)
{
    if (o.by == QLatin1String("evaluator"))
        return evaluatorStatsCmd(log, o);
    const auto group = groupFromName(o.by);
    if (!group)
        return fail(QStringLiteral("--by must be prompt, version, program, tag, model or day, "
                                   "not '%1'")
                        .arg(o.by),
                    2);
    const auto column = statsColumnFromName(o.sort);
    if (!column)
        return fail(QStringLiteral("--sort must be key, calls, success, in, out, tokens, cost, p50 "
                                   "or p95, not '%1'")
                        .arg(o.sort),
                    2);
    auto rows = log.stats(*group, o.filter);
    if (!rows)
        return fail(rows.error().message);
    sortStats(rows.value(), *column, o.reverse);
    if (o.json) {
        QJsonArray out;
        auto opt = [](const std::optional<double>& v) {
            return v ? QJsonValue(*v) : QJsonValue();
        };
        for (const StatsRow& r : *rows)
            out.append(QJsonObject{{groupName(*group), r.key},
                                   {QStringLiteral("name"), r.name},
                                   {QStringLiteral("calls"), qint64(r.calls)},
                                   {QStringLiteral("ok"), qint64(r.okCalls)},
                                   {QStringLiteral("success_rate"), r.successRate()},
                                   {QStringLiteral("tokens_in"), qint64(r.tokensIn)},
                                   {QStringLiteral("tokens_out"), qint64(r.tokensOut)},
                                   {QStringLiteral("tokens"), qint64(r.tokens())},
                                   {QStringLiteral("cost"), opt(r.cost)},
                                   {QStringLiteral("p50_ms"), opt(r.p50LatencyMs)},
                                   {QStringLiteral("p95_ms"), opt(r.p95LatencyMs)}});
        writeText(stdout, QString::fromUtf8(QJsonDocument(out).toJson(QJsonDocument::Indented)));
        return 0;
    }
    if (rows->isEmpty()) {
        writeText(stdout, QStringLiteral("No calls.\n"));
        return 0;
    }
    // A prompt, program or version is shown by its name, its id beside it.
    const bool named = *group == StatsGroup::Prompt || *group == StatsGroup::Program ||
                       *group == StatsGroup::Version;
    QList<QStringList> cells;
    int64_t calls = 0, ok = 0, in = 0, out = 0;
    std::optional<double> cost;
    for (const StatsRow& r : *rows) {
        QStringList row = {r.key.isEmpty() && *group == StatsGroup::Tag ? QStringLiteral("(no tag)")
                           : named && !r.name.isEmpty()                 ? r.name
                                                                        : r.key};
        if (named)
            row << (r.name.isEmpty() || r.name == r.key ? QString() : r.key); // calls without ids
        row << QString::number(r.calls)
            << QString::number(100.0 * r.successRate(), 'f', 1) + QLatin1Char('%')
            << QString::number(r.tokensIn) << QString::number(r.tokensOut)
            << QString::number(r.tokens()) << money(r.cost) << millis(r.p50LatencyMs)
            << millis(r.p95LatencyMs);
        cells.append(row);
        calls += r.calls;
        ok += r.okCalls;
        in += r.tokensIn;
        out += r.tokensOut;
        if (r.cost)
            cost = cost.value_or(0) + *r.cost;
    }
    // A call with several tags counts under each: the total would count it twice.
    if (*group != StatsGroup::Tag && rows->size() > 1) {
        QStringList total = {QStringLiteral("(total)")};
        if (named)
            total << QString();
        total << QString::number(calls)
              << QString::number(calls ? 100.0 * double(ok) / double(calls) : 0, 'f', 1) +
                     QLatin1Char('%')
              << QString::number(in) << QString::number(out) << QString::number(in + out)
              << money(cost) << QString() << QString();
        cells.append(total);
    }
    QStringList header = {groupName(*group).toUpper()};
    QList<bool> right = {false};
    if (named) {
        header << QStringLiteral("ID");
        right << false;
    }
    header << QStringLiteral("CALLS") << QStringLiteral("SUCCESS") << QStringLiteral("TOKENS IN")
           << QStringLiteral("TOKENS OUT") << QStringLiteral("TOKENS") << QStringLiteral("COST")
           << QStringLiteral("P50 MS") << QStringLiteral("P95 MS");
    right << true << true << true << true << true << true << true << true;
    writeText(stdout, table(header, cells, right));
    return 0;
}

int exportCmd(PromptLog& log, const Options& o)
{
    ExportFormat format;
    if (o.format == QLatin1String("jsonl"))
        format = ExportFormat::Jsonl;
    else if (o.format == QLatin1String("csv"))
        format = ExportFormat::Csv;
    else
        return fail(QStringLiteral("--format must be jsonl or csv, not '%1'").arg(o.format), 2);
    if (o.out.isEmpty()) {
        QFile out;
        if (!out.open(stdout, QIODevice::WriteOnly))
            return fail(QStringLiteral("cannot write to standard output"));
        auto n = exportCalls(log, o.filter, format, out);
        out.close();
        if (!n)
            return fail(n.error().message);
        return 0;
    }
    // Streamed: a big log is never held in memory whole.
    OutputFile out(o.out);
    QString error;
    if (!out.open(&error))
        return fail(QStringLiteral("cannot write %1: %2").arg(o.out, error));
    auto n = exportCalls(log, o.filter, format, *out.device());
    if (!n)
        return fail(n.error().message);
    if (!out.commit(&error))
        return fail(QStringLiteral("cannot write %1: %2").arg(o.out, error));
    writeText(stderr, QStringLiteral("exported %1 calls to %2\n").arg(*n).arg(o.out));
    return 0;
}

int importCmd(PromptLog& log, const Options& o)
{
    if (o.positional.size() != 1)
        return fail(QStringLiteral("import needs one file (a JSON Lines export)"), 2);
    QFile in(o.positional.first());
    if (!in.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot read %1: %2").arg(in.fileName(), in.errorString()));
    auto summary = importCalls(log, in);
    if (!summary)
        return fail(QStringLiteral("%1: %2").arg(in.fileName(), summary.error().message));
    writeText(stdout, QStringLiteral("imported %1 of %2 calls (%3 were in the log already)\n")
                          .arg(summary->added)
                          .arg(summary->read)
                          .arg(summary->read - summary->added));
    return 0;
}

// `salvage OUT`: the readable calls of a damaged SQLite log (--log, else the user's log) into
// a new file.
int salvageCmd(const Options& o)
{
    if (o.positional.size() != 1)
        return fail(QStringLiteral("salvage needs the new log file to write (NEW.sqlite)"), 2);
    QString spec = o.log;
    if (spec.isEmpty()) {
        auto settings = PromptLogSettings::load(PromptLogSettings::defaultPath());
        spec = settings && !settings->log.isEmpty() ? settings->log : PromptLog::defaultPath();
    }
    if (PromptLog::isPostgresUrl(spec))
        return fail(QStringLiteral("salvage reads a SQLite log file; a PostgreSQL server keeps "
                                   "its own backups"),
                    2);
    const QString out = o.positional.first();
    Result<SalvageReport> report = LogSalvage::salvage(spec, out);
    if (!report)
        return fail(report.error().message);
    QString text =
        QStringLiteral("salvaged %1 calls from %2 into %3").arg(report->copied).arg(spec, out);
    if (report->withoutContent > 0)
        text += QStringLiteral(" (%1 without their messages and reply, which could not be read)")
                    .arg(report->withoutContent);
    text += QStringLiteral("; %1 calls could not be read\n").arg(report->unreadable);
    writeText(stdout, text);
    return 0;
}

// `hako log`'s options, read into `o` (which must outlive the parser).
void addLogOptions(OptionParser& parser, Options& o)
{
    auto when = [](std::optional<int64_t>& target, const char* name) {
        return [&target, name](const QString& v) {
            target = parseWhen(v);
            if (!target)
                return QStringLiteral("%1: '%2' is neither an age (2d, 12h, 30m) nor a date")
                    .arg(QLatin1String(name), v);
            return QString();
        };
    };
    auto set = [](QString& target) {
        return [&target](const QString& v) {
            target = v;
            return QString();
        };
    };
    parser.addOption({QStringLiteral("--db"), QStringLiteral("--log")}, set(o.log));
    parser.addOption({QStringLiteral("--tag")}, [&o](const QString& v) {
        o.filter.tags.append(v);
        return QString();
    });
    parser.addOption({QStringLiteral("--prompt")}, set(o.filter.prompt));
    parser.addOption({QStringLiteral("--model")}, set(o.filter.model));
    parser.addOption({QStringLiteral("--run")}, set(o.filter.runId));
    parser.addOption({QStringLiteral("--search")}, set(o.filter.text));
    parser.addOption({QStringLiteral("--status")}, [&o](const QString& v) {
        o.filter.status = statusFromName(v);
        return o.filter.status
                   ? QString()
                   : QStringLiteral("--status must be ok, failed or cancelled, not '%1'").arg(v);
    });
    parser.addOption({QStringLiteral("--origin")}, [&o](const QString& v) {
        o.filter.origin = originFromName(v);
        return o.filter.origin ? QString()
                               : QStringLiteral("--origin must be program, judge, playground, "
                                                "experiment or received, not '%1'")
                                     .arg(v);
    });
    parser.addOption({QStringLiteral("--prompt-id")}, set(o.filter.promptId));
    parser.addOption({QStringLiteral("--program-id")}, set(o.filter.programId));
    parser.addOption({QStringLiteral("--scored")}, [&o](const QString& v) {
        static const QHash<QString, CallFilter::Scored> names = {
            {QStringLiteral("any"), CallFilter::Scored::Any},
            {QStringLiteral("pass"), CallFilter::Scored::Passed},
            {QStringLiteral("fail"), CallFilter::Scored::Failed}};
        if (!names.contains(v))
            return QStringLiteral("--scored must be any, pass or fail, not '%1'").arg(v);
        o.filter.scored = names.value(v);
        return QString();
    });
    parser.addOption({QStringLiteral("--evaluator")}, set(o.scores.name));
    parser.addOption({QStringLiteral("--source")}, [&o](const QString& v) {
        o.scores.source = scoreSourceFromName(v);
        return o.scores.source ? QString()
                               : QStringLiteral("--source must be human, online or experiment, "
                                                "not '%1'")
                                     .arg(v);
    });
    parser.addOption({QStringLiteral("--since")}, when(o.filter.since, "--since"));
    parser.addOption({QStringLiteral("--until")}, when(o.filter.until, "--until"));
    parser.addOption({QStringLiteral("--limit")}, [&o](const QString& v) {
        bool ok = false;
        o.limit = v.toInt(&ok);
        return ok && o.limit >= 0 ? QString()
                                  : QStringLiteral("--limit must be a number, 0 for all");
    });
    parser.addFlag({QStringLiteral("--json")}, [&o] { o.json = true; });
    parser.addOption({QStringLiteral("--by")}, set(o.by));
    parser.addOption({QStringLiteral("--sort")}, set(o.sort));
    parser.addFlag({QStringLiteral("--reverse")}, [&o] { o.reverse = true; });
    parser.addOption({QStringLiteral("--format")}, set(o.format));
    parser.addOption({QStringLiteral("--out")}, set(o.out));
    parser.addOption({QStringLiteral("--older-than")}, set(o.olderThan));
    parser.setPositional([&o](const QString& word) {
        if (o.command.isEmpty())
            o.command = word;
        else
            o.positional.append(word);
        return QString();
    });
}

} // namespace

int logCommand(const QStringList& args)
{
    Options o;
    OptionParser parser;
    addLogOptions(parser, o);
    const OptionParser::Parsed parsed = parser.parse(args);
    if (std::optional<int> exit = OptionParser::finish(parsed, QStringLiteral("hako log"), kUsage))
        return *exit;

    static const QStringList commands = {
        QStringLiteral("list"),       QStringLiteral("show"),   QStringLiteral("scores"),
        QStringLiteral("stats"),      QStringLiteral("export"), QStringLiteral("import"),
        QStringLiteral("delete-run"), QStringLiteral("prune"),  QStringLiteral("salvage")};
    if (o.command.isEmpty()) {
        writeText(stderr, QStringLiteral("hako log: which command? (list, show, scores, stats, "
                                         "export, import, delete-run, prune, salvage)\n%1")
                              .arg(QLatin1String(kUsage)));
        return 2;
    }
    if (!commands.contains(o.command))
        return fail(QStringLiteral("unknown command '%1' (list, show, scores, stats, export, "
                                   "import, delete-run, prune, salvage)")
                        .arg(o.command),
                    2);
    if (o.command == QLatin1String("salvage"))
        return salvageCmd(o);
    if (o.command != QLatin1String("show") && o.command != QLatin1String("import") &&
        o.command != QLatin1String("delete-run") && !o.positional.isEmpty())
        return fail(QStringLiteral("unexpected '%1'").arg(o.positional.first()), 2);
    std::optional<int64_t> pruneAge;
    if (o.command == QLatin1String("prune")) {
        pruneAge = parseAge(o.olderThan);
        if (!pruneAge)
            return fail(QStringLiteral("prune needs --older-than AGE (30d, 12h, 2w)"), 2);
    }
    if (o.command == QLatin1String("delete-run") && o.positional.size() != 1)
        return fail(QStringLiteral("delete-run needs one run id"), 2);

    const bool writes = o.command == QLatin1String("import");
    QString error;
    auto log = openLog(o, !writes, &error);
    if (!log)
        return fail(error);

    if (o.command == QLatin1String("list"))
        return listCmd(*log, o);
    if (o.command == QLatin1String("show"))
        return showCmd(*log, o);
    if (o.command == QLatin1String("stats"))
        return statsCmd(*log, o);
    if (o.command == QLatin1String("scores"))
        return scoresCmd(*log, o);
    if (o.command == QLatin1String("export"))
        return exportCmd(*log, o);
    if (o.command == QLatin1String("import"))
        return importCmd(*log, o);
    if (o.command == QLatin1String("delete-run")) {
        auto n = log->deleteRun(o.positional.first());
        if (!n)
            return fail(n.error().message);
        if (*n == 0)
            return fail(
                QStringLiteral("no calls of run '%1' in the log").arg(o.positional.first()));
        writeText(stdout,
                  QStringLiteral("deleted %1 calls of run %2\n").arg(*n).arg(o.positional.first()));
        return 0;
    }
    const int64_t cutoff = QDateTime::currentMSecsSinceEpoch() - *pruneAge;
    auto n = log->deleteOlderThan(cutoff);
    if (!n)
        return fail(n.error().message);
    writeText(stdout, QStringLiteral("deleted %1 calls started before %2\n")
                          .arg(*n)
                          .arg(shortTime(cutoff) + QStringLiteral(" UTC")));
    return 0;
}

} // namespace hako
