#include "core/playground/promptdocedit.h"

#include "core/pdl/analysis/rename.h"
#include "core/pdl/check/scopeanalysis.h"
#include "core/pdl/parser/programparser.h"
#include "core/pdl/parser/yamlvalue.h"
#include "core/pdl/valuejson.h"
#include "core/playground/yamlemit_p.h"
#include "core/playground/yamlsource_p.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QRegularExpression>

#include <map>
#include <set>
#include <vector>

namespace hako::playground {

using pdl::YamlValue;
using namespace detail;

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("hako::playground::PromptDocEdit", text);
}

/// A node's place in the tree: an index into a mapping's entries or a sequence's items per
/// level. Stays valid across edits that add or remove nothing above the node.
using Path = std::vector<int>;

template <typename Accept>
const YamlValue* findNode(const YamlValue& n, const Accept& accept, Path& path)
{
    if (accept(n))
        return &n;
    const int size = n.isMapping() ? int(n.entries().size()) : int(n.items().size());
    if (!n.isMapping() && !n.isSequence())
        return nullptr;
    for (int i = 0; i < size; ++i) {
        path.push_back(i);
        const YamlValue& child =
            n.isMapping() ? n.entries()[size_t(i)].value : n.items()[size_t(i)];
        if (const YamlValue* found = findNode(child, accept, path))
            return found;
        path.pop_back();
    }
    return nullptr;
}

const YamlValue* nodeAt(const YamlValue& root, const Path& path)
{
    const YamlValue* n = &root;
    for (int i : path) {
        if (n->isMapping() && i < int(n->entries().size()))
            n = &n->entries()[size_t(i)].value;
        else if (n->isSequence() && i < int(n->items().size()))
            n = &n->items()[size_t(i)];
        else
            return nullptr;
    }
    return n;
}

bool startsAt(const YamlValue& n, int line, int column)
{
    return n.span().line == line && n.span().column == column;
}

/// The sequence holding an item that starts at `blockSpan`, and that item's index.
const YamlValue* parentList(const YamlValue& root, const SourceSpan& blockSpan, Path& path,
                            int& index)
{
    return findNode(
        root,
        [&](const YamlValue& n) {
            if (!n.isSequence())
                return false;
            for (size_t i = 0; i < n.items().size(); ++i) {
                if (startsAt(n.items()[i], blockSpan.line, blockSpan.column)) {
                    index = int(i);
                    return true;
                }
            }
            return false;
        },
        path);
}

bool isCommentLine(const QString& line)
{
    return line.trimmed().startsWith(QLatin1Char('#'));
}

int indentOf(const QString& line)
{
    int i = 0;
    while (i < line.size() && line.at(i) == QLatin1Char(' '))
        ++i;
    return i;
}

/// Where each item of a block sequence lies in the text, as whole lines: from its `- ` line
/// (with the comments right above it at the same indentation)
/// up to the next item's start; the last one up to its last line that is indented more than
/// the dash. Nothing when the list is written inline or an item does not start on a `- ` line.
struct ListLayout {
    int dashColumn = 0;
    std::vector<qsizetype> dashLine; ///< offsets of each item's `- ` line
    std::vector<qsizetype> start;    ///< offsets where each item's lines (comments) begin
    qsizetype end = 0;               ///< one past the last item's last line (and its newline)
};

std::optional<ListLayout> layoutOf(const Source& src, const YamlValue& list)
{
    if (list.items().empty() || src.isFlow(list))
        return std::nullopt;
    const QString& text = src.text();
    ListLayout l;
    for (size_t k = 0; k < list.items().size(); ++k) {
        qsizetype i = src.start(list.items()[k]) - 1;
        while (i >= 0 && text.at(i) == QLatin1Char(' '))
            --i;
        if (i < 0 || text.at(i) != QLatin1Char('-') || !src.firstOnLine(i))
            return std::nullopt;
        const int column = int(i - src.lineStart(i));
        if (k > 0 && column != l.dashColumn)
            return std::nullopt;
        l.dashColumn = column;
        l.dashLine.push_back(src.lineStart(i));
        // The comments right above the item belong to it.
        qsizetype s = src.lineStart(i);
        while (s > 0) {
            const qsizetype prev = src.lineStart(s - 1);
            const QString line = text.mid(prev, s - 1 - prev);
            if (!isCommentLine(line) || indentOf(line) != column)
                break;
            s = prev;
        }
        l.start.push_back(s);
    }
    // The last item: its lines are those indented more than the dash (blank lines inside).
    qsizetype pos = src.lineEnd(l.dashLine.back());
    l.end = std::min(pos + 1, text.size());
    while (pos < text.size()) {
        const qsizetype from = pos + 1;
        if (from >= text.size())
            break;
        const qsizetype to = src.lineEnd(from);
        const QString line = text.mid(from, to - from);
        if (!line.trimmed().isEmpty()) {
            if (indentOf(line) <= l.dashColumn)
                break;
            l.end = std::min(to + 1, text.size());
        }
        pos = to;
    }
    return l;
}

