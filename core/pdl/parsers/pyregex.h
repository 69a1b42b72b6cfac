#pragma once

#include "core/pdl/value.h"
#include "core/util/diagnostic.h"

#include <QRegularExpression>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace hako::pdl::parsers {

/// A Python `re` pattern compiled for QRegularExpression (PCRE2) with the flags the reference's
/// regex parser passes (re.MULTILINE), giving Python's results.
///
/// Python-only syntax is translated: `\Z` (end of text), `^` (which Python's multiline mode
/// also matches after a final newline), `\uXXXX`/`\UXXXXXXXX`, `\v` (the
/// character, not a class) and `{,n}` quantifiers; `(?P<name>…)` and `(?P=name)` are PCRE2's
/// own. `\w`, `\d`, `\s`, `\b` are Unicode-aware as in Python 3. Immutable once compiled; safe
/// to share between threads.
class PyRegex {
public:
    /// Compiles `pattern`; a syntax error names the offset inside the pattern. Compiled patterns
    /// are cached (bounded) by their text.
    static Result<std::shared_ptr<const PyRegex>> compile(std::string_view pattern);

    /// re.search / re.match / re.fullmatch: the match's groups (index 0: the whole match;
    /// nullopt for a group that did not take part), or nullopt without a match.
    using Groups = std::vector<std::optional<std::string>>;
    std::optional<Groups> search(std::string_view text) const;
    std::optional<Groups> match(std::string_view text) const;
    std::optional<Groups> fullmatch(std::string_view text) const;

    /// re.findall: a list of strings (no group: the match; one group: the group, "" when it did
    /// not take part) or of tuples of the groups ("" for those that did not take part).
    Value findall(std::string_view text) const;
    /// re.split: the pieces between matches, with the groups' values (None when they did not
    /// take part) between them; empty matches split too (Python 3.7+).
    Value split(std::string_view text) const;

    /// `m.groups()` as the reference returns it: list(m.groups()), None for missing groups.
    static Value groupsList(const Groups& groups);
    /// The named groups `names` of a match as a dict (Python's m.group(name)); an error naming
    /// the first name the pattern does not define.
    Result<Value> namedGroups(const Groups& groups, const std::vector<std::string>& names) const;

    int captureCount() const { return m_captureCount; }
    const std::string& pattern() const { return m_pattern; }

    /// The PCRE2 form of a Python pattern (exposed for tests).
    static QString translate(std::string_view pythonPattern);

private:
    enum class Anchor { None, Start, Full };
    std::optional<Groups> run(std::string_view text, Anchor anchor) const;

    std::string m_pattern;
    QRegularExpression m_regex;
    QRegularExpression m_fullRegex; ///< the pattern anchored at both ends, for fullmatch
    QStringList m_groupNames;       ///< by group number ("" for unnamed)
    int m_captureCount = 0;
};

} // namespace hako::pdl::parsers
