#include "widgets/editor/problemsview.h"

#include <QHeaderView>
#include <QStyle>

namespace hako {

ProblemsView::ProblemsView(QWidget* parent) : QTreeWidget(parent)
{
    setAccessibleName(tr("Problems"));
    setColumnCount(3);
    setHeaderLabels({tr("Message"), tr("Line"), tr("Column")});
    setRootIsDecorated(false);
    setUniformRowHeights(true);
    setAlternatingRowColors(true);
    setSelectionMode(QAbstractItemView::SingleSelection);
    header()->setStretchLastSection(false);
    header()->setSectionResizeMode(0, QHeaderView::Stretch);
    header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    connect(this, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        const int row = indexOfTopLevelItem(item);
        if (row >= 0 && size_t(row) < m_diagnostics.size())
            Q_EMIT problemActivated(m_diagnostics[size_t(row)].span);
    });
}

void ProblemsView::setDiagnostics(const std::vector<Diagnostic>& diagnostics)
{
    const int selected = currentItem() ? indexOfTopLevelItem(currentItem()) : -1;
    m_diagnostics = diagnostics;
    setUpdatesEnabled(false);
    clear();
    const QIcon error = style()->standardIcon(QStyle::SP_MessageBoxCritical);
    const QIcon warning = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    const QIcon note = style()->standardIcon(QStyle::SP_MessageBoxInformation);
    QList<QTreeWidgetItem*> items;
    items.reserve(qsizetype(diagnostics.size()));
    for (const Diagnostic& d : diagnostics) {
        // The first line only: expression errors carry the source line and a caret below.
        auto* item =
            new QTreeWidgetItem({d.message.section(QLatin1Char('\n'), 0, 0),
                                 d.span.line > 0 ? QString::number(d.span.line) : QString(),
                                 d.span.column > 0 ? QString::number(d.span.column) : QString()});
        item->setIcon(0, d.severity == Severity::Error     ? error
                         : d.severity == Severity::Warning ? warning
                                                           : note);
        item->setToolTip(0, QStringLiteral("%1: %2").arg(severityName(d.severity), d.message));
        items.append(item);
    }
    addTopLevelItems(items);
    if (selected >= 0 && selected < topLevelItemCount())
        setCurrentItem(topLevelItem(selected));
    setUpdatesEnabled(true);
}

QString ProblemsView::summary() const
{
    int errors = 0;
    int warnings = 0;
    for (const Diagnostic& d : m_diagnostics) {
        errors += d.severity == Severity::Error ? 1 : 0;
        warnings += d.severity == Severity::Warning ? 1 : 0;
    }
    if (errors == 0 && warnings == 0)
        return tr("No problems");
    return countText(errors, warnings);
}

QString ProblemsView::countText(int errors, int warnings)
{
    // Singular and plural chosen here: English has no translation file to pick them from %n.
    const QString e = errors == 1 ? tr("1 error") : tr("%1 errors").arg(errors);
    const QString w = warnings == 1 ? tr("1 warning") : tr("%1 warnings").arg(warnings);
    return tr("%1, %2").arg(e, w);
}

} // namespace hako