QString newline(const QString& source)
{
    return source.contains(QLatin1String("\r\n")) ? QStringLiteral("\r\n") : QStringLiteral("\n");
}

QString withNewlines(QString text, const QString& nl)
{
    if (nl.size() > 1)
        text.replace(QLatin1Char('\n'), nl);
    return text;
}

/// Uses of each name no definition reaches, in `text` (nothing when it is not a program).
std::optional<std::map<std::string, int>> undefinedUses(const QString& text)
{
    const QByteArray utf8 = text.toUtf8();
    pdl::ParseResult parsed = pdl::parseProgramText(utf8, QString());
    if (!parsed.program)
        return std::nullopt;
    pdl::ScopeOptions options;
    options.followIncludes = false;
    const pdl::ScopeAnalysis scopes = pdl::analyzeScopes(*parsed.program, utf8, options);
    std::map<std::string, int> out;
    for (const pdl::VariableUse& u : scopes.uses) {
        if (u.definition < 0)
            ++out[u.name];
    }
    return out;
}

Result<YamlValue> load(const QString& text)
{
    return pdl::loadYaml(text.toUtf8(), QString());
}

QList<TextEdit> one(qsizetype from, qsizetype to, const QString& replacement)
{
    return {TextEdit{from, to - from, replacement}};
}

bool sameValue(const YamlValue& a, const YamlValue& b)
{
    return pdl::toQJsonValue(a.toValue()) == pdl::toQJsonValue(b.toValue());
}

bool sameItems(const YamlValue* list, const QStringList& items)
{
    if (!list || !(list->isSequence() || (items.isEmpty() && list->isNull())))
        return false;
    if (list->isNull())
        return true;
    if (list->items().size() != size_t(items.size()))
        return false;
    for (size_t i = 0; i < list->items().size(); ++i) {
        const YamlValue& item = list->items()[i];
        if (!item.isString() || QString::fromStdString(item.scalar().asString()) != items[i])
            return false;
    }
    return true;
}

/// The block list `list` holding `items`: kept items keep their lines, new ones are written.
Result<QList<TextEdit>> rewriteBlockList(const Source& src, const YamlValue& list,
                                         const ListLayout& l, const QStringList& items)
{
    const QString& text = src.text();
    const QString nl = newline(text);
    const qsizetype from = l.dashLine.front();
    if (items.isEmpty()) {
        // `key:` + lines → `key: []`: from just after the colon to the last item's last line.
        qsizetype p = from - 1;
        while (p >= 0 && text.at(p).isSpace())
            --p;
        if (p < 0 || text.at(p) != QLatin1Char(':'))
            return makeError(tr("this list cannot be emptied here — use the YAML view"));
        qsizetype to = l.end;
        while (to > p + 1 &&
               (text.at(to - 1) == QLatin1Char('\n') || text.at(to - 1) == QLatin1Char('\r')))
            --to;
        return one(p + 1, to, QStringLiteral(" []"));
    }
    // Which old items are kept (a longest common subsequence), the rest go.
    const size_t n = list.items().size();
    QStringList old;
    for (const YamlValue& item : list.items())
        old << (item.isString() ? QString::fromStdString(item.scalar().asString()) : QString());
    const size_t m = size_t(items.size());
    std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
    for (size_t i = n; i-- > 0;)
        for (size_t j = m; j-- > 0;)
            lcs[i][j] = old[qsizetype(i)] == items[qsizetype(j)] && list.items()[i].isString()
                            ? lcs[i + 1][j + 1] + 1
                            : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    auto region = [&](size_t k) {
        const qsizetype s = k == 0 ? l.dashLine[0] : l.start[k];
        const qsizetype e = k + 1 < n ? l.start[k + 1] : l.end;
        QString r = text.mid(s, e - s);
        if (!r.endsWith(QLatin1Char('\n')))
            r += nl;
        return r;
    };
    const QString pad(l.dashColumn, QLatin1Char(' '));
    QString out;
    size_t i = 0, j = 0;
    while (j < m) {
        if (i < n && old[qsizetype(i)] == items[qsizetype(j)] && list.items()[i].isString() &&
            lcs[i][j] == lcs[i + 1][j + 1] + 1) {
            out += region(i++);
            ++j;
        } else if (i < n && lcs[i + 1][j] >= lcs[i][j + 1]) {
            ++i; // removed
        } else {
            const QString value =
                scalar(items[qsizetype(j++)], ScalarStyle::Plain, l.dashColumn + 2, false);
            out += pad + QStringLiteral("- ") + withNewlines(value, nl) + nl;
        }
    }
    if (!text.mid(from, l.end - from).endsWith(QLatin1Char('\n')))
        out.chop(nl.size());
    return one(from, l.end, out);
}

} // namespace

