#pragma once

#include <QString>

#include <optional>
#include <utility>
#include <variant>

namespace hako {

/// A place in a source file. Lines and columns are 1-based and count Unicode code points;
/// 0 means "unknown". `endLine`/`endColumn` are inclusive of the last character.
struct SourceSpan {
    QString file;
    int line = 0;
    int column = 0;
    int endLine = 0;
    int endColumn = 0;

    bool isValid() const { return line > 0; }
    bool operator==(const SourceSpan&) const = default;
};

enum class Severity { Error, Warning, Note };

/// One message about a place in a source: what every core API reports instead of showing UI.
struct Diagnostic {
    Severity severity = Severity::Error;
    QString message;
    SourceSpan span;

    /// `file:line:col: error: message` (the form `hako check` prints).
    QString toString() const;
};

QString severityName(Severity s);

/// A value or the diagnostic explaining why there is none.
template <typename T> class Result {
public:
    Result(T value) : m_data(std::in_place_index<0>, std::move(value)) {}
    Result(Diagnostic error) : m_data(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return m_data.index() == 0; }
    explicit operator bool() const { return ok(); }

    const T& value() const& { return std::get<0>(m_data); }
    T& value() & { return std::get<0>(m_data); }
    // A temporary's value is moved out, never referred to: `for (x : *f())` and
    // `for (x : f().value())` then iterate a live object (a reference into the temporary
    // would dangle once the full-expression ends; ASan found one).
    T value() && { return std::get<0>(std::move(m_data)); }
    const T& operator*() const& { return value(); }
    T operator*() && { return std::move(*this).value(); }
    const T* operator->() const { return &value(); }

    const Diagnostic& error() const { return std::get<1>(m_data); }

private:
    std::variant<T, Diagnostic> m_data;
};

inline Diagnostic makeError(QString message, SourceSpan span = {})
{
    return Diagnostic{Severity::Error, std::move(message), std::move(span)};
}

} // namespace hako
