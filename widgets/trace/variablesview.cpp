#include "widgets/trace/variablesview.h"

#include "core/pdl/trace/tracemodel.h"
#include "core/pdl/trace/tracesource.h"
#include "core/pdl/trace/valuetreemodel.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/common/accessibleparts.h"
#include "widgets/trace/tracepanestyle.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>

namespace hako {

VariablesView::VariablesView(WorkbenchContext* context, QWidget* parent)
    : SingleNodePane(context, parent), m_values(new pdl::ValueTreeModel(this)),
      m_filter(new QSortFilterProxyModel(this)), m_header(new QLabel(this)),
      m_search(new QLineEdit(this)), m_tree(new QTreeView(this))
{
    m_filter->setSourceModel(m_values);
    m_filter->setFilterKeyColumn(pdl::ValueTreeModel::NameColumn);
    m_filter->setFilterCaseSensitivity(Qt::CaseInsensitive);
    // Only variable names are filtered; whatever is inside a kept variable stays visible.
    m_filter->setAutoAcceptChildRows(true);

    m_header->setTextFormat(Qt::RichText);
    m_header->setWordWrap(true);
    m_header->setContentsMargins(6, 4, 6, 0);
    m_search->setPlaceholderText(tr("Filter variables"));
    m_search->setAccessibleName(tr("Filter variables"));
    m_tree->setAccessibleName(tr("Variables in scope"));
    m_search->setClearButtonEnabled(true);
    connect(m_search, &QLineEdit::textChanged, m_filter,
            &QSortFilterProxyModel::setFilterFixedString);

    m_tree->setModel(m_filter);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setTextElideMode(Qt::ElideRight);
    m_tree->header()->setStretchLastSection(true);
    m_tree->header()->resizeSection(pdl::ValueTreeModel::NameColumn, 150);
    m_tree->header()->resizeSection(pdl::ValueTreeModel::TypeColumn, 80);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(3);
    layout->addWidget(m_header);
    auto* searchRow = new QVBoxLayout;
    searchRow->setContentsMargins(4, 0, 4, 0);
    searchRow->addWidget(m_search);
    layout->addLayout(searchRow);
    layout->addWidget(m_tree, 1);

    // Every origin: the variables follow any selection.
    followContext();
    // Qt's own parts (clear and corner buttons, combo box text) get names too.
    AccessibleParts::name(this);
}

void VariablesView::refresh()
{
    const pdl::TraceItem* item = m_model && !m_id.isEmpty() ? m_model->findById(m_id) : nullptr;
    if (!item) {
        m_values->clear();
        m_reconstructed = false;
        m_header->setText(m_model && m_model->root()
                              ? tr("<i>Select a block to see the variables in scope there.</i>")
                              : tr("<i>No trace.</i>"));
        return;
    }
    bool reconstructed = false;
    auto vars = pdl::scopeAt(item, &reconstructed);
    m_reconstructed = reconstructed;
    const int count = int(vars.size());
    m_values->setEntries(std::move(vars));
    QString where = itemLabel(item).toHtmlEscaped();
    if (!item->node.id.empty())
        where += QStringLiteral(" <span style='color:gray'>(%1)</span>")
                     .arg(QString::fromStdString(item->node.id).toHtmlEscaped());
    QString how;
    if (item->running)
        how = tr("still running");
    else if (reconstructed)
        how = tr("rebuilt from the trace: earlier definitions and loop variables");
    else
        how = tr("as captured by the run");
    m_header->setText(tr("<b>%n variable(s)</b> at %1<br><small>%2</small>", nullptr, count)
                          .arg(where, how.toHtmlEscaped()));
}

} // namespace hako
