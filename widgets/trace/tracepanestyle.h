#pragma once

#include "core/pdl/ast/block.h"

#include <QColor>
#include <QIcon>
#include <QPalette>
#include <QString>

namespace hako::pdl {
struct TraceItem;
}

namespace hako {

/// What a pane labels a block with: its def name (also for entries of a `defs`, whose name
/// is only in the id), else its kind.
QString itemLabel(const pdl::TraceItem* item);
/// The number of `item` among its loop's iterations (1-based, as the boxes show it: `#3`), or 0
/// when its parent is no loop (`repeat`, `for`/`map`) or it is not one of the iterations (the
/// loop's `for` values or defs). Linear in the item's row.
int iterationNumber(const pdl::TraceItem* item);
/// What a tree row shows: itemLabel, preceded by `#N` for a loop's iteration.
QString rowLabel(const pdl::TraceItem* item);
/// How the Trace Tree and the boxes label a loop's iteration number `n` (1-based): `#3  label`;
/// just `label` when `n` is 0. Pure.
QString iterationLabel(int n, const QString& label);

/// The colour that identifies a block kind in the tree, timeline and detail panes (model output
/// warm, control flow cool, literal data neutral), tuned for light or dark palettes.
QColor kindColor(pdl::BlockKind kind, const QPalette& palette);
/// A small rounded swatch of kindColor for item views.
QIcon kindIcon(pdl::BlockKind kind, const QPalette& palette);
/// The tint of a chat message by role (system, user, assistant, tool, …).
QColor roleColor(const QString& role, const QPalette& palette);
/// Human-readable duration of a nanosecond interval (`850 µs`, `12.4 ms`, `3.20 s`).
QString formatDuration(qint64 nanos);
/// Human-readable byte count (`512 B`, `12.3 KB`, `10.0 MB`).
QString formatBytes(qint64 bytes);

} // namespace hako
