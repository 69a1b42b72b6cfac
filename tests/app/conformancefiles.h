#pragma once

// What the conformance tests (tst_conformance, tst_conformanceunit, tst_modelconformancegen)
// read alike: a recorded JSON file, and the list of cases where Hako differs on purpose.
#include <QFile>
#include <QHash>
#include <QString>

#include <nlohmann/json.hpp>

namespace conformance {

/// The JSON at `path`; a discarded value when it cannot be read or parsed.
inline nlohmann::json readJson(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return nlohmann::json();
    const QByteArray data = f.readAll();
    return nlohmann::json::parse(data.begin(), data.end(), nullptr, false);
}

/// The differences file's `CASE<keyEnd> reason` lines by case (`#` starts a comment line): the
/// case is the text before `keyEnd`'s last character (`":"` for `case: reason`, `".pdl:"` for
/// `program.pdl: reason`). Empty, with `error` set, when the file cannot be read or a line has no
/// reason.
inline QHash<QString, QString> knownDifferences(const QString& file, const QString& keyEnd,
                                                QString* error)
{
    QHash<QString, QString> out;
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) {
        *error = QStringLiteral("cannot read %1").arg(file);
        return out;
    }
    int lineNo = 0;
    while (!f.atEnd()) {
        ++lineNo;
        const QString line = QString::fromUtf8(f.readLine()).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const qsizetype at = line.indexOf(keyEnd);
        const QString reason = at < 0 ? QString() : line.mid(at + keyEnd.size()).trimmed();
        if (reason.isEmpty()) {
            *error =
                QStringLiteral("%1:%2: expected `case%3 reason`").arg(file).arg(lineNo).arg(keyEnd);
            return {};
        }
        out.insert(line.left(at + keyEnd.size() - 1).trimmed(), reason);
    }
    return out;
}

} // namespace conformance
