#include "widgets/editor/defrename.h"

#include "core/pdl/analysis/rename.h"
#include "core/pdl/programcheck.h"
#include "core/util/whenready.h"
#include "widgets/editor/pdleditor.h"

#include <QAction>
#include <QInputDialog>
#include <QtConcurrent/QtConcurrentRun>

namespace hako {

DefRename::DefRename(PdlEditor* editor, QObject* parent)
    : QObject(parent ? parent : editor), m_editor(editor), m_action(new QAction(this))
{
    m_action->setText(tr("Rena&me Definition\u2026"));
    m_action->setToolTip(
        tr("Rename the variable under the cursor, where it is defined and everywhere it is "
           "used (Shift+F6)"));
    m_action->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F6));
    m_action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    if (editor)
        editor->addAction(m_action);
    connect(m_action, &QAction::triggered, this, [this] { renameAtCursor(); });
}

void DefRename::renameAtCursor()
{
    start(std::nullopt);
}

void DefRename::renameAtCursorTo(const QString& newName)
{
    start(newName);
}

void DefRename::fail(const QString& text)
{
    m_busy = false;
    if (!text.isEmpty())
        Q_EMIT message(text);
    Q_EMIT finished(false);
}

void DefRename::start(std::optional<QString> newName)
{
    if (!m_editor || m_busy)
        return;
    m_busy = true;
    const QString text = m_editor->text();
    const auto [line, column] = m_editor->cursorLineColumn();
    const auto current = m_editor->report();
    QString fileName = m_fileName;
    pdl::ScopeOptions options;
    if (current && current->parse.program && fileName.isEmpty())
        fileName = current->parse.program->file;
    if (current && current->scopes) {
        for (const pdl::VariableDefinition& d : current->scopes->definitions) {
            if (d.kind == pdl::VariableKind::External)
                options.externalNames << QString::fromStdString(d.name);
        }
    }
    // The report on show may be a few keystrokes old: the rename reads the text as it is now.
    const QByteArray bytes = text.toUtf8();
    whenReady(
        this, QtConcurrent::run([bytes, fileName, options] {
            return std::make_shared<const pdl::ProgramReport>(
                pdl::analyzeProgramText(bytes, fileName, options));
        }),
        [this, text, bytes, line, column,
         newName](std::shared_ptr<const pdl::ProgramReport> report) {
            if (!m_editor)
                return fail({});
            if (m_editor->text() != text)
                return fail(
                    tr("The program changed while the rename was being prepared; try again."));
            if (!report->parse.program || !report->scopes)
                return fail(tr("Cannot rename: the program cannot be read until its errors are "
                               "fixed."));
            const pdl::Program& program = *report->parse.program;
            const pdl::ScopeAnalysis& scopes = *report->scopes;
            // The cursor sits before `column`: a name just typed ends at column - 1.
            int at = column;
            auto target = pdl::renameTargetAt(program, scopes, line, at);
            if (!target && column > 1) {
                auto left = pdl::renameTargetAt(program, scopes, line, column - 1);
                if (left || scopes.useAt(line, column - 1) ||
                    scopes.definitionAt(line, column - 1)) {
                    target = std::move(left);
                    at = column - 1;
                }
            }
            if (!target)
                return fail(target.error().message);
            const QString oldName = target->name;
            QString chosen;
            if (newName) {
                chosen = *newName;
            } else {
                std::optional<QString> asked;
                if (m_asker) {
                    asked = m_asker(oldName);
                } else {
                    bool ok = false;
                    const QString answer = QInputDialog::getText(
                        m_editor->window(), tr("Rename Definition"),
                        tr("New name for '%1' (its definition and every use):").arg(oldName),
                        QLineEdit::Normal, oldName, &ok);
                    if (ok)
                        asked = answer;
                }
                if (!asked)
                    return fail({}); // cancelled
                chosen = asked->trimmed();
                if (chosen == oldName)
                    return fail({}); // accepted unchanged: nothing to do
            }
            if (!m_editor || m_editor->text() != text)
                return fail(
                    tr("The program changed while the rename was being prepared; try again."));
            const auto plan = pdl::planRename(program, bytes, scopes, line, at, chosen);
            if (!plan)
                return fail(tr("Cannot rename '%1': %2").arg(oldName, plan.error().message));
            QList<PdlEditor::TextReplacement> edits;
            for (const pdl::RenameEdit& e : plan->edits)
                edits.append({e.utf16Offset, e.utf16Length, e.replacement});
            m_editor->applyTextEdits(edits);
            m_busy = false;
            Q_EMIT renamed(oldName, chosen, int(edits.size()));
            Q_EMIT finished(true);
        });
}

} // namespace hako
