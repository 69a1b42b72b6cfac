#pragma once

#include "core/util/diagnostic.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>

namespace hako::library {

/// The messages a prompt would send, for given input variables, without calling a model: the
/// program runs with every model call answered by an empty reply and recorded. Each element of
/// the result is one model call: `{model, messages: [{role, content}…], parameters}`.
///
/// Only prompts that run no code are rendered (a library served to applications must not run
/// code for whoever asks), and the run is stopped after `deadlineMs`. `fileName` places the
/// program (its includes and reads are relative to it). Any thread; blocking.
Result<QJsonArray> renderPromptMessages(const QByteArray& text, const QString& fileName,
                                        const QJsonObject& variables, int deadlineMs = 5000);

} // namespace hako::library
