#pragma once

#include "core/pdl/ast/block.h"

#include <QHash>
#include <QRectF>
#include <QSet>
#include <QString>
#include <QStringView>

#include <cstdint>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

namespace hako::pdl {

struct TraceItem;

/// Everything the box layout depends on besides the trace: text metrics (so it needs no QFont
/// and runs on any thread), spacing, how much text a box shows, and the user's expansion and
/// toggle state. Units are logical pixels at zoom 1.
struct BoxLayoutParams {
    /// Width of the whole layout. Deep nesting widens it rather than squeezing inner boxes
    /// below `minInnerWidth`.
    double width = 720;
    /// Advance of one narrow character of the result text (the view uses a monospace font, so
    /// this is exact); East Asian wide characters count twice, a tab four times.
    double charWidth = 7;
    double lineHeight = 15;   ///< one line of result text
    double headerHeight = 18; ///< the label row at the top of every box
    double padding = 6;       ///< inside a box, around its content
    double spacing = 4;       ///< between sibling boxes
    double minInnerWidth = 160;
    /// Lines of text shown in a box; longer text is elided (Box::Elided) and the full text stays
    /// available from the item (TraceItem::resultText()).
    int maxTextLines = 6;
    /// Characters taken from an item's result for wrapping: enough for `maxTextLines` of any
    /// sensible width, so a 10 MB result costs no more than a short one.
    int maxTextChars = 4096;
    /// A loop (repeat/map) with more iterations than `collapseAbove` shows the first
    /// `loopHead` and the last `loopTail` iterations around an expander box, unless it is in
    /// `expandedBlocks`.
    int collapseAbove = 24;
    int loopHead = 10;
    int loopTail = 3;
    /// Any other block with more children than `collapseChildrenAbove` shows the first
    /// `childrenHead` and the last `childrenTail` of them around an expander box (Children),
    /// unless it is in `expandedBlocks`.
    int collapseChildrenAbove = 200;
    int childrenHead = 100;
    int childrenTail = 20;
    /// How many first children such a block shows instead of `childrenHead` (its expander
    /// clicked: the next ones).
    QHash<const TraceItem*, int> childrenShown;
    QSet<const TraceItem*> expandedBlocks;
    /// Children of such a collapsed block shown all the same (one picked in the tree).
    QSet<const TraceItem*> revealed;
    /// Boxes the user toggled (double click): a block with children shows its rendered output
    /// instead of its structure; a leaf collapses to its label row.
    QSet<const TraceItem*> toggled;
};

/// One laid-out box. `item` is the trace node it draws (for an expander, the loop).
struct Box {
    enum Flag : uint32_t {
        Dimmed = 1 << 0,      ///< the block (or an enclosing one) contributes nothing
        ModelOutput = 1 << 1, ///< the text is a model's reply, not literal text
        Elided = 1 << 2,      ///< more text than shown
        Rendered = 1 << 3,    ///< a block with children toggled to show its output
        Collapsed = 1 << 4,   ///< a leaf toggled to its label row
        Expander = 1 << 5,    ///< stands for `hidden` iterations of a collapsed loop
        Running = 1 << 6,     ///< still executing (live run)
        Failed = 1 << 7,      ///< the block failed; the text is the error
        Iteration = 1 << 8,   ///< one iteration of a repeat/map (`iteration` is its number)
        HasChildren = 1 << 9, ///< the block has children (double click toggles structure/output)
        Loop = 1 << 10,       ///< a repeat/map block
        Cancelled = 1 << 11,  ///< the run was stopped while the block executed
        Children = 1 << 12,   ///< an Expander standing for children of a block, not iterations
    };
    const TraceItem* item = nullptr;
    QRectF rect;
    QString label;  ///< the def name, else the kind name
    QString detail; ///< a short note for the label row: model name, loop field, duration
    int parent = -1;
    int childBegin = 0, childEnd = 0; ///< range in BoxLayout::childIndex
    int firstLine = 0, lineCount = 0; ///< range in BoxLayout::lines
    int textIndex = -1;               ///< in BoxLayout::texts, -1 without text
    int iteration = 0;                ///< 1-based iteration number when Iteration
    int hidden = 0;                   ///< iterations an Expander stands for
    int depth = 0;
    BlockKind kind = BlockKind::Empty;
    uint32_t flags = 0;

