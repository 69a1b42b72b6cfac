#include "core/pdl/trace/tracesource.h"
#include "core/pdl/interp/scopenames.h"

#include <algorithm>

#include <QFile>
#include <QFileInfo>

namespace hako::pdl {

Result<std::pair<QString, int>> readSourceSnippet(const SourceSpan& span,
                                                  const QString& fallbackFile, int context)
{
    if (!span.isValid())
        return makeError(QStringLiteral("the block has no source location"));
    const QString file = span.file.isEmpty() ? fallbackFile : span.file;
    if (file.isEmpty())
        return makeError(QStringLiteral("the trace does not name the program file"));
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text))
        return makeError(QStringLiteral("cannot read %1: %2").arg(file, f.errorString()));
    const int first = std::max(1, span.line - context);
    const int last = std::max(span.line, span.endLine) + context;
    QStringList lines;
    int lineNo = 0;
    while (!f.atEnd() && lineNo < last) {
        const QByteArray line = f.readLine();
        ++lineNo;
        if (lineNo >= first) {
            QString text = QString::fromUtf8(line);
            if (text.endsWith(QLatin1Char('\n')))
                text.chop(1);
            lines.append(text);
        }
    }
    if (lineNo < span.line)
        return makeError(QStringLiteral("%1 has only %2 lines; the block was at line %3 (the "
                                        "file changed since the run?)")
                             .arg(QFileInfo(file).fileName())
                             .arg(lineNo)
                             .arg(span.line));
    return std::make_pair(lines.join(QLatin1Char('\n')), first);
}

namespace {

bool plainScalar(const std::string& s)
{
    if (s.empty() || s.size() > 200)
        return false;
    static const std::string specials = ":#{}[],&*!|>'\"%@`\n\t\\";
    if (s.find_first_of(specials) != std::string::npos)
        return s.find_first_of("\n\t\\\"") == std::string::npos &&
               s.find(": ") == std::string::npos && s.find(" #") == std::string::npos &&
               s.front() != '{' && s.front() != '[' && s.front() != '\'' && s.front() != '&' &&
               s.front() != '*' && s.front() != '!' && s.front() != '|' && s.front() != '>' &&
               s.front() != '%' && s.front() != '@' && s.back() != ':';
    if (s.front() == ' ' || s.back() == ' ' || s.front() == '-' || s.front() == '?')
        return false;
    static const char* reserved[] = {"true", "false", "null", "yes", "no", "on", "off", "~"};
    for (const char* r : reserved)
        if (QString::fromStdString(s).compare(QLatin1String(r), Qt::CaseInsensitive) == 0)
            return false;
    bool numeric = true;
    for (char c : s)
        if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' ||
              c == '+' || c == '-'))
            numeric = false;
    return !numeric;
}

class YamlWriter {
public:
    explicit YamlWriter(int maxLines) : m_maxLines(maxLines) {}

    bool full() const { return m_lines.size() >= m_maxLines; }
    QString text() const
    {
        QString out = m_lines.join(QLatin1Char('\n'));
        if (m_truncated)
            out += QStringLiteral("\n# … (cut: more than %1 lines)").arg(m_maxLines);
        return out;
    }

    void line(const QString& l)
    {
        if (full()) {
            m_truncated = true;
            return;
        }
        m_lines.append(l);
    }

    static QString indent(int n) { return QString(n * 2, QLatin1Char(' ')); }

    // `prefix value` at `depth`; an empty prefix renders a container's entries at `depth`
    // without a header line (a list item's body).
    void value(const QString& prefix, const Value& v, int depth)
    {
        if (v.isString()) {
            const std::string& s = v.asString();
            if (s.find('\n') != std::string::npos && s.size() < 100000) {
                line(indent(depth) + prefix +
                     (s.back() == '\n' ? QStringLiteral("|") : QStringLiteral("|-")));
                const QStringList parts = QString::fromStdString(s).split(QLatin1Char('\n'));
                for (qsizetype i = 0; i < parts.size(); ++i) {
                    if (i == parts.size() - 1 && parts[i].isEmpty())
                        break;
                    line(parts[i].isEmpty() ? QString() : indent(depth + 1) + parts[i]);
                }
                return;
            }
            line(indent(depth) + prefix + scalar(v));
            return;
        }
        const bool list = v.isList() && !v.asList().empty();
        const bool dict = v.isDict() && !v.asDict().empty();
        if (!list && !dict) {
            line(indent(depth) + prefix + scalar(v));
            return;
        }
        int inner = depth;
        if (!prefix.isEmpty()) {
            line(indent(depth) + prefix.trimmed());
            inner = depth + 1;
        }
        if (list) {
            for (const Value& x : v.asList()) {
                if (full()) {
                    m_truncated = true;
                    return;
                }
                listItem(x, inner);
            }
            return;
        }
        for (const auto& [k, x] : v.asDict().items()) {
            if (full()) {
                m_truncated = true;
                return;
            }
            const std::string name = k.str();
            if (name.rfind("pdl__", 0) == 0)
                continue; // the interpreter's bookkeeping, not program text
            value(key(name) + QStringLiteral(": "), x, inner);
        }
    }

