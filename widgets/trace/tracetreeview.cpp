#include "widgets/trace/tracetreeview.h"

#include "widgets/trace/tracecontextlink.h"

#include "core/pdl/trace/tracefilterproxy.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/common/accessibleparts.h"
#include "widgets/common/thememanager.h"
#include "widgets/trace/tracepanestyle.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QStyledItemDelegate>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

namespace hako {

namespace {

// Colours rows the way the box view does: kind swatch, failed blocks red, blocks that
// contribute nothing dimmed, running blocks in italics.
class TraceRowDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        const auto* item = reinterpret_cast<const pdl::TraceItem*>(
            index.data(pdl::TraceModel::ItemRole).value<quintptr>());
        if (!item)
            return;
        if (index.column() == pdl::TraceModel::NameColumn) {
            option->text = rowLabel(item);
            const auto* proxy = qobject_cast<const pdl::TraceFilterProxy*>(index.model());
            if (const QString mark = proxy ? proxy->markerOf(item) : QString(); !mark.isEmpty())
                option->text += QStringLiteral("  ") + mark;
            option->icon = kindIcon(item->node.kind, option->palette);
            option->features |= QStyleOptionViewItem::HasDecoration;
        }
        QColor text = option->palette.color(QPalette::Text);
        if (item->failed()) {
            text =
                ThemeManager::isDark(option->palette) ? QColor(255, 120, 110) : QColor(190, 30, 30);
        } else if (item->node.contributesNothing()) {
            text.setAlphaF(0.5);
            option->font.setItalic(true);
        }
        if (item->running)
            option->font.setItalic(true);
        option->palette.setColor(QPalette::Text, text);
        if (index.column() == pdl::TraceModel::DurationColumn)
            option->displayAlignment = Qt::AlignRight | Qt::AlignVCenter;
    }
};

const char* const kKinds[] = {"model",  "code",   "read", "call",    "function", "if",
                              "match",  "repeat", "map",  "text",    "lastOf",   "array",
                              "object", "data",   "get",  "message", "include",  "import"};

} // namespace

TraceTreeView::TraceTreeView(WorkbenchContext* context, QWidget* parent)
    : QWidget(parent), m_context(context), m_proxy(new pdl::TraceFilterProxy(this)),
      m_tree(new QTreeView(this)), m_search(new QLineEdit(this)), m_kinds(new QComboBox(this)),
      m_status(new QLabel(this)), m_filterTimer(new QTimer(this)), m_refreshTimer(new QTimer(this))
{
    m_search->setPlaceholderText(tr("Search blocks (text, kind:model, def:name, failed)"));
    m_search->setClearButtonEnabled(true);
    m_search->setAccessibleName(tr("Search blocks"));
    m_kinds->setAccessibleName(tr("Block kind filter"));
    m_tree->setAccessibleName(tr("Trace tree"));
    m_kinds->addItem(tr("All kinds"), QString());
    for (const char* k : kKinds)
        m_kinds->addItem(QString::fromLatin1(k), QString::fromLatin1(k));
    updateKindIcons();
    m_kinds->setToolTip(tr("Show only blocks of this kind (and the blocks that contain them)"));

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 4, 4, 0);
    bar->setSpacing(4);
    bar->addWidget(m_search, 1);
    bar->addWidget(m_kinds);

    m_tree->setModel(m_proxy);
    m_tree->setItemDelegate(new TraceRowDelegate(m_tree));
    m_tree->setUniformRowHeights(true); // 100,000 rows stay fast
    m_tree->setAlternatingRowColors(true);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tree->setAllColumnsShowFocus(true);
    m_tree->header()->setStretchLastSection(false);

    m_status->setContentsMargins(6, 0, 6, 2);
    m_status->setForegroundRole(QPalette::PlaceholderText);
    m_status->hide();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    layout->addWidget(m_tree, 1);
    layout->addWidget(m_status);

    m_filterTimer->setSingleShot(true);
    m_filterTimer->setInterval(200);
    connect(m_filterTimer, &QTimer::timeout, this, &TraceTreeView::applyFilter);
    connect(m_search, &QLineEdit::textChanged, m_filterTimer, qOverload<>(&QTimer::start));
    connect(m_kinds, &QComboBox::currentIndexChanged, this, &TraceTreeView::applyFilter);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { onCurrentChanged(current); });
    // Rows that arrive while a filter is on (a new run streaming in) are hits too: open them
    // and recount, coalesced so that a streaming run does not walk the tree per row.
    m_refreshTimer->setSingleShot(true);
    m_refreshTimer->setInterval(100);
    connect(m_refreshTimer, &QTimer::timeout, this, [this] {
        if (m_proxy->isFiltering())
            expandHits();
        updateStatus();
    });
    auto refreshSoon = [this] {
        if (m_proxy->isFiltering())
            m_refreshTimer->start();
    };
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, refreshSoon);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, refreshSoon);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, refreshSoon);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, [this] {
        m_tree->expandToDepth(0);
        if (m_context)
            followCurrentNode(m_context->currentNode());
        updateStatus();
    });

    followTraceContext(
        m_context, this, [this](pdl::TraceModel* model) { setModel(model); },
        [this](const QString& id) { followCurrentNode(id); }, true);
    // Qt's own parts (clear and corner buttons, combo box text) get names too.
    AccessibleParts::name(this);
}

