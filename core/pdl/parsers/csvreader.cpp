#include "core/pdl/parsers/csvreader.h"

#include <string>

// The states and transitions of CPython's Modules/_csv.c reader for the default dialect
// (delimiter ',', quotechar '"', doublequote, no escapechar, strict off). Python feeds it one
// line at a time (io.StringIO splits after each '\n') followed by an end-of-line marker, and
// a row is complete when the machine is back at the start of a record.

namespace hako::pdl::parsers {

namespace {

enum class State {
    StartRecord,
    StartField,
    InField,
    InQuotedField,
    QuoteInQuotedField,
    EatCrNl,
};

constexpr int kEol = -1;

class CsvMachine {
public:
    /// Feeds one character (or kEol). Returns false on a Python csv error.
    bool feed(int c)
    {
        switch (m_state) {
        case State::StartRecord:
            if (c == kEol)
                return true; // an empty line: an empty row
            if (c == '\n' || c == '\r') {
                m_state = State::EatCrNl;
                return true;
            }
            m_state = State::StartField;
            [[fallthrough]];
        case State::StartField:
            if (c == '\n' || c == '\r' || c == kEol) {
                saveField();
                m_state = c == kEol ? State::StartRecord : State::EatCrNl;
            } else if (c == '"') {
                m_state = State::InQuotedField;
            } else if (c == ',') {
                saveField();
            } else {
                addChar(c);
                m_state = State::InField;
            }
            return true;
        case State::InField:
            if (c == '\n' || c == '\r' || c == kEol) {
                saveField();
                m_state = c == kEol ? State::StartRecord : State::EatCrNl;
            } else if (c == ',') {
                saveField();
                m_state = State::StartField;
            } else {
                addChar(c);
            }
            return true;
        case State::InQuotedField:
            if (c == kEol)
                return true;
            if (c == '"')
                m_state = State::QuoteInQuotedField;
            else
                addChar(c);
            return true;
        case State::QuoteInQuotedField:
            if (c == '"') {
                addChar(c);
                m_state = State::InQuotedField;
            } else if (c == ',') {
                saveField();
                m_state = State::StartField;
            } else if (c == '\n' || c == '\r' || c == kEol) {
                saveField();
                m_state = c == kEol ? State::StartRecord : State::EatCrNl;
            } else {
                addChar(c);
                m_state = State::InField;
            }
            return true;
        case State::EatCrNl:
            if (c == '\n' || c == '\r')
                return true;
            if (c == kEol) {
                m_state = State::StartRecord;
                return true;
            }
            return false;
        }
        return true;
    }

    State state() const { return m_state; }
    bool pendingField() const { return !m_field.empty() || m_state == State::InQuotedField; }
    void saveField()
    {
        m_row.emplace_back(std::move(m_field));
        m_field.clear();
    }
    List takeRow()
    {
        List row = std::move(m_row);
        m_row.clear();
        return row;
    }

private:
    void addChar(int c) { m_field += char(c); }

    State m_state = State::StartRecord;
    std::string m_field;
    List m_row;
};

} // namespace

Result<Value> readCsv(std::string_view text)
{
    List rows;
    CsvMachine machine;
    size_t pos = 0;
    int line = 0;
    while (pos < text.size()) {
        // One io.StringIO line: up to and including '\n'.
        size_t nl = text.find('\n', pos);
        size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
        ++line;
        for (size_t i = pos; i < end; ++i) {
            if (!machine.feed(static_cast<unsigned char>(text[i]))) {
                SourceSpan span;
                span.line = span.endLine = line;
                span.column = span.endColumn = int(utf8::length(text.substr(pos, i - pos))) + 1;
                return makeError(QStringLiteral("new-line character seen in unquoted field"), span);
            }
        }
        machine.feed(kEol);
        pos = end;
        if (machine.state() == State::StartRecord)
            rows.emplace_back(machine.takeRow());
    }
    // Python saves a field left open at the end of the input (an unterminated quote).
    if (machine.state() != State::StartRecord && machine.pendingField()) {
        machine.saveField();
        rows.emplace_back(machine.takeRow());
    }
    return Value(std::move(rows));
}

} // namespace hako::pdl::parsers
