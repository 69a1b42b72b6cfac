#include "core/eval/evaluator.h"
#include "core/eval/evaluatorkind.h"
#include "core/eval/evaluators_p.h"
#include "core/eval/judge.h"
#include "core/eval/textmetrics.h"
#include "core/pdl/valuejson.h"

#include "core/pdl/model/modelprovider.h"
#include "core/pdl/types/jsonschema.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <cmath>
#include <functional>

namespace hako::eval {

// --- plain values ------------------------------------------------------------------------------

QJsonObject TargetOutput::toJson() const
{
    QJsonObject o{{QStringLiteral("output"), output},
                  {QStringLiteral("prompt_tokens"), double(promptTokens)},
                  {QStringLiteral("completion_tokens"), double(completionTokens)},
                  {QStringLiteral("latency_ms"), latencyMs}};
    if (!tracePath.isEmpty())
        o.insert(QStringLiteral("trace"), tracePath);
    if (cost)
        o.insert(QStringLiteral("cost"), *cost);
    return o;
}

TargetOutput TargetOutput::fromJson(const QJsonObject& o)
{
    TargetOutput t;
    t.output = o.value(QStringLiteral("output")).toString();
    t.tracePath = o.value(QStringLiteral("trace")).toString();
    t.promptTokens = int64_t(o.value(QStringLiteral("prompt_tokens")).toDouble());
    t.completionTokens = int64_t(o.value(QStringLiteral("completion_tokens")).toDouble());
    t.latencyMs = o.value(QStringLiteral("latency_ms")).toDouble();
    if (o.contains(QStringLiteral("cost")))
        t.cost = o.value(QStringLiteral("cost")).toDouble();
    return t;
}

QJsonObject Score::toJson() const
{
    QJsonObject o{{QStringLiteral("evaluator"), evaluator},
                  {QStringLiteral("score"), score},
                  {QStringLiteral("pass"), pass},
                  {QStringLiteral("reasoning"), reasoning}};
    if (!label.isEmpty())
        o.insert(QStringLiteral("label"), label);
    if (error)
        o.insert(QStringLiteral("error"), true);
    return o;
}

Score Score::fromJson(const QJsonObject& o)
{
    Score s;
    s.evaluator = o.value(QStringLiteral("evaluator")).toString();
    s.score = o.value(QStringLiteral("score")).toDouble();
    s.label = o.value(QStringLiteral("label")).toString();
    s.pass = o.value(QStringLiteral("pass")).toBool();
    s.error = o.value(QStringLiteral("error")).toBool();
    s.reasoning = o.value(QStringLiteral("reasoning")).toString();
    return s;
}

Score Evaluator::evaluate(const EvalCase& c, const CancelToken& cancel) const
{
    Score s = checkedScore(judge(c, cancel));
    s.evaluator = name();
    s.pass = !s.error && s.score >= threshold() - 1e-12;
    return s;
}

namespace {

Score verdict(bool ok, QString reasoning)
{
    Score s;
    s.score = ok ? 1.0 : 0.0;
    s.reasoning = std::move(reasoning);
    return s;
}

Score failure(QString reasoning)
{
    Score s;
    s.error = true;
    s.label = QStringLiteral("error");
    s.reasoning = std::move(reasoning);
    return s;
}

EvaluatorResult bad(const EvaluatorSpec& spec, const QString& why)
{
    return makeError(QStringLiteral("evaluator %1 (%2): %3").arg(spec.name, spec.type, why));
}

// Why an edit distance is not the whole texts': they were longer than the bound.
QString truncationNote()
{
    return QStringLiteral("; only the first %L1 characters of each text were compared")
        .arg(kMaxEditDistanceChars);
}

QString quoteShort(const QString& s, int max = 80)
{
    QString t = s.size() > max ? s.left(max) + QStringLiteral("…") : s;
    return QLatin1Char('"') + t + QLatin1Char('"');
}

QString valueText(const QJsonValue& v)
{
    if (v.isString())
        return v.toString();
    if (v.isUndefined() || v.isNull())
        return QString();
    return canonicalJson(v);
}

// The text a string evaluator compares with: its `value` option, else the reference.
std::optional<QString> expectedText(const QJsonObject& options, const EvalCase& c)
{
    if (options.contains(QStringLiteral("value")))
        return valueText(options.value(QStringLiteral("value")));
    if (c.reference.isUndefined() || c.reference.isNull())
        return std::nullopt;
    return valueText(c.reference);
}

// The output as JSON, tolerating a Markdown code fence around it.
std::optional<QJsonValue> parseJson(const QString& text, QString* why)
{
    QString t = text.trimmed();
    static const QRegularExpression fence(
        QStringLiteral("^```[A-Za-z0-9_-]*\\s*\\n([\\s\\S]*?)\\n?```$"));
    const auto m = fence.match(t);
    if (m.hasMatch())
        t = m.captured(1);
    QJsonParseError error;
    const QByteArray wrapped = "[" + t.toUtf8() + "]";
    const QJsonDocument doc = QJsonDocument::fromJson(wrapped, &error);
    if (error.error != QJsonParseError::NoError || doc.array().size() != 1) {
        if (why)
            *why = error.error != QJsonParseError::NoError
                       ? QStringLiteral("not JSON: %1 at offset %2")
                             .arg(error.errorString())
                             .arg(std::max(0, error.offset - 1))
                       : QStringLiteral("not one JSON value");
        return std::nullopt;
    }
    return doc.array().at(0);
}

std::optional<QJsonValue> referenceJson(const QJsonObject& options, const EvalCase& c, QString* why)
{
    QJsonValue v = options.contains(QStringLiteral("value"))
                       ? options.value(QStringLiteral("value"))
                       : c.reference;
    if (v.isUndefined()) {
        *why = QStringLiteral("no reference to compare with");
        return std::nullopt;
    }
    if (v.isString()) {
        QString inner;
        if (auto parsed = parseJson(v.toString(), &inner))
            return parsed;
    }
    return v;
}

using JudgeFn = std::function<Score(const EvalCase&, const CancelToken&)>;

class FunctionEvaluator : public Evaluator {
public:
    FunctionEvaluator(EvaluatorSpec spec, double defaultThreshold, JudgeFn fn)
        : Evaluator(std::move(spec)), m_default(defaultThreshold), m_fn(std::move(fn))
    {}

protected:
    double defaultThreshold() const override { return m_default; }
    Score judge(const EvalCase& c, const CancelToken& cancel) const override
    {
        return m_fn(c, cancel);
    }

private:
    double m_default;
    JudgeFn m_fn;
};

QStringList stringList(const QJsonValue& v)
{
    QStringList out;
    if (v.isArray()) {
        for (const QJsonValue& x : v.toArray())
            out << valueText(x);
    } else if (!v.isUndefined() && !v.isNull()) {
        out << valueText(v);
    }
    return out;
}

std::optional<double> parseNumber(const QString& text)
{
    QString t = text.trimmed();
    t.remove(QLatin1Char(','));
    bool ok = false;
    const double d = t.toDouble(&ok);
    if (ok)
        return d;
    static const QRegularExpression number(
        QStringLiteral("[-+]?(?:\\d[\\d,]*(?:\\.\\d+)?|\\.\\d+)(?:[eE][-+]?\\d+)?"));
    const auto m = number.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    QString n = m.captured(0);
    n.remove(QLatin1Char(','));
    return n.toDouble();
}

// What a judge is told the input was: the `input_key` option's variable, else a lone input,
// else `question`/`input`/`query`, else all inputs as JSON.
QString inputText(const QJsonObject& options, const QJsonObject& inputs)
{
    const QString key = options.value(QStringLiteral("input_key")).toString();
    if (!key.isEmpty())
        return valueText(inputs.value(key));
    if (inputs.size() == 1)
        return valueText(inputs.begin().value());
    for (const char* k : {"question", "input", "query", "prompt"})
        if (inputs.contains(QLatin1String(k)))
            return valueText(inputs.value(QLatin1String(k)));
    return canonicalJson(inputs);
}

QString criteriaText(const QJsonValue& criteria, const QString& language, QString* error)
{
    auto one = [&](const QString& name, const QString& description) {
        if (!description.isEmpty())
            return QStringLiteral("%1: %2").arg(name, description);
        const QString preset = judge::presetCriterion(name, language);
        return preset.isEmpty() ? name : QStringLiteral("%1: %2").arg(name, preset);
    };
    QStringList parts;
    if (criteria.isString()) {
        parts << one(criteria.toString(), QString());
    } else if (criteria.isArray()) {
        for (const QJsonValue& x : criteria.toArray())
            parts << one(x.toString(), QString());
    } else if (criteria.isObject()) {
        const QJsonObject o = criteria.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            parts << one(it.key(), it.value().toString());
    }
    parts.removeAll(QString());
    if (parts.isEmpty())
        *error = QStringLiteral("needs `criteria`: a preset (%1) or your own words")
                     .arg(judge::presetCriteria().join(QStringLiteral(", ")));
    return parts.join(QLatin1Char('\n'));
}

struct JudgeSetup {
    std::shared_ptr<models::IModelProvider> models;
    QString model;
    QString language;
};

Result<QString> ask(const JudgeSetup& j, const QString& prompt, const CancelToken& cancel)
{
    models::ChatRequest request =
        models::ChatRequest::userText(j.model.toStdString(), prompt.toStdString());
    request.parameters.set("temperature", pdl::Value(0));
    request.site.promptName = "eval:judge";
    Result<models::ChatResponse> reply = j.models->chat(request, {}, cancel);
    if (!reply.ok())
        return reply.error();
    return QString::fromStdString(reply->content);
}

// The score of a judge call that failed.
Score judgeCallFailed(const Diagnostic& why)
{
    return failure(QStringLiteral("judge call failed: %1").arg(why.message));
}

// The score of a judge's reply without the verdict asked for (`expected`: "Y or N", …).
Score verdictMissing(const QString& expected, const QString& reply)
{
    return failure(QStringLiteral("judge did not answer %1 on its last line; it replied:\n%2")
                       .arg(expected, reply));
}

Score yesNo(const JudgeSetup& j, const QString& prompt, const CancelToken& cancel)
{
    Result<QString> reply = ask(j, prompt, cancel);
    if (!reply.ok())
        return judgeCallFailed(reply.error());
    const std::optional<bool> yes = judge::parseYesNo(*reply);
    if (!yes)
        return verdictMissing(QStringLiteral("Y or N"), *reply);
    Score s = verdict(*yes, reply->trimmed());
    s.label = *yes ? QStringLiteral("Y") : QStringLiteral("N");
    return s;
}

// A model-graded evaluator's judge, or why it has none as the evaluator's error.
Result<JudgeSetup> judgeSetup(const EvaluatorSpec& spec, const EvaluatorContext& context)
{
    JudgeSetup j;
    j.models = context.models;
    j.model = spec.options.value(QStringLiteral("model")).toString(context.judgeModel);
    j.language = spec.options.value(QStringLiteral("language")).toString(context.language);
    if (!j.models)
        return bad(spec, QStringLiteral("%1: a model-graded evaluator needs a model provider")
                             .arg(spec.type))
            .error();
    if (j.model.isEmpty())
        return bad(spec, QStringLiteral("%1: no judge model (set `model:` on the evaluator or "
                                        "`judge_model:` in the suite)")
                             .arg(spec.type))
            .error();
    return j;
}

// A factory's budget option `key` (`max_ms`, `max`): required, 0 or more.
Result<double> budget(const EvaluatorSpec& spec, const QString& key)
{
    const double max = spec.options.value(key).toDouble(-1);
    if (max < 0)
        return bad(spec, QStringLiteral("needs `%1`").arg(key)).error();
    return max;
}

double cosine(const std::vector<float>& a, const std::vector<float>& b)
{
    double dot = 0, na = 0, nb = 0;
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
        dot += double(a[i]) * b[i];
        na += double(a[i]) * a[i];
        nb += double(b[i]) * b[i];
    }
    if (na == 0 || nb == 0)
        return 0;
    return dot / (std::sqrt(na) * std::sqrt(nb));
}

EvaluatorResult made(const EvaluatorSpec& spec, double threshold, JudgeFn fn)
{
    return std::shared_ptr<const Evaluator>(
        std::make_shared<FunctionEvaluator>(spec, threshold, std::move(fn)));
}

Qt::CaseSensitivity caseSensitivity(const QJsonObject& o)
{
    return o.value(QStringLiteral("ignore_case")).toBool(false) ? Qt::CaseInsensitive
                                                                : Qt::CaseSensitive;
}

} // namespace

