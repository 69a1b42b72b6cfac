#include "core/pdl/parsers/pyregex.h"

#include <QRegularExpressionMatchIterator>

#include <list>
#include <unordered_map>

namespace hako::pdl::parsers {

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isHex(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

std::optional<std::string> groupText(const QRegularExpressionMatch& m, int i)
{
    if (m.capturedStart(i) < 0)
        return std::nullopt;
    return m.captured(i).toStdString();
}

PyRegex::Groups groupsOf(const QRegularExpressionMatch& m, int count)
{
    PyRegex::Groups g;
    g.reserve(size_t(count) + 1);
    for (int i = 0; i <= count; ++i)
        g.push_back(groupText(m, i));
    return g;
}

// Per-thread cache: QRegularExpression is documented as reentrant, so each thread matches with
// its own compiled instances.
struct RegexCache {
    static constexpr size_t kMax = 64;
    std::list<std::pair<std::string, std::shared_ptr<const PyRegex>>> order;
    std::unordered_map<std::string, decltype(order)::iterator> index;
};

} // namespace

QString PyRegex::translate(std::string_view p)
{
    std::string out;
    out.reserve(p.size() + 8);
    bool inClass = false;
    for (size_t i = 0; i < p.size(); ++i) {
        const char c = p[i];
        if (c == '\\' && i + 1 < p.size()) {
            const char e = p[i + 1];
            if (e == 'Z' && !inClass) { // Python's \Z is the very end, PCRE2's \z
                out += "\\z";
                ++i;
                continue;
            }
            if (e == 'v') { // Python: the vertical tab; PCRE2: a class of vertical spaces
                out += "\\x0b";
                ++i;
                continue;
            }
            const size_t digits = e == 'u' ? 4 : e == 'U' ? 8 : 0;
            if (digits && i + 2 + digits <= p.size()) {
                bool hex = true;
                for (size_t k = i + 2; k < i + 2 + digits; ++k)
                    hex = hex && isHex(p[k]);
                if (hex) {
                    std::string_view h = p.substr(i + 2, digits);
                    while (h.size() > 1 && h.front() == '0')
                        h.remove_prefix(1);
                    out += "\\x{";
                    out += h;
                    out += '}';
                    i += 1 + digits;
                    continue;
                }
            }
            out += c;
            out += e;
            ++i;
            continue;
        }
        if (inClass) {
            if (c == ']')
                inClass = false;
            out += c;
            continue;
        }
        if (c == '[') {
            inClass = true;
            out += c;
            // A `]` (or `^]`) right after the opening bracket is a literal.
            if (i + 1 < p.size() && p[i + 1] == '^') {
                out += '^';
                ++i;
            }
            if (i + 1 < p.size() && p[i + 1] == ']') {
                out += ']';
                ++i;
            }
            continue;
        }
        if (c == '^') {
            // In multiline mode Python's `^` also matches at the very end after a final
            // newline; PCRE2's does not.
            out += R"((?:^|(?<=\n)\z))";
            continue;
        }
        if (c == '{' && i + 1 < p.size() && p[i + 1] == ',') {
            // Python reads `{,n}` as `{0,n}`; older PCRE2 as literal text.
            size_t k = i + 2;
            while (k < p.size() && isDigit(p[k]))
                ++k;
            if (k > i + 2 && k < p.size() && p[k] == '}') {
                out += "{0";
                continue; // the `,n}` follows unchanged
            }
        }
        out += c;
    }
    return QString::fromStdString(out);
}

Result<std::shared_ptr<const PyRegex>> PyRegex::compile(std::string_view pattern)
{
    thread_local RegexCache cache;
    const std::string key(pattern);
    if (auto it = cache.index.find(key); it != cache.index.end()) {
        cache.order.splice(cache.order.begin(), cache.order, it->second);
        return it->second->second;
    }

    auto rx = std::make_shared<PyRegex>();
    rx->m_pattern = key;
    const QString translated = translate(pattern);
    const auto options =
        QRegularExpression::MultilineOption | QRegularExpression::UseUnicodePropertiesOption;
    rx->m_regex = QRegularExpression(translated, options);
    if (!rx->m_regex.isValid()) {
        // The offset counts UTF-16 units of the translated pattern: close enough for the
        // ASCII patterns people write, and the pattern is quoted by the caller.
        return makeError(QStringLiteral("%1 at position %2")
                             .arg(rx->m_regex.errorString())
                             .arg(rx->m_regex.patternErrorOffset()));
    }
    rx->m_fullRegex = QRegularExpression(QRegularExpression::anchoredPattern(translated), options);
    rx->m_regex.optimize();
    rx->m_fullRegex.optimize();
    rx->m_captureCount = rx->m_regex.captureCount();
    rx->m_groupNames = rx->m_regex.namedCaptureGroups();

    std::shared_ptr<const PyRegex> shared = rx;
    cache.order.emplace_front(key, shared);
    cache.index[key] = cache.order.begin();
    if (cache.order.size() > RegexCache::kMax) {
        cache.index.erase(cache.order.back().first);
        cache.order.pop_back();
    }
    return shared;
}

std::optional<PyRegex::Groups> PyRegex::run(std::string_view text, Anchor anchor) const
{
    const QString subject = QString::fromUtf8(text.data(), qsizetype(text.size()));
    QRegularExpressionMatch m;
    if (anchor == Anchor::Full)
        m = m_fullRegex.match(subject);
    else if (anchor == Anchor::Start)
        m = m_regex.match(subject, 0, QRegularExpression::NormalMatch,
                          QRegularExpression::AnchorAtOffsetMatchOption);
    else
        m = m_regex.match(subject);
    if (!m.hasMatch())
        return std::nullopt;
    return groupsOf(m, m_captureCount);
}

std::optional<PyRegex::Groups> PyRegex::search(std::string_view text) const
{
    return run(text, Anchor::None);
}

std::optional<PyRegex::Groups> PyRegex::match(std::string_view text) const
{
    return run(text, Anchor::Start);
}

std::optional<PyRegex::Groups> PyRegex::fullmatch(std::string_view text) const
{
    return run(text, Anchor::Full);
}

// Qt's global matching follows the same rule as Python 3.7+: after an empty match the next one
// may start at the same place only if it is not empty.
Value PyRegex::findall(std::string_view text) const
{
    const QString subject = QString::fromUtf8(text.data(), qsizetype(text.size()));
    List out;
    QRegularExpressionMatchIterator it = m_regex.globalMatch(subject);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        if (m_captureCount == 0) {
            out.emplace_back(m.captured(0).toStdString());
        } else if (m_captureCount == 1) {
            out.emplace_back(m.captured(1).toStdString());
        } else {
            List groups;
            groups.reserve(size_t(m_captureCount));
            for (int i = 1; i <= m_captureCount; ++i)
                groups.emplace_back(m.captured(i).toStdString());
            out.push_back(Value::tuple(std::move(groups)));
        }
    }
    return Value(std::move(out));
}

