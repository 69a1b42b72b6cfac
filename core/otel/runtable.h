#pragma once

#include "core/otel/span.h"

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace hako::otel {

/// How a run ended: with no error span, with at least one, or not yet (its root has not
/// arrived: OpenTelemetry exports a span when it ends).
enum class RunStatus { Ok, Error, Running };

/// "ok", "error", "running": the words `hako traces --json` and the filter use.
const char* runStatusName(RunStatus status);

/// One run (a trace, a PDL run, or the prompt log calls of one run): what the Runs list shows.
struct RunRow {
    std::string id;   ///< the trace id (OTLP), the run id (prompt log), or the file (a trace file)
    std::string name; ///< the root span's or block's name
    RunStatus status = RunStatus::Ok;
    int64_t startNanos = 0;
    int64_t endNanos = 0;
    int spans = 0;
    int errors = 0;
    int64_t promptTokens = 0;
    int64_t completionTokens = 0;
    std::optional<double> cost; ///< only when the data gives one
    std::string session;        ///< `session.id`, `gen_ai.conversation.id`, a `session:` tag
    std::string user;           ///< `user.id`, `enduser.id`, a `user:` tag
    std::string input;          ///< the run's input (root `input.value`), cut to kTextLimit
    std::string output;         ///< the run's output (root `output.value`), cut to kTextLimit

    int64_t tokens() const { return promptTokens + completionTokens; }
    int64_t durationNanos() const { return endNanos > startNanos ? endNanos - startNanos : 0; }
    static constexpr size_t kTextLimit = 4000;
};

/// Collects spans of any number of traces, in any order, into one RunRow per trace, reading the
/// attributes the trace tree drops (tokens, cost, session, user, input and output). Token
/// counts come from the spans that carry them (OpenInference `llm.token_count.*`, GenAI
/// `gen_ai.usage.*`; one count per span when both are present); a span added again replaces
/// the earlier one. Thread-safe: a receiver adds on its thread while the window lists.
class RunCollector {
public:
    /// What one span gives its run, read off the span where it is decoded (so that a file's
    /// reader can hand it on with the trace's nodes and the span itself is dropped).
    struct Part {
        std::string traceId;
        uint64_t spanKey = 0; ///< the span id (16 hex digits) as a number
        int64_t startNanos = 0, endNanos = 0;
        int64_t prompt = 0, completion = 0;
        double cost = 0;
        bool hasCost = false, error = false, root = false;
        std::string session, user;
        std::string name, input, output; ///< a root's
    };
    static Part partOf(const Span& span);

    void add(const Span& span);
    void add(const std::vector<Span>& spans);
    void add(Part&& part);
    /// Every run, by start time (then id).
    std::vector<RunRow> rows() const;
    size_t size() const;
    void clear();

private:
    struct SpanPart {
        int64_t prompt = 0, completion = 0;
        double cost = 0;
        bool hasCost = false, error = false;
    };
    struct Run {
        RunRow row;
        bool hasRoot = false;
        bool costKnown = false;
        /// By span id (its 16 hex digits as a number: a million spans, no million strings).
        std::unordered_map<uint64_t, SpanPart> parts;
    };
    mutable std::mutex m_mutex;
    std::unordered_map<std::string, Run> m_runs;
};

/// What the Runs list filter understands: free words (each must occur, case-insensitively, in
/// the name, session or user), `status:ok|error|running`, `session:X`, `user:X` (X a part of
/// the value; quotes allowed around a value with spaces).
struct RunFilter {
    std::vector<std::string> words;
    std::optional<RunStatus> status;
    std::string session;
    std::string user;
    /// Parses the filter field's text. Unknown `key:` words are free words.
    static RunFilter parse(const std::string& text);
    bool matches(const RunRow& row) const;
    bool isEmpty() const { return words.empty() && !status && session.empty() && user.empty(); }
};

/// The columns runs sort by.
enum class RunColumn { Name, Status, Start, Duration, Spans, Tokens, Cost, Errors, Session, User };

/// Sorts `rows` by `column` (ties by start, then id), ascending or descending; runs without a
/// cost sort after those with one.
void sortRuns(std::vector<RunRow>& rows, RunColumn column, bool ascending = true);
/// The rows `filter` keeps, in order.
std::vector<RunRow> filterRuns(const std::vector<RunRow>& rows, const RunFilter& filter);

/// The runs of one session with their totals (a conversation: the Sessions grouping).
struct RunSession {
    std::string session;      ///< empty: the runs without a session
    std::vector<RunRow> runs; ///< by start time
    int64_t startNanos = 0, endNanos = 0;
    int spans = 0, errors = 0;
    int64_t promptTokens = 0, completionTokens = 0;
    std::optional<double> cost;
    std::vector<std::string> users;
    int64_t tokens() const { return promptTokens + completionTokens; }
};

/// Groups runs by session: sessions by their first run's start, the runs without one last.
std::vector<RunSession> groupBySession(const std::vector<RunRow>& rows);

} // namespace hako::otel