EvaluatorResult createExactMatch(const EvaluatorSpec& spec, const QString& /*type*/,
                                 const EvaluatorContext& /*context*/)
{
    const QJsonObject o = spec.options;
    const Qt::CaseSensitivity cs = caseSensitivity(o);
    const bool trim = o.value(QStringLiteral("trim")).toBool(true);
    return made(spec, 1.0, [o, trim, cs](const EvalCase& c, const CancelToken&) {
        const std::optional<QString> expected = expectedText(o, c);
        if (!expected)
            return failure(QStringLiteral("no reference to compare with"));
        const QString a = trim ? c.output.trimmed() : c.output;
        const QString b = trim ? expected->trimmed() : *expected;
        const bool same = a.compare(b, cs) == 0;
        return verdict(same, same ? QStringLiteral("the output equals the reference")
                                  : QStringLiteral("the output %1 differs from the reference %2")
                                        .arg(quoteShort(a), quoteShort(b)));
    });
}

EvaluatorResult createContains(const EvaluatorSpec& spec, const QString& type,
                               const EvaluatorContext& /*context*/)
{
    const QJsonObject o = spec.options;
    const Qt::CaseSensitivity cs = caseSensitivity(o);
    const Qt::CaseSensitivity c2 = type == QLatin1String("icontains") ? Qt::CaseInsensitive : cs;
    const bool starts = type == QLatin1String("starts_with");
    return made(spec, 1.0, [o, c2, starts](const EvalCase& c, const CancelToken&) {
        const std::optional<QString> expected = expectedText(o, c);
        if (!expected)
            return failure(QStringLiteral("no `value` and no reference to look for"));
        const bool found = starts ? c.output.trimmed().startsWith(*expected, c2)
                                  : c.output.contains(*expected, c2);
        return verdict(
            found,
            QStringLiteral("the output %1 %2")
                .arg(found ? QStringLiteral("has") : QStringLiteral("does not have"),
                     (starts ? QStringLiteral("the prefix ") : QString()) + quoteShort(*expected)));
    });
}

