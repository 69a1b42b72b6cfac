#include "core/eval/onlineeval.h"

#include "core/eval/suite.h"
#include "core/eval/yamljson_p.h"
#include "core/promptlog/promptlog.h"
#include "core/util/boundedfile.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <yaml-cpp/yaml.h>

#include <chrono>
#include <cmath>

namespace hako::eval {

namespace {

Diagnostic errorAt(const QString& path, const YAML::Node& node, const QString& message)
{
    const YAML::Mark m = node.Mark();
    return makeError(message, SourceSpan{path, m.line + 1, m.column + 1, 0, 0});
}

// `*` matches any run of characters; everything else itself.
bool wildcardMatch(const QString& pattern, const QString& text)
{
    if (!pattern.contains(QLatin1Char('*')))
        return pattern == text;
    QStringList parts = pattern.split(QLatin1Char('*'));
    for (QString& p : parts)
        p = QRegularExpression::escape(p);
    const QRegularExpression re(
        QRegularExpression::anchoredPattern(parts.join(QStringLiteral(".*"))),
        QRegularExpression::DotMatchesEverythingOption);
    return re.match(text).hasMatch();
}

// The online keys of the file: sample, filter, queue.
std::optional<Diagnostic> readOnlineKeys(const YAML::Node& root, const QString& path,
                                         OnlineEvalConfig& c)
{
    if (const YAML::Node n = root["sample"]) {
        const QJsonValue v = yamlToJson(n);
        if (!v.isDouble() || !std::isfinite(v.toDouble()) || v.toDouble() < 0 || v.toDouble() > 1)
            return errorAt(path, n,
                           QStringLiteral("`sample` must be a number from 0 to 1 (the "
                                          "share of calls evaluated)"));
        c.sample = v.toDouble();
    }
    if (const YAML::Node n = root["queue"]) {
        const QJsonValue v = yamlToJson(n);
        if (!v.isDouble() || v.toDouble() < 1 || v.toDouble() > 1000000 ||
            v.toDouble() != std::floor(v.toDouble()))
            return errorAt(path, n,
                           QStringLiteral("`queue` must be a whole number from 1 to 1000000"));
        c.queueLimit = int(v.toDouble());
    }
    if (const YAML::Node n = root["filter"]) {
        if (!n.IsMap())
            return errorAt(path, n,
                           QStringLiteral("`filter` is a mapping of model, prompt and tag"));
        for (const auto& kv : n) {
            const QString key = QString::fromStdString(kv.first.Scalar());
            if (!kv.second.IsScalar())
                return errorAt(path, kv.second,
                               QStringLiteral("`%1` must be a single value").arg(key));
            const QString value = QString::fromStdString(kv.second.Scalar());
            if (key == QLatin1String("model"))
                c.model = value;
            else if (key == QLatin1String("prompt"))
                c.prompt = value;
            else if (key == QLatin1String("tag"))
                c.tag = value;
            else
                return errorAt(
                    path, kv.first,
                    QStringLiteral("unknown filter `%1` (known: model, prompt, tag)").arg(key));
        }
    }
    return std::nullopt;
}

// What an evaluator judges of a logged call: its reply, its inputs (the run's variables, else
// the last user message as `input`) and what it cost.
EvalCase caseOf(const promptlog::CallRecord& call)
{
    EvalCase c;
    c.output = call.reply;
    c.inputs = call.inputs;
    if (c.inputs.isEmpty()) {
        for (const QJsonValue& m : call.messages) {
            const QJsonObject o = m.toObject();
            if (o.value(QLatin1String("role")).toString() == QLatin1String("user"))
                c.inputs.insert(QStringLiteral("input"), o.value(QLatin1String("content")));
        }
    }
    c.run.output = call.reply;
    c.run.promptTokens = call.promptTokens.value_or(0);
    c.run.completionTokens = call.completionTokens.value_or(0);
    c.run.cost = call.cost;
    c.run.latencyMs = call.latencyMs.value_or(0);
    return c;
}

} // namespace

double samplePoint(const QString& callUid)
{
    uint64_t h = 14695981039346656037ull;
    for (const char byte : callUid.toUtf8()) {
        h ^= uint8_t(byte);
        h *= 1099511628211ull;
    }
    // FNV-1a alone leaves ids that differ in their last characters (call-1, call-2, …) close
    // together in the high bits: MurmurHash3's finaliser spreads them over the whole range.
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return double(h >> 11) / double(uint64_t(1) << 53);
}

bool OnlineEvalConfig::selects(const promptlog::CallRecord& call) const
{
    if (!model.isEmpty() && !wildcardMatch(model, call.model))
        return false;
    if (!prompt.isEmpty() && !wildcardMatch(prompt, call.promptName))
        return false;
    if (!tag.isEmpty() && !call.tags.contains(tag))
        return false;
    return sample >= 1.0 || samplePoint(call.uid) < sample;
}

Result<OnlineEvalConfig> OnlineEvalConfig::parse(const QByteArray& yaml, const QString& path)
{
    static const QStringList own{QStringLiteral("sample"), QStringLiteral("filter"),
                                 QStringLiteral("queue")};
    Result<Suite> suite = Suite::parse(yaml, path, own);
    if (!suite)
        return suite.error();
    OnlineEvalConfig c;
    c.path = suite->path;
    c.judgeModel = suite->judgeModel;
    c.embeddingModel = suite->embeddingModel;
    c.language = suite->language;
    c.evaluators = suite->evaluators;
    try {
        Result<YAML::Node> root = loadYaml(yaml, path);
        if (!root)
            return root.error();
        if (std::optional<Diagnostic> bad = readOnlineKeys(*root, path, c))
            return *bad;
    } catch (const YAML::Exception& e) {
        return yamlError(e, path);
    }
    return c;
}

Result<OnlineEvalConfig> OnlineEvalConfig::load(const QString& path)
{
    Result<QByteArray> data = readBoundedFile(path);
    if (!data)
        return data.error();
    return parse(*data, path);
}

Result<std::unique_ptr<OnlineEvaluator>> OnlineEvaluator::create(OnlineEvalConfig config,
                                                                 promptlog::PromptLog* log,
                                                                 EvaluatorContext context)
{
    if (context.judgeModel.isEmpty())
        context.judgeModel = config.judgeModel;
    if (context.embeddingModel.isEmpty())
        context.embeddingModel = config.embeddingModel;
    context.language = config.language;
    std::vector<std::shared_ptr<const Evaluator>> made;
    for (const EvaluatorSpec& spec : config.evaluators) {
        Result<std::shared_ptr<const Evaluator>> e = createEvaluator(spec, context);
        if (!e)
            return makeError(QStringLiteral("%1: evaluator `%2`: %3")
                                 .arg(config.path, spec.name, e.error().message));
        made.push_back(*e);
    }
    return std::unique_ptr<OnlineEvaluator>(
        new OnlineEvaluator(std::move(config), log, std::move(made)));
}

OnlineEvaluator::OnlineEvaluator(OnlineEvalConfig config, promptlog::PromptLog* log,
                                 std::vector<std::shared_ptr<const Evaluator>> evaluators)
    : m_config(std::move(config)), m_log(log), m_evaluators(std::move(evaluators))
{
    m_thread = std::thread([this] { work(); });
}

OnlineEvaluator::~OnlineEvaluator()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_cancel.cancel();
    m_wake.notify_all();
    m_thread.join();
}

