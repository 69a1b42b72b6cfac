#include "widgets/otel/otelrunlist.h"

#include "widgets/trace/tracepanestyle.h"

#include <QDateTime>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace hako {

namespace {

enum Column { NameColumn, StartColumn, DurationColumn, SpansColumn, ErrorsColumn };

QString startText(int64_t nanos)
{
    if (nanos <= 0)
        return {};
    return QDateTime::fromMSecsSinceEpoch(nanos / 1000000)
        .toLocalTime()
        .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

} // namespace

OtelRunList::OtelRunList(QWidget* parent)
    : QWidget(parent), m_heading(new QLabel(this)), m_list(new QTreeWidget(this))
{
    m_heading->setWordWrap(true);
    m_heading->setContentsMargins(6, 4, 6, 2);
    m_heading->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_list->setAccessibleName(tr("Runs"));
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setAlternatingRowColors(true);
    m_list->setHeaderLabels({tr("Run"), tr("Start"), tr("Duration"), tr("Spans"), tr("Errors")});
    m_list->header()->setSectionResizeMode(NameColumn, QHeaderView::Stretch);
    m_list->header()->setStretchLastSection(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_heading);
    layout->addWidget(m_list, 1);
    auto request = [this](QTreeWidgetItem* item) {
        if (!m_filling && item)
            Q_EMIT runRequested(item->data(NameColumn, Qt::UserRole).toString());
    };
    connect(m_list, &QTreeWidget::itemActivated, this, request);
    connect(m_list, &QTreeWidget::itemClicked, this, request);
}

void OtelRunList::setRuns(const QString& heading, const std::vector<otel::TraceSummary>& runs,
                          const std::string& shown)
{
    m_heading->setText(heading);
    m_filling = true;
    // Rows are rewritten in place: a live receiver calls this for every batch.
    while (m_list->topLevelItemCount() > int(runs.size()))
        delete m_list->takeTopLevelItem(m_list->topLevelItemCount() - 1);
    for (size_t i = 0; i < runs.size(); ++i) {
        const otel::TraceSummary& r = runs[i];
        QTreeWidgetItem* item = m_list->topLevelItem(int(i));
        if (!item)
            item = new QTreeWidgetItem(m_list);
        const QString id = QString::fromStdString(r.traceId);
        const QString name = r.rootName.empty() ? tr("(root not received yet) %1").arg(id.left(8))
                                                : QString::fromStdString(r.rootName);
        item->setText(NameColumn, name);
        item->setData(NameColumn, Qt::UserRole, id);
        item->setToolTip(NameColumn, tr("Trace %1").arg(id));
        item->setText(StartColumn, startText(r.startNanos));
        item->setText(DurationColumn, r.endNanos > r.startNanos
                                          ? formatDuration(r.endNanos - r.startNanos)
                                          : QString());
        item->setText(SpansColumn, QString::number(r.spans));
        item->setText(ErrorsColumn, r.errors > 0 ? QString::number(r.errors) : QString());
        for (int c : {DurationColumn, SpansColumn, ErrorsColumn})
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        if (r.traceId == shown && m_list->currentItem() != item)
            m_list->setCurrentItem(item);
    }
    m_filling = false;
}

void OtelRunList::clear()
{
    m_list->clear();
    m_heading->clear();
}

QString OtelRunList::traceIdAt(int row) const
{
    const QTreeWidgetItem* item = m_list->topLevelItem(row);
    return item ? item->data(NameColumn, Qt::UserRole).toString() : QString();
}

} // namespace hako