Value PyRegex::split(std::string_view text) const
{
    const QString subject = QString::fromUtf8(text.data(), qsizetype(text.size()));
    List out;
    qsizetype last = 0;
    QRegularExpressionMatchIterator it = m_regex.globalMatch(subject);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        out.emplace_back(subject.mid(last, m.capturedStart(0) - last).toStdString());
        for (int i = 1; i <= m_captureCount; ++i) {
            if (auto g = groupText(m, i))
                out.emplace_back(std::move(*g));
            else
                out.emplace_back(nullptr);
        }
        last = m.capturedEnd(0);
    }
    out.emplace_back(subject.mid(last).toStdString());
    return Value(std::move(out));
}

Value PyRegex::groupsList(const Groups& groups)
{
    List out;
    for (size_t i = 1; i < groups.size(); ++i)
        out.push_back(groups[i] ? Value(*groups[i]) : Value());
    return Value(std::move(out));
}

Result<Value> PyRegex::namedGroups(const Groups& groups,
                                   const std::vector<std::string>& names) const
{
    Dict out;
    for (const std::string& name : names) {
        const int index = int(m_groupNames.indexOf(QString::fromStdString(name)));
        if (index <= 0 || size_t(index) >= groups.size()) {
            return makeError(QStringLiteral("no group named '%1' in the pattern")
                                 .arg(QString::fromStdString(name)));
        }
        out.set(name, groups[size_t(index)] ? Value(*groups[size_t(index)]) : Value());
    }
    return Value(std::move(out));
}

} // namespace hako::pdl::parsers