EvaluatorResult createContainsList(const EvaluatorSpec& spec, const QString& type,
                                   const EvaluatorContext& /*context*/)
{
    const QJsonObject o = spec.options;
    const Qt::CaseSensitivity cs = caseSensitivity(o);
    const bool all = type.endsWith(QLatin1String("_all"));
    const Qt::CaseSensitivity c2 = type.startsWith(QLatin1Char('i')) ? Qt::CaseInsensitive : cs;
    const QStringList values = stringList(o.value(QStringLiteral("values")).isUndefined()
                                              ? o.value(QStringLiteral("value"))
                                              : o.value(QStringLiteral("values")));
    if (values.isEmpty())
        return bad(spec, QStringLiteral("needs `values`: a list of strings"));
    return made(spec, 1.0, [values, all, c2](const EvalCase& c, const CancelToken&) {
        QStringList found, missing;
        for (const QString& v : values)
            (c.output.contains(v, c2) ? found : missing) << quoteShort(v, 40);
        const bool ok = all ? missing.isEmpty() : !found.isEmpty();
        Score s = verdict(ok, QString());
        if (all)
            s.score = double(found.size()) / double(values.size());
        s.reasoning =
            missing.isEmpty()
                ? QStringLiteral("found all of %1").arg(found.join(QStringLiteral(", ")))
            : found.isEmpty()
                ? QStringLiteral("found none of %1").arg(missing.join(QStringLiteral(", ")))
                : QStringLiteral("found %1; missing %2")
                      .arg(found.join(QStringLiteral(", ")), missing.join(QStringLiteral(", ")));
        return s;
    });
}