void TraceTreeView::updateKindIcons()
{
    for (int i = 1; i < m_kinds->count(); ++i) {
        // The swatch of each kind, found through the trace reader's names.
        const QString name = m_kinds->itemData(i).toString();
        for (int k = 0; k <= int(pdl::BlockKind::Error); ++k)
            if (QString::fromLatin1(pdl::blockKindName(pdl::BlockKind(k))) == name)
                m_kinds->setItemIcon(i, kindIcon(pdl::BlockKind(k), palette()));
    }
}

void TraceTreeView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        updateKindIcons();
}

void TraceTreeView::setModel(pdl::TraceModel* model)
{
    if (m_model == model)
        return;
    if (m_model)
        disconnect(m_model, nullptr, this, nullptr);
    m_model = model;
    m_proxy->setSourceModel(model);
    if (model && !m_headerSet) {
        // Sections exist only once there is a model.
        QHeaderView* h = m_tree->header();
        h->setSectionResizeMode(pdl::TraceModel::ResultColumn, QHeaderView::Stretch);
        h->resizeSection(pdl::TraceModel::NameColumn, 200);
        h->resizeSection(pdl::TraceModel::KindColumn, 80);
        h->resizeSection(pdl::TraceModel::DurationColumn, 80);
        m_headerSet = true;
    }
    m_tree->expandToDepth(0);
    if (model) {
        // The root's row appears with the first event of a live run: open it.
        connect(model, &QAbstractItemModel::rowsInserted, this,
                [this](const QModelIndex& parent, int first) {
                    if (!parent.isValid() && first == 0)
                        m_tree->expand(m_proxy->index(0, 0));
                });
    }
    updateStatus();
}

void TraceTreeView::setFilterText(const QString& text)
{
    m_search->setText(text);
    m_filterTimer->stop();
    applyFilter();
}

void TraceTreeView::setKindFilter(const QString& kind)
{
    const int i = m_kinds->findData(kind);
    m_kinds->setCurrentIndex(i < 0 ? 0 : i);
    applyFilter();
}

void TraceTreeView::applyFilter()
{
    QSet<QString> kinds;
    if (const QString k = m_kinds->currentData().toString(); !k.isEmpty())
        kinds.insert(k);
    QStringList words;
    QString def;
    bool failed = false;
    QStringList searchWords = m_search->text().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    m_proxy->setCriterion(m_wordHandler ? m_wordHandler(searchWords) : nullptr);
    for (const QString& word : std::as_const(searchWords)) {
        if (word.startsWith(QLatin1String("kind:")) && word.size() > 5)
            kinds.insert(word.mid(5));
        else if (word.startsWith(QLatin1String("def:")) && word.size() > 4)
            def = word.mid(4);
        else if (word == QLatin1String("failed"))
            failed = true;
        else
            words.append(word);
    }
    m_proxy->setKinds(kinds);
    m_proxy->setDef(def);
    m_proxy->setFailedOnly(failed);
    m_proxy->setText(words.join(QLatin1Char(' ')));
    if (m_proxy->isFiltering())
        expandHits();
    if (m_context)
        followCurrentNode(m_context->currentNode());
    updateStatus();
}

