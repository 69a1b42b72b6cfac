#include "widgets/editor/problemsview.h"

#include "core/pdl/analysis/plaindiagnostic.h"

#include <QEvent>
#include <QHeaderView>
#include <QStyle>

namespace hako {

ProblemsView::ProblemsView(QWidget* parent) : QTreeWidget(parent)
{
    setColumnCount(2);
    retranslate();
    setRootIsDecorated(false);
    setUniformRowHeights(true);
    setAlternatingRowColors(true);
    setSelectionMode(QAbstractItemView::SingleSelection);
    header()->setStretchLastSection(false);
    header()->setSectionResizeMode(0, QHeaderView::Stretch);
    header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    connect(this, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        const int row = indexOfTopLevelItem(item);
        if (row >= 0 && size_t(row) < m_diagnostics.size())
            Q_EMIT problemActivated(m_diagnostics[size_t(row)].span);
    });
}

void ProblemsView::retranslate()
{
    setAccessibleName(tr("Problems"));
    setToolTip(tr("Problems found while you type. Double-click one to go to it; Ctrl+. in the "
                  "editor offers fixes."));
    setHeaderLabels({tr("Problem"), tr("Where")});
}

QString ProblemsView::severityText(Severity severity)
{
    switch (severity) {
    case Severity::Error:
        return tr("Error");
    case Severity::Warning:
        return tr("Warning");
    case Severity::Note:
        break;
    }
    return tr("Note");
}

QString ProblemsView::lineColumn(const SourceSpan& span)
{
    if (span.line <= 0)
        return {};
    return span.column > 0 ? tr("Line %1, column %2").arg(span.line).arg(span.column)
                           : tr("Line %1").arg(span.line);
}

QString ProblemsView::placeOf(const Diagnostic& d) const
{
    if (m_resolver && d.span.isValid()) {
        const QString place = m_resolver(d.span);
        if (!place.isEmpty())
            return place;
    }
    return lineColumn(d.span);
}

void ProblemsView::setDiagnostics(const std::vector<Diagnostic>& diagnostics)
{
    m_diagnostics = diagnostics;
    showRows();
}

void ProblemsView::showRows()
{
    const int selected = currentItem() ? indexOfTopLevelItem(currentItem()) : -1;
    setUpdatesEnabled(false);
    clear();
    const QIcon error = style()->standardIcon(QStyle::SP_MessageBoxCritical);
    const QIcon warning = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    const QIcon note = style()->standardIcon(QStyle::SP_MessageBoxInformation);
    QList<QTreeWidgetItem*> items;
    items.reserve(qsizetype(m_diagnostics.size()));
    for (const Diagnostic& d : m_diagnostics) {
        // The plain sentence (the first line of anything else: expression errors carry the
        // source line and a caret below); the checker's words on hover.
        const pdl::PlainDiagnostic plain = pdl::plainDiagnostic(d);
        const QString place = placeOf(d);
        auto* item = new QTreeWidgetItem({plain.text, place});
        item->setIcon(0, d.severity == Severity::Error     ? error
                         : d.severity == Severity::Warning ? warning
                                                           : note);
        const QString severity = severityText(d.severity);
        QString tip = tr("%1: %2").arg(severity, plain.text);
        if (!plain.detail.isEmpty())
            tip += QStringLiteral("\n\n") + tr("Details: %1").arg(plain.detail);
        item->setToolTip(0, tip);
        item->setData(0, Qt::AccessibleTextRole, tr("%1: %2").arg(severity, plain.text));
        const QString position = lineColumn(d.span);
        item->setToolTip(1, place == position ? QString() : tr("In the YAML: %1").arg(position));
        items.append(item);
    }
    addTopLevelItems(items);
    if (selected >= 0 && selected < topLevelItemCount())
        setCurrentItem(topLevelItem(selected));
    setUpdatesEnabled(true);
}

void ProblemsView::setPlaceResolver(PlaceResolver resolver)
{
    m_resolver = std::move(resolver);
    refreshPlaces();
}

void ProblemsView::refreshPlaces()
{
    for (int row = 0; row < topLevelItemCount() && size_t(row) < m_diagnostics.size(); ++row) {
        const Diagnostic& d = m_diagnostics[size_t(row)];
        const QString place = placeOf(d);
        const QString position = lineColumn(d.span);
        QTreeWidgetItem* item = topLevelItem(row);
        item->setText(1, place);
        item->setToolTip(1, place == position ? QString() : tr("In the YAML: %1").arg(position));
    }
}

void ProblemsView::changeEvent(QEvent* event)
{
    // Texts built before a language change are rebuilt in the new language.
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        showRows();
    }
    QTreeWidget::changeEvent(event);
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
