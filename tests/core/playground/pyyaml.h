#pragma once

// PyYAML as the oracle for YAML the playground writes: texts go to one python3 process that reads
// each with yaml.safe_load and hands the documents back as JSON. The process is started on the
// first question and kept for the whole test (a test asks for hundreds of programs; starting
// python3, behind a version manager's shim on some machines, costs more than reading them).
// Tests skip when python3 or PyYAML is missing.
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>

namespace hako::testing {

namespace pyyaml_detail {

/// The one python3 process: a request is one line, a JSON list of texts; the answer one line,
/// a list of [document, error] pairs (error empty when PyYAML read the text).
class Oracle {
public:
    static Oracle& instance()
    {
        static Oracle* oracle = nullptr;
        if (!oracle) {
            oracle = new Oracle;
            // Stopped with the application: its standard input closes and its loop ends.
            qAddPostRoutine([] { delete std::exchange(oracle, nullptr); });
        }
        return *oracle;
    }

    /// The answers for `texts`, or nothing when python3 or PyYAML is unavailable or the process
    /// stopped answering.
    std::optional<QJsonArray> ask(const QStringList& texts)
    {
        if (!m_ready)
            return std::nullopt;
        QByteArray line =
            QJsonDocument(QJsonArray::fromStringList(texts)).toJson(QJsonDocument::Compact);
        line += '\n';
        m_process.write(line);
        while (!m_process.canReadLine()) {
            if (!m_process.waitForReadyRead(120000)) {
                m_ready = false;
                return std::nullopt;
            }
        }
        return QJsonDocument::fromJson(m_process.readLine()).array();
    }

    bool ready() const { return m_ready; }

    ~Oracle()
    {
        m_process.closeWriteChannel();
        if (!m_process.waitForFinished(10000))
            m_process.kill();
    }

private:
    Oracle()
    {
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.start(
            QStringLiteral("python3"),
            {QStringLiteral("-c"),
             QStringLiteral("import sys,json\n"
                            "import yaml\n"
                            "for line in sys.stdin:\n"
                            "    out=[]\n"
                            "    for t in json.loads(line):\n"
                            "        try: out.append([yaml.safe_load(t), ''])\n"
                            "        except Exception as e: out.append([None, str(e) or "
                            "type(e).__name__])\n"
                            "    sys.stdout.write(json.dumps(out)+'\\n')\n"
                            "    sys.stdout.flush()\n")});
        m_ready = m_process.waitForStarted(10000);
        // A first question tells whether PyYAML is there (the process ends at once without it).
        if (m_ready) {
            const std::optional<QJsonArray> probe = ask({QStringLiteral("a: 1")});
            m_ready = probe && probe->size() == 1;
        }
    }

    QProcess m_process;
    bool m_ready = false;
};

} // namespace pyyaml_detail

/// The document PyYAML's safe_load reads from `text`, as JSON; nothing (and `error` set) when
/// it refuses the text or python3 is unavailable.
inline std::optional<QJsonValue> pyYamlLoad(const QString& text, QString* error = nullptr)
{
    const std::optional<QJsonArray> answer = pyyaml_detail::Oracle::instance().ask({text});
    if (!answer || answer->size() != 1) {
        if (error)
            *error = QStringLiteral("python3 with PyYAML is not available");
        return std::nullopt;
    }
    const QJsonArray pair = answer->at(0).toArray();
    if (!pair.at(1).toString().isEmpty()) {
        if (error)
            *error = pair.at(1).toString();
        return std::nullopt;
    }
    return pair.at(0);
}

/// pyYamlLoad() for many texts at once: one value per text, null for a text PyYAML refuses
/// (its error in `errors` at the same index).
inline std::optional<QJsonArray> pyYamlLoadMany(const QStringList& texts,
                                                QStringList* errors = nullptr)
{
    const std::optional<QJsonArray> answer = pyyaml_detail::Oracle::instance().ask(texts);
    if (!answer || answer->size() != texts.size())
        return std::nullopt;
    QJsonArray values;
    for (const QJsonValue& pair : *answer) {
        values.append(pair.toArray().at(0));
        if (errors)
            *errors << pair.toArray().at(1).toString();
    }
    return values;
}

/// Whether python3 with PyYAML answers (asked once per test process).
inline bool havePyYaml()
{
    return pyyaml_detail::Oracle::instance().ready();
}

} // namespace hako::testing
