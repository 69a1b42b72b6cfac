#include "core/eval/suite.h"
#include "core/eval/experiment.h"
#include "core/eval/yamljson_p.h"

#include "core/util/boundedfile.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>

#include <yaml-cpp/yaml.h>

#include <cmath>

namespace hako::eval {

namespace {

Diagnostic errorAt(const QString& path, const YAML::Node& node, const QString& message)
{
    const YAML::Mark m = node.Mark();
    return makeError(message, SourceSpan{path, m.line + 1, m.column + 1, 0, 0});
}

std::optional<double> number(const YAML::Node& node, const QString& path, const QString& key,
                             std::optional<Diagnostic>* error)
{
    const QJsonValue v = yamlToJson(node);
    if (!v.isDouble()) {
        *error = errorAt(path, node, QStringLiteral("`%1` must be a number").arg(key));
        return std::nullopt;
    }
    return v.toDouble();
}

// A number in [low, high] (a whole one when `whole`); else the error says the range.
std::optional<double> numberIn(const YAML::Node& node, const QString& path, const QString& key,
                               double low, double high, bool whole,
                               std::optional<Diagnostic>* error)
{
    const std::optional<double> n = number(node, path, key, error);
    if (!n)
        return std::nullopt;
    if (std::isfinite(*n) && *n >= low && *n <= high && (!whole || *n == std::floor(*n)))
        return n;
    *error =
        errorAt(path, node,
                QStringLiteral("`%1` must be %2 from %3 to %4 (it is %5)")
                    .arg(key, whole ? QStringLiteral("a whole number") : QStringLiteral("a number"))
                    .arg(low)
                    .arg(high)
                    .arg(*n));
    return std::nullopt;
}

} // namespace

QString Suite::resolve(const QString& relative) const
{
    if (relative.isEmpty() || QFileInfo(relative).isAbsolute() || path.isEmpty())
        return relative;
    return QFileInfo(path).dir().filePath(relative);
}

QJsonObject Suite::toJson() const
{
    QJsonArray evals;
    for (const EvaluatorSpec& e : evaluators) {
        QJsonObject o = e.options;
        o.insert(QStringLiteral("name"), e.name);
        o.insert(QStringLiteral("type"), e.type);
        if (e.threshold)
            o.insert(QStringLiteral("threshold"), *e.threshold);
        if (e.minScore)
            o.insert(QStringLiteral("min_score"), *e.minScore);
        if (e.minPassRate)
            o.insert(QStringLiteral("min_pass_rate"), *e.minPassRate);
        evals.append(o);
    }
    QJsonObject overrides;
    for (auto it = modelOverrides.begin(); it != modelOverrides.end(); ++it)
        overrides.insert(it.key(), it.value());
    QJsonObject o{
        {QStringLiteral("name"), name},         {QStringLiteral("dataset"), dataset},
        {QStringLiteral("target"), target},     {QStringLiteral("concurrency"), concurrency},
        {QStringLiteral("language"), language}, {QStringLiteral("evaluators"), evals},
        {QStringLiteral("max_drop"), maxDrop}};
    if (!description.isEmpty())
        o.insert(QStringLiteral("description"), description);
    if (!outputVariable.isEmpty())
        o.insert(QStringLiteral("output"), outputVariable);
    if (!judgeModel.isEmpty())
        o.insert(QStringLiteral("judge_model"), judgeModel);
    if (!embeddingModel.isEmpty())
        o.insert(QStringLiteral("embedding_model"), embeddingModel);
    if (!overrides.isEmpty())
        o.insert(QStringLiteral("models"), overrides);
    if (failUnder)
        o.insert(QStringLiteral("fail_under"), *failUnder);
    return o;
}

namespace {
// One top-level setting of a suite (not `evaluators` nor `models`) into `s`.
std::optional<Diagnostic> readSetting(Suite& s, const QString& key, const YAML::Node& v,
                                      const QString& path)
{
    if (!v.IsScalar())
        return errorAt(path, v, QStringLiteral("`%1` must be a single value").arg(key));
    const QString text = QString::fromStdString(v.Scalar());
    std::optional<Diagnostic> error;
    if (key == QLatin1String("name"))
        s.name = text;
    else if (key == QLatin1String("description"))
        s.description = text;
    else if (key == QLatin1String("dataset"))
        s.dataset = text;
    else if (key == QLatin1String("target"))
        s.target = text;
    else if (key == QLatin1String("output"))
        s.outputVariable = text;
    else if (key == QLatin1String("judge_model"))
        s.judgeModel = text;
    else if (key == QLatin1String("embedding_model"))
        s.embeddingModel = text;
    else if (key == QLatin1String("language"))
        s.language = text;
    else if (key == QLatin1String("concurrency")) {
        const auto n = numberIn(v, path, key, 1, ExperimentRunner::kMaxConcurrency, true, &error);
        if (!n)
            return error;
        s.concurrency = int(*n);
    } else if (key == QLatin1String("fail_under") || key == QLatin1String("max_drop")) {
        // Means and drops of scores in 0–1: anything else would pass or fail every run.
        const auto n = numberIn(v, path, key, 0, 1, false, &error);
        if (!n)
            return error;
        if (key == QLatin1String("fail_under"))
            s.failUnder = *n;
        else
            s.maxDrop = *n;
    }
    return std::nullopt;
}

// The fields of one evaluator as the suite writes it: a type name, or a mapping.
Result<EvaluatorSpec> readEvaluatorFields(const YAML::Node& item, const QString& path)
{
    EvaluatorSpec spec;
    if (item.IsScalar()) {
        spec.type = QString::fromStdString(item.Scalar());
        return spec;
    }
    if (!item.IsMap())
        return errorAt(path, item,
                       QStringLiteral("an evaluator is a type name or a mapping "
                                      "with `type:`"));
    std::optional<Diagnostic> error;
    for (const auto& kv : item) {
        const QString key = QString::fromStdString(kv.first.Scalar());
        if (key == QLatin1String("type"))
            spec.type = QString::fromStdString(kv.second.Scalar());
        else if (key == QLatin1String("name"))
            spec.name = QString::fromStdString(kv.second.Scalar());
        else if (key == QLatin1String("threshold") || key == QLatin1String("min_score") ||
                 key == QLatin1String("min_pass_rate")) {
            const auto n = number(kv.second, path, key, &error);
            if (!n)
                return *error;
            (key == QLatin1String("threshold")   ? spec.threshold
             : key == QLatin1String("min_score") ? spec.minScore
                                                 : spec.minPassRate) = *n;
        } else {
            spec.options.insert(key, yamlToJson(kv.second));
        }
    }
    return spec;
}

// One evaluator of the suite, its judge program resolved and its options checked.
Result<EvaluatorSpec> readEvaluator(const YAML::Node& item, const QString& path)
{
    Result<EvaluatorSpec> read = readEvaluatorFields(item, path);
    if (!read)
        return read.error();
    EvaluatorSpec spec = std::move(read).value();
    if (spec.type.isEmpty())
        return errorAt(path, item, QStringLiteral("this evaluator has no `type`"));
    if (spec.name.isEmpty())
        spec.name = spec.type;
    // A judge program is named relative to the suite.
    if (spec.options.contains(QStringLiteral("program")) && !path.isEmpty()) {
        const QString program = spec.options.value(QStringLiteral("program")).toString();
        if (!QFileInfo(program).isAbsolute())
            spec.options.insert(QStringLiteral("program"),
                                QFileInfo(path).absoluteDir().filePath(program));
    }
    // Checked now (options, regular expressions, schemas) so a broken suite fails before
    // any run; model-graded ones are checked without a provider for their options only.
    EvaluatorContext probe;
    probe.judgeModel = QStringLiteral("probe");
    probe.embeddingModel = QStringLiteral("probe");
    Result<std::shared_ptr<const Evaluator>> e = createEvaluator(spec, probe);
    if (!e.ok() && !e.error().message.contains(QLatin1String("model provider")))
        return errorAt(path, item, e.error().message);
    return spec;
}

Result<Suite> parseSuite(const QByteArray& yaml, const QString& path, const QStringList& otherKeys)
{
    Result<YAML::Node> loaded = loadYaml(yaml, path);
    if (!loaded)
        return loaded.error();
    YAML::Node root = *loaded;
    if (!root.IsMap())
        return errorAt(path, root,
                       QStringLiteral("a suite is a mapping (name, dataset, target, "
                                      "evaluators, …)"));
    Suite s;
    s.path = path.isEmpty() ? QString() : QFileInfo(path).absoluteFilePath();
    s.name = QFileInfo(path).completeBaseName();
    static const QStringList known{QStringLiteral("name"),        QStringLiteral("description"),
                                   QStringLiteral("dataset"),     QStringLiteral("target"),
                                   QStringLiteral("output"),      QStringLiteral("concurrency"),
                                   QStringLiteral("judge_model"), QStringLiteral("embedding_model"),
                                   QStringLiteral("language"),    QStringLiteral("models"),
                                   QStringLiteral("fail_under"),  QStringLiteral("max_drop"),
                                   QStringLiteral("evaluators")};
    for (const auto& kv : root) {
        const QString key = QString::fromStdString(kv.first.Scalar());
        if (otherKeys.contains(key))
            continue;
        if (!known.contains(key))
            return errorAt(path, kv.first,
                           QStringLiteral("unknown key `%1` (known: %2)")
                               .arg(key, (known + otherKeys).join(QStringLiteral(", "))));
        if (key == QLatin1String("evaluators") || key == QLatin1String("models"))
            continue;
        if (std::optional<Diagnostic> error = readSetting(s, key, kv.second, path))
            return *error;
    }
    if (const YAML::Node models = root["models"]) {
        if (!models.IsMap())
            return errorAt(path, models,
                           QStringLiteral("`models` maps model names to the models "
                                          "to use instead (\"*\": every model)"));
        for (const auto& kv : models)
            s.modelOverrides.insert(QString::fromStdString(kv.first.Scalar()),
                                    QString::fromStdString(kv.second.Scalar()));
    }
    const YAML::Node evaluators = root["evaluators"];
    if (!evaluators || !evaluators.IsSequence() || evaluators.size() == 0)
        return errorAt(path, evaluators ? evaluators : root,
                       QStringLiteral("`evaluators` must list at least one evaluator"));
    QSet<QString> names;
    for (const YAML::Node& item : evaluators) {
        Result<EvaluatorSpec> spec = readEvaluator(item, path);
        if (!spec)
            return spec.error();
        if (names.contains(spec->name))
            return errorAt(path, item,
                           QStringLiteral("two evaluators are named `%1`: give one a "
                                          "`name:`")
                               .arg(spec->name));
        names.insert(spec->name);
        s.evaluators.append(*spec);
    }
    return s;
}

} // namespace

Result<Suite> Suite::parse(const QByteArray& yaml, const QString& path)
{
    return parse(yaml, path, {});
}

Result<Suite> Suite::parse(const QByteArray& yaml, const QString& path,
                           const QStringList& otherKeys)
{
    try {
        return parseSuite(yaml, path, otherKeys);
    } catch (const YAML::Exception& e) {
        return yamlError(e, path);
    }
}

Result<Suite> Suite::load(const QString& path)
{
    Result<QByteArray> data = readBoundedFile(path);
    if (!data.ok())
        return data.error();
    return parse(*data, path);
}

} // namespace hako::eval
