#pragma once

#include "core/pdl/model/modelprovider.h"
#include "core/util/diagnostic.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>

namespace hako::promptlog {
struct CallRecord;
}

namespace hako::playground {

/// One role/content row of a playground prompt.
struct PromptMessage {
    QString role = QStringLiteral("user");
    QString content;
    /// The message's parts that are not text (images: `{type: image_url, image_url: {url}}`),
    /// as the logged call sent them; sent again unchanged after the text (a message with any
    /// is sent as a list of parts). Empty for a plain text message.
    QJsonArray attachments;

    bool operator==(const PromptMessage&) const = default;
};

/// The parameters the playground shows as controls; anything else the call or block carried
/// stays in `extra` and is sent (and saved) unchanged.
struct PromptParameters {
    std::optional<double> temperature;
    std::optional<qint64> maxTokens; ///< `max_tokens`
    std::optional<double> topP;      ///< `top_p`
    QStringList stop;                ///< empty: not sent
    std::optional<qint64> seed;
    QJsonValue responseFormat; ///< `response_format`; undefined/null: not sent
    QJsonObject extra;         ///< every other parameter, as given

    /// The parameters as a model block's `parameters` mapping (only those set; `extra` first,
    /// in its order, then the known ones).
    QJsonObject toJson() const;
    /// Splits a parameters mapping into the known controls and `extra`.
    static PromptParameters fromJson(const QJsonObject& parameters);

    bool operator==(const PromptParameters&) const = default;
};

/// A prompt as the playground edits it: the messages (texts may use `${ name }` variables),
/// the model and the parameters. A plain value; copy it freely between threads.
struct PlaygroundPrompt {
    QList<PromptMessage> messages;
    QString model;
    PromptParameters parameters;
    /// The prompt's name in the log (`def`, description or `file:line`); "" when unknown.
    QString name;
    /// The identity the log files the calls under (core/pdl/promptidentity.h): the prompt's
    /// id, its program's id and name, as a run of the program gives them; "" when unknown.
    /// Every variant of a prompt keeps them: its calls count as calls of that prompt.
    QString promptId;
    QString programId;
    QString programName;

    /// The server a logged call's parameters named (`base_url`/`api_base`) and fromCall()
    /// left out; "" when none. Shown to the user, never sent to.
    QString droppedServer;

    /// The prompt a logged call sent: its messages (contents as text), model and parameters.
    /// A logged call is untrusted input (any local process can add one through `hako serve`):
    /// the parameters that choose a server or carry its credentials (`base_url`, `api_base`,
    /// `api_key`, `api_version`) are left out, so the call goes to the server configured for
    /// its model; droppedServer says where it went before.
    static PlaygroundPrompt fromCall(const promptlog::CallRecord& call);

    /// The free variables the message texts read (`${ name }`, `${ a.b | upper }` → `a`), in
    /// order of first use without duplicates, found by the PDL expression engine. Texts whose
    /// template does not parse contribute nothing (render() reports them).
    QStringList variables() const;

    /// The messages with every text evaluated as a PDL template over `inputs` (values that are
    /// not strings appear as JSON, as a `text` block shows them). The error names the message
    /// and carries the 1-based line/column inside that message's text. Thread-safe.
    Result<QList<PromptMessage>> render(const QJsonObject& inputs) const;

    /// The chat request for `renderedMessages` (see render()) with this prompt's model and
    /// parameters; `stream` asks for deltas.
    models::ChatRequest toChatRequest(const QList<PromptMessage>& renderedMessages,
                                      bool stream = true) const;

    /// "Copy as PDL": a PDL model block (YAML text, ending with a newline) with `model`,
    /// `parameters` (when any) and the messages as `input: {array: [{role, content}…]}`.
    /// Message texts stay templates (`${ name }` is kept).
    QString toPdl() const;

    bool operator==(const PlaygroundPrompt&) const = default;
};

} // namespace hako::playground

Q_DECLARE_METATYPE(hako::playground::PlaygroundPrompt)
