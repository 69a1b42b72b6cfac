#include "core/pdl/trace/tracemodel.h"

#include "core/pdl/imagecontent.h"

#include <QLocale>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <mutex>
#include <unordered_set>

namespace hako::pdl {

TraceNode traceSnapshot(const TraceNode& n)
{
    TraceNode s;
    s.block = n.block;
    s.kind = n.kind;
    s.id = n.id;
    s.span = n.span;
    s.serial = n.serial;
    s.parentSerial = n.parentSerial;
    s.def = n.def;
    s.description = n.description;
    s.contribute = n.contribute;
    s.scope = n.scope;
    s.hasScope = n.hasScope;
    s.result = n.result;
    s.hasResult = n.hasResult;
    s.startNanos = n.startNanos;
    s.endNanos = n.endNanos;
    s.isLeaf = n.isLeaf;
    s.exprs = n.exprs;
    s.context = n.context;
    s.modelInput = n.modelInput;
    s.usage = n.usage;
    s.score = n.score;
    s.out = n.out;
    s.err = n.err;
    s.error = n.error;
    s.errorSpan = n.errorSpan;
    s.replayed = n.replayed;
    s.answeredByHand = n.answeredByHand;
    return s;
}

QString TraceItem::label() const
{
    if (!node.def.empty())
        return QString::fromStdString(node.def);
    return QString::fromLatin1(blockKindName(node.kind));
}

namespace {
// Deeper values keep the PDL text form (written without recursion).
constexpr int kReadableDepth = 64;
} // namespace

// A million-span trace makes a million items: they stay in the 80-byte size class.
static_assert(sizeof(TraceItem) <= 80, "a TraceItem grew");

FieldName::FieldName(const std::string& name)
{
    if (name.empty())
        return;
    static std::mutex mutex;
    static std::unordered_set<std::string> names; // nodes: the strings never move
    std::lock_guard lock(mutex);
    m_name = &*names.insert(name).first;
}

const std::string& FieldName::none()
{
    static const std::string empty;
    return empty;
}

const std::string& TraceItem::streamed() const
{
    static const std::string none;
    return m_streamed ? *m_streamed : none;
}

void TraceItem::addStreamed(const std::string& delta)
{
    if (!m_streamed)
        m_streamed = std::make_unique<std::string>();
    *m_streamed += delta;
}

QString TraceItem::resultText() const
{
    if (failed())
        return QString::fromStdString(node.error);
    if (running || !node.hasResult)
        return QString::fromStdString(streamed());
    // A closure is text "" in a live run and null in a written trace: both read as no text.
    if (node.kind == BlockKind::Function && node.result.isNull())
        return QString();
    // A list or dict shows its characters, not the \uXXXX its JSON text (what the program
    // printed, as the reference prints it) escapes them to: 「苦情」 is read, not \u82e6\u60c5.
    // Images (base64 data URLs, megabytes each) read as short placeholders.
    Value scrubbed;
    if (holdsDataUrl(node.result))
        scrubbed = withDataUrlPlaceholders(node.result);
    const Value& r = scrubbed.isNull() ? node.result : scrubbed;
    if ((r.isList() || r.isDict()) && !r.holdsWrapped() && r.nestingDepth() < kReadableDepth)
        return QString::fromStdString(r.toOrderedJson().dump(
            -1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
    return QString::fromStdString(r.toText());
}

int TraceItem::depth() const
{
    int d = -1; // the invisible holder above the root is not counted
    for (const TraceItem* p = parent; p; p = p->parent)
        ++d;
    return d;
}

namespace {

// An item for `n` and, depth first, for the defs and children under it. With `take`, `n` is
// held by nothing but the tree being given (its holder is `n` itself): the item keeps the node
// as it is and the tree's links to its children are handed on, so the tree is gone at the end.
// A node held elsewhere too is copied, and so is what lies below it.
std::unique_ptr<TraceItem> buildItems(TracePtr& n, bool take, TraceItem* parent, int row,
                                      const FieldName& field, int& count)
{
    take = take && n.use_count() == 1;
    std::vector<std::pair<std::string, TracePtr>> takenDefs;
    std::vector<TraceNode::Children> takenChildren;
    auto* defs = &n->defs;
    auto* children = &n->children;
    std::unique_ptr<TraceItem> item;
    if (take) {
        takenDefs = std::exchange(n->defs, {});
        takenChildren = std::exchange(n->children, {});
        defs = &takenDefs;
        children = &takenChildren;
        item = std::make_unique<TraceItem>(std::move(n));
    } else {
        item = std::make_unique<TraceItem>(std::make_shared<TraceNode>(traceSnapshot(*n)));
    }
    item->field = field;
    item->parent = parent;
    item->row = row;
    ++count;
    // Iterative over siblings, recursive over depth: the reader caps depth at 2,000.
    // A field's name is looked up once for all its children (a million spans, one name).
    static const FieldName defsField(std::string("defs"));
    for (auto& [name, def] : *defs) {
        if (def)
            item->children.push_back(
                buildItems(def, take, item.get(), int(item->children.size()), defsField, count));
    }
    for (TraceNode::Children& c : *children) {
        const FieldName childField(c.field);
        for (TracePtr& child : c.nodes) {
            if (child)
                item->children.push_back(buildItems(child, take, item.get(),
                                                    int(item->children.size()), childField, count));
        }
    }
    return item;
}

void collectFields(const TraceNode& n, std::unordered_map<uint64_t, std::string>& fields)
{
    for (const auto& [name, def] : n.defs) {
        if (def) {
            fields[def->serial] = "defs";
            collectFields(*def, fields);
        }
    }
    for (const TraceNode::Children& c : n.children) {
        for (const TracePtr& child : c.nodes) {
            if (child) {
                fields[child->serial] = c.field;
                collectFields(*child, fields);
            }
        }
    }
}

bool spanContains(const SourceSpan& s, int line, int column)
{
    if (!s.isValid())
        return false;
    const int endLine = s.endLine > 0 ? s.endLine : s.line;
    if (line < s.line || line > endLine)
        return false;
    if (line == s.line && column < s.column)
        return false;
    if (line == endLine && s.endColumn > 0 && column > s.endColumn)
        return false;
    return true;
}

// Whether span a lies inside span b (b is an ancestor-or-equal region).
bool spanWithin(const SourceSpan& a, const SourceSpan& b)
{
    auto before = [](int l1, int c1, int l2, int c2) {
        return l1 < l2 || (l1 == l2 && c1 <= c2);
    };
    const int aEnd = a.endLine > 0 ? a.endLine : a.line;
    const int bEnd = b.endLine > 0 ? b.endLine : b.line;
    return before(b.line, b.column, a.line, a.column) &&
           before(aEnd, a.endColumn, bEnd, b.endColumn);
}

QString durationText(const TraceNode& n)
{
    if (n.startNanos <= 0 || n.endNanos < n.startNanos)
        return {};
    const double ms = double(n.endNanos - n.startNanos) / 1e6;
    if (ms < 1)
        return QStringLiteral("%1 µs").arg(qRound(ms * 1000));
    if (ms < 1000)
        return QStringLiteral("%1 ms").arg(ms, 0, 'f', ms < 10 ? 1 : 0);
    return QStringLiteral("%1 s").arg(ms / 1000, 0, 'f', 2);
}

} // namespace

TraceModel::TraceModel(QObject* parent)
    : QAbstractItemModel(parent), m_top(std::make_unique<TraceItem>())
{}

TraceModel::~TraceModel() = default;

void TraceModel::clear()
{
    beginResetModel();
    m_top = std::make_unique<TraceItem>();
    m_root = nullptr;
    m_count = 0;
    m_live = false;
    m_source.clear();
    m_byId.clear();
    m_formerIds.clear();
    m_bySerial.clear();
    m_pending.clear();
    m_placing.clear();
    m_placeParent = nullptr;
    endResetModel();
}

void TraceModel::adopt(TraceItem* item)
{
    // Older reference traces give a model's `input` block the model's own id: the first (the
    // enclosing block) wins, as during a live run.
    indexId(item);
    for (const auto& c : item->children)
        adopt(c.get());
}

void TraceModel::setTrace(const TracePtr& root, const QString& source)
{
    resetTo(root, false, source);
}

void TraceModel::takeTrace(TracePtr&& root, const QString& source)
{
    TracePtr given = std::move(root);
    resetTo(std::move(given), true, source);
}

void TraceModel::resetTo(TracePtr root, bool take, const QString& source)
{
    beginResetModel();
    m_top = std::make_unique<TraceItem>();
    m_root = nullptr;
    m_count = 0;
    m_live = false;
    m_source = source;
    m_byId.clear();
    m_formerIds.clear();
    m_bySerial.clear();
    m_pending.clear();
    m_placing.clear();
    m_placeParent = nullptr;
    if (root) {
        m_top->children.push_back(buildItems(root, take, m_top.get(), 0, {}, m_count));
        m_root = m_top->children.front().get();
        m_byId.reserve(m_count);
        adopt(m_root);
    }
    endResetModel();
}

void TraceModel::beginLiveRun(const QString& programFile)
{
    clear();
    m_source = programFile;
    m_live = true;
}

void TraceModel::endLiveRun(const TracePtr& finalTrace)
{
    if (!m_live)
        return;
    m_live = false;
    if (finalTrace) {
        std::unordered_map<uint64_t, std::string> fields;
        collectFields(*finalTrace, fields);
        for (auto& [serial, item] : m_bySerial) {
            if (auto f = fields.find(serial); f != fields.end())
                item->field = f->second;
        }
    }
    // A block still running when the run stopped (cancel, crash of a worker) will never finish:
    // it ends as cancelled, at the latest time the run recorded, so that no view waits on it.
    int64_t lastNanos = 0;
    for (const auto& [serial, item] : m_bySerial)
        lastNanos = std::max({lastNanos, item->node.startNanos, item->node.endNanos});
    for (auto& [serial, item] : m_bySerial) {
        if (!item->running)
            continue;
        item->running = false;
        item->cancelled = true;
        item->node.endNanos = lastNanos;
        const QModelIndex first = indexOf(item, 0);
        if (first.isValid())
            Q_EMIT dataChanged(first, indexOf(item, ColumnCount - 1));
    }
    Q_EMIT liveRunEnded();
}

void TraceModel::startItem(Event& e, std::vector<TraceItem*>& changed,
                           std::vector<TraceItem*>& streamed)
{
    if (auto known = m_bySerial.find(e.node.serial); known != m_bySerial.end()) {
        flushPending(); // the attempt's children may still wait in this batch
        std::vector<const TraceItem*> removed;
        restartItem(known->second, std::move(e.node), removed);
        std::sort(removed.begin(), removed.end());
        auto gone = [&removed](const TraceItem* i) {
            return std::binary_search(removed.begin(), removed.end(), i);
        };
        std::erase_if(changed, gone);
        std::erase_if(streamed, gone);
        changed.push_back(known->second);
        return;
    }
    auto item = std::make_unique<TraceItem>();
    const uint64_t serial = e.node.serial;
    const uint64_t parentSerial = e.node.parentSerial;
    item->node = std::move(e.node);
    item->running = true;
    TraceItem* parent = m_top.get();
    if (parentSerial) {
        auto p = m_bySerial.find(parentSerial);
        if (p != m_bySerial.end())
            parent = p->second;
    }
    item->parent = parent;
    TraceItem* raw = item.get();
    m_bySerial[serial] = raw;
    indexId(raw);
    ++m_count;
    // Items waiting in this batch have row -1; below them, attach directly (they become
    // visible with their pending ancestor).
    if (!isShown(parent)) {
        raw->row = int(parent->children.size());
        parent->children.push_back(std::move(item));
    } else {
        raw->row = -1;
        if (m_pending.empty() || m_pending.back().first != parent)
            m_pending.emplace_back(parent, std::vector<std::unique_ptr<TraceItem>>());
        m_pending.back().second.push_back(std::move(item));
    }
    if (parent == m_top.get() && !m_root)
        m_root = raw;
}

void TraceModel::applyEvents(std::vector<Event> events)
{
    if (!m_live)
        return;
    std::vector<TraceItem*> changed;
    std::vector<TraceItem*> streamed;
    for (Event& e : events) {
        switch (e.type) {
        case Event::Type::Started:
            startItem(e, changed, streamed);
            break;
        case Event::Type::Finished: {
            auto it = m_bySerial.find(e.node.serial);
            if (it == m_bySerial.end())
                break;
            TraceItem* item = it->second;
            // A retried block is renamed (`….retry1`): found by its final id, and by the one
            // it had.
            replaceNode(item, std::move(e.node));
            item->running = false;
            changed.push_back(item);
            break;
        }
        case Event::Type::Delta: {
            auto it = m_bySerial.find(e.serial);
            if (it == m_bySerial.end())
                break;
            it->second->addStreamed(e.delta);
            changed.push_back(it->second);
            if (streamed.empty() || streamed.back() != it->second)
                streamed.push_back(it->second);
            break;
        }
        case Event::Type::Placed:
            placeItem(e, changed);
            break;
        case Event::Type::Removed: {
            std::vector<const TraceItem*> removed;
            removeItem(e.serial, removed);
            std::sort(removed.begin(), removed.end());
            auto gone = [&removed](const TraceItem* i) {
                return std::binary_search(removed.begin(), removed.end(), i);
            };
            std::erase_if(changed, gone);
            std::erase_if(streamed, gone);
            break;
        }
        }
    }
    flushPending();
    flushPlacing();
    std::sort(changed.begin(), changed.end());
    changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
    for (TraceItem* item : changed) {
        const QModelIndex first = indexOf(item, 0);
        if (!first.isValid())
            continue;
        Q_EMIT dataChanged(first, indexOf(item, ColumnCount - 1));
    }
    std::sort(streamed.begin(), streamed.end());
    streamed.erase(std::unique(streamed.begin(), streamed.end()), streamed.end());
    for (TraceItem* item : streamed)
        Q_EMIT itemStreamed(item);
}

void TraceModel::forget(const TraceItem* item, std::vector<const TraceItem*>& removed)
{
    removed.push_back(item);
    for (const auto& c : item->children)
        forget(c.get(), removed);
    m_bySerial.erase(item->node.serial);
    unindexId(item, false);
    --m_count;
}

void TraceModel::restartItem(TraceItem* item, TraceNode node,
                             std::vector<const TraceItem*>& removed)
{
    // The block's `defs` ran before its body and are not run again: they stay. They come
    // first, and their ids start with the block's id before any `.retryN` suffix.
    std::string base = node.id;
    if (const size_t at = base.rfind(".retry"); at != std::string::npos)
        base.erase(at);
    const std::string defsPrefix = base + ".defs.";
    size_t keep = 0;
    while (keep < item->children.size() &&
           item->children[keep]->node.id.compare(0, defsPrefix.size(), defsPrefix) == 0)
        ++keep;
    if (keep < item->children.size()) {
        const QModelIndex index = indexOf(item, 0);
        const bool visible = index.isValid();
        if (visible)
            beginRemoveRows(index, int(keep), int(item->children.size()) - 1);
        for (size_t i = keep; i < item->children.size(); ++i)
            forget(item->children[i].get(), removed);
        item->children.erase(item->children.begin() + std::ptrdiff_t(keep), item->children.end());
        if (visible)
            endRemoveRows();
    }
    replaceNode(item, std::move(node));
    item->running = true;
    item->clearStreamed();
}

void TraceModel::flushPending()
{
    // Groups were opened in arrival order; a later group may belong to an item of an earlier
    // group, which becomes visible when that group is inserted, so insert in order.
    for (auto& [parent, list] : m_pending) {
        if (list.empty())
            continue;
        const int first = int(parent->children.size());
        const int last = first + int(list.size()) - 1;
        beginInsertRows(parent == m_top.get() ? QModelIndex() : indexOf(parent), first, last);
        for (auto& item : list) {
            item->row = int(parent->children.size());
            parent->children.push_back(std::move(item));
        }
        endInsertRows();
    }
    m_pending.clear();
}

QModelIndex TraceModel::parentIndex(const TraceItem* parent) const
{
    return parent == m_top.get() ? QModelIndex() : indexOf(parent);
}

bool TraceModel::isShown(const TraceItem* item) const
{
    for (const TraceItem* a = item; a && a != m_top.get(); a = a->parent)
        if (a->row < 0)
            return false;
    return true;
}

namespace {
// The top-level row, which root() names: set before the end of a row change, so that views
// reading root() when they hear of it see the new one.
TraceItem* topRow(const TraceItem& top)
{
    return top.children.empty() ? nullptr : top.children.front().get();
}

void renumber(TraceItem* parent, size_t from)
{
    for (size_t i = from; i < parent->children.size(); ++i)
        parent->children[i]->row = int(i);
}
} // namespace

void TraceModel::setNode(TraceItem* item, TraceNode&& node, uint64_t serial)
{
    unindexId(item, false);
    item->node = std::move(node);
    item->node.serial = serial;
    indexId(item);
}

TraceItem* TraceModel::itemWithId(std::string_view id) const
{
    if (TraceItem* item = m_byId.find(std::hash<std::string_view>{}(id),
                                      [id](const TraceItem* i) { return i->node.id == id; }))
        return item;
    if (m_formerIds.empty())
        return nullptr;
    auto former = m_formerIds.find(std::string(id));
    return former == m_formerIds.end() ? nullptr : former->second;
}

void TraceModel::indexId(TraceItem* item)
{
    const std::string& id = item->node.id;
    if (id.empty())
        return;
    const size_t hash = std::hash<std::string_view>{}(id);
    if (m_byId.find(hash, [&id](const TraceItem* i) { return i->node.id == id; }))
        return; // the first item of an id keeps it
    if (!m_formerIds.empty() && m_formerIds.count(id))
        return;
    m_byId.insert(hash, item);
}

void TraceModel::unindexId(const TraceItem* item, bool keepFormer)
{
    TraceItem* removed = m_byId.erase(std::hash<std::string_view>{}(item->node.id), item);
    if (removed && keepFormer)
        m_formerIds.emplace(item->node.id, removed);
    if (!keepFormer)
        std::erase_if(m_formerIds, [item](const auto& entry) { return entry.second == item; });
}

void TraceModel::replaceNode(TraceItem* item, TraceNode&& node)
{
    if (item->node.id != node.id)
        unindexId(item, true);
    item->node = std::move(node);
    indexId(item);
}

void TraceModel::placeItem(Event& e, std::vector<TraceItem*>& changed)
{
    TraceItem* parent = m_top.get();
    if (e.parent) {
        auto p = m_bySerial.find(e.parent);
        if (p == m_bySerial.end())
            return; // out of order: the feed places parents first
        parent = p->second;
    }
    auto known = m_bySerial.find(e.serial);
    if (known == m_bySerial.end()) {
        auto item = std::make_unique<TraceItem>();
        TraceItem* raw = item.get();
        setNode(raw, std::move(e.node), e.serial);
        raw->field = e.field;
        raw->parent = parent;
        m_bySerial[e.serial] = raw;
        ++m_count;
        if (!isShown(parent)) { // under an item of this batch: it brings its children along
            const int at = std::clamp(e.row, 0, int(parent->children.size()));
            parent->children.insert(parent->children.begin() + at, std::move(item));
            renumber(parent, size_t(at));
            return;
        }
        const bool continues = m_placeParent == parent &&
                               e.row == m_placeAt + int(m_placing.size()) && !m_placing.empty();
        if (!continues) {
            flushPlacing();
            m_placeParent = parent;
            m_placeAt = std::clamp(e.row, 0, int(parent->children.size()));
        }
        raw->row = -1;
        m_placing.push_back(std::move(item));
        return;
    }
    flushPlacing();
    TraceItem* item = known->second;
    if (e.withNode) {
        setNode(item, std::move(e.node), e.serial);
        changed.push_back(item);
    }
    item->field = e.field;
    if (item->parent != parent || item->row != e.row)
        moveItem(item, parent, e.row);
}

void TraceModel::moveItem(TraceItem* item, TraceItem* parent, int row)
{
    for (const TraceItem* a = parent; a; a = a->parent)
        if (a == item)
            return; // never under itself (a feed out of order)
    TraceItem* from = item->parent;
    const int src = item->row;
    const bool same = from == parent;
    const int to = std::clamp(row, 0, int(parent->children.size()) - (same ? 1 : 0));
    if (same && to == src)
        return;
    const int dest = same && to > src ? to + 1 : to;
    if (!beginMoveRows(parentIndex(from), src, src, parentIndex(parent), dest))
        return;
    std::unique_ptr<TraceItem> moving = std::move(from->children[size_t(src)]);
    from->children.erase(from->children.begin() + src);
    renumber(from, size_t(src));
    parent->children.insert(parent->children.begin() + to, std::move(moving));
    item->parent = parent;
    renumber(parent, size_t(same ? std::min(src, to) : to));
    m_root = topRow(*m_top);
    endMoveRows();
}

void TraceModel::removeItem(uint64_t serial, std::vector<const TraceItem*>& removed)
{
    flushPlacing();
    auto it = m_bySerial.find(serial);
    if (it == m_bySerial.end())
        return;
    TraceItem* item = it->second;
    TraceItem* parent = item->parent;
    const int row = item->row;
    beginRemoveRows(parentIndex(parent), row, row);
    forget(item, removed);
    parent->children.erase(parent->children.begin() + row);
    renumber(parent, size_t(row));
    m_root = topRow(*m_top);
    endRemoveRows();
}

void TraceModel::flushPlacing()
{
    if (m_placing.empty())
        return;
    TraceItem* parent = m_placeParent;
    const int at = std::min(m_placeAt, int(parent->children.size()));
    beginInsertRows(parentIndex(parent), at, at + int(m_placing.size()) - 1);
    parent->children.insert(parent->children.begin() + at,
                            std::make_move_iterator(m_placing.begin()),
                            std::make_move_iterator(m_placing.end()));
    renumber(parent, size_t(at));
    m_placing.clear();
    m_placeParent = nullptr;
    m_root = topRow(*m_top);
    endInsertRows();
}

const TraceItem* TraceModel::itemAt(const QModelIndex& index) const
{
    if (!index.isValid() || index.model() != this)
        return nullptr;
    return static_cast<const TraceItem*>(index.internalPointer());
}

QModelIndex TraceModel::indexOf(const TraceItem* item, int column) const
{
    if (!item || item == m_top.get() || !item->parent)
        return {};
    // Items waiting in m_pending are not rows yet.
    const auto& siblings = item->parent->children;
    if (item->row < 0 || item->row >= int(siblings.size()) || siblings[item->row].get() != item)
        return {};
    return createIndex(item->row, column, const_cast<TraceItem*>(item));
}

const TraceItem* TraceModel::findById(const QString& id) const
{
    return itemWithId(id.toStdString());
}

std::vector<const TraceItem*> TraceModel::itemsAtSource(const QString& file, int line,
                                                        int column) const
{
    std::vector<const TraceItem*> hits;
    if (!m_root)
        return hits;
    // Pass 1: the innermost span containing the position.
    const SourceSpan* best = nullptr;
    std::vector<const TraceItem*> stack{m_root};
    auto fileMatches = [&](const SourceSpan& s) {
        return file.isEmpty() || s.file.isEmpty() || s.file == file;
    };
    while (!stack.empty()) {
        const TraceItem* it = stack.back();
        stack.pop_back();
        const SourceSpan& s = it->node.span;
        if (fileMatches(s) && spanContains(s, line, column)) {
            if (!best || spanWithin(s, *best))
                best = &s;
        }
        for (const auto& c : it->children)
            stack.push_back(c.get());
    }
    if (!best)
        return hits;
    const SourceSpan target = *best;
    // Pass 2: every execution of that block, in tree order.
    std::vector<const TraceItem*> order{m_root};
    while (!order.empty()) {
        const TraceItem* it = order.back();
        order.pop_back();
        const SourceSpan& s = it->node.span;
        if (s.line == target.line && s.column == target.column && s.endLine == target.endLine &&
            s.endColumn == target.endColumn && fileMatches(s))
            hits.push_back(it);
        for (auto c = it->children.rbegin(); c != it->children.rend(); ++c)
            order.push_back(c->get());
    }
    return hits;
}

QModelIndex TraceModel::index(int row, int column, const QModelIndex& parent) const
{
    if (column < 0 || column >= ColumnCount || row < 0)
        return {};
    const TraceItem* p = parent.isValid() ? itemAt(parent) : m_top.get();
    if (!p || row >= int(p->children.size()))
        return {};
    return createIndex(row, column, p->children[row].get());
}

QModelIndex TraceModel::parent(const QModelIndex& child) const
{
    const TraceItem* item = itemAt(child);
    if (!item || !item->parent || item->parent == m_top.get())
        return {};
    return createIndex(item->parent->row, 0, item->parent);
}

int TraceModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    const TraceItem* p = parent.isValid() ? itemAt(parent) : m_top.get();
    return p ? int(p->children.size()) : 0;
}

int TraceModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant TraceModel::data(const QModelIndex& index, int role) const
{
    const TraceItem* item = itemAt(index);
    if (!item)
        return {};
    const TraceNode& n = item->node;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return item->label();
        case KindColumn:
            return QString::fromLatin1(blockKindName(n.kind));
        case ResultColumn: {
            QString text = item->resultText();
            const qsizetype nl = text.indexOf(QLatin1Char('\n'));
            if (nl >= 0)
                text = text.left(nl) + QStringLiteral(" …");
            if (text.size() > 200)
                text = text.left(200) + QStringLiteral("…");
            return text;
        }
        case DurationColumn:
            return item->running      ? tr("running")
                   : item->cancelled  ? tr("stopped")
                   : n.replayed       ? tr("replayed")
                   : n.answeredByHand ? tr("answered by hand")
                                      : durationText(n);
        }
        return {};
    case Qt::ToolTipRole:
        if (item->failed())
            return QString::fromStdString(n.error);
        if (!n.description.empty())
            return QString::fromStdString(n.description);
        return QString::fromStdString(n.id);
    case ItemRole:
        return QVariant::fromValue(quintptr(item));
    case KindRole:
        return QString::fromLatin1(blockKindName(n.kind));
    case IdRole:
        return QString::fromStdString(n.id);
    case DefRole:
        return QString::fromStdString(n.def);
    case ResultTextRole:
        return item->resultText();
    case RunningRole:
        return item->running;
    case FailedRole:
        return item->failed();
    case StartNanosRole:
        return qint64(n.startNanos);
    case EndNanosRole:
        return qint64(n.endNanos);
    case SpanLineRole:
        return n.span.line;
    default:
        return {};
    }
}

QVariant TraceModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Block");
    case KindColumn:
        return tr("Kind");
    case ResultColumn:
        return tr("Result");
    case DurationColumn:
        return tr("Duration");
    }
    return {};
}

QHash<int, QByteArray> TraceModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractItemModel::roleNames();
    names.insert(KindRole, "kind");
    names.insert(IdRole, "pdlId");
    names.insert(DefRole, "def");
    names.insert(ResultTextRole, "resultText");
    names.insert(RunningRole, "running");
    names.insert(FailedRole, "failed");
    return names;
}

} // namespace hako::pdl
