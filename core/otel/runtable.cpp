#include "core/otel/runtable.h"

#include "core/otel/conventions.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <map>
#include <unordered_map>

namespace hako::otel {

namespace {

// The token attribute names, from the conventions' table (one place to add a name).
const std::vector<std::string>& tokenKeys(Field field)
{
    static const auto collect = [](Field f) {
        std::vector<std::string> keys;
        for (const FieldRule& rule : fieldRules())
            if (rule.field == f && !rule.prefix)
                keys.emplace_back(rule.key);
        return keys;
    };
    static const std::vector<std::string> input = collect(Field::InputTokens);
    static const std::vector<std::string> output = collect(Field::OutputTokens);
    return field == Field::InputTokens ? input : output;
}

std::optional<double> number(const Attributes* value)
{
    if (!value)
        return std::nullopt;
    if (value->is_number())
        return value->get<double>();
    if (value->is_string()) {
        try {
            size_t used = 0;
            const std::string& s = value->get_ref<const std::string&>();
            const double v = std::stod(s, &used);
            if (used == s.size())
                return v;
        } catch (...) {
        }
    }
    return std::nullopt;
}

// A value as attrString() reads it: a string as it is, anything else as JSON, null as nothing.
std::string textOf(const Attributes* value)
{
    if (!value || value->is_null())
        return {};
    return value->is_string() ? value->get<std::string>() : value->dump();
}

// The attributes a run's row reads, each found once in a pass over the span's attributes (a
// span has a dozen; looking up each name in turn went through them some twenty times).
enum RunSlot : uint8_t {
    Session,
    Conversation,
    User,
    EndUser,
    InputValue,
    Prompt,
    OutputValue,
    Completion,
    CostTotal,
    UsageCost,
    FirstTokenKey // then the input token names, then the output token names
};

const std::unordered_map<std::string_view, uint8_t>& runSlots()
{
    static const auto table = [] {
        std::unordered_map<std::string_view, uint8_t> t;
        const char* const fixed[] = {
            "session.id",     "gen_ai.conversation.id", "user.id",      "enduser.id",
            "input.value",    "gen_ai.prompt",          "output.value", "gen_ai.completion",
            "llm.cost.total", "gen_ai.usage.cost"};
        static_assert(std::size(fixed) == FirstTokenKey);
        uint8_t slot = 0;
        for (const char* key : fixed)
            t.emplace(key, slot++);
        for (Field f : {Field::InputTokens, Field::OutputTokens})
            for (const std::string& key : tokenKeys(f))
                t.emplace(key, slot++);
        return t;
    }();
    return table;
}

struct RunAttributes {
    static constexpr size_t kSlots = 40;
    std::array<const Attributes*, kSlots> at{};

