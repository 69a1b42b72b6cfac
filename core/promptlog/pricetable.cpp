#include "core/promptlog/pricetable.h"

#include "core/util/globmatch.h"
#include "core/util/outputfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>

namespace hako::promptlog {

const PriceTable::Entry* PriceTable::find(const QString& model) const
{
    const QByteArray name = model.toUtf8();
    for (const Entry& e : entries) {
        const QByteArray pattern = e.match.toUtf8();
        if (globMatch(std::string_view(pattern.constData(), size_t(pattern.size())),
                      std::string_view(name.constData(), size_t(name.size()))))
            return &e;
    }
    return nullptr;
}

std::optional<double> PriceTable::cost(const QString& model, std::optional<int64_t> promptTokens,
                                       std::optional<int64_t> completionTokens,
                                       std::optional<int64_t> cachedTokens) const
{
    if (!promptTokens && !completionTokens)
        return std::nullopt;
    const Entry* e = find(model);
    if (!e)
        return std::nullopt;
    const int64_t prompt = promptTokens.value_or(0);
    const int64_t cached = std::min(cachedTokens.value_or(0), prompt);
    const double cachedPrice = e->cachedInputPerMillion.value_or(e->inputPerMillion);
    return (double(prompt - cached) * e->inputPerMillion + double(cached) * cachedPrice +
            double(completionTokens.value_or(0)) * e->outputPerMillion) /
           1e6;
}

QString PriceTable::defaultPath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation))
        .filePath(QStringLiteral("prices.json"));
}

Result<PriceTable> PriceTable::load(const QString& path)
{
    PriceTable table;
    QFile file(path);
    if (!file.exists())
        return table;
    if (!file.open(QIODevice::ReadOnly))
        return makeError(
            QStringLiteral("cannot read the price table %1: %2").arg(path, file.errorString()));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (!doc.isObject())
        return makeError(QStringLiteral("the price table %1 is not a JSON object%2")
                             .arg(path, parseError.error != QJsonParseError::NoError
                                            ? QStringLiteral(": ") + parseError.errorString()
                                            : QString()));
    const QJsonObject root = doc.object();
    if (root.contains(QLatin1String("currency")))
        table.currency = root.value(QLatin1String("currency")).toString();
    int index = 0;
    for (const QJsonValue& v : root.value(QLatin1String("models")).toArray()) {
        ++index;
        const QJsonObject o = v.toObject();
        Entry e;
        e.match = o.value(QLatin1String("match")).toString();
        const QJsonValue in = o.value(QLatin1String("input"));
        const QJsonValue out = o.value(QLatin1String("output"));
        if (e.match.isEmpty() || !in.isDouble() || !out.isDouble())
            return makeError(QStringLiteral("the price table %1: model entry %2 needs \"match\" "
                                            "(a model glob) and numeric \"input\" and \"output\" "
                                            "prices per million tokens")
                                 .arg(path)
                                 .arg(index));
        e.inputPerMillion = in.toDouble();
        e.outputPerMillion = out.toDouble();
        if (o.value(QLatin1String("cached_input")).isDouble())
            e.cachedInputPerMillion = o.value(QLatin1String("cached_input")).toDouble();
        table.entries.append(e);
    }
    return table;
}

Result<bool> PriceTable::save(const QString& path) const
{
    QJsonArray models;
    for (const Entry& e : entries) {
        QJsonObject o{{QLatin1String("match"), e.match},
                      {QLatin1String("input"), e.inputPerMillion},
                      {QLatin1String("output"), e.outputPerMillion}};
        if (e.cachedInputPerMillion)
            o.insert(QLatin1String("cached_input"), *e.cachedInputPerMillion);
        models.append(o);
    }
    const QJsonObject root{{QLatin1String("currency"), currency},
                           {QLatin1String("models"), models}};
    QString error;
    if (!makeOutputFolder(QFileInfo(path).absolutePath(), &error) ||
        !writeOutputFile(path, QJsonDocument(root).toJson(QJsonDocument::Indented), &error))
        return makeError(QStringLiteral("cannot write the price table %1: %2").arg(path, error));
    return true;
}

} // namespace hako::promptlog