    bool has(Flag f) const { return flags & f; }
};

/// A wrapped line of a box's text: a range of BoxLayout::texts[box.textIndex].
struct TextLine {
    int start = 0;
    int length = 0;
};

/// The boxes of a trace: a value that any thread may read once built. Boxes are in pre-order
/// (a parent before its children, siblings top to bottom), which is also ascending top edge,
/// so hit-testing and the visible-box query are binary searches down the tree.
struct BoxLayout {
    std::vector<Box> boxes;
    std::vector<int> childIndex;
    std::vector<TextLine> lines;
    std::vector<QString> texts;
    std::unordered_map<const TraceItem*, int> byItem; ///< item → its box (not expanders)
    QSizeF size;

    bool isEmpty() const { return boxes.empty(); }
    std::span<const int> children(int box) const;
    QStringView lineText(const Box& box, int line) const;
    /// The innermost box containing `point`, or -1.
    int boxAt(QPointF point) const;
    /// The boxes intersecting `rect` whose width and height are at least `minSize`, parents
    /// before children (paint order); a skipped box hides its subtree.
    std::vector<int> boxesIn(const QRectF& rect, double minSize = 0) const;
    /// How many blocks have a box of their own, and how many wait behind expanders.
    std::pair<int, int> drawnAndHidden() const;
    /// The box drawing `item`, or -1 (hidden in a collapsed loop or not laid out).
    int indexOf(const TraceItem* item) const;
    /// The expander of a collapsed loop that hides `item` (an ancestor iteration), or -1.
    int expanderHiding(const TraceItem* item) const;
};

/// What the geometry pass needs of one box, copied out of the trace so that pass can run on
/// another thread while the trace keeps changing (a live run). Pre-order, like the boxes.
struct BoxInputNode {
    const TraceItem* item = nullptr;
    QString label;
    QString detail;
    QString text;
    int parent = -1;
    int iteration = 0;
    int hidden = 0;
    BlockKind kind = BlockKind::Empty;
    uint32_t flags = 0;
};
struct BoxLayoutInput {
    std::vector<BoxInputNode> nodes;
    int maxDepth = 0;
};

/// Pass 1: walks the trace and copies what is shown (collapsed loops contribute only their
/// visible iterations; text is cut to params.maxTextChars). Reads the tree: call it where the
/// tree cannot change (the GUI thread for a live TraceModel).
BoxLayoutInput collectBoxInput(const TraceItem* root, const BoxLayoutParams& params);

/// Pass 2: wraps text and places the boxes. Pure; any thread.
BoxLayout layoutBoxes(BoxLayoutInput input, const BoxLayoutParams& params);

/// Both passes: the nested boxes of the trace under `root` (null: an empty layout). Pure; any
/// thread, as long as the tree does not change meanwhile.
BoxLayout layoutTrace(const TraceItem* root, const BoxLayoutParams& params);

/// Wraps `text` to `maxWidth` (word wrap, breaking words longer than a line), at most
/// `maxLines` lines; `elided` is set when text remains. Exposed for tests.
std::vector<TextLine> wrapText(QStringView text, double maxWidth, double charWidth, int maxLines,
                               bool* elided);

/// Whether `child` of a loop block is one of its iterations: a node in the `pdl__trace` field,
/// or any child during a live run, when fields are not known yet (defs of a loop are rare). The
/// rule the boxes and the Trace Tree both number iterations by.
bool isLoopIteration(const TraceItem& child);

} // namespace hako::pdl
