#include "core/playground/inputtable.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>

namespace hako::playground {

QJsonValue inputValueFromText(const QString& text)
{
    const QString t = text.trimmed();
    if (t.startsWith(QLatin1Char('[')) || t.startsWith(QLatin1Char('{'))) {
        const QJsonDocument doc = QJsonDocument::fromJson(t.toUtf8());
        if (doc.isArray())
            return doc.array();
        if (doc.isObject())
            return doc.object();
    }
    return text;
}

QString inputTextFromValue(const QJsonValue& value)
{
    switch (value.type()) {
    case QJsonValue::String:
        return value.toString();
    case QJsonValue::Array:
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    case QJsonValue::Object:
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: {
        // As JSON writes it: 3, 0.5, 1e+20.
        const QByteArray json = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
        return QString::fromUtf8(json.mid(1, json.size() - 2));
    }
    default:
        return QString();
    }
}

QString describeInputText(const QString& text)
{
    const QJsonValue v = inputValueFromText(text);
    if (v.isArray())
        return QCoreApplication::translate("hako::playground::InputTable", "a list of %n item(s)",
                                           nullptr, int(v.toArray().size()));
    if (v.isObject())
        return QCoreApplication::translate("hako::playground::InputTable",
                                           "a record of %n field(s)", nullptr,
                                           int(v.toObject().size()));
    return QCoreApplication::translate("hako::playground::InputTable",
                                       "text (%n character(s)); write [\"a\", \"b\"] for a list",
                                       nullptr, int(text.toUcs4().size()));
}

QList<QStringList> parseSpreadsheetRows(const QString& text)
{
    QList<QStringList> rows;
    QStringList row;
    QString cell;
    bool quoted = false;   // inside a quoted cell
    bool cellStart = true; // nothing of the cell read yet
    const qsizetype n = text.size();
    auto endCell = [&] {
        row << cell;
        cell.clear();
        cellStart = true;
    };
    auto endRow = [&] {
        endCell();
        rows << row;
        row.clear();
    };
    for (qsizetype i = 0; i < n; ++i) {
        const QChar c = text.at(i);
        if (quoted) {
            if (c == QLatin1Char('"')) {
                if (i + 1 < n && text.at(i + 1) == QLatin1Char('"')) {
                    cell += QLatin1Char('"');
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                cell += c;
            }
            continue;
        }
        if (c == QLatin1Char('"') && cellStart) {
            quoted = true;
            cellStart = false;
        } else if (c == QLatin1Char('\t')) {
            endCell();
        } else if (c == QLatin1Char('\r') && i + 1 < n && text.at(i + 1) == QLatin1Char('\n')) {
            continue; // the \n ends the row
        } else if (c == QLatin1Char('\n') || c == QLatin1Char('\r')) {
            endRow();
        } else {
            cell += c;
            cellStart = false;
        }
    }
    // The last row, unless the text ended with its line break.
    if (!cellStart || !cell.isEmpty() || !row.isEmpty())
        endRow();
    return rows;
}

QStringList inputRowLabels(const QList<QJsonObject>& rows, const QStringList& columns)
{
    QString column = columns.isEmpty() ? QString() : columns.first();
    for (const QString& c : columns) {
        bool differ = false;
        for (const QJsonObject& row : rows)
            differ = differ || row.value(c) != rows.first().value(c);
        if (differ) {
            column = c;
            break;
        }
    }
    QStringList labels;
    for (const QJsonObject& row : rows) {
        const QJsonValue v = row.value(column);
        QString value =
            v.isString()
                ? v.toString()
                : QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact))
                      .mid(1)
                      .chopped(1);
        value = value.simplified();
        if (value.size() > 30)
            value = value.left(29) + QChar(0x2026);
        labels << QStringLiteral("%1: %2=%3").arg(labels.size() + 1).arg(column, value);
    }
    return labels;
}

} // namespace hako::playground
