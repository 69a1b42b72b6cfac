#include "widgets/memory/memoryhistoryview.h"
#include "core/util/whenready.h"
#include "widgets/common/accessibleparts.h"
#include "widgets/common/diffhtml.h"

#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace hako {

using namespace memory;

namespace {

struct Loaded {
    Result<MemoryRecord> record = makeError(QString());
    Result<std::vector<JournalEntry>> journal = makeError(QString());
    std::vector<std::pair<int64_t, std::optional<MemoryRecord>>> evidence;
};

} // namespace

MemoryHistoryView::MemoryHistoryView(QWidget* parent) : QWidget(parent)
{
    m_title = new QLabel(this);
    m_title->setWordWrap(true);
    m_entries = new QTableWidget(0, 5, this);
    m_entries->setAccessibleName(tr("Changes"));
    m_entries->setHorizontalHeaderLabels(
        {tr("Seq"), tr("Time"), tr("Change"), tr("Actor"), tr("Reason")});
    m_entries->verticalHeader()->hide();
    m_entries->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_entries->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_entries->horizontalHeader()->setStretchLastSection(true);
    m_diff = new QTextBrowser(this);
    m_diff->setAccessibleName(tr("Change"));
    m_revert = new QPushButton(tr("Revert to before this change"), this);
    m_revert->setEnabled(false);
    m_provenance = new QTreeWidget(this);
    m_provenance->setAccessibleName(tr("Provenance"));
    m_provenance->setHeaderLabels({tr("Provenance"), tr("Detail")});
    m_provenance->header()->setStretchLastSection(true);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_entries);
    auto* diffBox = new QWidget(this);
    auto* dl = new QVBoxLayout(diffBox);
    dl->setContentsMargins(0, 0, 0, 0);
    dl->addWidget(m_diff);
    dl->addWidget(m_revert, 0, Qt::AlignRight);
    split->addWidget(diffBox);
    split->addWidget(m_provenance);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(split, 1);

    connect(m_entries, &QTableWidget::currentCellChanged, this,
            [this](int row) { showEntry(row); });
    connect(m_revert, &QPushButton::clicked, this, &MemoryHistoryView::revertSelected);
    connect(m_provenance, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
        const qint64 id = item->data(0, Qt::UserRole).toLongLong();
        if (id > 0)
            Q_EMIT memoryActivated(id);
    });
    // Qt's own parts (clear and corner buttons, combo box text) get names too.
    AccessibleParts::name(this);
}

void MemoryHistoryView::setStore(std::shared_ptr<MemoryStore> store)
{
    m_store = std::move(store);
    showMemory(0);
}

void MemoryHistoryView::showMemory(int64_t id)
{
    m_id = id;
    m_journal.clear();
    m_entries->setRowCount(0);
    m_diff->clear();
    m_provenance->clear();
    m_revert->setEnabled(false);
    m_title->setText(id ? tr("Memory %1").arg(id) : tr("Select a memory to see its history."));
    if (!m_store || !id)
        return;
    const LatestJob::Ticket ticket = m_latest.start();
    auto store = m_store;
    whenReady(
        this, QtConcurrent::run([store, id] {
            Loaded l;
            l.record = store->get(id);
            l.journal = store->journal(id);
            if (l.record) {
                for (int64_t e : l.record->evidence) {
                    auto r = store->get(e);
                    l.evidence.push_back({e, r ? std::optional<MemoryRecord>(*r) : std::nullopt});
                }
            }
            return l;
        }),
        [this, ticket](Loaded l) {
            if (!m_latest.isCurrent(ticket))
                return;
            if (!l.record || !l.journal) {
                Q_EMIT errorOccurred(!l.record ? l.record.error().message
                                               : l.journal.error().message);
                return;
            }
            const MemoryRecord& r = *l.record;
            m_title->setText(
                tr("<b>Memory %1</b> · %2 · %3 · importance %4 (%5) · version %6<br>%7")
                    .arg(r.id)
                    .arg(kindName(r.kind), stateName(r.state))
                    .arg(r.importance)
                    .arg(importanceSourceName(r.importanceSource))
                    .arg(r.version)
                    .arg(r.text.toHtmlEscaped()));
            m_journal = std::move(*l.journal);
            m_entries->setRowCount(int(m_journal.size()));
            for (int i = 0; i < int(m_journal.size()); ++i) {
                const JournalEntry& e = m_journal[size_t(i)];
                const QStringList cells = {QString::number(e.seq), formatTime(e.at), e.op,
                                           actorName(e.actor), e.reason};
                for (int c = 0; c < cells.size(); ++c)
                    m_entries->setItem(i, c, new QTableWidgetItem(cells[c]));
            }
            m_entries->resizeColumnsToContents();
            if (!m_journal.empty())
                m_entries->selectRow(int(m_journal.size()) - 1);

            // Provenance: evidence (flagging ids that no longer resolve) and the source.
            auto* evidence = new QTreeWidgetItem(
                m_provenance, {tr("Evidence"), tr("%1 memories").arg(l.evidence.size())});
            for (const auto& [eid, rec] : l.evidence) {
                auto* item = new QTreeWidgetItem(evidence);
                item->setData(0, Qt::UserRole, qint64(eid));
                item->setText(0, tr("memory %1").arg(eid));
                if (!rec) {
                    item->setText(1, tr("broken link: no such memory"));
                    item->setForeground(1, QBrush(Qt::red));
                } else {
                    item->setText(1, rec->state == State::Deleted
                                         ? tr("[deleted] %1").arg(rec->text)
                                         : rec->text);
                    if (rec->state == State::Deleted)
                        item->setForeground(1, QBrush(QColor(0xc0, 0x60, 0x00)));
                }
            }
            auto* source = new QTreeWidgetItem(m_provenance, {tr("Source"), QString()});
            const MemorySource& s = r.source;
            if (!s.threadId.isEmpty())
                new QTreeWidgetItem(source, {tr("thread"), s.threadId});
            if (!s.messageIds.isEmpty())
                new QTreeWidgetItem(source,
                                    {tr("messages"), s.messageIds.join(QStringLiteral(", "))});
            if (!s.runId.isEmpty())
                new QTreeWidgetItem(source, {tr("run"), s.runId});
            if (!s.nodeId.isEmpty())
                new QTreeWidgetItem(source, {tr("trace node"), s.nodeId});
            if (s.isEmpty())
                source->setText(1, tr("none recorded"));
            m_provenance->expandAll();
            m_provenance->resizeColumnToContents(0);
            Q_EMIT loaded();
        });
}

