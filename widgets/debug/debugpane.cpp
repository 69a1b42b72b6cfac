#include "widgets/debug/debugpane.h"

#include "core/pdl/interp/scopenames.h"
#include "core/run/debugsession.h"
#include "widgets/debug/debugviews.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace hako {

DebugPane::DebugPane(QWidget* parent)
    : QWidget(parent), m_where(new QLabel(this)), m_variables(new QTreeWidget(this)),
      m_context(new QTreeWidget(this)), m_answer(new QLineEdit(this)),
      m_answerButton(new QPushButton(tr("Answer"), this)), m_stack(new CallStackView(this)),
      m_watches(new WatchView(this)), m_breakpoints(new BreakpointsView(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_where->setWordWrap(true);
    m_where->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Screen readers read the label's text (where the run is) as its name; its role is the
    // description.
    m_where->setAccessibleDescription(tr("Where the debugged run is"));
    layout->addWidget(m_where);

    m_variables->setColumnCount(2);
    m_variables->setHeaderLabels({tr("Variable"), tr("Value")});
    m_variables->setRootIsDecorated(false);
    m_variables->setAccessibleName(tr("Debug variables"));
    m_variables->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_context->setColumnCount(2);
    m_context->setHeaderLabels({tr("Role"), tr("Content")});
    m_context->setRootIsDecorated(false);
    m_context->setAccessibleName(tr("Debug context"));
    // Side by side, as a bottom dock has width to spare and little height: where the run is
    // (the call stack, widest), what is watched, the breakpoints, and the selected frame's
    // variables above the background context.
    auto* right = new QSplitter(Qt::Vertical, this);
    right->addWidget(m_variables);
    right->addWidget(m_context);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_stack);
    split->addWidget(m_watches);
    split->addWidget(m_breakpoints);
    split->addWidget(right);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setStretchFactor(2, 2);
    split->setStretchFactor(3, 3);
    layout->addWidget(split, 1);

    auto* answerRow = new QHBoxLayout;
    m_answer->setPlaceholderText(tr("Reply to the model call by hand…"));
    m_answer->setAccessibleName(tr("Model reply by hand"));
    answerRow->addWidget(m_answer, 1);
    answerRow->addWidget(m_answerButton);
    layout->addLayout(answerRow);
    auto answer = [this] {
        if (m_answer->isEnabled())
            Q_EMIT answerRequested(m_answer->text());
    };
    connect(m_answer, &QLineEdit::returnPressed, this, answer);
    connect(m_answerButton, &QPushButton::clicked, this, answer);

    // A value edited in place (double click, or Enter on its row) is sent as YAML/JSON; so is a
    // message of the context.
    for (QTreeWidget* view : {m_variables, m_context}) {
        view->setEditTriggers(QAbstractItemView::NoEditTriggers);
        connect(view, &QTreeWidget::itemActivated, this, [view](QTreeWidgetItem* item, int) {
            if (view->isEnabled())
                view->editItem(item, 1);
        });
    }
    connect(m_variables, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem* item, int) {
        if (!m_filling)
            Q_EMIT setVariableRequested(item->text(0), item->text(1));
    });
    connect(m_context, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem* item, int) {
        if (!m_filling)
            Q_EMIT setContextMessageRequested(m_context->indexOfTopLevelItem(item), item->text(1));
    });
    showRunning(tr("Not debugging. Run › Debug Program (F6) runs the program under the debugger."));
}

void DebugPane::showSnapshot(const RunController::DebugSnapshot& snapshot)
{
    m_filling = true;
    m_where->setText(tr("Paused at %1").arg(snapshot.location.describe()));
    m_where->setAccessibleName(m_where->text());
    m_variables->clear();
    for (const auto& [k, v] : snapshot.variables) {
        const QString name = QString::fromStdString(k.isString() ? k.asString() : k.str());
        if (pdl::isBuiltinScopeName(name.toStdString()))
            continue;
        auto* item = new QTreeWidgetItem(m_variables, {name, DebugSession::valueText(v)});
        item->setFlags(item->flags() | Qt::ItemIsEditable);
    }
    m_context->clear();
    for (const pdl::Value& m : snapshot.context) {
        QString role, content;
        if (m.isDict()) {
            if (const pdl::Value* r = m.asDict().find("role"))
                role = QString::fromStdString(r->toText());
            if (const pdl::Value* c = m.asDict().find("content"))
                content = c->isString() ? QString::fromStdString(c->asString())
                                        : DebugSession::valueText(*c);
        }
        auto* item = new QTreeWidgetItem(m_context, {role, content});
        item->setFlags(item->flags() | Qt::ItemIsEditable);
    }
    m_variables->setEnabled(true);
    m_context->setEnabled(true);
    m_stack->showStack(snapshot.stack, snapshot.frame);
    m_watches->showValues(snapshot.watches);
    const bool model = snapshot.location.kind == pdl::BlockKind::Model;
    m_answer->setEnabled(model);
    m_answerButton->setEnabled(model);
    m_filling = false;
}

void DebugPane::showRunning(const QString& status)
{
    m_where->setText(status);
    m_where->setAccessibleName(status);
    m_variables->setEnabled(false);
    m_context->setEnabled(false);
    m_stack->clearStack();
    m_watches->clearValues();
    m_answer->setEnabled(false);
    m_answerButton->setEnabled(false);
}

} // namespace hako