EvaluatorResult createRegex(const EvaluatorSpec& spec, const QString& /*type*/,
                            const EvaluatorContext& /*context*/)
{
    const QJsonObject o = spec.options;
    const QString pattern =
        o.value(QStringLiteral("pattern")).toString(o.value(QStringLiteral("value")).toString());
    QRegularExpression re(pattern, caseSensitivity(o) == Qt::CaseInsensitive
                                       ? QRegularExpression::CaseInsensitiveOption
                                       : QRegularExpression::NoPatternOption);
    if (pattern.isEmpty() || !re.isValid())
        return bad(spec, pattern.isEmpty()
                             ? QStringLiteral("needs `pattern`")
                             : QStringLiteral("bad pattern: %1").arg(re.errorString()));
    const bool full = o.value(QStringLiteral("full_match")).toBool(false);
    if (full)
        re.setPattern(QRegularExpression::anchoredPattern(pattern));
    return made(spec, 1.0, [re, pattern](const EvalCase& c, const CancelToken&) {
        const auto m = re.match(c.output);
        return verdict(
            m.hasMatch(),
            m.hasMatch() ? QStringLiteral("/%1/ matches %2").arg(pattern, quoteShort(m.captured(0)))
                         : QStringLiteral("/%1/ does not match").arg(pattern));
    });
}