QStringList OnlineEvaluator::evaluatorNames() const
{
    QStringList names;
    for (const auto& e : m_evaluators)
        names << e->name();
    return names;
}

void OnlineEvaluator::offer(const std::vector<promptlog::CallRecord>& calls)
{
    int64_t added = 0;
    {
        std::lock_guard lock(m_mutex);
        for (const promptlog::CallRecord& call : calls) {
            ++m_counters.offered;
            if (!m_config.selects(call))
                continue;
            ++m_counters.selected;
            if (int(m_queue.size()) >= m_config.queueLimit) {
                ++m_counters.skipped;
                continue;
            }
            m_queue.push_back(call);
            ++added;
        }
    }
    if (added)
        m_wake.notify_one();
}

bool OnlineEvaluator::waitIdle(int timeoutMs)
{
    std::unique_lock lock(m_mutex);
    return m_idle.wait_for(lock, std::chrono::milliseconds(timeoutMs),
                           [this] { return m_queue.empty() && !m_busy; });
}

void OnlineEvaluator::work()
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [this] { return m_stop || !m_queue.empty(); });
        if (m_stop)
            break;
        promptlog::CallRecord call = std::move(m_queue.front());
        m_queue.pop_front();
        m_busy = true;
        lock.unlock();
        judge(call);
        lock.lock();
        m_busy = false;
        if (m_queue.empty())
            m_idle.notify_all();
    }
    m_busy = false;
    m_idle.notify_all();
}

// Every evaluator on one call; each verdict kept as the call's score.
void OnlineEvaluator::judge(const promptlog::CallRecord& call)
{
    const EvalCase c = caseOf(call);
    for (const auto& evaluator : m_evaluators) {
        if (m_cancel.isCancelled())
            return;
        const Score verdict = evaluator->evaluate(c, m_cancel);
        promptlog::CallScore s;
        s.callUid = call.uid;
        s.name = evaluator->name();
        s.source = promptlog::ScoreSource::Online;
        s.note = verdict.reasoning;
        if (verdict.error) {
            ++m_counters.errors;
            s.kind = promptlog::ScoreValueKind::Label;
            s.label = QStringLiteral("error");
        } else {
            s.kind = verdict.label.isEmpty() ? promptlog::ScoreValueKind::Number
                                             : promptlog::ScoreValueKind::Label;
            s.number = verdict.score;
            s.label = verdict.label;
            s.passed = verdict.pass;
        }
        if (m_log->setScore(s))
            ++m_counters.scores;
        else
            ++m_counters.errors;
    }
    ++m_counters.evaluated;
}

} // namespace hako::eval