Result<QList<TextEdit>> replaceList(const QString& source, int line, int column,
                                    const QStringList& items)
{
    Result<YamlValue> root = load(source);
    if (!root)
        return root.error();
    Path path;
    const YamlValue* list = findNode(
        *root, [&](const YamlValue& n) { return n.isSequence() && startsAt(n, line, column); },
        path);
    if (!list)
        return makeError(tr("no list starts at line %1, column %2").arg(line).arg(column));
    if (sameItems(list, items))
        return QList<TextEdit>{};
    for (const QString& item : items) {
        if (item.contains(QLatin1Char('\n')))
            return makeError(tr("an item of a list cannot hold a line break"));
    }
    const Source src(source);
    Result<QList<TextEdit>> edits = QList<TextEdit>{};
    if (src.isFlow(*list)) {
        const qsizetype s = src.start(*list);
        const qsizetype e = src.end(*list);
        if (e <= s || source.at(e - 1) != QLatin1Char(']'))
            return makeError(tr("the list at line %1 cannot be written here").arg(line));
        QStringList written;
        for (const QString& item : items)
            written << scalar(item, ScalarStyle::Plain, 0, true);
        edits = one(s, e, QLatin1Char('[') + written.join(QStringLiteral(", ")) + QLatin1Char(']'));
    } else if (const std::optional<ListLayout> l = layoutOf(src, *list)) {
        edits = rewriteBlockList(src, *list, *l, items);
    } else {
        return makeError(tr("the list at line %1 is written in a way the Prompt view cannot "
                            "change — use the YAML view")
                             .arg(line));
    }
    if (!edits)
        return edits;
    Result<YamlValue> back = load(applyEdits(source, *edits));
    if (!back || !sameItems(nodeAt(*back, path), items))
        return makeError(tr("the list at line %1 could not be written").arg(line));
    return edits;
}

Result<QList<TextEdit>> replaceFixedValue(const QString& source, int line, int column,
                                          const QJsonValue& value)
{
    if (!value.isDouble() && !value.isBool())
        return makeError(tr("only a number or yes/no can be written here"));
    Result<YamlValue> root = load(source);
    if (!root)
        return root.error();
    Path path;
    const YamlValue* node = findNode(
        *root, [&](const YamlValue& n) { return n.isScalar() && startsAt(n, line, column); }, path);
    if (!node)
        return makeError(tr("no value starts at line %1, column %2").arg(line).arg(column));
    if (pdl::toQJsonValue(node->toValue()) == value)
        return QList<TextEdit>{};
    const Source src(source);
    const QList<TextEdit> edits = one(src.start(*node), src.end(*node), flowValue(value, false));
    Result<YamlValue> back = load(applyEdits(source, edits));
    const YamlValue* again = back ? nodeAt(*back, path) : nullptr;
    if (!again || !again->isScalar() || pdl::toQJsonValue(again->toValue()) != value)
        return makeError(tr("the value at line %1 could not be written").arg(line));
    return edits;
}