EvaluatorResult createNumberWithin(const EvaluatorSpec& spec, const QString& /*type*/,
                                   const EvaluatorContext& /*context*/)
{
    const QJsonObject o = spec.options;
    const double tolerance = o.value(QStringLiteral("tolerance")).toDouble(0);
    return made(spec, 1.0, [o, tolerance](const EvalCase& c, const CancelToken&) {
        const std::optional<QString> expectedText_ = expectedText(o, c);
        const std::optional<double> expected =
            expectedText_ ? parseNumber(*expectedText_) : std::nullopt;
        if (!expected)
            return failure(QStringLiteral("no number to compare with"));
        const std::optional<double> got = parseNumber(c.output);
        if (!got)
            return verdict(false, QStringLiteral("no number in the output"));
        const double diff = std::fabs(*got - *expected);
        return verdict(diff <= tolerance + 1e-12,
                       QStringLiteral("%1 vs %2: off by %3 (tolerance %4)")
                           .arg(*got, 0, 'g', 15)
                           .arg(*expected, 0, 'g', 15)
                           .arg(diff, 0, 'g', 6)
                           .arg(tolerance));
    });
}

EvaluatorResult createIsJson(const EvaluatorSpec& spec, const QString& /*type*/,
                             const EvaluatorContext& /*context*/)
{
    return made(spec, 1.0, [](const EvalCase& c, const CancelToken&) {
        QString why;
        const bool ok = parseJson(c.output, &why).has_value();
        return verdict(ok, ok ? QStringLiteral("the output is JSON") : why);
    });
}

EvaluatorResult createJsonSchema(const EvaluatorSpec& spec, const QString& /*type*/,
                                 const EvaluatorContext& /*context*/)
{
    const QJsonObject o = spec.options;
    const QJsonValue schema = o.value(QStringLiteral("schema"));
    if (!schema.isObject() && !schema.isBool())
        return bad(spec, QStringLiteral("needs `schema`: a JSON Schema"));
    Result<pdl::JsonSchema> compiled = pdl::JsonSchema::compile(pdl::fromQJsonValue(schema));
    if (!compiled.ok())
        return bad(spec, compiled.error().message);
    const pdl::JsonSchema validator = *compiled;
    return made(spec, 1.0, [validator](const EvalCase& c, const CancelToken&) {
        QString why;
        const std::optional<QJsonValue> v = parseJson(c.output, &why);
        if (!v)
            return verdict(false, why);
        QStringList errors;
        for (const pdl::ValidationError& e : validator.validate(pdl::fromQJsonValue(*v), 10))
            errors << QString::fromStdString(e.toString());
        return verdict(errors.isEmpty(), errors.isEmpty()
                                             ? QStringLiteral("the output matches the schema")
                                             : errors.join(QLatin1Char('\n')));
    });
}

EvaluatorResult createJsonEqual(const EvaluatorSpec& spec, const QString& type,
                                const EvaluatorContext& /*context*/)
{
    const QJsonObject o = spec.options;
    const bool distance = type == QLatin1String("json_edit_distance");
    return made(spec, distance ? 0.8 : 1.0, [o, distance](const EvalCase& c, const CancelToken&) {
        QString why;
        const std::optional<QJsonValue> expected = referenceJson(o, c, &why);
        if (!expected)
            return failure(why);
        const std::optional<QJsonValue> got = parseJson(c.output, &why);
        if (!got)
            return verdict(false, QStringLiteral("the output is %1").arg(why));
        if (!distance) {
            const bool same =
                pdl::jsonEquals(pdl::fromQJsonValue(*got), pdl::fromQJsonValue(*expected));
            return verdict(same, same ? QStringLiteral("equal as JSON")
                                      : QStringLiteral("%1 differs from %2")
                                            .arg(quoteShort(canonicalJson(*got)),
                                                 quoteShort(canonicalJson(*expected))));
        }
        bool truncated = false;
        const double d = jsonEditDistance(*got, *expected, &truncated);
        Score s = verdict(false, QStringLiteral("edit distance %1 between the canonical "
                                                "forms%2")
                                     .arg(d, 0, 'f', 4)
                                     .arg(truncated ? truncationNote() : QString()));
        s.score = 1.0 - d;
        return s;
    });
}

