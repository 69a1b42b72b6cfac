#include "core/eval/dataset.h"

#include "core/eval/textmetrics.h"

#include "core/pdl/types/jsonschema.h"
#include "core/pdl/types/pdltype.h"
#include "core/pdl/valuejson.h"

#include <QCryptographicHash>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

#include <functional>
#include <map>
#include <optional>

namespace hako::eval {

namespace {

QString jsonType(const QJsonValue& v)
{
    switch (v.type()) {
    case QJsonValue::Bool:
        return QStringLiteral("boolean");
    case QJsonValue::Double:
        return QStringLiteral("number");
    case QJsonValue::String:
        return QStringLiteral("string");
    case QJsonValue::Array:
        return QStringLiteral("array");
    case QJsonValue::Object:
        return QStringLiteral("object");
    default:
        return QStringLiteral("null");
    }
}

// `$.inputs.question` -> `inputs.question`; `$["odd key"]` kept readable.
QString fieldOf(const std::string& path)
{
    QString p = QString::fromStdString(path);
    if (p.startsWith(QLatin1String("$.")))
        return p.mid(2);
    if (p == QLatin1String("$"))
        return QString();
    if (p.startsWith(QLatin1Char('$')))
        return p.mid(1);
    return p;
}

} // namespace

QString Example::referenceText() const
{
    if (!hasReference())
        return QString();
    if (reference.isString())
        return reference.toString();
    return canonicalJson(reference);
}

QJsonObject Example::toJson() const
{
    QJsonObject o;
    if (!id.isEmpty())
        o.insert(QStringLiteral("id"), id);
    o.insert(QStringLiteral("inputs"), inputs);
    if (!reference.isUndefined())
        o.insert(QStringLiteral("reference"), reference);
    if (!metadata.isEmpty())
        o.insert(QStringLiteral("metadata"), metadata);
    return o;
}

Example Example::fromJson(const QJsonObject& object)
{
    Example e;
    e.id = object.value(QStringLiteral("id")).toString();
    e.inputs = object.value(QStringLiteral("inputs")).toObject();
    e.reference = object.value(QStringLiteral("reference"));
    e.metadata = object.value(QStringLiteral("metadata")).toObject();
    return e;
}

void Example::ensureId()
{
    if (!id.isEmpty())
        return;
    const QByteArray digest =
        QCryptographicHash::hash(canonicalJson(inputs).toUtf8(), QCryptographicHash::Sha1);
    id = QString::fromLatin1(digest.toHex().left(12));
}

bool Example::operator==(const Example& other) const
{
    return id == other.id && inputs == other.inputs && reference == other.reference &&
           metadata == other.metadata;
}

QString ShapeProblem::toString() const
{
    if (index < 0)
        return field.isEmpty() ? reason : QStringLiteral("%1: %2").arg(field, reason);
    if (field.isEmpty())
        return QStringLiteral("example %1: %2").arg(index).arg(reason);
    return QStringLiteral("example %1: %2: %3").arg(index).arg(field, reason);
}

QJsonObject Dataset::inferSchema(const QList<Example>& examples, int sample)
{
    const int n = int(std::min<qsizetype>(examples.size(), sample));
    // Field name -> (type -> count), in first-seen order.
    QStringList order;
    QHash<QString, std::map<QString, int>> types;
    QHash<QString, int> present;
    std::map<QString, int> referenceTypes;
    int withReference = 0;
    for (int i = 0; i < n; ++i) {
        const QJsonObject& in = examples[i].inputs;
        for (auto it = in.begin(); it != in.end(); ++it) {
            if (!present.contains(it.key()))
                order << it.key();
            ++present[it.key()];
            if (!it.value().isNull())
                ++types[it.key()][jsonType(it.value())];
        }
        if (examples[i].hasReference()) {
            ++withReference;
            ++referenceTypes[jsonType(examples[i].reference)];
        }
    }
    auto majority = [](const std::map<QString, int>& counts) {
        QString best;
        int bestCount = 0;
        for (const auto& [type, count] : counts) {
            if (count > bestCount) {
                best = type;
                bestCount = count;
            }
        }
        return best;
    };
    QJsonObject properties;
    QJsonArray required;
    for (const QString& field : order) {
        QJsonObject p;
        const QString type = majority(types.value(field));
        if (!type.isEmpty())
            p.insert(QStringLiteral("type"), type);
        properties.insert(field, p);
        if (present.value(field) * 2 > n)
            required.append(field);
    }
    QJsonObject inputs{{QStringLiteral("type"), QStringLiteral("object")},
                       {QStringLiteral("properties"), properties}};
    if (!required.isEmpty())
        inputs.insert(QStringLiteral("required"), required);
    QJsonObject top{{QStringLiteral("type"), QStringLiteral("object")},
                    {QStringLiteral("properties"), QJsonObject{{QStringLiteral("inputs"), inputs}}},
                    {QStringLiteral("required"), QJsonArray{QStringLiteral("inputs")}}};
    if (n > 0 && withReference * 2 > n) {
        QJsonObject props = top.value(QStringLiteral("properties")).toObject();
        const QString t = majority(referenceTypes);
        props.insert(QStringLiteral("reference"), QJsonObject{{QStringLiteral("type"), t}});
        top.insert(QStringLiteral("properties"), props);
        top.insert(QStringLiteral("required"),
                   QJsonArray{QStringLiteral("inputs"), QStringLiteral("reference")});
    }
    return top;
}

Result<QJsonObject> Dataset::schemaFromPdlTypes(const QJsonValue& inputsType,
                                                const QJsonValue& referenceType)
{
    Result<pdl::Value> inputs = pdl::pdlTypeToJsonSchema(pdl::fromQJsonValue(inputsType));
    if (!inputs.ok())
        return inputs.error();
    QJsonObject properties{{QStringLiteral("inputs"), pdl::toQJsonValue(*inputs)}};
    QJsonArray required{QStringLiteral("inputs")};
    if (!referenceType.isUndefined() && !referenceType.isNull()) {
        Result<pdl::Value> reference = pdl::pdlTypeToJsonSchema(pdl::fromQJsonValue(referenceType));
        if (!reference.ok())
            return reference.error();
        properties.insert(QStringLiteral("reference"), pdl::toQJsonValue(*reference));
        required.append(QStringLiteral("reference"));
    }
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                       {QStringLiteral("properties"), properties},
                       {QStringLiteral("required"), required}};
}