Result<QList<TextEdit>> replaceFields(const QString& source, int line, int column,
                                      const QStringList& fields)
{
    QList<QPair<QString, QString>> pairs;
    QJsonObject want;
    for (const QString& f : fields) {
        const qsizetype colon = f.indexOf(QLatin1Char(':'));
        const QString name = f.left(colon).trimmed(), type = f.mid(colon + 1).trimmed();
        if (colon <= 0 || name.isEmpty() || type.isEmpty() || want.contains(name))
            return makeError(tr("write each field as “name: type” on its own line, each name "
                                "once"));
        pairs.append({name, type});
        want.insert(name, type);
    }
    if (pairs.isEmpty())
        return makeError(tr("the output format needs at least one field"));
    Result<YamlValue> root = load(source);
    if (!root)
        return root.error();
    Path path;
    const YamlValue* map = findNode(
        *root, [&](const YamlValue& n) { return n.isMapping() && startsAt(n, line, column); },
        path);
    if (!map)
        return makeError(tr("no output format starts at line %1").arg(line));
    if (pdl::toQJsonValue(map->toValue()) == QJsonValue(want))
        return QList<TextEdit>{};
    const Source src(source);
    const bool flow = src.isFlow(*map);
    QStringList written;
    for (const auto& [name, type] : pairs)
        written << scalar(name, ScalarStyle::Plain, 0, flow) + QStringLiteral(": ") +
                       scalar(type, ScalarStyle::Plain, 0, flow);
    QList<TextEdit> edits;
    if (flow) {
        const qsizetype s = src.start(*map), e = src.end(*map);
        if (e <= s || source.at(e - 1) != QLatin1Char('}'))
            return makeError(tr("the output format at line %1 cannot be written").arg(line));
        edits = one(s, e, QLatin1Char('{') + written.join(QStringLiteral(", ")) + QLatin1Char('}'));
    } else {
        // One `name: type` line per field, from the first key to the end of the last value.
        const qsizetype s = src.start(*map);
        const qsizetype e = src.end(map->entries().back().value);
        if (!src.firstOnLine(s) || source.mid(s, e - s).contains(QLatin1Char('#')))
            return makeError(tr("the output format at line %1 is written in a way the Prompt "
                                "view cannot change — use the YAML view")
                                 .arg(line));
        const QString pad(Source::column(*map), QLatin1Char(' '));
        edits = one(s, e, written.join(newline(source) + pad));
    }
    Result<YamlValue> back = load(applyEdits(source, edits));
    const YamlValue* again = back ? nodeAt(*back, path) : nullptr;
    if (!again || pdl::toQJsonValue(again->toValue()) != QJsonValue(want))
        return makeError(tr("the output format at line %1 could not be written").arg(line));
    return edits;
}

QString freePromptName(const QString& source, const QString& base)
{
    for (int n = 1;; ++n) {
        const QString name = n == 1 ? base : base + QString::number(n);
        const QRegularExpression used(
            QStringLiteral("(?<![\\w])%1(?![\\w])").arg(QRegularExpression::escape(name)));
        if (!used.match(source).hasMatch())
            return name;
    }
}

Result<QList<TextEdit>> addPrompt(const QString& source, const QString& name, const QString& model,
                                  const QString& instruction)
{
    if (const QString why = pdl::checkVariableName(name); !why.isEmpty())
        return makeError(why);
    Result<YamlValue> root = load(source);
    if (!root)
        return root.error();
    Path path;
    const YamlValue* list = root->isSequence() ? &*root : nullptr;
    if (!list && root->isMapping() && root->value("text") && root->value("text")->isSequence()) {
        path = {int(root->find("text") - root->entries().data())};
        list = root->value("text");
    }
    const Source src(source);
    const std::optional<ListLayout> l = list ? layoutOf(src, *list) : std::nullopt;
    if (!l)
        return makeError(tr("a prompt can only be added to a program whose steps are a list "
                            "under “text:” — use the YAML view"));
    const QString nl = newline(source);
    const QString pad(l->dashColumn, QLatin1Char(' '));
    QString block = pad + QStringLiteral("- def: ") + name + QLatin1Char('\n') + pad +
                    QStringLiteral("  model: ") + scalar(model, ScalarStyle::Plain, 0, false) +
                    QLatin1Char('\n') + pad + QStringLiteral("  input: ") +
                    scalar(instruction, ScalarStyle::Literal, l->dashColumn + 4, false) +
                    QLatin1Char('\n');
    block = withNewlines(block, nl);
    if (l->end > 0 && source.at(l->end - 1) != QLatin1Char('\n'))
        block.prepend(nl);
    const QList<TextEdit> edits{TextEdit{l->end, 0, block}};
    const QString after = applyEdits(source, edits);
    Result<YamlValue> back = load(after);
    const YamlValue* again = back ? nodeAt(*back, path) : nullptr;
    const bool ok =
        again && again->isSequence() && again->items().size() == list->items().size() + 1;
    const YamlValue* added = ok ? &again->items().back() : nullptr;
    auto is = [&](const char* key, const QString& want) {
        const YamlValue* v = added && added->isMapping() ? added->value(key) : nullptr;
        return v && v->isString() && QString::fromStdString(v->scalar().asString()) == want;
    };
    if (!is("def", name) || !is("model", model) || !is("input", instruction) ||
        !pdl::parseProgramText(after.toUtf8(), QString()).program)
        return makeError(tr("the new prompt could not be written"));
    return edits;
}