    // `- item` at `depth`: the item is rendered one level deeper and its first line takes the
    // dash, so a dict item reads `- key: value`.
    void listItem(const Value& x, int depth)
    {
        const qsizetype before = m_lines.size();
        value(QString(), x, depth + 1);
        if (m_lines.size() > before)
            m_lines[before] =
                indent(depth) + QStringLiteral("- ") + m_lines[before].mid((depth + 1) * 2);
    }

    static QString key(const std::string& k)
    {
        return plainScalar(k) ? QString::fromStdString(k) : QString::fromStdString(jsonQuote(k));
    }

    static QString scalar(const Value& v)
    {
        if (v.isString())
            return plainScalar(v.asString()) ? QString::fromStdString(v.asString())
                                             : QString::fromStdString(jsonQuote(v.asString()));
        if (v.isCallable())
            return QString::fromStdString(jsonQuote(v.repr()));
        return QString::fromStdString(v.json());
    }

    void block(const TraceItem* item, const QString& prefix, int depth)
    {
        const TraceNode& n = item->node;
        const QString kind = QString::fromLatin1(blockKindName(n.kind));
        // The first key goes on the `- ` line of a list item.
        QString lead = prefix;
        auto field = [&](const QString& text) {
            line(indent(depth) + lead + text);
            lead = QString(lead.size(), QLatin1Char(' '));
        };
        if (!n.description.empty())
            field(QStringLiteral("description: ") + scalar(Value(n.description)));
        if (!n.def.empty())
            field(QStringLiteral("def: ") + key(n.def));
        if (n.contribute) {
            QStringList targets;
            for (const std::string& t : *n.contribute)
                targets.append(QString::fromStdString(t));
            field(QStringLiteral("contribute: [%1]").arg(targets.join(QStringLiteral(", "))));
        }
        const int inner = depth + int(lead.size()) / 2;
        bool wroteKind = false;
        for (const auto& [name, v] : n.exprs) {
            if (full())
                break;
            const QString k = QString::fromStdString(name);
            if (k == kind)
                wroteKind = true;
            const int before = int(m_lines.size());
            value(k + QStringLiteral(": "), v, inner);
            if (int(m_lines.size()) > before && !lead.trimmed().isEmpty()) {
                // value() indented at `inner`; the first line must carry the list marker.
                m_lines[before] = indent(depth) + lead + m_lines[before].mid(inner * 2);
            }
            lead = QString(lead.size(), QLatin1Char(' '));
        }
        // Children grouped by field, in execution order.
        std::vector<std::pair<QString, std::vector<const TraceItem*>>> groups;
        for (const auto& child : item->children) {
            const QString f = child->field.empty() ? kind : QString::fromStdString(child->field);
            if (groups.empty() || groups.back().first != f)
                groups.emplace_back(f, std::vector<const TraceItem*>());
            groups.back().second.push_back(child.get());
        }
        auto hasGroup = [&](const QString& f) {
            return std::any_of(groups.begin(), groups.end(),
                               [&](const auto& g) { return g.first == f; });
        };
        for (const auto& [f, children] : groups) {
            if (full()) {
                m_truncated = true;
                return;
            }
            if (f == QLatin1String("defs")) {
                field(QStringLiteral("defs:"));
                for (const TraceItem* c : children) {
                    const QString name = defName(c);
                    line(indent(inner + 1) + (name.isEmpty() ? QStringLiteral("_") : name) +
                         QLatin1Char(':'));
                    block(c, QString(), inner + 2);
                }
                continue;
            }
            QString name = f;
            const TraceItem* only = nullptr;
            if (f.startsWith(QLatin1String("pdl__"))) {
                // Executions (loop iterations, a call's body): the program holds the body
                // once; show the first execution as the body when the trace has no other.
                const QString body = n.kind == BlockKind::Repeat ? QStringLiteral("repeat")
                                     : n.kind == BlockKind::Map  ? QStringLiteral("map")
                                                                 : QString();
                if (body.isEmpty() || hasGroup(body)) {
                    line(indent(inner) +
                         QStringLiteral("# %1 execution(s) not shown").arg(children.size()));
                    continue;
                }
                name = body;
                only = children.front();
                if (children.size() > 1)
                    line(indent(inner) + QStringLiteral("# the body, as its first of %1 "
                                                        "iterations ran")
                                             .arg(children.size()));
            }
            if (f == kind)
                wroteKind = true;
            // Fields holding one block (then, else, input, repeat…) are mappings; sequences
            // (text, lastOf, array…) are lists.
            static const QStringList listFields = {
                QStringLiteral("text"),   QStringLiteral("lastOf"),   QStringLiteral("array"),
                QStringLiteral("object"), QStringLiteral("sequence"), QStringLiteral("args")};
            if (!only && children.size() == 1 && !listFields.contains(f))
                only = children.front();
            field(name + QLatin1Char(':'));
            if (only) {
                block(only, QString(), inner + 1);
                continue;
            }
            for (const TraceItem* c : children) {
                if (full()) {
                    m_truncated = true;
                    return;
                }
                block(c, QStringLiteral("- "), inner + 1);
            }
        }
        if (!wroteKind) {
            // A block whose kind field is not an expression or child list (e.g. an empty
            // text, or a data block read without its expression): name the kind.
            if (n.kind == BlockKind::Data || n.kind == BlockKind::Get) {
                if (n.hasResult)
                    value(lead + kind + QStringLiteral(": "), n.result, depth);
                else
                    field(kind + QStringLiteral(": null"));
            } else {
                field(QStringLiteral("# kind: ") + kind);
            }
        }
    }

private:
    int m_maxLines;
    bool m_truncated = false;
    QStringList m_lines;
};

} // namespace

