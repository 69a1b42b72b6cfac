#include "core/pdl/parser/referencelines.h"
#include "core/util/chars.h"

#include "core/pdl/ast/block.h"
#include "core/pdl/parser/yamlvalue.h"

#include <algorithm>
#include <map>
#include <string_view>

namespace hako::pdl {

namespace {

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && isAsciiSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isAsciiSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

// What the table reads of one line: the key it names (if any), its indentation and whether it
// starts a list item.
struct LineShape {
    std::string field;
    int indent = 0;
    bool item = false;
};

LineShape shapeOf(std::string_view line)
{
    LineShape shape;
    const std::string_view body = trimmed(line);
    if (line.find(':') != std::string_view::npos) {
        // Everything before the first colon, without any hyphen (a list marker, but also one
        // inside a key such as `max-tokens`: the reference drops those too).
        std::string key;
        for (char c : body.substr(0, body.find(':')))
            if (c != '-')
                key += c;
        shape.field = std::string(trimmed(key));
    }
    while (shape.indent < int(line.size()) && line[size_t(shape.indent)] == ' ')
        ++shape.indent;
    shape.item = !body.empty() && body.front() == '-';
    return shape;
}

// Whether the position (line, col) lies in [span start, span end).
bool holds(const SourceSpan& span, int line, int col)
{
    if (!span.isValid())
        return false;
    if (positionBefore(line, col, span.line, span.column))
        return false;
    if (span.endLine <= 0)
        return line == span.line && col == span.column;
    return positionBefore(line, col, span.endLine, span.endColumn) ||
           (line == span.line && col == span.column);
}

SourceSpan entrySpan(const YamlValue::Entry& e)
{
    SourceSpan s = e.key.span();
    const SourceSpan& v = e.value.span();
    if (v.endLine > 0) {
        s.endLine = v.endLine;
        s.endColumn = v.endColumn;
    }
    return s;
}

// Finds the path of the deepest node holding a position; a block starting right there is the
// place itself (an error of the block as a whole, not of its first field).
struct PathSearch {
    const std::vector<const YamlValue*>& blocks;
    int line = 0;
    int column = 0;
    std::vector<std::string> path;
    std::vector<std::string> found;
    bool any = false;

    bool isBlock(const YamlValue* node) const
    {
        return std::binary_search(blocks.begin(), blocks.end(), node);
    }

    void visit(const YamlValue& node)
    {
        if (!holds(node.span(), line, column))
            return;
        any = true;
        found = path;
        if (isBlock(&node) && node.span().line == line && node.span().column == column)
            return;
        if (node.isMapping()) {
            const bool match = isBlock(&node) && node.find("match");
            for (const YamlValue::Entry& e : node.entries()) {
                if (!holds(entrySpan(e), line, column))
                    continue;
                if (match && e.name == "with" && e.value.isSequence()) {
                    visitCases(e.value);
                    break;
                }
                path.push_back(e.name);
                found = path;
                visit(e.value);
                path.pop_back();
                break;
            }
        } else if (node.isSequence()) {
            visitItems(node);
        }
    }

    // The reference locates a match block's cases below the block itself, without `with`
    // (`[i]`), and a case's `then` as `return`: mostly paths its table does not have, so such
    // an error is reported at the match block.
    void visitCases(const YamlValue& cases)
    {
        const std::vector<YamlValue>& items = cases.items();
        for (size_t i = 0; i < items.size(); ++i) {
            if (!holds(items[i].span(), line, column))
                continue;
            path.push_back("[" + std::to_string(i) + "]");
            found = path;
            if (items[i].isMapping())
                for (const YamlValue::Entry& e : items[i].entries()) {
                    if (!holds(entrySpan(e), line, column))
                        continue;
                    path.push_back(e.name == "then" ? std::string("return") : e.name);
                    found = path;
                    visit(e.value);
                    path.pop_back();
                    break;
                }
            path.pop_back();
            break;
        }
    }