Result<QList<TextEdit>> movePrompt(const QString& source, const SourceSpan& blockSpan, int delta)
{
    Result<YamlValue> root = load(source);
    if (!root)
        return root.error();
    Path path;
    int index = -1;
    const YamlValue* list = parentList(*root, blockSpan, path, index);
    if (!list)
        return makeError(tr("this step is not in a list of steps"));
    const int other = index + (delta < 0 ? -1 : 1);
    if (other < 0 || other >= int(list->items().size()))
        return makeError(delta < 0 ? tr("it is already the first step here")
                                   : tr("it is already the last step here"));
    const Source src(source);
    const std::optional<ListLayout> l = layoutOf(src, *list);
    if (!l)
        return makeError(tr("the steps here are written in a way the Prompt view cannot "
                            "reorder — use the YAML view"));
    const size_t a = size_t(std::min(index, other)), b = a + 1;
    const qsizetype aStart = l->start[a], bStart = l->start[b];
    const qsizetype bEnd = b + 1 < l->start.size() ? l->start[b + 1] : l->end;
    // The last step of a file without a final newline: a block text there has no final line
    // break, which it would gain elsewhere; the file gets its final newline first.
    if (bEnd == source.size() && !source.endsWith(QLatin1Char('\n'))) {
        Result<QList<TextEdit>> edits = movePrompt(source + newline(source), blockSpan, delta);
        if (!edits || edits->size() != 1)
            return edits;
        QList<TextEdit> e = *edits;
        e[0].length -= newline(source).size();
        return e;
    }
    const QList<TextEdit> edits =
        one(aStart, bEnd, source.mid(bStart, bEnd - bStart) + source.mid(aStart, bStart - aStart));
    const QString after = applyEdits(source, edits);
    Result<YamlValue> back = load(after);
    const YamlValue* again = back ? nodeAt(*back, path) : nullptr;
    if (!again || !again->isSequence() || again->items().size() != list->items().size() ||
        !sameValue(again->items()[a], list->items()[b]) ||
        !sameValue(again->items()[b], list->items()[a]))
        return makeError(tr("the step could not be moved"));
    const auto before = undefinedUses(source);
    const auto now = undefinedUses(after);
    if (!now)
        return makeError(tr("the step could not be moved"));
    QStringList early;
    for (const auto& [name, count] : *now) {
        if (!before || count > (before->count(name) ? before->at(name) : 0))
            early << QStringLiteral("“%1”").arg(QString::fromStdString(name));
    }
    if (!early.isEmpty())
        return makeError(tr("moving it there would use %1 before the step that sets it")
                             .arg(early.join(tr(", "))));
    return edits;
}

Result<QList<TextEdit>> removePrompt(const QString& source, const SourceSpan& blockSpan)
{
    Result<YamlValue> root = load(source);
    if (!root)
        return root.error();
    Path path;
    int index = -1;
    const YamlValue* list = parentList(*root, blockSpan, path, index);
    if (!list)
        return makeError(tr("this step is not in a list of steps"));
    if (list->items().size() < 2)
        return makeError(tr("it is the only step here; a program needs at least one"));
    const Source src(source);
    const std::optional<ListLayout> l = layoutOf(src, *list);
    if (!l)
        return makeError(tr("the steps here are written in a way the Prompt view cannot "
                            "change — use the YAML view"));
    const size_t k = size_t(index);
    qsizetype from = l->start[k];
    qsizetype to = k + 1 < l->start.size() ? l->start[k + 1] : l->end;
    // The last item of a file without a final newline: take the line break before it.
    if (k + 1 == l->start.size() && !source.mid(from, to - from).endsWith(QLatin1Char('\n')))
        from = std::max<qsizetype>(0, from - newline(source).size());
    const QList<TextEdit> edits = one(from, to, QString());
    Result<YamlValue> back = load(applyEdits(source, edits));
    const YamlValue* again = back ? nodeAt(*back, path) : nullptr;
    if (!again || !again->isSequence() || again->items().size() + 1 != list->items().size() ||
        !pdl::parseProgramText(applyEdits(source, edits).toUtf8(), QString()).program)
        return makeError(tr("the step could not be removed"));
    return edits;
}

