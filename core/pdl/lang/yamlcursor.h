#pragma once

#include "core/pdl/ast/block.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace hako::pdl {

/// Where a cursor stands in the (possibly half-written) YAML of a PDL program, worked out from
/// the text alone so that it also works while the program does not parse: what is being typed
/// and which block (by its sibling keys) encloses it. Used by completion and hover.
struct CursorContext {
    enum class Position {
        Key,        ///< where a mapping key goes (`  ma|`, `- |`)
        Value,      ///< after `key: ` on the same line
        Expression, ///< inside an unclosed `${` on the line
        Other,      ///< comments, block-scalar text, flow collections, …
    };
    Position position = Position::Other;
    /// The identifier (dotted inside expressions) just before the cursor.
    QString prefix;
    /// The key on the cursor's line for Value positions.
    QString key;
    /// The other keys of the mapping the cursor's key belongs to.
    QStringList siblingKeys;
    /// The key whose value is that mapping (`for`, `defs`, `parameters`, …), empty at the top.
    QString parentKey;
    /// The mapping's block kind by its keys (the documented detection order); none when it has
    /// no kind keyword yet.
    std::optional<BlockKind> blockKind;
    /// 1-based column (code points) where `prefix` starts.
    int prefixColumn = 0;
};

/// The context at 1-based `line` and `column` (code points; the cursor is before that column).
/// Pure function of the text; thread-safe.
CursorContext cursorContext(const QStringList& lines, int line, int column);

/// The kind a mapping with these keys has (first kind keyword in detection order), or none.
std::optional<BlockKind> kindOfKeys(const QStringList& keys);

/// The mapping key written at (line, column), with its 1-based start and end columns, when the
/// position is on one; empty otherwise.
struct KeyAt {
    QString key;
    int startColumn = 0;
    int endColumn = 0;
};
KeyAt keyAt(const QStringList& lines, int line, int column);

/// Names to offer at a Key position: the fields of the enclosing kind plus the common fields
/// (minus those already present), or block kinds and common fields when the mapping has no
/// kind yet; fields of structured values (`join`, `retry`, `parser`) by their parent key.
QStringList keyCompletions(const CursorContext& context);

} // namespace hako::pdl
