#pragma once

// PyYAML as the oracle for YAML the playground writes: `python3 -c 'import yaml'` reads a text
// and hands it back as JSON. Tests skip when python3 or PyYAML is missing.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>

#include <optional>

namespace hako::testing {

/// The document PyYAML's safe_load reads from `text`, as JSON; nothing (and `error` set) when
/// it refuses the text or python3 is unavailable.
inline std::optional<QJsonValue> pyYamlLoad(const QString& text, QString* error = nullptr)
{
    QProcess p;
    p.start(QStringLiteral("python3"),
            {QStringLiteral("-c"),
             QStringLiteral("import yaml,sys,json; "
                            "print(json.dumps([yaml.safe_load(sys.stdin.buffer.read().decode("
                            "'utf-8'))]))")});
    if (!p.waitForStarted(10000)) {
        if (error)
            *error = QStringLiteral("python3 did not start");
        return std::nullopt;
    }
    p.write(text.toUtf8());
    p.closeWriteChannel();
    p.waitForFinished(60000);
    if (p.exitCode() != 0) {
        if (error)
            *error = QString::fromUtf8(p.readAllStandardError());
        return std::nullopt;
    }
    const QJsonDocument doc = QJsonDocument::fromJson(p.readAllStandardOutput());
    return doc.array().at(0);
}

/// pyYamlLoad() for many texts in one python3 process: one value per text, null for a text
/// PyYAML refuses (its error in `errors` at the same index).
inline std::optional<QJsonArray> pyYamlLoadMany(const QStringList& texts,
                                                QStringList* errors = nullptr)
{
    QProcess p;
    p.start(QStringLiteral("python3"),
            {QStringLiteral("-c"),
             QStringLiteral("import yaml,sys,json\n"
                            "out=[]\n"
                            "for t in json.load(sys.stdin):\n"
                            "    try: out.append([yaml.safe_load(t), ''])\n"
                            "    except Exception as e: out.append([None, str(e)])\n"
                            "print(json.dumps(out))\n")});
    if (!p.waitForStarted(10000))
        return std::nullopt;
    p.write(QJsonDocument(QJsonArray::fromStringList(texts)).toJson(QJsonDocument::Compact));
    p.closeWriteChannel();
    p.waitForFinished(120000);
    if (p.exitCode() != 0)
        return std::nullopt;
    QJsonArray values;
    for (const QJsonValue& pair : QJsonDocument::fromJson(p.readAllStandardOutput()).array()) {
        values.append(pair.toArray().at(0));
        if (errors)
            *errors << pair.toArray().at(1).toString();
    }
    return values;
}

inline bool havePyYaml()
{
    QProcess p;
    p.start(QStringLiteral("python3"), {QStringLiteral("-c"), QStringLiteral("import yaml")});
    return p.waitForFinished(30000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

} // namespace hako::testing