void MemoryHistoryView::showEntry(int row)
{
    if (row < 0 || size_t(row) >= m_journal.size()) {
        m_diff->clear();
        m_revert->setEnabled(false);
        return;
    }
    const JournalEntry& e = m_journal[size_t(row)];
    QString html = tr("<p><b>%1</b> by %2 at %3 — %4</p>")
                       .arg(e.op, actorName(e.actor), formatTime(e.at), e.reason.toHtmlEscaped());
    const QString before = e.before.value(QStringLiteral("text")).toString();
    const QString after = e.after.value(QStringLiteral("text")).toString();
    if (e.before.contains(QStringLiteral("text")) || e.after.contains(QStringLiteral("text")))
        html += QStringLiteral("<p style=\"font-size:larger\">%1</p>")
                    .arg(hako::diffHtml(before, after));
    // Every other field that changed, old → new.
    QStringList keys = e.after.keys();
    for (const QString& k : e.before.keys()) {
        if (!keys.contains(k))
            keys.append(k);
    }
    html += QStringLiteral("<table cellspacing=4>");
    for (const QString& k : keys) {
        if (k == QLatin1String("text") || k == QLatin1String("embedding"))
            continue;
        const QJsonValue b = e.before.value(k), a = e.after.value(k);
        if (b == a)
            continue;
        auto show = [](const QJsonValue& v) {
            if (v.isUndefined())
                return QStringLiteral("—");
            if (v.isString())
                return v.toString();
            if (v.isDouble())
                return QString::number(v.toDouble());
            return QString::fromUtf8(QJsonDocument(v.isArray() ? QJsonDocument(v.toArray())
                                                               : QJsonDocument(v.toObject()))
                                         .toJson(QJsonDocument::Compact));
        };
        html += QStringLiteral("<tr><td><i>%1</i></td><td>%2</td><td>→</td><td>%3</td></tr>")
                    .arg(k.toHtmlEscaped(), show(b).toHtmlEscaped(), show(a).toHtmlEscaped());
    }
    html += QStringLiteral("</table>");
    m_diff->setHtml(html);
    m_revert->setEnabled(!e.before.isEmpty() && e.op != QLatin1String("access"));
}

QString MemoryHistoryView::diffHtml() const
{
    return m_diff->toHtml();
}

void MemoryHistoryView::revertSelected()
{
    const int row = m_entries->currentRow();
    if (!m_store || row < 0 || size_t(row) >= m_journal.size())
        return;
    const JournalEntry e = m_journal[size_t(row)];
    if (m_confirm && !m_confirm(tr("Revert memory %1 to what it was before change #%2 (%3)?")
                                    .arg(m_id)
                                    .arg(e.seq)
                                    .arg(e.op)))
        return;
    auto store = m_store;
    const int64_t id = m_id;
    whenReady(this, QtConcurrent::run([store, id, e] {
                  return store->revert(
                      id, e.seq,
                      {Actor::User, QStringLiteral("reverted in the inspector"), {}, {}});
              }),
              [this, id](Result<MemoryRecord> r) {
                  if (!r) {
                      Q_EMIT errorOccurred(r.error().message);
                      return;
                  }
                  Q_EMIT memoryChanged(id);
                  showMemory(id);
              });
}

} // namespace hako
