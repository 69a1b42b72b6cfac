#include "widgets/editor/quickfixmenu.h"

#include "core/pdl/programcheck.h"
#include "widgets/editor/pdleditor.h"

#include <QAction>
#include <QMenu>

#include <algorithm>

namespace hako {

namespace {

bool covers(const SourceSpan& s, int line, int column)
{
    const int endLine = s.endLine > 0 ? s.endLine : s.line;
    const int endColumn = s.endLine > 0 ? s.endColumn : s.column;
    const bool afterStart = line > s.line || (line == s.line && column >= s.column);
    const bool beforeEnd = line < endLine || (line == endLine && column <= endColumn + 1);
    return afterStart && beforeEnd;
}

} // namespace

QuickFixMenu::QuickFixMenu(PdlEditor* editor, QObject* parent)
    : QObject(parent), m_editor(editor), m_action(new QAction(tr("Quick Fix…"), this))
{
    m_action->setObjectName(QStringLiteral("quickFixAction"));
    m_action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
    m_action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_action->setToolTip(tr("Show the fixes for the problems on the cursor's line"));
    m_editor->addAction(m_action);
    connect(m_action, &QAction::triggered, this, &QuickFixMenu::showMenu);
}

QList<pdl::QuickFix> QuickFixMenu::fixesAt(int line, int column) const
{
    QList<pdl::QuickFix> out;
    const std::shared_ptr<const pdl::ProgramReport> shown = m_editor->report();
    if (!shown)
        return out;
    // The shown report may be a keystroke behind the text: fixes are computed on the text as it
    // is now, for the problems the editor shows (the pane's analysis knows names bound from
    // outside, which are then no inputs to define).
    QString file;
    if (shown->parse.program)
        file = shown->parse.program->file;
    else if (!shown->diagnostics.empty())
        file = shown->diagnostics.front().span.file;
    const QString text = m_editor->text();
    const pdl::ProgramReport now = pdl::analyzeProgramText(text.toUtf8(), file);
    std::vector<const Diagnostic*> onLine;
    for (const Diagnostic& d : now.diagnostics) {
        if (d.span.line != line)
            continue;
        const bool isShown = std::any_of(
            shown->diagnostics.begin(), shown->diagnostics.end(), [&d](const Diagnostic& s) {
                return s.message == d.message && s.severity == d.severity;
            });
        if (isShown)
            onLine.push_back(&d);
    }
    std::stable_sort(onLine.begin(), onLine.end(), [&](const Diagnostic* a, const Diagnostic* b) {
        return covers(a->span, line, column) && !covers(b->span, line, column);
    });
    auto add = [&out](const std::vector<pdl::QuickFix>& fixes) {
        for (const pdl::QuickFix& f : fixes)
            if (!out.contains(f))
                out << f;
    };
    for (const Diagnostic* d : onLine)
        add(pdl::quickFixes(now, text, *d));
    add(pdl::modelNameFixes(now, text, line, m_editor->modelNames()));
    if (text != m_offeredText) {
        m_offeredText = text;
        m_offered.clear();
    }
    for (const pdl::QuickFix& f : out)
        if (!m_offered.contains(f))
            m_offered << f;
    return out;
}

bool QuickFixMenu::apply(const pdl::QuickFix& fix)
{
    const QString text = m_editor->text();
    if (fix.edits.isEmpty() || text != m_offeredText || !m_offered.contains(fix))
        return false;
    QList<PdlEditor::TextReplacement> edits;
    for (const pdl::QuickFixEdit& e : fix.edits) {
        if (e.offset < 0 || e.length < 0 || e.offset + e.length > text.size())
            return false;
        edits << PdlEditor::TextReplacement{e.offset, e.length, e.replacement};
    }
    std::stable_sort(edits.begin(), edits.end(),
                     [](const auto& a, const auto& b) { return a.offset < b.offset; });
    m_editor->applyTextEdits(edits);
    return true;
}

int QuickFixMenu::addFixActions(QMenu* menu, int line, int column)
{
    const QList<pdl::QuickFix> fixes = fixesAt(line, column);
    for (const pdl::QuickFix& fix : fixes) {
        QString title = fix.title;
        QAction* a = menu->addAction(title.replace(QLatin1Char('&'), QLatin1String("&&")));
        a->setObjectName(QStringLiteral("quickFix"));
        connect(a, &QAction::triggered, this, [this, fix] {
            apply(fix);
            m_editor->setFocus();
        });
    }
    return int(fixes.size());
}

void QuickFixMenu::showMenu()
{
    if (!m_menu) {
        m_menu = new QMenu(m_editor);
        m_menu->setObjectName(QStringLiteral("quickFixMenu"));
        m_menu->setAccessibleName(tr("Quick fixes"));
    }
    m_menu->clear(); // the actions of the last time go with it
    const auto [line, column] = m_editor->cursorLineColumn();
    if (addFixActions(m_menu, line, column) == 0) {
        QAction* none = m_menu->addAction(tr("No quick fixes here"));
        none->setObjectName(QStringLiteral("noQuickFix"));
        none->setEnabled(false);
    } else {
        m_menu->setActiveAction(m_menu->actions().constFirst());
    }
    // Under the cursor's line, at its column.
    const long pos = m_editor->SendScintilla(QsciScintilla::SCI_GETCURRENTPOS);
    const int x = int(m_editor->SendScintilla(QsciScintilla::SCI_POINTXFROMPOSITION, 0UL, pos));
    const int y = int(m_editor->SendScintilla(QsciScintilla::SCI_POINTYFROMPOSITION, 0UL, pos)) +
                  m_editor->textHeight(line - 1);
    m_menu->popup(m_editor->viewport()->mapToGlobal(QPoint(x, y)));
}

} // namespace hako