    explicit RunAttributes(const Attributes& a)
    {
        if (!a.is_object())
            return;
        const auto& slots = runSlots();
        for (const auto& [key, value] : a.get_ref<const Attributes::object_t&>())
            if (auto it = slots.find(key); it != slots.end() && it->second < kSlots)
                at[it->second] = &value;
    }
    // The first of `slots` that holds a non-empty text.
    std::string firstString(std::initializer_list<RunSlot> slots) const
    {
        for (RunSlot slot : slots)
            if (std::string v = textOf(at[slot]); !v.empty())
                return v;
        return {};
    }
    // The first token count of `field`'s names, in the conventions' order.
    int64_t firstCount(Field field) const
    {
        size_t slot = FirstTokenKey;
        if (field == Field::OutputTokens)
            slot += tokenKeys(Field::InputTokens).size();
        for (size_t i = 0; i < tokenKeys(field).size() && slot + i < kSlots; ++i)
            if (std::optional<double> v = number(at[slot + i]))
                return int64_t(*v);
        return 0;
    }
};

// At most `limit` bytes, cut before a UTF-8 continuation byte.
std::string cut(std::string text, size_t limit)
{
    if (text.size() <= limit)
        return text;
    size_t end = limit;
    while (end > 0 && (uchar(text[end]) & 0xC0) == 0x80)
        --end;
    text.resize(end);
    text += "…";
    return text;
}

std::string lower(std::string s)
{
    for (char& c : s)
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
    return s;
}

bool contains(const std::string& haystack, const std::string& lowerNeedle)
{
    return lower(haystack).find(lowerNeedle) != std::string::npos;
}

} // namespace

const char* runStatusName(RunStatus status)
{
    switch (status) {
    case RunStatus::Ok:
        return "ok";
    case RunStatus::Error:
        return "error";
    case RunStatus::Running:
        return "running";
    }
    return "ok";
}

namespace {
// A span's id as a number: the 16 hex digits OTLP gives it, any other text by its hash.
uint64_t spanKey(const std::string& id)
{
    uint64_t value = 0;
    if (id.size() == 16) {
        const auto [end, error] = std::from_chars(id.data(), id.data() + id.size(), value, 16);
        if (error == std::errc() && end == id.data() + id.size())
            return value;
    }
    return std::hash<std::string>{}(id);
}
} // namespace

RunCollector::Part RunCollector::partOf(const Span& span)
{
    const RunAttributes a(span.attributes);
    Part part;
    part.traceId = span.traceId;
    part.spanKey = spanKey(span.spanId);
    part.startNanos = span.startNanos;
    part.endNanos = span.endNanos;
    part.prompt = a.firstCount(Field::InputTokens);
    part.completion = a.firstCount(Field::OutputTokens);
    if (std::optional<double> c = number(a.at[CostTotal]); c || (c = number(a.at[UsageCost]))) {
        part.cost = *c;
        part.hasCost = true;
    }
    part.error = span.statusCode == 2;
    part.session = a.firstString({Session, Conversation});
    part.user = a.firstString({User, EndUser});
    part.root = span.isRoot();
    if (part.root) {
        part.name = span.name;
        part.input = cut(a.firstString({InputValue, Prompt}), RunRow::kTextLimit);
        part.output = cut(a.firstString({OutputValue, Completion}), RunRow::kTextLimit);
    }
    return part;
}

void RunCollector::add(const Span& span)
{
    add(partOf(span));
}

void RunCollector::add(Part&& part)
{
    std::lock_guard lock(m_mutex);
    Run& run = m_runs[part.traceId];
    RunRow& row = run.row;
    if (row.id.empty()) {
        row.id = std::move(part.traceId);
        row.startNanos = part.startNanos;
        row.endNanos = part.endNanos;
    }
    const SpanPart counts{part.prompt, part.completion, part.cost, part.hasCost, part.error};
    auto [it, inserted] = run.parts.try_emplace(part.spanKey);
    if (!inserted) {
        const SpanPart& old = it->second;
        row.promptTokens -= old.prompt;
        row.completionTokens -= old.completion;
        row.errors -= old.error ? 1 : 0;
        if (old.hasCost)
            row.cost = *row.cost - old.cost;
    }
    it->second = counts;
    row.promptTokens += counts.prompt;
    row.completionTokens += counts.completion;
    row.errors += counts.error ? 1 : 0;
    if (counts.hasCost)
        row.cost = row.cost.value_or(0) + counts.cost;
    row.spans = int(run.parts.size());
    row.startNanos = std::min(row.startNanos, part.startNanos);
    row.endNanos = std::max(row.endNanos, part.endNanos);
    if (row.session.empty())
        row.session = std::move(part.session);
    if (row.user.empty())
        row.user = std::move(part.user);
    if (part.root) {
        run.hasRoot = true;
        row.name = std::move(part.name);
        row.input = std::move(part.input);
        row.output = std::move(part.output);
    }
    row.status = row.errors > 0 ? RunStatus::Error
                 : !run.hasRoot ? RunStatus::Running
                                : RunStatus::Ok;
}

void RunCollector::add(const std::vector<Span>& spans)
{
    for (const Span& s : spans)
        add(s);
}

std::vector<RunRow> RunCollector::rows() const
{
    std::vector<RunRow> out;
    {
        std::lock_guard lock(m_mutex);
        out.reserve(m_runs.size());
        for (const auto& [id, run] : m_runs)
            out.push_back(run.row);
    }
    sortRuns(out, RunColumn::Start);
    return out;
}

size_t RunCollector::size() const
{
    std::lock_guard lock(m_mutex);
    return m_runs.size();
}

void RunCollector::clear()
{
    std::lock_guard lock(m_mutex);
    m_runs.clear();
}

RunFilter RunFilter::parse(const std::string& text)
{
    RunFilter f;
    size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t'))
            ++i;
        if (i >= text.size())
            break;
        std::string word;
        bool quoted = false;
        while (i < text.size() && (quoted || (text[i] != ' ' && text[i] != '\t'))) {
            if (text[i] == '"')
                quoted = !quoted;
            else
                word += text[i];
            ++i;
        }
        const size_t colon = word.find(':');
        const std::string key =
            colon == std::string::npos ? std::string() : lower(word.substr(0, colon));
        const std::string value = colon == std::string::npos ? word : word.substr(colon + 1);
        if (key == "status" &&
            (lower(value) == "ok" || lower(value) == "error" || lower(value) == "running"))
            f.status = lower(value) == "ok"      ? RunStatus::Ok
                       : lower(value) == "error" ? RunStatus::Error
                                                 : RunStatus::Running;
        else if (key == "session" && !value.empty())
            f.session = lower(value);
        else if (key == "user" && !value.empty())
            f.user = lower(value);
        else if (!word.empty())
            f.words.push_back(lower(word));
    }
    return f;
}

