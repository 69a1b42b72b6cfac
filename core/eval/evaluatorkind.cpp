// The table of evaluator kinds: createEvaluator(), evaluatorTypes(), aliases, results titles,
// the trust rule's evaluator programs and the experiment form all read it.
#include "core/eval/evaluatorkind.h"
#include "core/eval/evaluators_p.h"

#include <QCoreApplication>

namespace hako::eval {

namespace {

// The titles keep the context the results table always translated them in.
#define KIND_TITLE(text) QT_TRANSLATE_NOOP("hako::eval::ExperimentResultsModel", text)
constexpr const char* kTitleContext = "hako::eval::ExperimentResultsModel";

using N = EvaluatorNeed;

EvaluatorResult trajectory(const EvaluatorSpec& spec, const QString&, const EvaluatorContext&)
{
    return createTrajectoryEvaluator(spec);
}

EvaluatorResult pdlProgram(const EvaluatorSpec& spec, const QString&,
                           const EvaluatorContext& context)
{
    return createPdlEvaluator(spec, context);
}

std::vector<EvaluatorKind> buildKinds()
{
    const auto s = [](const char* text) {
        return QString::fromLatin1(text);
    };
    const auto judge = N::JudgeModel;
    return {
        {s("exact_match"),
         {s("equals"), s("exact")},
         KIND_TITLE("Same as the reference"),
         N::Reference,
         true,
         "{}",
         createExactMatch},
        {s("contains"),
         {},
         KIND_TITLE("Contains the reference"),
         N::Reference,
         true,
         "{}",
         createContains},
        {s("icontains"), {}, nullptr, N::Reference, false, "{}", createContains},
        {s("contains_any"),
         {},
         nullptr,
         N::None,
         false,
         R"({"values": ["a"]})",
         createContainsList},
        {s("contains_all"),
         {},
         nullptr,
         N::None,
         false,
         R"({"values": ["a"]})",
         createContainsList},
        {s("icontains_any"),
         {},
         nullptr,
         N::None,
         false,
         R"({"values": ["a"]})",
         createContainsList},
        {s("icontains_all"),
         {},
         nullptr,
         N::None,
         false,
         R"({"values": ["a"]})",
         createContainsList},
        {s("regex"), {}, nullptr, N::None, false, R"({"pattern": "a+"})", createRegex},
        {s("starts_with"), {s("startswith")}, nullptr, N::Reference, false, "{}", createContains},
        {s("number_within"), {s("number")}, nullptr, N::Reference, false, "{}", createNumberWithin},
        {s("is_json"),
         {s("is_valid_json")},
         KIND_TITLE("Is valid JSON"),
         N::None,
         true,
         "{}",
         createIsJson},
        {s("json_schema"),
         {s("is_json_schema")},
         nullptr,
         N::None,
         false,
         R"({"schema": {"type": "object"}})",
         createJsonSchema},
        {s("json_equal"),
         {s("json_equality")},
         nullptr,
         N::Reference,
         false,
         "{}",
         createJsonEqual},
        {s("json_edit_distance"), {}, nullptr, N::Reference, false, "{}", createJsonEqual},
        {s("levenshtein"),
         {s("string_distance")},
         KIND_TITLE("Close to the reference"),
         N::Reference,
         true,
         "{}",
         createLevenshtein},
        {s("length_chars"),
         {s("length")},
         KIND_TITLE("Length in characters"),
         N::None,
         true,
         R"({"max": 100})",
         createLength},
        {s("length_tokens"), {}, nullptr, N::None, false, R"({"max": 100})", createLength},
        {s("latency"), {}, nullptr, N::None, false, R"({"max_ms": 1000})", createLatency},
        {s("cost"), {}, nullptr, N::None, false, R"({"max": 0.01})", createCost},
        {s("embedding_similarity"),
         {s("embedding"), s("similar")},
         nullptr,
         N::Reference | N::EmbeddingModel,
         false,
         "{}",
         createEmbedding},
        {s("criteria"),
         {},
         KIND_TITLE("Judge model"),
         judge,
         true,
         R"({"criteria": "helpfulness"})",
         createCriteria},
        {s("labeled_criteria"),
         {s("labelled_criteria")},
         nullptr,
         judge | N::Reference,
         false,
         R"({"criteria": "correctness"})",
         createCriteria},
        {s("qa"), {}, nullptr, judge | N::Reference, false, "{}", createQa},
        {s("cot_qa"), {}, nullptr, judge | N::Reference, false, "{}", createQa},
        {s("context_qa"), {}, nullptr, judge | N::Reference, false, "{}", createQa},
        {s("score_rubric"), {s("rubric")}, nullptr, judge, false, "{}", createScoreRubric},
        {s("pairwise"), {}, nullptr, judge | N::OtherOutput, false, "{}", createPairwise},
        {s("trajectory"), {}, nullptr, N::Trace, false, R"({"must_run": ["answer"]})", trajectory},
        {s("pdl"),
         {s("custom")},
         nullptr,
         N::Program,
         false,
         R"({"program": "judge.pdl"})",
         pdlProgram},
    };
}

} // namespace

const std::vector<EvaluatorKind>& evaluatorKinds()
{
    static const std::vector<EvaluatorKind> kinds = buildKinds();
    return kinds;
}

QString normalizeType(QString type)
{
    type = type.trimmed().toLower().replace(QLatin1Char('-'), QLatin1Char('_'));
    const EvaluatorKind* kind = findEvaluatorKind(type);
    return kind ? kind->name : type;
}

const EvaluatorKind* findEvaluatorKind(const QString& type)
{
    const QString t = type.trimmed().toLower().replace(QLatin1Char('-'), QLatin1Char('_'));
    for (const EvaluatorKind& kind : evaluatorKinds())
        if (kind.name == t || kind.aliases.contains(t))
            return &kind;
    return nullptr;
}

QStringList evaluatorTypes()
{
    QStringList names;
    for (const EvaluatorKind& kind : evaluatorKinds())
        names << kind.name;
    return names;
}

QString evaluatorKindTitle(const QString& name)
{
    for (const EvaluatorKind& kind : evaluatorKinds())
        if (kind.name == name && kind.title)
            return QCoreApplication::translate(kTitleContext, kind.title);
    return name;
}

} // namespace hako::eval
