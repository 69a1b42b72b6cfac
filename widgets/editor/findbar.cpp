#include "widgets/editor/findbar.h"
#include "widgets/common/accessibleparts.h"

#include <QGridLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QShortcut>
#include <QStyle>
#include <QToolButton>

namespace hako {

namespace {
QToolButton* makeToggle(const QString& text, const QString& tip, QWidget* parent)
{
    auto* b = new QToolButton(parent);
    b->setText(text);
    b->setToolTip(tip);
    b->setAccessibleName(tip);
    b->setCheckable(true);
    b->setAutoRaise(true);
    b->setFocusPolicy(Qt::TabFocus);
    return b;
}
} // namespace

FindBar::FindBar(PdlEditor* editor, QWidget* parent)
    : QFrame(parent), m_editor(editor), m_find(new QLineEdit(this)), m_replace(new QLineEdit(this)),
      m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("findBar"));
    setStyleSheet(
        QStringLiteral("QFrame#findBar { background:#f6f8fa; border-top:1px solid #d0d7de; }"
                       "QToolButton:checked { background:#dbeafe; border:1px solid #93c5fd; "
                       "border-radius:3px; }"));
    m_matchCase = makeToggle(QStringLiteral("Aa"), tr("Match case"), this);
    m_wholeWord = makeToggle(QStringLiteral("\u201cW\u201d"), tr("Whole words"), this);
    m_regex = makeToggle(QStringLiteral(".*"), tr("Regular expression"), this);
    m_find->setPlaceholderText(tr("Find"));
    m_find->setAccessibleName(tr("Find"));
    m_find->setClearButtonEnabled(true);
    m_replace->setPlaceholderText(tr("Replace with"));
    m_replace->setAccessibleName(tr("Replace with"));
    m_replace->setClearButtonEnabled(true);

    auto* previous = new QToolButton(this);
    previous->setArrowType(Qt::UpArrow);
    previous->setAutoRaise(true);
    previous->setToolTip(tr("Find previous (Shift+F3)"));
    previous->setAccessibleName(tr("Find previous"));
    auto* next = new QToolButton(this);
    next->setArrowType(Qt::DownArrow);
    next->setAutoRaise(true);
    next->setToolTip(tr("Find next (F3)"));
    next->setAccessibleName(tr("Find next"));
    auto* closeButton = new QToolButton(this);
    closeButton->setAutoRaise(true);
    closeButton->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    closeButton->setToolTip(tr("Close (Escape)"));
    closeButton->setAccessibleName(tr("Close the find bar"));
    auto* replaceButton = new QPushButton(tr("Replace"), this);
    auto* replaceAllButton = new QPushButton(tr("Replace All"), this);

    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(8, 5, 6, 5);
    grid->setHorizontalSpacing(6);
    grid->setVerticalSpacing(4);
    auto* findRow = new QHBoxLayout;
    findRow->setSpacing(2);
    findRow->addWidget(m_find);
    findRow->addSpacing(4);
    findRow->addWidget(m_matchCase);
    findRow->addWidget(m_wholeWord);
    findRow->addWidget(m_regex);
    findRow->addSpacing(6);
    findRow->addWidget(previous);
    findRow->addWidget(next);
    findRow->addSpacing(6);
    findRow->addWidget(m_status);
    findRow->addStretch(1);
    grid->addLayout(findRow, 0, 0);
    grid->addWidget(closeButton, 0, 1, Qt::AlignTop);

    m_replaceRow = new QWidget(this);
    auto* replaceRow = new QHBoxLayout(m_replaceRow);
    replaceRow->setContentsMargins(0, 0, 0, 0);
    replaceRow->setSpacing(6);
    replaceRow->addWidget(m_replace);
    replaceRow->addWidget(replaceButton);
    replaceRow->addWidget(replaceAllButton);
    replaceRow->addStretch(1);
    grid->addWidget(m_replaceRow, 1, 0);
    grid->setColumnStretch(0, 1);
    // Fixed-width fields keep the toggles next to the text instead of at the far edge.
    m_find->setFixedWidth(380);
    m_replace->setFixedWidth(380);

    connect(next, &QToolButton::clicked, this, &FindBar::findNext);
    connect(previous, &QToolButton::clicked, this, &FindBar::findPrevious);
    connect(closeButton, &QToolButton::clicked, this, &FindBar::close);
    connect(replaceButton, &QPushButton::clicked, this, &FindBar::replace);
    connect(replaceAllButton, &QPushButton::clicked, this, &FindBar::replaceAll);
    connect(m_find, &QLineEdit::returnPressed, this, [this] {
        if (QGuiApplication::keyboardModifiers() & Qt::ShiftModifier)
            findPrevious();
        else
            findNext();
    });
    connect(m_replace, &QLineEdit::returnPressed, this, &FindBar::replace);
    connect(m_find, &QLineEdit::textChanged, this, [this] { setStatus({}); });
    auto* escape = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    escape->setContext(Qt::WidgetWithChildrenShortcut);
    connect(escape, &QShortcut::activated, this, &FindBar::close);
    hide();
    // Qt's own parts (clear and corner buttons, combo box text) get names too.
    AccessibleParts::name(this);
}