bool RunFilter::matches(const RunRow& row) const
{
    if (status && row.status != *status)
        return false;
    if (!session.empty() && !contains(row.session, session))
        return false;
    if (!user.empty() && !contains(row.user, user))
        return false;
    for (const std::string& w : words)
        if (!contains(row.name, w) && !contains(row.session, w) && !contains(row.user, w))
            return false;
    return true;
}

std::vector<RunRow> filterRuns(const std::vector<RunRow>& rows, const RunFilter& filter)
{
    std::vector<RunRow> out;
    for (const RunRow& r : rows)
        if (filter.matches(r))
            out.push_back(r);
    return out;
}

void sortRuns(std::vector<RunRow>& rows, RunColumn column, bool ascending)
{
    // -1, 0, 1 for a before, same as, after b by the column alone.
    auto compare = [column](const RunRow& a, const RunRow& b) -> int {
        auto cmp = [](const auto& x, const auto& y) {
            return x < y ? -1 : (y < x ? 1 : 0);
        };
        switch (column) {
        case RunColumn::Name:
            return cmp(a.name, b.name);
        case RunColumn::Status:
            return cmp(int(a.status), int(b.status));
        case RunColumn::Start:
            return 0;
        case RunColumn::Duration:
            return cmp(a.durationNanos(), b.durationNanos());
        case RunColumn::Spans:
            return cmp(a.spans, b.spans);
        case RunColumn::Tokens:
            return cmp(a.tokens(), b.tokens());
        case RunColumn::Cost:
            if (a.cost.has_value() != b.cost.has_value())
                return a.cost ? -1 : 1;
            return a.cost ? cmp(*a.cost, *b.cost) : 0;
        case RunColumn::Errors:
            return cmp(a.errors, b.errors);
        case RunColumn::Session:
            return cmp(a.session, b.session);
        case RunColumn::User:
            return cmp(a.user, b.user);
        }
        return 0;
    };
    std::stable_sort(rows.begin(), rows.end(), [&](const RunRow& a, const RunRow& b) {
        int c = compare(a, b);
        if (c == 0)
            c = a.startNanos != b.startNanos ? (a.startNanos < b.startNanos ? -1 : 1)
                                             : (a.id < b.id ? -1 : (b.id < a.id ? 1 : 0));
        const bool costMissing =
            column == RunColumn::Cost && a.cost.has_value() != b.cost.has_value();
        return (ascending || costMissing) ? c < 0 : c > 0;
    });
}

std::vector<RunSession> groupBySession(const std::vector<RunRow>& rows)
{
    std::vector<RunRow> sorted = rows;
    sortRuns(sorted, RunColumn::Start);
    std::vector<RunSession> out;
    std::map<std::string, size_t> index;
    RunSession none;
    for (const RunRow& r : sorted) {
        RunSession* s = &none;
        if (!r.session.empty()) {
            auto [it, inserted] = index.try_emplace(r.session, out.size());
            if (inserted) {
                out.emplace_back();
                out.back().session = r.session;
                out.back().startNanos = r.startNanos;
            }
            s = &out[it->second];
        }
        if (s->runs.empty())
            s->startNanos = r.startNanos;
        s->runs.push_back(r);
        s->startNanos = std::min(s->startNanos, r.startNanos);
        s->endNanos = std::max(s->endNanos, r.endNanos);
        s->spans += r.spans;
        s->errors += r.errors;
        s->promptTokens += r.promptTokens;
        s->completionTokens += r.completionTokens;
        if (r.cost)
            s->cost = s->cost.value_or(0) + *r.cost;
        if (!r.user.empty() &&
            std::find(s->users.begin(), s->users.end(), r.user) == s->users.end())
            s->users.push_back(r.user);
    }
    if (!none.runs.empty())
        out.push_back(std::move(none));
    return out;
}

} // namespace hako::otel
