#include "core/library/promptrender.h"

#include "core/pdl/code/codetrust.h"
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/model/modelprovider.h"
#include "core/pdl/parser/programparser.h"
#include "core/pdl/valuejson.h"

#include <QFileInfo>
#include <QJsonDocument>

#include <nlohmann/json.hpp>

#include <condition_variable>
#include <mutex>
#include <thread>

namespace hako::library {

namespace {

// Answers every model call with an empty reply and keeps what it was asked.
class CapturingProvider : public models::IModelProvider {
public:
    QString id() const override { return QStringLiteral("render"); }

    Result<models::ChatResponse> chat(const models::ChatRequest& request,
                                      const models::DeltaCallback&, const CancelToken&) override
    {
        QJsonArray messages;
        for (const pdl::Value& m : request.messages) {
            QJsonObject o = pdl::toQJsonObject(m);
            o.remove(QStringLiteral("pdl__defsite"));
            messages.append(o);
        }
        QJsonObject call{{QStringLiteral("model"), QString::fromStdString(request.model)},
                         {QStringLiteral("messages"), messages}};
        const QJsonValue parameters = pdl::toQJsonValue(pdl::Value(request.parameters));
        if (parameters.isObject() && !parameters.toObject().isEmpty())
            call.insert(QStringLiteral("parameters"), parameters);
        {
            std::lock_guard lock(m_mutex);
            m_calls.append(call);
        }
        models::ChatResponse r;
        r.content = "";
        pdl::Dict message;
        message.set("role", pdl::Value(std::string("assistant")));
        message.set("content", pdl::Value(std::string()));
        r.message = pdl::Value(std::move(message));
        return r;
    }

    Result<std::vector<std::vector<float>>>
    embed(const std::string&, const std::vector<std::string>& texts, const CancelToken&) override
    {
        return std::vector<std::vector<float>>(texts.size(), std::vector<float>(8, 0.0f));
    }

    Result<QStringList> listModels(const CancelToken&) override { return QStringList(); }

    QJsonArray calls() const
    {
        std::lock_guard lock(m_mutex);
        return m_calls;
    }

private:
    mutable std::mutex m_mutex;
    QJsonArray m_calls;
};

} // namespace

Result<QJsonArray> renderPromptMessages(const QByteArray& text, const QString& fileName,
                                        const QJsonObject& variables, int deadlineMs)
{
    pdl::ParseResult parsed = pdl::parseProgramText(text, fileName);
    if (!parsed.ok() || !parsed.program) {
        for (const Diagnostic& d : parsed.diagnostics)
            if (d.severity == Severity::Error)
                return d;
        return makeError(QStringLiteral("%1 is not a valid program").arg(fileName));
    }
    if (pdl::code::programRunsCode(
            *parsed.program, [](const QString& path) { return pdl::parseProgram(path).program; }))
        return makeError(QStringLiteral("%1 runs code, so its messages are not rendered here; run "
                                        "it with `hako run`")
                             .arg(QFileInfo(fileName).fileName()));
    auto provider = std::make_shared<CapturingProvider>();
    pdl::RunOptions options;
    options.models = provider;
    options.writeStdout = [](std::string_view) {
    };
    options.writeStderr = [](std::string_view) {
    };
    options.readInput = [](const std::string&, bool) {
        return std::optional<std::string>(std::string());
    };
    for (const auto& [name, value] : pdl::fromQJsonObject(variables))
        options.initialScope.set(name, value);
    // A program that loops forever is stopped at the deadline.
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
    const CancelToken cancel = options.cancel;
    std::thread watchdog([&] {
        std::unique_lock lock(m);
        if (!cv.wait_for(lock, std::chrono::milliseconds(deadlineMs), [&] { return done; }))
            cancel.cancel();
    });
    pdl::Interpreter interpreter(options);
    const pdl::RunResult result = interpreter.run(parsed.program);
    {
        std::lock_guard lock(m);
        done = true;
    }
    cv.notify_one();
    watchdog.join();
    if (cancel.isCancelled())
        return makeError(QStringLiteral("rendering %1 took longer than %2 s and was stopped")
                             .arg(QFileInfo(fileName).fileName())
                             .arg(deadlineMs / 1000.0));
    if (!result.ok)
        return result.error;
    return provider->calls();
}

} // namespace hako::library