void TraceTreeView::expandHits()
{
    // Show every hit, unless there are so many that expanding would stall the view.
    int shown = 0;
    std::vector<QModelIndex> stack{QModelIndex()};
    while (!stack.empty() && shown < 5000) {
        const QModelIndex p = stack.back();
        stack.pop_back();
        const int rows = m_proxy->rowCount(p);
        shown += rows;
        for (int r = 0; r < rows; ++r)
            stack.push_back(m_proxy->index(r, 0, p));
    }
    if (shown < 5000)
        m_tree->expandAll();
}

int TraceTreeView::matchCount() const
{
    // Every hit is in the proxy (with its ancestors), so the shown rows are enough to walk.
    int hits = 0;
    std::vector<QModelIndex> stack{QModelIndex()};
    while (!stack.empty()) {
        const QModelIndex p = stack.back();
        stack.pop_back();
        if (p.isValid() && m_proxy->matches(m_proxy->itemAt(p)))
            ++hits;
        const int rows = m_proxy->rowCount(p);
        for (int r = 0; r < rows; ++r)
            stack.push_back(m_proxy->index(r, 0, p));
    }
    return hits;
}

void TraceTreeView::updateStatus()
{
    if (!m_model || !m_proxy->isFiltering()) {
        m_status->hide();
        return;
    }
    const int hits = m_proxy->rowCount() == 0 ? 0 : matchCount();
    if (hits == 0)
        m_status->setText(tr("No block matches (%n blocks).", nullptr, m_model->itemCount()));
    else
        m_status->setText(tr("%1 of %n blocks match (shown with the blocks around them). Clear "
                             "the search to see every block.",
                             nullptr, m_model->itemCount())
                              .arg(hits));
    m_status->show();
}

void TraceTreeView::setWordHandler(WordHandler handler)
{
    m_wordHandler = std::move(handler);
    applyFilter();
}

void TraceTreeView::setRowMarker(std::function<QString(const pdl::TraceItem*)> marker)
{
    m_proxy->setMarker(std::move(marker));
    m_tree->viewport()->update();
}

void TraceTreeView::refresh()
{
    applyFilter();
    m_tree->viewport()->update();
}

QString TraceTreeView::selectedId() const
{
    const pdl::TraceItem* item = m_proxy->itemAt(m_tree->currentIndex());
    return item ? QString::fromStdString(item->node.id) : QString();
}

void TraceTreeView::followCurrentNode(const QString& id)
{
    if (!m_model)
        return;
    const pdl::TraceItem* item = id.isEmpty() ? nullptr : m_model->findById(id);
    const QModelIndex proxyIndex =
        item ? m_proxy->mapFromSource(m_model->indexOf(item)) : QModelIndex();
    m_syncing = true;
    if (!proxyIndex.isValid()) {
        m_tree->selectionModel()->clearSelection();
    } else if (m_tree->currentIndex() != proxyIndex) {
        for (QModelIndex p = proxyIndex.parent(); p.isValid(); p = p.parent())
            m_tree->expand(p);
        m_tree->selectionModel()->setCurrentIndex(proxyIndex, QItemSelectionModel::ClearAndSelect |
                                                                  QItemSelectionModel::Rows);
        m_tree->scrollTo(proxyIndex);
    }
    m_syncing = false;
}

void TraceTreeView::onCurrentChanged(const QModelIndex& current)
{
    if (m_syncing || !m_context)
        return;
    const pdl::TraceItem* item = m_proxy->itemAt(current);
    if (item)
        m_context->setCurrentNode(QString::fromStdString(item->node.id), this);
}

} // namespace hako