QString defName(const TraceItem* item)
{
    if (!item)
        return {};
    if (!item->node.def.empty())
        return QString::fromStdString(item->node.def);
    const QString id = QString::fromStdString(item->node.id);
    const qsizetype at = id.lastIndexOf(QStringLiteral(".defs."));
    // During a live run the field is not known yet; a `defs` entry's id is its parent's id,
    // `.defs.`, its name and its kind.
    const bool isDefsEntry =
        item->field == "defs" || (item->field.empty() && item->parent && at >= 0 &&
                                  id.left(at) == QString::fromStdString(item->parent->node.id) &&
                                  id.mid(at + 6).count(QLatin1Char('.')) == 1);
    if (isDefsEntry && at >= 0) {
        const QString rest = id.mid(at + 6);
        return rest.section(QLatin1Char('.'), 0, 0);
    }
    return {};
}

QString reconstructSource(const TraceItem* item, int maxLines)
{
    if (!item)
        return {};
    YamlWriter w(maxLines);
    w.block(item, QString(), 0);
    return w.text();
}

namespace {

// The program's own names first, then the interpreter's built-ins (`pdl_*`, `stdlib`): what
// a user looks for is at the top.
std::vector<std::pair<QString, Value>> ownNamesFirst(std::vector<std::pair<QString, Value>> vars)
{
    std::stable_partition(vars.begin(), vars.end(),
                          [](const auto& e) { return !isBuiltinScopeName(e.first.toStdString()); });
    return vars;
}

} // namespace

std::vector<std::pair<QString, Value>> scopeAt(const TraceItem* item, bool* reconstructed)
{
    std::vector<std::pair<QString, Value>> out;
    if (reconstructed)
        *reconstructed = false;
    if (!item)
        return out;
    if (item->node.hasScope) {
        for (const auto& [k, v] : item->node.scope.vars().items())
            out.emplace_back(QString::fromStdString(k.str()), v);
        return ownNamesFirst(std::move(out));
    }
    if (reconstructed)
        *reconstructed = true;
    // Walk from the root down to the item; at each level the earlier siblings' defs (and the
    // level's `defs`) are in scope. A later definition of a name replaces the earlier one but
    // keeps its first position, as a dict assignment would.
    std::vector<const TraceItem*> path;
    for (const TraceItem* p = item; p && p->parent; p = p->parent)
        path.push_back(p);
    auto assign = [&](const QString& name, const Value& v) {
        for (auto& e : out)
            if (e.first == name) {
                e.second = v;
                return;
            }
        out.emplace_back(name, v);
    };
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
        const TraceItem* level = *it;
        const TraceItem* parent = level->parent;
        if (!parent)
            continue;
        for (int r = 0; r < level->row && r < int(parent->children.size()); ++r) {
            const TraceItem* sib = parent->children[size_t(r)].get();
            const QString name = defName(sib);
            if (!name.isEmpty() && sib->node.hasResult)
                assign(name, sib->node.result);
        }
        // Inside a `for` loop: the iteration's loop variables.
        if (parent->node.kind == BlockKind::Repeat) {
            int iteration = 0;
            for (int r = 0; r < level->row && r < int(parent->children.size()); ++r)
                if (parent->children[size_t(r)]->field == level->field)
                    ++iteration;
            for (const auto& [field, v] : parent->node.exprs) {
                if (field == "for" && v.isDict()) {
                    for (const auto& [var, list] : v.asDict().items())
                        if (list.isList() && size_t(iteration) < list.asList().size())
                            assign(QString::fromStdString(var.str()),
                                   list.asList()[size_t(iteration)]);
                } else if (field == "index" && v.isString()) {
                    assign(QString::fromStdString(v.asString()), Value(int64_t(iteration)));
                }
            }
        }
    }
    // The item's own defs were evaluated before its body.
    for (const auto& c : item->children) {
        if (c->field != "defs")
            continue;
        const QString name = defName(c.get());
        if (!name.isEmpty() && c->node.hasResult)
            assign(name, c->node.result);
    }
    return ownNamesFirst(std::move(out));
}

} // namespace hako::pdl
