#pragma once

#include <QPalette>
#include <QString>
#include <QStringList>

namespace hako::pdl {
class TraceModel;
struct TraceItem;
} // namespace hako::pdl

namespace hako {

/// Limits of what the summary shows inline; longer texts are cut with a note (the Result tab
/// and "Open in full" have the rest).
inline constexpr int kInlineTextLimit = 20000;

/// The summary page of the detail pane as HTML (for a QTextBrowser): what the block is, where
/// it came from, its timing, error, result preview; for model blocks the model, parameters,
/// token usage and the messages sent, role-coloured, each with a `node:<id>` link to the block
/// that contributed it; for code blocks the code, stdout and stderr. `defsites` receives the
/// contributing block ids in message order (empty string for messages without one). Links:
/// `node:<pdl__id>` selects a node, `source:` shows the item's source.
QString nodeSummaryHtml(const pdl::TraceItem& item, const pdl::TraceModel* model,
                        const QPalette& palette, QStringList* defsites = nullptr);

/// Escapes `text` for HTML, keeping at most `limit` characters (with a note of what was cut).
QString escapedLimited(const QString& text, int limit = kInlineTextLimit);

} // namespace hako
