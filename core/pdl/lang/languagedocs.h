#pragma once

#include "core/pdl/ast/block.h"

#include <QString>

#include <optional>

namespace hako::pdl {

/// Documentation of PDL's block kinds and fields, shown by the editor on hover. Plain text
/// (may contain `code` in backticks). Immutable tables; thread-safe.
class LanguageDocs {
public:
    /// The text for block kind `keyword` (`repeat`, `model`, …; `content` is the message
    /// block), or an empty string when it is not a kind keyword.
    static QString blockKind(const QString& keyword);
    /// The text for `field` of a block of `kind` (kind-specific first, then the fields every
    /// block has), or an empty string when unknown. With no kind, kind keywords and common
    /// fields are found.
    static QString field(std::optional<BlockKind> kind, const QString& field);
    /// The text for a key of a structured value: `join`'s `as`/`with`/`reduce`, `retry`'s
    /// `tries`…, `parser`'s `regex`/`mode`, a match case's `case`/`if`/`then`. Empty when none.
    static QString subField(const QString& parent, const QString& field);
};

} // namespace hako::pdl