void FindBar::seedFromSelection()
{
    const QString selected = m_editor->selectedText();
    if (!selected.isEmpty() && !selected.contains(u'\n') && !selected.contains(u'\r'))
        m_find->setText(selected);
}

void FindBar::showFind()
{
    seedFromSelection();
    m_replaceRow->hide();
    show();
    m_find->setFocus();
    m_find->selectAll();
}

void FindBar::showReplace()
{
    seedFromSelection();
    m_replaceRow->show();
    show();
    m_find->setFocus();
    m_find->selectAll();
}

void FindBar::close()
{
    hide();
    m_editor->setFocus();
}

bool FindBar::findNext()
{
    const bool found = m_editor->findNext(findText(), options());
    setStatus(found || findText().isEmpty() ? QString() : tr("No matches"), !found);
    return found;
}

bool FindBar::findPrevious()
{
    const bool found = m_editor->findNext(findText(), options(), true);
    setStatus(found || findText().isEmpty() ? QString() : tr("No matches"), !found);
    return found;
}

bool FindBar::replace()
{
    const bool replaced = m_editor->replaceCurrent(findText(), replaceText(), options());
    if (!replaced && !m_editor->hasSelectedText())
        setStatus(tr("No matches"), true);
    else
        setStatus({});
    return replaced;
}

int FindBar::replaceAll()
{
    const int count = m_editor->replaceAll(findText(), replaceText(), options());
    setStatus(count == 0 ? tr("No matches") : tr("%n replaced", nullptr, count), count == 0);
    return count;
}

QString FindBar::findText() const
{
    return m_find->text();
}

void FindBar::setFindText(const QString& text)
{
    m_find->setText(text);
}

QString FindBar::replaceText() const
{
    return m_replace->text();
}

void FindBar::setReplaceText(const QString& text)
{
    m_replace->setText(text);
}

FindOptions FindBar::options() const
{
    return {m_matchCase->isChecked(), m_wholeWord->isChecked(), m_regex->isChecked()};
}

void FindBar::setOptions(const FindOptions& options)
{
    m_matchCase->setChecked(options.matchCase);
    m_wholeWord->setChecked(options.wholeWord);
    m_regex->setChecked(options.regex);
}

bool FindBar::isReplaceVisible() const
{
    return !m_replaceRow->isHidden();
}

QString FindBar::status() const
{
    return m_status->text();
}

void FindBar::setStatus(const QString& text, bool problem)
{
    m_status->setText(text);
    m_status->setStyleSheet(problem ? QStringLiteral("color:#cf222e;")
                                    : QStringLiteral("color:#57606a;"));
}

} // namespace hako