QList<ShapeProblem> Dataset::check(const QList<Example>& examples, int firstIndex) const
{
    const QJsonObject s = schema.isEmpty() ? inferSchema(examples) : schema;
    Result<pdl::JsonSchema> compiled = pdl::JsonSchema::compile(pdl::fromQJsonValue(s));
    if (!compiled.ok())
        return {ShapeProblem{-1, QStringLiteral("schema"), compiled.error().message}};
    QList<ShapeProblem> problems;
    for (int i = 0; i < examples.size(); ++i) {
        QJsonObject shape{{QStringLiteral("inputs"), examples[i].inputs}};
        if (examples[i].hasReference())
            shape.insert(QStringLiteral("reference"), examples[i].reference);
        for (const pdl::ValidationError& e : compiled->validate(pdl::fromQJsonValue(shape), 5)) {
            QString reason = QString::fromStdString(e.message);
            QString field = fieldOf(e.path);
            // A missing required property is reported at its parent: name the field itself.
            static const QRegularExpression missing(
                QStringLiteral("(?:missing|required)[^'\"]*['\"]([^'\"]+)['\"]"));
            const auto m = missing.match(reason);
            if (m.hasMatch())
                field = field.isEmpty() ? m.captured(1) : field + QLatin1Char('.') + m.captured(1);
            problems.append(ShapeProblem{firstIndex + i, field, reason});
        }
    }
    return problems;
}

QList<ShapeProblem> Dataset::add(const QList<Example>& added)
{
    if (schema.isEmpty())
        schema = inferSchema(examples + added);
    QList<ShapeProblem> problems = check(added);
    QSet<int> bad;
    for (const ShapeProblem& p : problems)
        bad.insert(p.index);
    QSet<QString> ids;
    for (const Example& e : examples)
        ids.insert(e.id);
    for (int i = 0; i < added.size(); ++i) {
        if (bad.contains(i))
            continue;
        Example e = added[i];
        e.ensureId();
        // Two examples with the same inputs (different references) stay two examples.
        const QString base = e.id;
        for (int n = 2; ids.contains(e.id); ++n)
            e.id = base + QLatin1Char('-') + QString::number(n);
        ids.insert(e.id);
        examples.append(e);
    }
    return problems;
}

