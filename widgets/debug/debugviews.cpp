#include "widgets/debug/debugviews.h"

#include "core/run/debugsession.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLineEdit>
#include <QPalette>
#include <QPushButton>
#include <QShortcut>
#include <QVBoxLayout>

namespace hako {

// --- CallStackView ----------------------------------------------------------------------------

CallStackView::CallStackView(QWidget* parent) : QTreeWidget(parent)
{
    setColumnCount(2);
    setHeaderLabels({tr("Call Stack"), tr("Where")});
    setRootIsDecorated(false);
    setAccessibleName(tr("Call stack"));
    setToolTip(tr("The blocks the paused run is inside, innermost first; click one to see its "
                  "variables and watch values and to show it in the editor"));
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    auto pick = [this](QTreeWidgetItem* item) {
        if (!m_filling && item)
            Q_EMIT frameSelected(indexOfTopLevelItem(item));
    };
    // A click, or the arrow keys, pick a frame.
    connect(this, &QTreeWidget::currentItemChanged, this,
            [pick](QTreeWidgetItem* item) { pick(item); });
}

void CallStackView::showStack(const std::vector<pdl::StackFrame>& stack, int selected)
{
    m_filling = true;
    m_stack = stack;
    clear();
    for (const pdl::StackFrame& f : stack) {
        auto* item = new QTreeWidgetItem(this, {f.name(), f.where()});
        item->setToolTip(0, QString::fromStdString(f.id));
        item->setToolTip(1, f.span.file);
    }
    if (QTreeWidgetItem* item = topLevelItem(selected))
        setCurrentItem(item);
    setEnabled(true);
    m_filling = false;
}

void CallStackView::clearStack()
{
    m_filling = true;
    m_stack.clear();
    clear();
    setEnabled(false);
    m_filling = false;
}

// --- WatchView --------------------------------------------------------------------------------

WatchView::WatchView(QWidget* parent)
    : QWidget(parent), m_list(new QTreeWidget(this)), m_add(new QLineEdit(this)),
      m_remove(new QPushButton(tr("Remove"), this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_list->setColumnCount(2);
    m_list->setHeaderLabels({tr("Watch"), tr("Value")});
    m_list->setRootIsDecorated(false);
    m_list->setAccessibleName(tr("Watch expressions"));
    m_list->setToolTip(tr("Expressions evaluated in the selected frame each time the run "
                          "pauses; double-click one to edit it"));
    // Only the expression is edited (a double click or F2 on its row).
    m_list->setEditTriggers(QAbstractItemView::NoEditTriggers);
    connect(m_list, &QTreeWidget::itemDoubleClicked, this,
            [this](QTreeWidgetItem* item) { m_list->editItem(item, 0); });
    m_list->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    layout->addWidget(m_list, 1);
    auto* row = new QHBoxLayout;
    m_add->setPlaceholderText(tr("Add a watch expression, e.g. i * 2 …"));
    m_add->setAccessibleName(tr("New watch expression"));
    m_add->setToolTip(tr("A PDL expression (i * 2, answer.score, or ${ … }); Enter adds it"));
    m_remove->setAccessibleName(tr("Remove watch expression"));
    m_remove->setToolTip(tr("Remove the selected watch expression (Delete)"));
    row->addWidget(m_add, 1);
    row->addWidget(m_remove);
    layout->addLayout(row);
    connect(m_add, &QLineEdit::returnPressed, this, [this] {
        addExpression(m_add->text());
        m_add->clear();
    });
    connect(m_remove, &QPushButton::clicked, this, &WatchView::removeSelected);
    auto* del = new QShortcut(QKeySequence::Delete, m_list, nullptr, nullptr, Qt::WidgetShortcut);
    connect(del, &QShortcut::activated, this, &WatchView::removeSelected);
    connect(m_list, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem* item, int column) {
        if (m_filling || column != 0)
            return;
        if (item->text(0).trimmed().isEmpty()) {
            // Emptied: it goes, once the edit that emptied it is over.
            QMetaObject::invokeMethod(
                this,
                [this, item] {
                    if (m_list->indexOfTopLevelItem(item) >= 0) {
                        delete item;
                        Q_EMIT expressionsChanged(expressions());
                    }
                },
                Qt::QueuedConnection);
            return;
        }
        m_filling = true;
        item->setText(1, QString());
        m_filling = false;
        Q_EMIT expressionsChanged(expressions());
    });
}

QStringList WatchView::expressions() const
{
    QStringList out;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i)
        out << m_list->topLevelItem(i)->text(0).trimmed();
    return out;
}

void WatchView::setExpressions(const QStringList& expressions)
{
    m_filling = true;
    m_list->clear();
    for (const QString& e : expressions) {
        auto* item = new QTreeWidgetItem(m_list, {e, QString()});
        item->setFlags(item->flags() | Qt::ItemIsEditable);
    }
    m_filling = false;
}

void WatchView::addExpression(const QString& expression)
{
    const QString text = expression.trimmed();
    if (text.isEmpty())
        return;
    m_filling = true;
    auto* item = new QTreeWidgetItem(m_list, {text, QString()});
    item->setFlags(item->flags() | Qt::ItemIsEditable);
    m_filling = false;
    Q_EMIT expressionsChanged(expressions());
}

