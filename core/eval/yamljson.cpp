#include "core/eval/yamljson_p.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>

#include <yaml-cpp/yaml.h>

namespace hako::eval {

QJsonValue yamlToJson(const YAML::Node& node)
{
    // An absent key of a const node is an invalid node: Type() would throw.
    if (!node.IsDefined())
        return QJsonValue(QJsonValue::Null);
    switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
        return QJsonValue(QJsonValue::Null);
    case YAML::NodeType::Sequence: {
        QJsonArray a;
        for (const YAML::Node& item : node)
            a.append(yamlToJson(item));
        return a;
    }
    case YAML::NodeType::Map: {
        QJsonObject o;
        for (const auto& kv : node)
            o.insert(QString::fromStdString(kv.first.Scalar()), yamlToJson(kv.second));
        return o;
    }
    case YAML::NodeType::Scalar:
        break;
    }
    const QString s = QString::fromStdString(node.Scalar());
    if (node.Tag() == "!")
        return s; // quoted
    static const QRegularExpression integer(QStringLiteral("^[-+]?[0-9]+$"));
    static const QRegularExpression real(
        QStringLiteral("^[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?$"));
    if (s == QLatin1String("true") || s == QLatin1String("True") || s == QLatin1String("TRUE"))
        return true;
    if (s == QLatin1String("false") || s == QLatin1String("False") || s == QLatin1String("FALSE"))
        return false;
    if (s == QLatin1String("null") || s == QLatin1String("~") || s == QLatin1String("Null"))
        return QJsonValue(QJsonValue::Null);
    if (integer.match(s).hasMatch() || real.match(s).hasMatch())
        return s.toDouble();
    return s;
}

Diagnostic yamlError(const YAML::Exception& e, const QString& origin)
{
    return makeError(QString::fromStdString(e.msg),
                     SourceSpan{origin, e.mark.line + 1, e.mark.column + 1, 0, 0});
}

Result<YAML::Node> loadYaml(const QByteArray& text, const QString& origin)
{
    try {
        return YAML::Load(text.toStdString());
    } catch (const YAML::Exception& e) {
        return yamlError(e, origin);
    }
}

} // namespace hako::eval
