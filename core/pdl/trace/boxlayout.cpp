#include "core/pdl/trace/boxlayout.h"

#include <QCoreApplication>

#include "core/pdl/trace/tracemodel.h"
#include "core/pdl/trace/tracesource.h"

#include <QStringList>
#include <algorithm>

#include <array>
#include <cmath>

namespace hako::pdl {

namespace {

constexpr int kKindCount = int(BlockKind::Error) + 1;

// Kind names are shared by most boxes; one QString each keeps 100k labels from allocating.
const QString& kindLabel(BlockKind kind)
{
    static const std::array<QString, kKindCount> names = [] {
        std::array<QString, kKindCount> a;
        for (int k = 0; k < kKindCount; ++k)
            a[k] = QString::fromLatin1(blockKindName(BlockKind(k)));
        return a;
    }();
    return names[std::clamp(int(kind), 0, kKindCount - 1)];
}

bool isLoop(BlockKind kind)
{
    return kind == BlockKind::Repeat || kind == BlockKind::Map;
}

// Display columns of the character at text[i]; `advance` is its length in UTF-16 units.
int columnsAt(QStringView text, qsizetype i, int* advance)
{
    const char16_t c = text[i].unicode();
    *advance = 1;
    if (QChar::isHighSurrogate(c) && i + 1 < text.size() &&
        QChar::isLowSurrogate(text[i + 1].unicode())) {
        *advance = 2;
        return 2; // emoji and CJK extension planes are wide
    }
    if (c == u'\t')
        return 4;
    if ((c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0xA4CF) ||
        (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) ||
        (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF60) ||
        (c >= 0xFFE0 && c <= 0xFFE6))
        return 2;
    return 1;
}

QString durationText(const TraceNode& n)
{
    if (n.startNanos <= 0 || n.endNanos <= n.startNanos)
        return {};
    const double ms = double(n.endNanos - n.startNanos) / 1e6;
    if (ms < 1)
        return {}; // sub-millisecond blocks are noise in a label
    if (ms < 1000)
        return QStringLiteral("%1 ms").arg(qRound(ms));
    return QStringLiteral("%1 s").arg(ms / 1000, 0, 'f', ms < 10000 ? 2 : 1);
}

// The label row's note: what a reader wants to know without opening the detail pane.
QString detailText(const TraceItem& item, bool loopPart)
{
    QStringList parts;
    if (loopPart && !item.field.empty())
        parts << QString::fromStdString(item.field);
    if (item.node.kind == BlockKind::Model || item.node.kind == BlockKind::Call) {
        const char* key = item.node.kind == BlockKind::Model ? "model" : "call";
        for (const auto& [field, value] : item.node.exprs)
            if (field == key) {
                QString name = QString::fromStdString(value.toText());
                if (name.size() > 48)
                    name = name.left(47) + QChar(0x2026);
                if (!name.isEmpty())
                    parts << name;
                break;
            }
    }
    const QString d = durationText(item.node);
    if (!d.isEmpty())
        parts << d;
    // A re-run's replayed prefix, and calls answered by hand in the debugger, say so.
    if (item.node.replayed)
        parts << QCoreApplication::translate("hako::pdl::BoxLayout", "replayed");
    if (item.node.answeredByHand)
        parts << QCoreApplication::translate("hako::pdl::BoxLayout", "answered by hand");
    return parts.join(QStringLiteral(" · "));
}

struct Frame {
    const TraceItem* item = nullptr;
    int parent = -1;
    int depth = 0;
    uint32_t inherited = 0;
    int iteration = 0;
    int hidden = 0;        // > 0: an expander for children of the loop or block `item`
    bool loopPart = false; // a loop's child that is not an iteration (`for` values, defs)
};

// The frames of a loop's children: its iterations, numbered, the middle ones of a long loop
// behind one expander; the loop's other children (`for` values, defs) marked as such.
void loopKids(const TraceItem& item, const Frame& f, int index, uint32_t inherit,
              const BoxLayoutParams& params, std::vector<Frame>& kids)
{
    int iterations = 0;
    for (const auto& c : item.children)
        iterations += isLoopIteration(*c) ? 1 : 0;
    // The reference's traces keep the loop body as written (`repeat`) beside the
    // executed iterations; once there are iterations it is program, not run.
    const bool hideBody = iterations > 0;
    const bool collapse =
        iterations > params.collapseAbove && !params.expandedBlocks.contains(f.item);
    const int head = std::max(0, params.loopHead);
    const int tail = std::max(0, params.loopTail);
    int number = 0;
    for (const auto& c : item.children) {
        if (!isLoopIteration(*c)) {
            if (!(hideBody && c->field == "repeat"))
                kids.push_back({c.get(), index, f.depth + 1, inherit, 0, 0, true});
            continue;
        }
        ++number;
        if (collapse && number > head && number <= iterations - tail) {
            if (number == head + 1)
                kids.push_back({f.item, index, f.depth + 1, inherit, 0, iterations - head - tail});
            continue;
        }
        kids.push_back({c.get(), index, f.depth + 1, inherit, number, 0});
    }
}

// The frames of any other block's children.
void blockKids(const TraceItem& item, const Frame& f, int index, uint32_t inherit,
               const BoxLayoutParams& params, std::vector<Frame>& kids)
{
    // Any other block with very many children (a session's thousands of calls, a
    // span with a million children) shows its first and last ones around an expander,
    // so that the boxes stay a picture one can scroll and cost what is shown.
    const int count = int(item.children.size());
    const bool collapse =
        count > params.collapseChildrenAbove && !params.expandedBlocks.contains(f.item);
    const int head = std::max(0, params.childrenShown.value(f.item, params.childrenHead));
    const int tail = std::max(0, params.childrenTail);
    int hidden = 0; // children passed over since the last one shown
    auto passedOver = [&] {
        if (hidden > 0)
            kids.push_back({f.item, index, f.depth + 1, inherit, 0, hidden});
        hidden = 0;
    };
    for (int i = 0; i < count; ++i) {
        const TraceItem* c = item.children[size_t(i)].get();
        if (collapse && i >= head && i < count - tail && !params.revealed.contains(c)) {
            if (params.revealed.empty()) { // nothing picked among them: one jump
                hidden += count - tail - i;
                i = count - tail - 1;
            } else {
                ++hidden;
            }
            continue;
        }
        passedOver();
        kids.push_back({c, index, f.depth + 1, inherit, 0, 0});
    }
    passedOver();
}

} // namespace

std::vector<TextLine> wrapText(QStringView text, double maxWidth, double charWidth, int maxLines,
                               bool* elided)
{
    std::vector<TextLine> lines;
    bool cut = false;
    const int maxCols = std::max(1, int(std::floor(maxWidth / std::max(0.1, charWidth))));
    const qsizetype n = text.size();
    qsizetype i = 0;
    while (i < n) {
        if (int(lines.size()) >= maxLines) {
            // Only whitespace left (a trailing newline) is not worth an ellipsis.
            for (qsizetype j = i; j < n; ++j)
                if (!text[j].isSpace()) {
                    cut = true;
                    break;
                }
            break;
        }
        const qsizetype start = i;
        qsizetype lastBreak = -1;
        int cols = 0;
        bool hardBreak = false;
        while (i < n) {
            const QChar c = text[i];
            if (c == u'\n') {
                hardBreak = true;
                break;
            }
            int advance = 1;
            const int w = columnsAt(text, i, &advance);
            if (cols + w > maxCols && i > start) {
                if (lastBreak > start)
                    i = lastBreak;
                break;
            }
            cols += w;
            i += advance;
            if (c == u' ')
                lastBreak = i;
        }
        qsizetype end = i;
        if (end > start && text[end - 1] == u'\r')
            --end;
        lines.push_back({int(start), int(end - start)});
        if (hardBreak)
            ++i;
    }
    if (elided)
        *elided = cut;
    return lines;
}

BoxLayoutInput collectBoxInput(const TraceItem* root, const BoxLayoutParams& params)
{
    BoxLayoutInput in;
    if (!root)
        return in;
    std::vector<Frame> stack;
    stack.push_back({root, -1, 0, 0, 0, 0});
    std::vector<Frame> kids; // reused: the children of one box, in order
    while (!stack.empty()) {
        const Frame f = stack.back();
        stack.pop_back();
        const int index = int(in.nodes.size());
        in.maxDepth = std::max(in.maxDepth, f.depth);
        BoxInputNode node;
        node.item = f.item;
        node.parent = f.parent;
        node.kind = f.item->node.kind;
        if (f.hidden > 0) {
            node.flags = Box::Expander | (f.inherited & Box::Dimmed) |
                         (isLoop(node.kind) ? 0 : int(Box::Children));
            node.hidden = f.hidden;
            in.nodes.push_back(std::move(node));
            continue;
        }
        const TraceItem& item = *f.item;
        uint32_t flags = f.inherited;
        if (item.node.contributesNothing())
            flags |= Box::Dimmed;
        if (item.running)
            flags |= Box::Running;
        if (item.cancelled)
            flags |= Box::Cancelled;
        if (item.failed())
            flags |= Box::Failed;
        if (f.iteration > 0)
            flags |= Box::Iteration;
        if (isLoop(node.kind))
            flags |= Box::Loop;
        const bool hasChildren = !item.children.empty();
        if (hasChildren)
            flags |= Box::HasChildren;
        const bool toggled = params.toggled.contains(f.item);
        if (toggled)
            flags |= hasChildren ? Box::Rendered : Box::Collapsed;
        const bool isModel = node.kind == BlockKind::Model;
        if (isModel)
            flags |= Box::ModelOutput;
        // A leaf shows its result; a block with children shows them, except a model (its reply
        // below its input), a code block (its result below its source), a failed block (the
        // error below the partial children) and a block toggled to its rendered output.
        const bool showText =
            !(flags & Box::Collapsed) && (!hasChildren || (flags & Box::Rendered) || isModel ||
                                          node.kind == BlockKind::Code || item.failed());
        if (showText) {
            QString text = item.resultText();
            if (text.size() > params.maxTextChars) {
                text.truncate(params.maxTextChars);
                flags |= Box::Elided;
            }
            node.text = std::move(text);
        }
        // `defs` entries are named by their key, as `def` blocks are by their variable.
        const QString def = defName(&item);
        node.label = def.isEmpty() ? kindLabel(node.kind) : def;
        node.detail = detailText(item, f.loopPart);
        node.iteration = f.iteration;
        node.flags = flags;
        in.nodes.push_back(std::move(node));

        if (!hasChildren || (flags & Box::Rendered))
            continue;
        const uint32_t inherit = flags & Box::Dimmed;
        kids.clear();
        if (isLoop(item.node.kind))
            loopKids(item, f, index, inherit, params, kids);
        else
            blockKids(item, f, index, inherit, params, kids);
        for (auto k = kids.rbegin(); k != kids.rend(); ++k)
            stack.push_back(*k);
    }
    return in;
}

BoxLayout layoutBoxes(BoxLayoutInput input, const BoxLayoutParams& params)
{
    BoxLayout out;
    const int n = int(input.nodes.size());
    if (n == 0)
        return out;
    const double pad = params.padding;
    const double totalWidth =
        std::max(params.width, 2 * pad * input.maxDepth + params.minInnerWidth);
    out.boxes.resize(n);
    out.byItem.reserve(n);

    // Children ranges: in pre-order a box's children appear in ascending index order.
    std::vector<int> childCount(n, 0);
    for (int i = 1; i < n; ++i)
        ++childCount[input.nodes[i].parent];
    int offset = 0;
    for (int i = 0; i < n; ++i) {
        out.boxes[i].childBegin = out.boxes[i].childEnd = offset;
        offset += childCount[i];
    }
    out.childIndex.resize(offset);
    for (int i = 1; i < n; ++i) {
        Box& p = out.boxes[input.nodes[i].parent];
        out.childIndex[p.childEnd++] = i;
    }

    // Horizontal placement and text, top-down.
    for (int i = 0; i < n; ++i) {
        BoxInputNode& node = input.nodes[i];
        Box& b = out.boxes[i];
        b.item = node.item;
        b.parent = node.parent;
        b.kind = node.kind;
        b.flags = node.flags;
        b.iteration = node.iteration;
        b.hidden = node.hidden;
        b.label = std::move(node.label);
        b.detail = std::move(node.detail);
        if (node.parent < 0) {
            b.rect = QRectF(0, 0, totalWidth, 0);
        } else {
            const Box& p = out.boxes[node.parent];
            b.depth = p.depth + 1;
            b.rect = QRectF(p.rect.x() + pad, 0, p.rect.width() - 2 * pad, 0);
        }
        if (!(b.flags & Box::Expander))
            out.byItem.emplace(b.item, i);
        if (!node.text.isEmpty()) {
            bool elided = false;
            std::vector<TextLine> lines = wrapText(node.text, b.rect.width() - 2 * pad,
                                                   params.charWidth, params.maxTextLines, &elided);
            if (elided)
                b.flags |= Box::Elided;
            b.textIndex = int(out.texts.size());
            b.firstLine = int(out.lines.size());
            b.lineCount = int(lines.size());
            out.lines.insert(out.lines.end(), lines.begin(), lines.end());
            out.texts.push_back(std::move(node.text));
        }
    }

    // Heights bottom-up (children have larger indices than their parent).
    std::vector<double> height(n, 0);
    for (int i = n - 1; i >= 0; --i) {
        const Box& b = out.boxes[i];
        if (b.flags & Box::Expander) {
            height[i] = params.headerHeight + pad;
            continue;
        }
        double h = pad + params.headerHeight;
        const int kids = b.childEnd - b.childBegin;
        for (int k = b.childBegin; k < b.childEnd; ++k)
            h += height[out.childIndex[k]];
        if (kids > 1)
            h += params.spacing * (kids - 1);
        if (b.lineCount > 0)
            h += b.lineCount * params.lineHeight + (kids > 0 ? params.spacing : 0);
        height[i] = h + pad;
    }

    // Vertical placement top-down.
    out.boxes[0].rect.setHeight(height[0]);
    for (int i = 0; i < n; ++i) {
        Box& b = out.boxes[i];
        double y = b.rect.y() + pad + params.headerHeight;
        for (int k = b.childBegin; k < b.childEnd; ++k) {
            Box& c = out.boxes[out.childIndex[k]];
            c.rect.moveTop(y);
            c.rect.setHeight(height[out.childIndex[k]]);
            y += c.rect.height() + params.spacing;
        }
    }
    out.size = QSizeF(totalWidth, height[0]);
    return out;
}

BoxLayout layoutTrace(const TraceItem* root, const BoxLayoutParams& params)
{
    return layoutBoxes(collectBoxInput(root, params), params);
}

std::span<const int> BoxLayout::children(int box) const
{
    if (box < 0 || box >= int(boxes.size()))
        return {};
    const Box& b = boxes[box];
    return std::span<const int>(childIndex.data() + b.childBegin, b.childEnd - b.childBegin);
}

QStringView BoxLayout::lineText(const Box& box, int line) const
{
    if (box.textIndex < 0 || line < 0 || line >= box.lineCount)
        return {};
    const TextLine& l = lines[box.firstLine + line];
    return QStringView(texts[box.textIndex]).mid(l.start, l.length);
}

int BoxLayout::boxAt(QPointF point) const
{
    if (boxes.empty() || !boxes[0].rect.contains(point))
        return -1;
    int current = 0;
    for (;;) {
        const std::span<const int> kids = children(current);
        // The last child whose top is at or above the point.
        auto it = std::upper_bound(kids.begin(), kids.end(), point.y(),
                                   [this](double y, int c) { return y < boxes[c].rect.top(); });
        if (it == kids.begin())
            return current;
        const int candidate = *(it - 1);
        if (!boxes[candidate].rect.contains(point))
            return current;
        current = candidate;
    }
}

std::vector<int> BoxLayout::boxesIn(const QRectF& rect, double minSize) const
{
    std::vector<int> result;
    if (boxes.empty())
        return result;
    std::vector<int> stack{0};
    while (!stack.empty()) {
        const int i = stack.back();
        stack.pop_back();
        const Box& b = boxes[i];
        if (!b.rect.intersects(rect) || b.rect.width() < minSize || b.rect.height() < minSize)
            continue;
        result.push_back(i);
        const std::span<const int> kids = children(i);
        // Siblings do not overlap and go down the page, so their bottoms ascend too.
        auto first =
            std::upper_bound(kids.begin(), kids.end(), rect.top(),
                             [this](double y, int c) { return y < boxes[c].rect.bottom(); });
        auto last = std::lower_bound(first, kids.end(), rect.bottom(),
                                     [this](int c, double y) { return boxes[c].rect.top() < y; });
        for (auto k = last; k != first; --k)
            stack.push_back(*(k - 1));
    }
    return result;
}

int BoxLayout::indexOf(const TraceItem* item) const
{
    auto it = byItem.find(item);
    return it == byItem.end() ? -1 : it->second;
}

std::pair<int, int> BoxLayout::drawnAndHidden() const
{
    int drawn = 0, hidden = 0;
    for (const Box& b : boxes) {
        if (b.has(Box::Expander))
            hidden += b.hidden;
        else
            ++drawn;
    }
    return {drawn, hidden};
}

int BoxLayout::expanderHiding(const TraceItem* item) const
{
    // Walk up to the first ancestor with a box; if it is a loop with an expander, that is it.
    for (const TraceItem* child = item; child && child->parent; child = child->parent) {
        const int loop = indexOf(child->parent);
        if (loop < 0)
            continue;
        if (indexOf(child) >= 0)
            return -1;
        for (int k : children(loop))
            if (boxes[k].has(Box::Expander))
                return k;
        return -1;
    }
    return -1;
}

bool isLoopIteration(const TraceItem& child)
{
    return child.field == "pdl__trace" || child.field.empty();
}

} // namespace hako::pdl