void WatchView::removeSelected()
{
    QTreeWidgetItem* item = m_list->currentItem();
    if (!item)
        return;
    delete item;
    Q_EMIT expressionsChanged(expressions());
}

void WatchView::showValues(const QList<RunController::WatchValue>& values)
{
    m_filling = true;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = m_list->topLevelItem(i);
        const RunController::WatchValue* w =
            i < values.size() && values[i].expression.trimmed() == item->text(0).trimmed()
                ? &values[i]
                : nullptr;
        if (!w) {
            item->setText(1, QString());
            continue;
        }
        const QString text = w->value ? DebugSession::valueText(*w->value)
                                      : tr("cannot be evaluated: %1").arg(w->error);
        item->setText(1, text);
        item->setToolTip(1, text);
        item->setForeground(1, w->value ? palette().brush(QPalette::Text)
                                        : QBrush(QColor(0xc6, 0x28, 0x28)));
    }
    m_filling = false;
}

void WatchView::clearValues()
{
    m_filling = true;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        m_list->topLevelItem(i)->setText(1, QString());
        m_list->topLevelItem(i)->setToolTip(1, QString());
    }
    m_filling = false;
}

// --- BreakpointsView --------------------------------------------------------------------------

BreakpointsView::BreakpointsView(QWidget* parent)
    : QWidget(parent), m_list(new QTreeWidget(this)), m_remove(new QPushButton(tr("Remove"), this)),
      m_removeAll(new QPushButton(tr("Remove All"), this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_list->setColumnCount(3);
    m_list->setHeaderLabels({tr("Breakpoint"), tr("Condition"), tr("Log Message")});
    m_list->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_list->setRootIsDecorated(false);
    m_list->setAccessibleName(tr("Breakpoints"));
    m_list->setToolTip(tr("The check box turns a breakpoint on or off. Double-click its "
                          "condition (pause only when true, e.g. i == 2) or its log message "
                          "(write e.g.  i is ${ i }  to the Console instead of pausing)"));
    // The condition and the message are edited in place; the location is not.
    m_list->setEditTriggers(QAbstractItemView::NoEditTriggers);
    connect(
        m_list, &QTreeWidget::itemDoubleClicked, this,
        [this](QTreeWidgetItem* item, int column) { m_list->editItem(item, column == 2 ? 2 : 1); });
    layout->addWidget(m_list, 1);
    auto* row = new QHBoxLayout;
    m_remove->setAccessibleName(tr("Remove breakpoint"));
    m_remove->setToolTip(tr("Remove the selected breakpoint"));
    m_removeAll->setAccessibleName(tr("Remove all breakpoints"));
    m_removeAll->setToolTip(tr("Remove every breakpoint of this program"));
    row->addStretch(1);
    row->addWidget(m_remove);
    row->addWidget(m_removeAll);
    layout->addLayout(row);
    connect(m_remove, &QPushButton::clicked, this, [this] {
        if (QTreeWidgetItem* item = m_list->currentItem())
            Q_EMIT removeRequested(item->data(0, Qt::UserRole).toInt());
    });
    connect(m_removeAll, &QPushButton::clicked, this, &BreakpointsView::removeAllRequested);
    connect(m_list, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem* item, int) {
        // Told once the edit is over: the list is rebuilt from the editor's breakpoints.
        if (!m_filling)
            QMetaObject::invokeMethod(
                this,
                [this, line = item->data(0, Qt::UserRole).toInt(), spec = specOf(item)] {
                    Q_EMIT breakpointChanged(line, spec);
                },
                Qt::QueuedConnection);
    });
    // Selecting a row (a click, the arrow keys) goes to its line.
    connect(m_list, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (!m_filling && item)
            Q_EMIT lineActivated(item->data(0, Qt::UserRole).toInt());
    });
    showBreakpoints(QString(), {});
}

pdl::BreakpointSpec BreakpointsView::specOf(const QTreeWidgetItem* item) const
{
    pdl::BreakpointSpec spec;
    spec.enabled = item->checkState(0) == Qt::Checked;
    spec.condition = item->text(1).trimmed();
    spec.logMessage = item->text(2).trimmed();
    return spec;
}

void BreakpointsView::showBreakpoints(const QString& file,
                                      const QMap<int, pdl::BreakpointSpec>& breakpoints)
{
    m_filling = true;
    const int current =
        m_list->currentItem() ? m_list->currentItem()->data(0, Qt::UserRole).toInt() : 0;
    m_list->clear();
    const QString name = file.isEmpty() ? tr("untitled") : QFileInfo(file).fileName();
    for (auto it = breakpoints.cbegin(); it != breakpoints.cend(); ++it) {
        auto* item = new QTreeWidgetItem(m_list, {QStringLiteral("%1:%2").arg(name).arg(it.key()),
                                                  it->condition, it->logMessage});
        item->setData(0, Qt::UserRole, it.key());
        item->setFlags(item->flags() | Qt::ItemIsEditable | Qt::ItemIsUserCheckable);
        item->setCheckState(0, it->enabled ? Qt::Checked : Qt::Unchecked);
        if (it.key() == current)
            m_list->setCurrentItem(item);
    }
    m_remove->setEnabled(!breakpoints.isEmpty());
    m_removeAll->setEnabled(!breakpoints.isEmpty());
    m_filling = false;
}

} // namespace hako
