#pragma once

#include "core/util/diagnostic.h"

#include <QString>

namespace hako {

/// Whether a run's error is a model block failing to get a reply: the interpreter reports a
/// model call that could not be made (no endpoint configured, no connection, refused key, unknown
/// model, timeout) at the block's `model:` value, so the error's span is read in `programText`
/// (the text of `error.span.file`; the file is read when `programText` is empty). Such errors
/// are met by configuring models, which the workbench then offers. GUI-independent; any thread.
bool isModelCallFailure(const Diagnostic& error, const QString& programText = QString());

/// The run error `error` (a model call failure) said in plain words for the message bar.
QString modelCallFailureText(const Diagnostic& error);

} // namespace hako
