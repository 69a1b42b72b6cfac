#include "widgets/workbench/playgroundlinks.h"

#include "core/pdl/parser/programparser.h"
#include "core/pdl/parser/yamlvalue.h"
#include "core/pdl/valuejson.h"
#include "core/playground/inputtable.h"
#include "core/playground/modelblockat.h"
#include "core/playground/playgroundsessionstore.h"
#include "core/playground/programvalues.h"
#include "core/playground/savetoprogram.h"
#include "core/promptlog/callrecord.h"
#include "core/run/loggingprovider.h"
#include "core/run/runenvironment.h"
#include "core/workbench/runcontroller.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/common/messagebar.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/playground/playgroundpane.h"
#include "widgets/promptview/inputsform.h"
#include "widgets/promptview/promptview.h"
#include "widgets/workbench/filecontroller.h"
#include "widgets/workbench/programtabs.h"
#include "widgets/workbench/runactions.h"

#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QMainWindow>
#include <QTableWidget>
#include <QTimer>

namespace hako {

PlaygroundLinks::PlaygroundLinks(WorkbenchContext* context, ProgramTabs* tabs,
                                 RunActions* runActions, FileController* files,
                                 PlaygroundPane* pane, QDockWidget* dock, QObject* parent)
    : QObject(parent), m_context(context), m_runActions(runActions), m_tabs(tabs), m_files(files),
      m_pane(pane), m_dock(dock)
{
    // The playground's sessions live beside the prompt log; the last one is read only when the
    // dock is first shown.
    m_pane->setSessionFolder(playground::PlaygroundSessionStore::defaultFolder());
    // Add Input Set offers the sets saved in the Prompt view for the prompt's program.
    m_pane->setInputSetsSource([this] {
        const QString program = !m_pane->programPath().isEmpty()
                                    ? m_pane->programPath()
                                    : m_tabs->currentEditor()->filePath();
        return InputsForm::storedSets(program);
    });
    // Each run of the playground composes its provider as a program run would, from the
    // folder of the program the prompt came from (else the editor's), logged as `playground`.
    m_pane->setProviderFactory([this]() -> std::shared_ptr<models::IModelProvider> {
        RunEnvironment env = m_tabs->currentRun()->environment();
        env.modelProvider = m_tabs->currentRun()->environment().modelProvider;
        // A reopened session names its program in the pane, not here.
        const QString program = !m_pane->programPath().isEmpty() ? m_pane->programPath()
                                : !m_programPath.isEmpty()       ? m_programPath
                                                           : m_tabs->currentEditor()->filePath();
        env.baseFolder =
            program.isEmpty() ? QDir::currentPath() : QFileInfo(program).absolutePath();
        env.promptLog = m_context->promptLog();
        env.runLog = RunLogInfo();
        env.runLog.programPath = program;
        env.runLog.origin = promptlog::CallOrigin::Playground;
        env.runLog.tags = tagsFromEnvironment();
        for (const QString& t : m_runActions->runTags())
            if (!env.runLog.tags.contains(t))
                env.runLog.tags.append(t);
        Result<std::shared_ptr<models::IModelProvider>> provider =
            env.composeProvider({QStringLiteral("playground")});
        if (!provider) {
            m_pane->messageBar()->showMessage(provider.error().message);
            return nullptr;
        }
        return *provider;
    });
    connect(m_pane, &PlaygroundPane::saveToProgramRequested, this, &PlaygroundLinks::saveToProgram);
    // Each program's Prompt view: a card's "Try in Playground".
    auto follow = [this](EditorPane* editor) {
        connect(editor->promptView(), &PromptView::tryInPlaygroundRequested, this,
                [this, editor](const SourceSpan& span) { openCard(editor, span); });
    };
    for (EditorPane* editor : m_tabs->editors())
        follow(editor);
    connect(m_tabs, &ProgramTabs::programAdded, this,
            [follow](EditorPane* editor, RunController*) { follow(editor); });
}

void PlaygroundLinks::showDock()
{
    m_pane->setModels(m_tabs->currentEditor()->editor()->modelNames());
    m_dock->show();
    m_dock->raise();
    // The playground needs room for its columns, inputs and grid: most of the window (once
    // the dock is laid out, so the resize is not undone by its first layout).
    QTimer::singleShot(0, m_dock, [dock = m_dock] {
        auto* window = qobject_cast<QMainWindow*>(dock->parentWidget());
        if (window && dock->isVisible() && dock->height() < window->height() * 2 / 3)
            window->resizeDocks({dock}, {window->height() * 7 / 10}, Qt::Vertical);
    });
}

void PlaygroundLinks::openCall(const promptlog::CallRecord& call)
{
    m_programPath = call.programPath;
    m_source = nullptr;
    showDock();
    // A call of a program opens as the block that made it — its template, with `${ }` inputs
    // and Save to Program — when the program still has a model block there; otherwise as the
    // messages the call sent.
    if (!call.programPath.isEmpty() && call.span.isValid()) {
        QString text;
        if (QFileInfo(m_tabs->currentEditor()->filePath()) == QFileInfo(call.programPath)) {
            text = m_tabs->currentEditor()->editor()->text();
        } else if (QFile f(call.programPath); f.open(QIODevice::ReadOnly)) {
            text = QString::fromUtf8(f.read(16 * 1024 * 1024));
        }
        SourceSpan span = call.span;
        span.file = call.programPath;
        if (!text.isEmpty() && playground::promptFromSource(text, span).ok() &&
            m_pane->openProgramBlock(text, call.programPath, span)) {
            // The run's inputs fill the first row where the prompt reads them.
            fillFirstRow(call.inputs);
            m_pane->messageBar()->showMessage(
                tr("The block that made call #%1 (%2, line %3), as the program says it now.")
                    .arg(call.id)
                    .arg(QFileInfo(call.programPath).fileName())
                    .arg(call.span.line),
                MessageBar::Kind::Information);
            return;
        }
    }
    m_pane->openCall(call);
}

bool PlaygroundLinks::openBlockAtCursor()
{
    const QString text = m_tabs->currentEditor()->editor()->text();
    const QString path = m_tabs->currentEditor()->filePath();
    const pdl::ParseResult parsed =
        pdl::parseProgramText(text.toUtf8(), RunController::programFileName(path));
    const auto [line, column] = m_tabs->currentEditor()->editor()->cursorLineColumn();
    const std::optional<SourceSpan> span =
        parsed.program ? playground::modelBlockAt(*parsed.program, line, column) : std::nullopt;
    if (!span) {
        Q_EMIT statusMessage(tr("Put the cursor in a model block to open it in the Playground"),
                             6000);
        return false;
    }
    m_programPath = path;
    showDock();
    if (!m_pane->openProgramBlock(text, path, *span))
        return false;
    followSource(m_tabs->currentEditor());
    fillFirstRow(m_tabs->currentEditor()->promptView()->inputValues());
    return true;
}

void PlaygroundLinks::fillFirstRow(const QJsonObject& values)
{
    QTableWidget* inputs = m_pane->inputsTable();
    if (values.isEmpty() || inputs->columnCount() == 0)
        return;
    inputs->setRowCount(std::max(1, inputs->rowCount()));
    for (int c = 0; c < inputs->columnCount(); ++c) {
        const QJsonValue v = values.value(inputs->horizontalHeaderItem(c)->text());
        if (v.isUndefined())
            continue;
        inputs->setItem(0, c, new QTableWidgetItem(playground::inputTextFromValue(v)));
    }
}

bool PlaygroundLinks::openCard(EditorPane* editor, const SourceSpan& span)
{
    const QString text = editor->editor()->text();
    const QString path = editor->filePath();
    const pdl::ParseResult parsed =
        pdl::parseProgramText(text.toUtf8(), RunController::programFileName(path));
    // The card's block as the program says it now (the card may be a moment behind the YAML).
    const std::optional<SourceSpan> block =
        parsed.program ? playground::modelBlockAt(*parsed.program, span.line, span.column)
                       : std::nullopt;
    if (!block) {
        Q_EMIT statusMessage(tr("This prompt cannot be opened in the playground while the "
                                "program has an error; correct it first"),
                             8000);
        return false;
    }
    m_programPath = path;
    showDock();
    if (!m_pane->openProgramBlock(text, path, *block))
        return false;
    followSource(editor);
    // The first row: the program's own values of what the prompt reads (its top-level `defs:`,
    // which the Prompt view shows at the top), then what the author typed in the inputs form.
    QJsonObject values = playground::programOwnValues(parsed.program->document.get());
    const QJsonObject typed = editor->promptView()->inputValues();
    for (auto it = typed.begin(); it != typed.end(); ++it)
        values.insert(it.key(), it.value());
    fillFirstRow(values);
    return true;
}

void PlaygroundLinks::followSource(EditorPane* editor)
{
    m_source = editor;
    if (editor->filePath().isEmpty())
        m_pane->setUnsavedProgram(editor->displayName());
}

bool PlaygroundLinks::saveToProgram(const QString& programPath, const SourceSpan& span,
                                    const playground::PlaygroundPrompt& prompt)
{
    // The program tab the prompt came from, saved or not, while it is open; else the file.
    const bool open = m_source && m_tabs->editors().contains(m_source.data());
    const bool fromSource =
        open && (programPath.isEmpty() ? m_source->filePath().isEmpty()
                                       : QFileInfo(m_source->filePath()) == QFileInfo(programPath));
    if (fromSource) {
        m_tabs->setCurrentEditor(m_source);
    } else if (programPath.isEmpty()) {
        m_pane->messageBar()->showMessage(
            tr("The unsaved program this prompt came from has been closed, so there is nowhere "
               "to save it. Use Copy as PDL, or open the program again and use Try in Playground "
               "on its card."));
        return false;
    } else if (QFileInfo(m_tabs->currentEditor()->filePath()) != QFileInfo(programPath)) {
        QString error;
        if (!m_files->openFile(programPath, &error))
            return false;
    }
    PdlEditor* editor = m_tabs->currentEditor()->editor();
    const QString text = editor->text();
    Result<QList<playground::TextEdit>> edits = playground::saveToProgram(text, span, prompt);
    if (!edits) {
        m_pane->messageBar()->showMessage(
            tr("The block cannot be rewritten: %1").arg(edits.error().message));
        return false;
    }
    QList<PdlEditor::TextReplacement> replacements;
    for (const playground::TextEdit& e : *edits)
        replacements.append({e.offset, e.length, e.replacement});
    editor->applyTextEdits(replacements);
    m_tabs->currentEditor()->messageBar()->clearMessage();
    Q_EMIT statusMessage(tr("Saved the playground's prompt into the program (Ctrl+Z undoes it)"),
                         6000);
    m_context->revealSource(span, this);
    return true;
}

} // namespace hako