EvaluatorResult createLevenshtein(const EvaluatorSpec& spec, const QString& /*type*/,
                                  const EvaluatorContext& /*context*/)
{
    const QJsonObject o = spec.options;
    return made(spec, 0.8, [o](const EvalCase& c, const CancelToken&) {
        const std::optional<QString> expected = expectedText(o, c);
        if (!expected)
            return failure(QStringLiteral("no reference to compare with"));
        bool truncated = false;
        const QString output = c.output.trimmed();
        const QString reference = expected->trimmed();
        const QStringView a = firstCodePoints(output, kMaxEditDistanceChars, &truncated);
        const QStringView b = firstCodePoints(reference, kMaxEditDistanceChars, &truncated);
        const int d = levenshtein(a, b);
        const int longest = std::max(codePointCount(a), codePointCount(b));
        Score s;
        s.score = longest == 0 ? 1.0 : 1.0 - double(d) / double(longest);
        s.reasoning = QStringLiteral("%1 edits (similarity %2)%3")
                          .arg(d)
                          .arg(s.score, 0, 'f', 4)
                          .arg(truncated ? truncationNote() : QString());
        return s;
    });
}

EvaluatorResult createLength(const EvaluatorSpec& spec, const QString& type,
                             const EvaluatorContext& /*context*/)
{
    const QJsonObject o = spec.options;
    const bool tokens = type == QLatin1String("length_tokens");
    const bool width = o.value(QStringLiteral("east_asian_width")).toBool(false);
    const int min = o.value(QStringLiteral("min")).toInt(0);
    const int max = o.value(QStringLiteral("max")).toInt(-1);
    if (!o.contains(QStringLiteral("min")) && !o.contains(QStringLiteral("max")))
        return bad(spec, QStringLiteral("needs `min`, `max` or both"));
    return made(spec, 1.0, [tokens, width, min, max](const EvalCase& c, const CancelToken&) {
        const QString text = c.output.trimmed();
        const int n = tokens  ? approximateTokens(text)
                      : width ? eastAsianWidth(text)
                              : codePointCount(text);
        const QString unit = tokens  ? QStringLiteral("tokens (approximate)")
                             : width ? QStringLiteral("columns (East Asian width)")
                                     : QStringLiteral("characters");
        const bool ok = n >= min && (max < 0 || n <= max);
        return verdict(ok, QStringLiteral("%1 %2; allowed %3–%4")
                               .arg(n)
                               .arg(unit)
                               .arg(min)
                               .arg(max < 0 ? QStringLiteral("∞") : QString::number(max)));
    });
}

EvaluatorResult createLatency(const EvaluatorSpec& spec, const QString& /*type*/,
                              const EvaluatorContext& /*context*/)
{
    const Result<double> limit = budget(spec, QStringLiteral("max_ms"));
    if (!limit)
        return limit.error();
    return made(spec, 1.0, [maxMs = *limit](const EvalCase& c, const CancelToken&) {
        return verdict(
            c.run.latencyMs <= maxMs,
            QStringLiteral("%1 ms; budget %2 ms").arg(c.run.latencyMs, 0, 'f', 1).arg(maxMs));
    });
}

EvaluatorResult createCost(const EvaluatorSpec& spec, const QString& /*type*/,
                           const EvaluatorContext& /*context*/)
{
    const Result<double> limit = budget(spec, QStringLiteral("max"));
    if (!limit)
        return limit.error();
    return made(spec, 1.0, [max = *limit](const EvalCase& c, const CancelToken&) {
        if (!c.run.cost)
            return failure(QStringLiteral("the run's cost is not known (no price for its "
                                          "models)"));
        return verdict(*c.run.cost <= max,
                       QStringLiteral("cost %1; budget %2").arg(*c.run.cost).arg(max));
    });
}