namespace {

// Why `name` cannot be a new input column among `existing`.
std::optional<Diagnostic> newInputNameProblem(const QStringList& existing, const QString& name)
{
    if (name.isEmpty())
        return makeError(QStringLiteral("an input needs a name"));
    if (existing.contains(name))
        return makeError(QStringLiteral("there is already an input named '%1'").arg(name));
    return std::nullopt;
}

// The schema's `inputs` object schema, its `properties` and `required`, edited through `edit`
// (an empty schema is the one the examples imply, first).
void editInputSchema(QJsonObject& schema, const QList<Example>& examples,
                     const std::function<void(QJsonObject& properties, QJsonArray& required)>& edit)
{
    if (schema.isEmpty())
        schema = Dataset::inferSchema(examples);
    QJsonObject props = schema.value(QStringLiteral("properties")).toObject();
    QJsonObject inputs = props.value(QStringLiteral("inputs")).toObject();
    if (inputs.isEmpty())
        inputs.insert(QStringLiteral("type"), QStringLiteral("object"));
    QJsonObject properties = inputs.value(QStringLiteral("properties")).toObject();
    QJsonArray required = inputs.value(QStringLiteral("required")).toArray();
    edit(properties, required);
    inputs.insert(QStringLiteral("properties"), properties);
    if (required.isEmpty())
        inputs.remove(QStringLiteral("required"));
    else
        inputs.insert(QStringLiteral("required"), required);
    props.insert(QStringLiteral("inputs"), inputs);
    schema.insert(QStringLiteral("properties"), props);
    if (!schema.contains(QStringLiteral("type")))
        schema.insert(QStringLiteral("type"), QStringLiteral("object"));
}

} // namespace

QStringList Dataset::inputNames() const
{
    QStringList names = schema.value(QStringLiteral("properties"))
                            .toObject()
                            .value(QStringLiteral("inputs"))
                            .toObject()
                            .value(QStringLiteral("properties"))
                            .toObject()
                            .keys();
    for (const Example& e : examples)
        for (const QString& k : e.inputs.keys())
            if (!names.contains(k))
                names << k;
    return names;
}

Result<bool> Dataset::addInput(const QString& name)
{
    const QString n = name.trimmed();
    if (std::optional<Diagnostic> bad = newInputNameProblem(inputNames(), n))
        return *bad;
    editInputSchema(schema, examples, [&](QJsonObject& properties, QJsonArray&) {
        properties.insert(n, QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}});
    });
    for (Example& e : examples)
        e.inputs.insert(n, QString());
    return true;
}

Result<bool> Dataset::renameInput(const QString& from, const QString& to)
{
    const QString n = to.trimmed();
    if (!inputNames().contains(from))
        return makeError(QStringLiteral("there is no input named '%1'").arg(from));
    if (n == from)
        return true;
    if (std::optional<Diagnostic> bad = newInputNameProblem(inputNames(), n))
        return *bad;
    editInputSchema(schema, examples, [&](QJsonObject& properties, QJsonArray& required) {
        properties.insert(n, properties.take(from));
        for (qsizetype i = 0; i < required.size(); ++i)
            if (required.at(i).toString() == from)
                required.replace(i, n);
    });
    for (Example& e : examples)
        if (e.inputs.contains(from))
            e.inputs.insert(n, e.inputs.take(from));
    return true;
}

Result<bool> Dataset::removeInput(const QString& name)
{
    if (!inputNames().contains(name))
        return makeError(QStringLiteral("there is no input named '%1'").arg(name));
    editInputSchema(schema, examples, [&](QJsonObject& properties, QJsonArray& required) {
        properties.remove(name);
        for (qsizetype i = required.size() - 1; i >= 0; --i)
            if (required.at(i).toString() == name)
                required.removeAt(i);
    });
    for (Example& e : examples)
        e.inputs.remove(name);
    return true;
}

} // namespace hako::eval