namespace {

struct Analysed {
    pdl::ParseResult parsed;
    pdl::ScopeAnalysis scopes;
    QByteArray utf8;
};

std::optional<Analysed> analyse(const QString& source)
{
    Analysed a;
    a.utf8 = source.toUtf8();
    a.parsed = pdl::parseProgramText(a.utf8, QString());
    if (!a.parsed.program)
        return std::nullopt;
    pdl::ScopeOptions options;
    options.followIncludes = false;
    a.scopes = pdl::analyzeScopes(*a.parsed.program, a.utf8, options);
    return a;
}

/// The `def` value of the mapping at `blockSpan`, and the mapping.
const YamlValue* blockAt(const YamlValue& root, const SourceSpan& blockSpan)
{
    Path path;
    return findNode(
        root,
        [&](const YamlValue& n) {
            return n.isMapping() && startsAt(n, blockSpan.line, blockSpan.column);
        },
        path);
}

} // namespace

QList<int> usesOfPromptResult(const QString& source, const SourceSpan& blockSpan)
{
    Result<YamlValue> root = load(source);
    const YamlValue* block = root ? blockAt(*root, blockSpan) : nullptr;
    const YamlValue* def = block ? block->value("def") : nullptr;
    const std::optional<Analysed> a = def && def->isString() ? analyse(source) : std::nullopt;
    if (!a)
        return {};
    const int quoted = def->style() == YamlValue::Style::Quoted ? 1 : 0;
    auto target = pdl::renameTargetAt(*a->parsed.program, a->scopes, def->span().line,
                                      def->span().column + quoted);
    if (!target)
        return {};
    const std::set<int> defs(target->definitions.begin(), target->definitions.end());
    std::set<int> lines;
    for (const pdl::VariableUse& u : a->scopes.uses) {
        const bool inside =
            u.span.line >= block->span().line && u.span.line <= block->span().endLine;
        if (defs.count(u.definition) && !inside)
            lines.insert(u.span.line);
    }
    return QList<int>(lines.begin(), lines.end());
}

Result<QList<TextEdit>> renamePrompt(const QString& source, const SourceSpan& blockSpan,
                                     const QString& newName)
{
    if (const QString why = pdl::checkVariableName(newName); !why.isEmpty())
        return makeError(why);
    Result<YamlValue> root = load(source);
    if (!root)
        return root.error();
    const YamlValue* block = blockAt(*root, blockSpan);
    if (!block)
        return makeError(tr("no step starts at line %1").arg(blockSpan.line));
    const YamlValue* def = block->value("def");
    if (!def) {
        // No name yet: `def: NAME` as the block's first key.
        if (freePromptName(source, newName) != newName)
            return makeError(tr("the name %1 is already used in this program").arg(newName));
        const Source src(source);
        const QList<TextEdit> edits{
            TextEdit{src.start(*block), 0,
                     QStringLiteral("def: ") + newName + newline(source) +
                         QString(Source::column(*block), QLatin1Char(' '))}};
        if (!analyse(applyEdits(source, edits)))
            return makeError(tr("the name could not be written"));
        return edits;
    }
    const std::optional<Analysed> a = analyse(source);
    if (!a || !def->isString())
        return makeError(tr("the program cannot be read until its errors are fixed"));
    const int quoted = def->style() == YamlValue::Style::Quoted ? 1 : 0;
    auto plan = pdl::planRename(*a->parsed.program, a->utf8, a->scopes, def->span().line,
                                def->span().column + quoted, newName);
    if (!plan)
        return plan.error();
    QList<TextEdit> edits;
    for (const pdl::RenameEdit& e : plan->edits)
        edits << TextEdit{e.utf16Offset, e.utf16Length, e.replacement};
    return edits;
}

} // namespace hako::playground