EvaluatorResult createEmbedding(const EvaluatorSpec& spec, const QString& /*type*/,
                                const EvaluatorContext& context)
{
    const QJsonObject o = spec.options;
    const QString model = o.value(QStringLiteral("model")).toString(context.embeddingModel);
    auto provider = context.models;
    if (!provider)
        return bad(spec, QStringLiteral("needs a model provider"));
    if (model.isEmpty())
        return bad(spec, QStringLiteral("no embedding model (`model:` or the suite's "
                                        "`embedding_model:`)"));
    return made(spec, 0.8, [o, provider, model](const EvalCase& c, const CancelToken& cancel) {
        const std::optional<QString> expected = expectedText(o, c);
        if (!expected)
            return failure(QStringLiteral("no reference to compare with"));
        auto vectors = provider->embed(model.toStdString(),
                                       {c.output.toStdString(), expected->toStdString()}, cancel);
        if (!vectors.ok())
            return failure(QStringLiteral("embedding failed: %1").arg(vectors.error().message));
        if (vectors->size() != 2)
            return failure(
                QStringLiteral("embedding gave %1 vectors for 2 texts").arg(vectors->size()));
        Score s;
        const double cos = cosine(vectors->at(0), vectors->at(1));
        s.score = std::clamp(cos, 0.0, 1.0);
        s.reasoning = QStringLiteral("cosine similarity %1 (%2)").arg(cos, 0, 'f', 4).arg(model);
        return s;
    });
}

EvaluatorResult createCriteria(const EvaluatorSpec& spec, const QString& type,
                               const EvaluatorContext& context)
{
    const QJsonObject o = spec.options;
    const Result<JudgeSetup> setup = judgeSetup(spec, context);
    if (!setup)
        return setup.error();
    const JudgeSetup j = *setup;
    QString error;
    const QString text = criteriaText(o.value(QStringLiteral("criteria")), j.language, &error);
    if (!error.isEmpty())
        return bad(spec, error);
    const bool labeled = type == QLatin1String("labeled_criteria");
    return made(spec, 1.0, [o, j, text, labeled](const EvalCase& c, const CancelToken& cancel) {
        const QString reference = valueText(c.reference);
        if (labeled && reference.isEmpty())
            return failure(QStringLiteral("labeled criteria need a reference"));
        return yesNo(j,
                     judge::criteriaPrompt(j.language, inputText(o, c.inputs), c.output, text,
                                           labeled ? &reference : nullptr),
                     cancel);
    });
}

EvaluatorResult createQa(const EvaluatorSpec& spec, const QString& type,
                         const EvaluatorContext& context)
{
    const QJsonObject o = spec.options;
    const Result<JudgeSetup> setup = judgeSetup(spec, context);
    if (!setup)
        return setup.error();
    const JudgeSetup j = *setup;
    const bool cot = type != QLatin1String("qa");
    const bool withContext = type == QLatin1String("context_qa");
    const QString contextKey =
        o.value(QStringLiteral("context_key")).toString(QStringLiteral("context"));
    return made(spec, 1.0,
                [o, j, cot, withContext, contextKey](const EvalCase& c, const CancelToken& cancel) {
                    const QString reference = valueText(c.reference);
                    if (reference.isEmpty())
                        return failure(QStringLiteral("QA needs a reference answer"));
                    const QString ctx = valueText(c.inputs.value(contextKey));
                    return yesNo(j,
                                 judge::qaPrompt(j.language, inputText(o, c.inputs), c.output,
                                                 reference, withContext ? &ctx : nullptr, cot),
                                 cancel);
                });
}

EvaluatorResult createScoreRubric(const EvaluatorSpec& spec, const QString& /*type*/,
                                  const EvaluatorContext& context)
{
    const QJsonObject o = spec.options;
    const Result<JudgeSetup> setup = judgeSetup(spec, context);
    if (!setup)
        return setup.error();
    const JudgeSetup j = *setup;
    const QString rubric = o.value(QStringLiteral("rubric"))
                               .toString(QStringLiteral(
                                   "10: fully correct, clear and complete; 1: wrong or useless."));
    const bool labeled = o.value(QStringLiteral("use_reference")).toBool(false);
    return made(spec, 0.7, [o, j, rubric, labeled](const EvalCase& c, const CancelToken& cancel) {
        const QString reference = valueText(c.reference);
        Result<QString> reply =
            ask(j,
                judge::rubricPrompt(j.language, inputText(o, c.inputs), c.output, rubric,
                                    labeled ? &reference : nullptr),
                cancel);
        if (!reply.ok())
            return judgeCallFailed(reply.error());
        const std::optional<int> rating = judge::parseRating(*reply);
        if (!rating)
            return verdictMissing(QStringLiteral("with a rating from 1 to 10"), *reply);
        Score s;
        s.score = *rating / 10.0;
        s.label = QString::number(*rating);
        s.reasoning = reply->trimmed();
        return s;
    });
}