    void visitItems(const YamlValue& node)
    {
        const std::vector<YamlValue>& items = node.items();
        for (size_t i = 0; i < items.size(); ++i) {
            if (!holds(items[i].span(), line, column))
                continue;
            path.push_back("[" + std::to_string(i) + "]");
            visit(items[i]);
            path.pop_back();
            break;
        }
    }
};

} // namespace

ReferenceLineTable::ReferenceLineTable(const QByteArray& text)
{
    std::vector<LineShape> shapes;
    const std::string_view all(text.constData(), size_t(text.size()));
    for (size_t start = 0;;) {
        const size_t end = all.find('\n', start);
        shapes.push_back(
            shapeOf(all.substr(start, end == std::string_view::npos ? all.npos : end - start)));
        if (end == std::string_view::npos)
            break;
        start = end + 1;
    }
    // Indentations become levels 0, 1, 2… in the order of their widths; a list item sits one
    // level deeper than its dash's indentation.
    std::vector<int> widths;
    for (const LineShape& s : shapes)
        widths.push_back(s.indent);
    std::sort(widths.begin(), widths.end());
    widths.erase(std::unique(widths.begin(), widths.end()), widths.end());
    auto levelOf = [&](const LineShape& s) {
        const int level =
            int(std::lower_bound(widths.begin(), widths.end(), s.indent) - widths.begin());
        return s.item ? level + 1 : level;
    };

    // The path open at each level, and the last list position used at each level. A line at a
    // level not seen yet opens a path below the current one; a line at a shallower level closes
    // every deeper one (their list positions start again).
    std::map<int, std::vector<std::string>> open{{0, {"root"}}};
    std::map<int, int> position{{0, -1}};
    int current = 0;
    for (size_t i = 0; i < shapes.size(); ++i) {
        const LineShape& s = shapes[i];
        const int level = levelOf(s);
        if (!open.count(level)) {
            std::vector<std::string> deeper = open[current];
            deeper.push_back("___start___");
            open[level] = std::move(deeper);
        }
        position.try_emplace(level, -1);
        if (level < current) {
            open.erase(open.upper_bound(level), open.end());
            position.erase(position.upper_bound(level), position.end());
        }
        current = level;
        std::vector<std::string>& path = open[level];
        const int lineNo = int(i) + 1;
        if (s.item) {
            if (!path.empty())
                path.pop_back();
            if (!path.empty() && !path.back().empty() && path.back().front() == '[')
                path.pop_back();
            path.push_back("[" + std::to_string(++position[level]) + "]");
            m_lines[key(path)] = lineNo;
            if (!s.field.empty()) {
                path.push_back(s.field);
                m_lines[key(path)] = lineNo;
            }
        } else if (!s.field.empty()) {
            if (!path.empty())
                path.pop_back();
            path.push_back(s.field);
            m_lines[key(path)] = lineNo;
        }
    }
}

std::string ReferenceLineTable::key(const std::vector<std::string>& path)
{
    std::string k;
    for (const std::string& segment : path) {
        k += segment;
        k += '\x1f';
    }
    return k;
}

int ReferenceLineTable::line(std::vector<std::string> path) const
{
    for (; !path.empty(); path.pop_back()) {
        auto it = m_lines.find(key(path));
        if (it != m_lines.end())
            return it->second;
    }
    return 0;
}

std::vector<std::string> referenceErrorPath(const Program& program, const SourceSpan& at)
{
    if (!program.document || !at.isValid())
        return {};
    PathSearch search{program.blockNodes, at.line, at.column, {}, {}, false};
    search.visit(*program.document);
    return search.found;
}

int referenceErrorLine(const Program& program, const QByteArray& text, const SourceSpan& at)
{
    const std::vector<std::string> path = referenceErrorPath(program, at);
    if (path.empty())
        return 0;
    return ReferenceLineTable(text).line(path);
}

} // namespace hako::pdl
