#pragma once

#include <QList>
#include <QString>

namespace hako::pdl {

/// Documentation of one name a PDL program can use inside `${ }` beyond its own variables:
/// an object a run provides (`doc`, `memory`), one of its functions (`doc.search`), a built-in
/// variable (`pdl_context`) or function. The editor shows it on hover and offers it in
/// completion.
struct BuiltinDoc {
    QString name;      ///< dotted name as written in a program: `doc.search`
    QString signature; ///< `doc.search(term1, term2, …, page=1) → str`
    QString summary;   ///< a paragraph of plain text (may contain `code` in backticks)
    QString area;      ///< `documents`, `memory`, `language`, … (groups completions)
};

/// The registry of BuiltinDoc entries. The language's own entries come from
/// registerBuiltinDocs(); the objects a run is given (`doc`, `memory`, `thread`) are added where
/// runs are composed (RunEnvironment::registerBindingDocs in core/run), before the editor
/// asks. Lookups are thread-safe after that.
class BuiltinDocs {
public:
    /// Adds entries (a later entry with the same name replaces the earlier one).
    static void add(const QList<BuiltinDoc>& docs);
    /// The entry named exactly `name`, or null.
    static const BuiltinDoc* find(const QString& name);
    /// Every entry whose name starts with `prefix` (all when empty), sorted by name.
    static QList<BuiltinDoc> withPrefix(const QString& prefix);
};

/// Registers the language's own documentation (built-in variables and functions). Idempotent;
/// thread-safe.
void registerBuiltinDocs();

} // namespace hako::pdl
