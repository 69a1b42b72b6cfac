// The table of evaluator kinds: createEvaluator(), evaluatorTypes(), aliases, results titles,
// the trust rule's evaluator programs and the experiment form all read it.
#include "core/eval/evaluatorkind.h"
#include "core/eval/evaluators_p.h"

#include <QCoreApplication>

namespace hako::eval {

namespace {

// The titles keep the context the results table always translated them in.
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

// One row a kind; aliases are separated by spaces.
struct Row {
    const char* name;
    const char* aliases;
    const char* title;
    unsigned needs;
    bool offeredInForm;
    const char* example;
    EvaluatorFactory create;
};

// clang-format off
constexpr Row kRows[] = {
    // name, aliases, title, needs, offered in the form, smallest options, factory
    {"exact_match", "equals exact", QT_TRANSLATE_NOOP("hako::eval::ExperimentResultsModel", "Same as the reference"), unsigned(N::Reference), true, "{}", createExactMatch},
    {"contains", "", QT_TRANSLATE_NOOP("hako::eval::ExperimentResultsModel", "Contains the reference"), unsigned(N::Reference), true, "{}", createContains},
    {"icontains", "", nullptr, unsigned(N::Reference), false, "{}", createContains},
    {"contains_any", "", nullptr, unsigned(N::None), false, R"({"values": ["a"]})", createContainsList},
    {"contains_all", "", nullptr, unsigned(N::None), false, R"({"values": ["a"]})", createContainsList},
    {"icontains_any", "", nullptr, unsigned(N::None), false, R"({"values": ["a"]})", createContainsList},
    {"icontains_all", "", nullptr, unsigned(N::None), false, R"({"values": ["a"]})", createContainsList},
    {"regex", "", nullptr, unsigned(N::None), false, R"({"pattern": "a+"})", createRegex},
    {"starts_with", "startswith", nullptr, unsigned(N::Reference), false, "{}", createContains},
    {"number_within", "number", nullptr, unsigned(N::Reference), false, "{}", createNumberWithin},
    {"is_json", "is_valid_json", QT_TRANSLATE_NOOP("hako::eval::ExperimentResultsModel", "Is valid JSON"), unsigned(N::None), true, "{}", createIsJson},
    {"json_schema", "is_json_schema", nullptr, unsigned(N::None), false, R"({"schema": {"type": "object"}})", createJsonSchema},
    {"json_equal", "json_equality", nullptr, unsigned(N::Reference), false, "{}", createJsonEqual},
    {"json_edit_distance", "", nullptr, unsigned(N::Reference), false, "{}", createJsonEqual},
    {"levenshtein", "string_distance", QT_TRANSLATE_NOOP("hako::eval::ExperimentResultsModel", "Close to the reference"), unsigned(N::Reference), true, "{}", createLevenshtein},
    {"length_chars", "length", QT_TRANSLATE_NOOP("hako::eval::ExperimentResultsModel", "Length in characters"), unsigned(N::None), true, R"({"max": 100})", createLength},
    {"length_tokens", "", nullptr, unsigned(N::None), false, R"({"max": 100})", createLength},
    {"latency", "", nullptr, unsigned(N::None), false, R"({"max_ms": 1000})", createLatency},
    {"cost", "", nullptr, unsigned(N::None), false, R"({"max": 0.01})", createCost},
    {"embedding_similarity", "embedding similar", nullptr, unsigned(N::Reference) | unsigned(N::EmbeddingModel), false, "{}", createEmbedding},
    {"criteria", "", QT_TRANSLATE_NOOP("hako::eval::ExperimentResultsModel", "Judge model"), unsigned(N::JudgeModel), true, R"({"criteria": "helpfulness"})", createCriteria},
    {"labeled_criteria", "labelled_criteria", nullptr, unsigned(N::JudgeModel) | unsigned(N::Reference), false, R"({"criteria": "correctness"})", createCriteria},
    {"qa", "", nullptr, unsigned(N::JudgeModel) | unsigned(N::Reference), false, "{}", createQa},
    {"cot_qa", "", nullptr, unsigned(N::JudgeModel) | unsigned(N::Reference), false, "{}", createQa},
    {"context_qa", "", nullptr, unsigned(N::JudgeModel) | unsigned(N::Reference), false, "{}", createQa},
    {"score_rubric", "rubric", nullptr, unsigned(N::JudgeModel), false, "{}", createScoreRubric},
    {"pairwise", "", nullptr, unsigned(N::JudgeModel) | unsigned(N::OtherOutput), false, "{}", createPairwise},
    {"trajectory", "", nullptr, unsigned(N::Trace), false, R"({"must_run": ["answer"]})", trajectory},
    {"pdl", "custom", nullptr, unsigned(N::Program), false, R"({"program": "judge.pdl"})", pdlProgram},
};
// clang-format on

std::vector<EvaluatorKind> buildKinds()
{
    std::vector<EvaluatorKind> kinds;
    for (const Row& row : kRows) {
        EvaluatorKind kind;
        kind.name = QString::fromLatin1(row.name);
        kind.aliases = QString::fromLatin1(row.aliases).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        kind.title = row.title;
        kind.needs = EvaluatorNeeds::fromInt(int(row.needs));
        kind.offeredInForm = row.offeredInForm;
        kind.example = row.example;
        kind.create = row.create;
        kinds.push_back(std::move(kind));
    }
    return kinds;
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