EvaluatorResult createPairwise(const EvaluatorSpec& spec, const QString& /*type*/,
                               const EvaluatorContext& context)
{
    const QJsonObject o = spec.options;
    const Result<JudgeSetup> setup = judgeSetup(spec, context);
    if (!setup)
        return setup.error();
    const JudgeSetup j = *setup;
    QString error;
    QJsonValue criteriaValue = o.value(QStringLiteral("criteria"));
    if (criteriaValue.isUndefined())
        criteriaValue = QStringLiteral("helpfulness");
    const QString text = criteriaText(criteriaValue, j.language, &error);
    const bool labeled = o.value(QStringLiteral("use_reference")).toBool(false);
    return made(spec, 0.5, [o, j, text, labeled](const EvalCase& c, const CancelToken& cancel) {
        if (!c.hasOtherOutput)
            return failure(QStringLiteral("pairwise needs another output to compare with "
                                          "(a baseline experiment)"));
        const QString reference = valueText(c.reference);
        const QString input = inputText(o, c.inputs);
        // Twice, swapped: a judge that prefers a position disagrees with itself -> a tie.
        Result<QString> first =
            ask(j,
                judge::pairwisePrompt(j.language, input, c.output, c.otherOutput, text,
                                      labeled ? &reference : nullptr),
                cancel);
        if (!first.ok())
            return judgeCallFailed(first.error());
        Result<QString> second =
            ask(j,
                judge::pairwisePrompt(j.language, input, c.otherOutput, c.output, text,
                                      labeled ? &reference : nullptr),
                cancel);
        if (!second.ok())
            return judgeCallFailed(second.error());
        const auto a = judge::parsePreference(*first);
        const auto b = judge::parsePreference(*second);
        if (!a || !b)
            return verdictMissing(QStringLiteral("A, B or C"), !a ? *first : *second);
        // In the first call the output is A; in the second it is B.
        const double v1 = *a == QLatin1Char('A') ? 1 : *a == QLatin1Char('B') ? 0 : 0.5;
        const double v2 = *b == QLatin1Char('B') ? 1 : *b == QLatin1Char('A') ? 0 : 0.5;
        Score s;
        s.score = v1 == v2 ? v1 : 0.5;
        s.label = s.score == 1   ? QStringLiteral("better")
                  : s.score == 0 ? QStringLiteral("worse")
                                 : QStringLiteral("tie");
        s.reasoning =
            QStringLiteral("%1\n\n--- order swapped ---\n%2%3")
                .arg(first->trimmed(), second->trimmed(),
                     v1 != v2 ? QStringLiteral("\n\n(the two orders disagree: a tie)") : QString());
        return s;
    });
}

Result<std::shared_ptr<const Evaluator>> createEvaluator(const EvaluatorSpec& given,
                                                         const EvaluatorContext& context)
{
    if (Result<bool> checked = checkEvaluatorSpec(given); !checked)
        return checked.error();
    EvaluatorSpec spec = given;
    if (spec.name.isEmpty())
        spec.name = spec.type;
    const EvaluatorKind* kind = findEvaluatorKind(spec.type);
    if (!kind)
        return bad(spec, QStringLiteral("unknown type; known: %1")
                             .arg(evaluatorTypes().join(QStringLiteral(", "))));
    return kind->create(spec, normalizeType(spec.type), context);
}

QStringList evaluatorPrograms(const QList<EvaluatorSpec>& specs)
{
    QStringList programs;
    for (const EvaluatorSpec& spec : specs) {
        const EvaluatorKind* kind = findEvaluatorKind(spec.type);
        const QString program = spec.options.value(QStringLiteral("program")).toString();
        if (kind && (kind->needs & EvaluatorNeed::Program) && !program.isEmpty())
            programs << QFileInfo(program).absoluteFilePath();
    }
    return programs;
}

} // namespace hako::eval
