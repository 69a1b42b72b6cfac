#include "core/pdl/analysis/outline.h"
#include "core/util/chars.h"

#include "core/pdl/check/blockwalk_p.h"
#include "core/pdl/parser/yamlvalue.h"

#include <QRegularExpression>

namespace hako::pdl {

namespace {

bool contains(const SourceSpan& s, int line, int column)
{
    if (!s.isValid())
        return false;
    const int endLine = s.endLine > 0 ? s.endLine : s.line;
    const int endColumn = s.endColumn > 0 ? s.endColumn : s.column;
    // A block's span ends on its last character; the position just after it (where the cursor
    // sits after typing the last character) still belongs to it.
    return !positionBefore(line, column, s.line, s.column) &&
           !positionBefore(endLine, endColumn + 1, line, column);
}

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

// An expression as an author reads it: `${ items }` → `items`; other values compactly.
QString exprText(const Expr& e, int maxChars = 30)
{
    if (!e)
        return {};
    if (e.value.isString()) {
        QString s = q(e.value.asString()).trimmed();
        static const QRegularExpression single(QStringLiteral("^\\$\\{\\s*(.*?)\\s*\\}$"),
                                               QRegularExpression::DotMatchesEverythingOption);
        const auto m = single.match(s);
        if (m.hasMatch() && !m.captured(1).contains(QLatin1String("${")))
            s = m.captured(1);
        return outlineSummary(s, maxChars);
    }
    return outlineSummary(q(e.value.json()), maxChars);
}

QString quoted(const QString& s)
{
    return QStringLiteral("\u201C%1\u201D").arg(s);
}

// A bare scalar written without a mapping (`- Hello`), as opposed to `- data: …` or `- text:`.
bool isBareLeaf(const Block& b)
{
    return b.kind == BlockKind::Data && (!b.node || !b.node->isMapping()) && !b.def;
}

// The first words of a text-like block: its first string leaf.
QString firstWords(const Block& b, int depth = 0)
{
    if (depth > 3)
        return {};
    if (const auto* d = b.as<DataBlock>()) {
        if (d->data.value.isString())
            return q(d->data.value.asString());
        return {};
    }
    if (b.kind == BlockKind::Text || b.kind == BlockKind::LastOf || b.kind == BlockKind::Array ||
        b.kind == BlockKind::Sequence) {
        for (const auto& c : static_cast<const ListBlockBase&>(b).children) {
            if (!c)
                continue;
            const QString s = firstWords(*c, depth + 1);
            if (!s.trimmed().isEmpty())
                return s;
        }
    }
    if (const auto* m = b.as<MessageBlock>(); m && m->content)
        return firstWords(*m->content, depth + 1);
    return {};
}

QString summaryOf(const Block& b)
{
    const QString kind = QString::fromLatin1(blockKindName(b.kind));
    switch (b.kind) {
    case BlockKind::Model: {
        const auto& m = static_cast<const ModelBlock&>(b);
        const QString model = exprText(m.model);
        return model.isEmpty() ? kind : kind + QLatin1Char(' ') + model;
    }
    case BlockKind::Data: {
        const auto& d = static_cast<const DataBlock&>(b);
        if (d.data.value.isString())
            return kind + QLatin1Char(' ') + quoted(outlineSummary(q(d.data.value.asString()), 30));
        return kind + QLatin1Char(' ') + outlineSummary(q(d.data.value.json()), 30);
    }
    case BlockKind::Text:
    case BlockKind::LastOf:
    case BlockKind::Array:
    case BlockKind::Sequence: {
        const QString words = outlineSummary(firstWords(b), 30);
        if (!words.isEmpty())
            return kind + QLatin1Char(' ') + quoted(words);
        const auto n = static_cast<const ListBlockBase&>(b).children.size();
        return n == 1 ? kind : QStringLiteral("%1 (%2 blocks)").arg(kind).arg(n);
    }
    case BlockKind::Object:
        return kind;
    case BlockKind::Read: {
        const auto& r = static_cast<const ReadBlock&>(b);
        if (r.read.value.isNull())
            return QStringLiteral("read stdin");
        return kind + QLatin1Char(' ') + exprText(r.read);
    }
    case BlockKind::Get:
        return kind + QLatin1Char(' ') + q(static_cast<const GetBlock&>(b).get);
    case BlockKind::Message: {
        const auto& m = static_cast<const MessageBlock&>(b);
        QString s = m.role ? q(*m.role) : kind;
        const QString words = m.content ? outlineSummary(firstWords(*m.content), 30) : QString();
        if (!words.isEmpty())
            s += QLatin1Char(' ') + quoted(words);
        return s;
    }
    case BlockKind::If:
        return kind + QLatin1Char(' ') + exprText(static_cast<const IfBlock&>(b).condition);
    case BlockKind::Match:
        return kind + QLatin1Char(' ') + exprText(static_cast<const MatchBlock&>(b).match);
    case BlockKind::Repeat:
    case BlockKind::Map: {
        const auto& l = static_cast<const LoopBlockBase&>(b);
        QStringList parts;
        for (const auto& [name, e] : l.forVars)
            parts << QStringLiteral("%1 in %2").arg(q(name), exprText(e, 24));
        if (!parts.isEmpty())
            return kind + QStringLiteral(" for ") + parts.join(QStringLiteral(", "));
        if (const auto* r = b.as<RepeatBlock>()) {
            if (r->whileCond)
                return kind + QStringLiteral(" while ") + exprText(r->whileCond);
            if (r->until)
                return kind + QStringLiteral(" until ") + exprText(r->until);
        }
        if (l.maxIterations)
            return kind + QStringLiteral(" \u00D7") + exprText(l.maxIterations);
        return kind;
    }
    case BlockKind::Function: {
        QStringList params;
        for (const auto& [name, type] : static_cast<const FunctionBlock&>(b).params)
            params << q(name);
        return QStringLiteral("function(%1)").arg(params.join(QStringLiteral(", ")));
    }
    case BlockKind::Call:
        return kind + QLatin1Char(' ') + exprText(static_cast<const CallBlock&>(b).call);
    case BlockKind::Code: {
        const auto& c = static_cast<const CodeBlock&>(b);
        switch (c.lang) {
        case CodeBlock::Lang::Python:
            return QStringLiteral("code python");
        case CodeBlock::Lang::IPython:
            return QStringLiteral("code ipython");
        case CodeBlock::Lang::Command:
            return QStringLiteral("code command");
        case CodeBlock::Lang::Jinja:
            return QStringLiteral("code jinja");
        case CodeBlock::Lang::Pdl:
            return QStringLiteral("code pdl");
        }
        return kind;
    }
    case BlockKind::Args: {
        const auto& a = static_cast<const ArgsBlock&>(b);
        return a.args.empty() ? kind : kind + QLatin1Char(' ') + exprText(a.args.front());
    }
    case BlockKind::Include:
        return kind + QLatin1Char(' ') + q(static_cast<const IncludeBlock&>(b).include);
    case BlockKind::Import:
        return kind + QLatin1Char(' ') + q(static_cast<const ImportBlock&>(b).import);
    case BlockKind::Aggregator:
        return kind;
    case BlockKind::Error:
        return kind + QLatin1Char(' ') + outlineSummary(q(static_cast<const ErrorBlock&>(b).msg));
    case BlockKind::Empty:
        if (static_cast<const EmptyBlock&>(b).isFactor())
            return QStringLiteral("factor ") + exprText(static_cast<const EmptyBlock&>(b).factor);
        return kind;
    }
    return kind;
}

OutlineItem itemFor(const Block& b, const std::string& key, const QString& file);

void addChildren(const Block& b, OutlineItem& item, const QString& file)
{
    std::vector<std::pair<BlockPtr, std::string>> children;
    detail::forEachChildBlock(
        b, [&](const BlockPtr& c, const std::string& name) { children.emplace_back(c, name); });
    const bool only = children.size() == 1;
    for (const auto& [c, name] : children) {
        if (c->kind == BlockKind::Empty || !c->span.isValid() || c->span.file != file)
            continue;
        // A `defs:` entry or object field named by its key is worth listing even when bare.
        if (isBareLeaf(*c) && !only && name.empty())
            continue;
        item.children.push_back(itemFor(*c, name, file));
    }
}

OutlineItem itemFor(const Block& b, const std::string& key, const QString& file)
{
    OutlineItem item;
    item.kind = b.kind;
    item.span = b.span;
    item.detail = summaryOf(b);
    if (b.def)
        item.name = q(*b.def);
    else if (!key.empty())
        item.name = q(key);
    item.label = item.name.isEmpty() ? item.detail : item.name;
    if (b.kind == BlockKind::Function && !item.name.isEmpty())
        item.label = item.name + item.detail.mid(int(sizeof("function")) - 1);
    addChildren(b, item, file);
    return item;
}

} // namespace

QString outlineSummary(const QString& text, int maxChars)
{
    const QString s = text.simplified();
    const QList<uint> cps = s.toUcs4();
    if (cps.size() <= maxChars)
        return s;
    QList<uint> cut = cps.mid(0, std::max(1, maxChars - 1));
    return QString::fromUcs4(reinterpret_cast<const char32_t*>(cut.constData()), cut.size())
               .trimmed() +
           QStringLiteral("\u2026");
}

std::vector<OutlineItem> buildOutline(const Program& program)
{
    if (!program.root)
        return {};
    return {itemFor(*program.root, {}, program.root->span.file)};
}

std::vector<int> outlinePathAt(const std::vector<OutlineItem>& items, int line, int column)
{
    std::vector<int> path;
    const std::vector<OutlineItem>* level = &items;
    for (;;) {
        // Later siblings win when spans touch (the end of one is where the next begins).
        int found = -1;
        for (int i = int(level->size()) - 1; i >= 0; --i) {
            if (contains((*level)[size_t(i)].span, line, column)) {
                found = i;
                break;
            }
        }
        if (found < 0)
            return path;
        path.push_back(found);
        level = &(*level)[size_t(found)].children;
    }
}

} // namespace hako::pdl
