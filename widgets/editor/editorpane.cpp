#include "widgets/editor/editorpane.h"

#include "core/models/modelcatalog.h"
#include "core/models/modelconfig.h"
#include "core/pdl/lang/builtindocs.h"
#include "core/pdl/programcheck.h"
#include "core/pdl/promptidentity.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/workbench/programfile.h"
#include "core/workbench/runcontroller.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/common/messagebar.h"
#include "widgets/editor/editoranalysis.h"
#include "widgets/editor/findbar.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/editor/problemsview.h"
#include "widgets/editor/quickfixmenu.h"
#include "widgets/promptview/promptview.h"

#include <QAction>
#include <QApplication>
#include <QButtonGroup>
#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QProcessEnvironment>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace hako {

namespace {

// Top-level objects the workbench binds for programs (`doc`, `memory`), from their docs.
QStringList boundObjectNames()
{
    QStringList out;
    for (const pdl::BuiltinDoc& d : pdl::BuiltinDocs::withPrefix(QString())) {
        if (d.area == QLatin1String("language"))
            continue;
        const QString root = d.name.section(QLatin1Char('.'), 0, 0);
        if (!out.contains(root))
            out.append(root);
    }
    return out;
}

QString promptModeKey(const QString& path)
{
    return QStringLiteral("editor/promptMode/") +
           QString::fromLatin1(
               QCryptographicHash::hash(path.toUtf8(), QCryptographicHash::Sha1).toHex());
}

QString canonical(const QString& path)
{
    const QFileInfo info(path);
    const QString c = info.canonicalFilePath();
    return c.isEmpty() ? info.absoluteFilePath() : c;
}

} // namespace

EditorPane::EditorPane(WorkbenchContext* context, QWidget* parent)
    : QWidget(parent), m_context(context), m_editor(new PdlEditor(this)),
      m_findBar(new FindBar(m_editor, this)), m_messageBar(new MessageBar(this)),
      m_problems(new ProblemsView(this)), m_splitter(new QSplitter(Qt::Vertical, this)),
      m_analysis(new EditorAnalysis(this)), m_bufferId(RecoveryStore::newBufferId())
{
    m_quickFix = new QuickFixMenu(m_editor, this);
    m_wordWrap = new QAction(tr("&Word Wrap"), this);
    m_wordWrap->setCheckable(true);
    m_wordWrap->setToolTip(tr("Wrap long lines at the edge of the editor"));
    auto applyWrap = [this](bool on) {
        m_editor->setWrapMode(on ? QsciScintilla::WrapWord : QsciScintilla::WrapNone);
        m_editor->setWrapIndentMode(QsciScintilla::WrapIndentIndented);
        m_editor->setWrapVisualFlags(on ? QsciScintilla::WrapFlagByBorder
                                        : QsciScintilla::WrapFlagNone);
    };
    m_wordWrap->setChecked(QSettings().value(QStringLiteral("editor/wordWrap"), true).toBool());
    applyWrap(m_wordWrap->isChecked());
    connect(m_wordWrap, &QAction::toggled, this, [applyWrap](bool on) {
        applyWrap(on);
        QSettings().setValue(QStringLiteral("editor/wordWrap"), on);
    });

    auto* editorArea = new QWidget(m_splitter);
    auto* inner = new QVBoxLayout(editorArea);
    inner->setContentsMargins(0, 0, 0, 0);
    inner->setSpacing(0);
    m_stack = new QStackedWidget(editorArea);
    m_stack->addWidget(m_editor);
    inner->addWidget(m_stack, 1);
    inner->addWidget(m_findBar);
    m_splitter->addWidget(editorArea);
    m_splitter->addWidget(m_problems);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 0);
    m_splitter->setSizes({600, 110});
    m_splitter->setChildrenCollapsible(true);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_messageBar);
    setupPromptView();
    layout->addWidget(m_splitter, 1);
    setFocusProxy(m_editor);

    connect(m_editor, &QsciScintilla::modificationChanged, this, &EditorPane::modificationChanged);
    connect(m_editor, &PdlEditor::cursorLineColumnChanged, this,
            &EditorPane::cursorPositionChanged);
    connect(m_editor, &QsciScintilla::textChanged, this, &EditorPane::onTextChanged);
    connect(m_analysis, &EditorAnalysis::reportReady, this, &EditorPane::onReport);
    connect(m_problems, &ProblemsView::problemActivated, this, [this](const SourceSpan& span) {
        SourceSpan at = span;
        at.endLine = at.line; // put the cursor at the problem, select nothing
        at.endColumn = at.column - 1;
        m_editor->selectSpan(at);
        m_editor->setFocus();
        // The message bar names the problem and offers its best fix as its button.
        if (!report())
            return;
        const QList<pdl::QuickFix> fixes = m_quickFix->fixesAt(span.line, span.column);
        for (const Diagnostic& d : report()->diagnostics) {
            if (!(d.span == span))
                continue;
            const MessageBar::Kind kind =
                d.severity == Severity::Error ? MessageBar::Kind::Error : MessageBar::Kind::Warning;
            if (fixes.isEmpty()) {
                m_messageBar->showMessage(d.message, kind);
            } else {
                const pdl::QuickFix fix = fixes.constFirst();
                m_messageBar->showMessage(d.message, kind, fix.title, [this, fix] {
                    m_quickFix->apply(fix);
                    m_messageBar->clearMessage();
                });
            }
            break;
        }
    });

    m_autosave.setSingleShot(true);
    m_autosave.setInterval(3000);
    connect(&m_autosave, &QTimer::timeout, this, &EditorPane::autosave);

    connect(models::ModelCatalog::instance(), &models::ModelCatalog::modelsChanged, this,
            [this](const QString& folder) {
                if (folder == models::ModelCatalog::folderKey(modelFolder()))
                    refreshModelNames();
            });
    connect(models::ModelCatalog::instance(), &models::ModelCatalog::invalidated, this,
            &EditorPane::refreshModelNames);
    setModelNames({});
    if (m_context) {
        connect(m_context, &WorkbenchContext::revealSourceRequested, this,
                [this](const SourceSpan& span, QObject* origin) {
                    if (origin != this && m_active)
                        revealIfHere(span);
                });
        connect(m_context, &WorkbenchContext::currentNodeChanged, this,
                [this](const QString& id, QObject* origin) {
                    if (origin == this || !m_active || id.isEmpty() || !m_context->traceModel())
                        return;
                    if (const pdl::TraceItem* item = m_context->traceModel()->findById(id))
                        revealIfHere(item->node.span);
                });
        connect(m_editor, &PdlEditor::cursorLineColumnChanged, this, [this](int line, int column) {
            if (m_revealing || !m_active)
                return; // the selection came from the context: no echo
            SourceSpan at;
            at.file = m_filePath;
            at.line = at.endLine = line;
            at.column = at.endColumn = column;
            m_context->setSourceCursor(at, this);
        });
    }
    requestAnalysis(true);
}

EditorPane::~EditorPane()
{
    if (m_recovery)
        m_recovery->remove(m_bufferId);
}

void EditorPane::setActive(bool active)
{
    if (active == m_active)
        return;
    m_active = active;
    if (m_active && m_context)
        m_context->setCurrentProgram(m_filePath, this);
}

QString EditorPane::displayName() const
{
    return m_filePath.isEmpty() ? tr("untitled.pdl") : QFileInfo(m_filePath).fileName();
}

bool EditorPane::isModified() const
{
    return m_editor->isModified();
}

QString EditorPane::lineEndingName() const
{
    switch (m_editor->eolMode()) {
    case QsciScintilla::EolWindows:
        return QStringLiteral("CRLF");
    case QsciScintilla::EolMac:
        return QStringLiteral("CR");
    case QsciScintilla::EolUnix:
        break;
    }
    return QStringLiteral("LF");
}

std::shared_ptr<const pdl::ProgramReport> EditorPane::report() const
{
    return m_analysis->report();
}

void EditorPane::setExternalNames(const QStringList& names)
{
    m_externalNames = names;
    requestAnalysis(false);
}

void EditorPane::setModelNames(const QStringList& names)
{
    m_givenModelNames = names;
    refreshModelNames();
}

QString EditorPane::modelFolder() const
{
    return m_filePath.isEmpty() ? QDir::currentPath() : QFileInfo(m_filePath).path();
}

void EditorPane::refreshModelNames()
{
    QStringList all = m_givenModelNames;
    // Only names that reach a server that answered, `default` first when it goes to one
    // (models::modelChoices): never a bare prefix nor a name sent to a server without its key.
    // Cached and asked in the background: modelsChanged calls this again with the answer, and
    // invalidated (the settings changed) asks the new configuration at once.
    const QList<models::ModelChoice> choices =
        models::ModelCatalog::instance()->choices(modelFolder());
    QString snippetModel;
    QHash<QString, QString> reasons;
    for (const models::ModelChoice& c : choices) {
        if (!all.contains(c.name))
            all.append(c.name);
        if (!c.reason.isEmpty())
            reasons.insert(c.name, c.reason);
        if (snippetModel.isEmpty() && c.name != QLatin1String(models::ModelConfig::kDefaultAlias))
            snippetModel = c.name;
    }
    // The `model` snippet calls a model that answers (else it writes `default`).
    m_editor->setDefaultModel(snippetModel);
    m_editor->setModelNames(all);
    m_editor->setModelReasons(reasons);
    if (m_promptView)
        m_promptView->setModelNames(all);
}

void EditorPane::startNewBuffer()
{
    if (m_recovery)
        m_recovery->remove(m_bufferId);
    m_bufferId = RecoveryStore::newBufferId();
    m_autosave.stop();
}

void EditorPane::newDocument()
{
    startNewBuffer();
    m_editor->setDocumentText(QString());
    m_editor->setEolMode(QsciScintilla::EolUnix);
    m_hasBom = false;
    m_messageBar->clearMessage();
    setFilePath(QString());
    Q_EMIT modificationChanged(false);
    requestAnalysis(true);
}

bool EditorPane::openFile(const QString& path, QString* error)
{
    const Result<ProgramText> loaded = ProgramFile::load(path);
    if (!loaded) {
        const QString message = loaded.error().toString();
        m_messageBar->showMessage(message, MessageBar::Kind::Error);
        if (error)
            *error = message;
        return false;
    }
    startNewBuffer();
    m_editor->setDocumentText(loaded->text);
    m_hasBom = loaded->hasBom;
    m_messageBar->clearMessage();
    setFilePath(QFileInfo(path).absoluteFilePath());
    Q_EMIT modificationChanged(false);
    m_autosave.stop(); // loading is not an unsaved change
    requestAnalysis(true);
    return true;
}

bool EditorPane::save(QString* error)
{
    if (m_filePath.isEmpty()) {
        if (error)
            *error = tr("The program has no file name yet");
        return false;
    }
    return saveAs(m_filePath, error);
}

bool EditorPane::ensurePromptIds(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    const bool pdlFile = path.isEmpty() || suffix == QLatin1String("pdl");
    if (!pdlFile && suffix != QLatin1String("yaml") && suffix != QLatin1String("yml"))
        return false;
    const QString text = m_editor->text();
    const pdl::ParseResult parsed =
        pdl::parseProgramText(text.toUtf8(), RunController::programFileName(path));
    // Only a program with model calls is a prompt: other files are saved as they are.
    if (!parsed.program || pdl::modelBlocks(*parsed.program).empty() || (!pdlFile && !parsed.ok()))
        return false;
    const std::vector<pdl::PromptIdLine> lines = pdl::missingPromptIdLines(text, *parsed.program);
    if (lines.empty())
        return false;
    // Each line goes in where its source line starts; the text's own line ending follows it.
    const QString eol =
        text.contains(QLatin1String("\r\n")) ? QStringLiteral("\r\n") : QStringLiteral("\n");
    QList<qsizetype> lineStarts = {0};
    for (qsizetype i = text.indexOf(QLatin1Char('\n')); i >= 0;
         i = text.indexOf(QLatin1Char('\n'), i + 1))
        lineStarts.append(i + 1);
    QList<PdlEditor::TextReplacement> edits;
    for (const pdl::PromptIdLine& l : lines) {
        // A byte-order mark stays first.
        const qsizetype at = l.line == 0 && text.startsWith(QChar(0xFEFF)) ? 1 : lineStarts[l.line];
        edits.append({at, 0, l.text + eol});
    }
    m_editor->applyTextEdits(edits);
    return true;
}

bool EditorPane::saveAs(const QString& path, QString* error)
{
    // Text typed in the Prompt view a moment ago is in the file too.
    m_promptView->commitPendingEdits();
    ensurePromptIds(path);
    const Result<bool> saved = ProgramFile::save(path, m_editor->text(), m_hasBom);
    if (!saved) {
        const QString message = saved.error().toString();
        m_messageBar->showMessage(message, MessageBar::Kind::Error);
        if (error)
            *error = message;
        return false;
    }
    m_messageBar->clearMessage();
    m_editor->setModified(false);
    m_autosave.stop();
    if (m_recovery)
        m_recovery->remove(m_bufferId);
    const bool renamed = QFileInfo(path).absoluteFilePath() != m_filePath;
    // The program keeps the view the author saved it from (an untitled program made from a
    // template stays in the Prompt view), now and when it is opened again.
    if (renamed && m_stack)
        QSettings().setValue(promptModeKey(QFileInfo(path).absoluteFilePath()), isPromptMode());
    setFilePath(QFileInfo(path).absoluteFilePath());
    if (renamed)
        requestAnalysis(true); // spans and includes follow the new path
    return true;
}

void EditorPane::setFilePath(const QString& path)
{
    const bool changed = path != m_filePath;
    const bool otherFolder = QFileInfo(path).path() != QFileInfo(m_filePath).path();
    m_filePath = path;
    if (m_context && m_active)
        m_context->setCurrentProgram(path, this);
    if (otherFolder)
        refreshModelNames(); // another folder may have its own hako-models.yaml
    if (changed) {
        if (m_promptView)
            m_promptView->setFilePath(path);
        restorePromptMode();
        Q_EMIT filePathChanged(path);
    }
}

void EditorPane::requestAnalysis(bool now)
{
    QStringList external = boundObjectNames();
    for (const QString& n : m_externalNames) {
        if (!external.contains(n))
            external.append(n);
    }
    m_analysis->setExternalNames(external);
    if (m_promptView)
        m_promptView->setExternalNames(external);
    if (now)
        m_analysis->requestNow(m_editor->text(), m_filePath);
    else
        m_analysis->request(m_editor->text(), m_filePath);
}

void EditorPane::onTextChanged()
{
    requestAnalysis(false);
    if (m_recovery && !m_autosave.isActive() && m_editor->isModified())
        m_autosave.start();
}

void EditorPane::onReport(std::shared_ptr<const pdl::ProgramReport> report)
{
    m_editor->setReport(report);
    m_problems->setDiagnostics(report->diagnostics);
    int errors = 0;
    int warnings = 0;
    for (const Diagnostic& d : report->diagnostics) {
        errors += d.severity == Severity::Error ? 1 : 0;
        warnings += d.severity == Severity::Warning ? 1 : 0;
    }
    Q_EMIT diagnosticsChanged(errors, warnings);
}

bool EditorPane::isThisFile(const QString& file) const
{
    if (file.isEmpty())
        return true; // spans of an unnamed program or of traces without file names
    if (m_filePath.isEmpty())
        return false;
    return canonical(file) == canonical(m_filePath);
}

void EditorPane::revealIfHere(const SourceSpan& span)
{
    if (!span.isValid() || !isThisFile(span.file))
        return;
    m_revealing = true;
    m_editor->selectSpan(span);
    m_revealing = false;
}

void EditorPane::setRecoveryStore(RecoveryStore* store)
{
    m_recovery = store;
    if (m_recovery && m_editor->isModified())
        m_autosave.start();
}

void EditorPane::autosave()
{
    if (!m_recovery || !m_editor->isModified())
        return;
    const Result<bool> saved = m_recovery->save(m_bufferId, m_filePath, m_editor->text());
    if (!saved)
        m_messageBar->showMessage(tr("Autosave failed: %1").arg(saved.error().toString()),
                                  MessageBar::Kind::Warning);
}

void EditorPane::discardRecovery()
{
    m_autosave.stop();
    if (m_recovery)
        m_recovery->remove(m_bufferId);
}

bool EditorPane::restoreRecovery(const RecoveryEntry& entry, QString* error)
{
    if (!m_recovery) {
        if (error)
            *error = tr("No recovery store");
        return false;
    }
    const Result<QString> text = m_recovery->text(entry);
    if (!text) {
        if (error)
            *error = text.error().toString();
        m_messageBar->showMessage(text.error().toString(), MessageBar::Kind::Error);
        return false;
    }
    if (!entry.originalPath.isEmpty() && QFileInfo::exists(entry.originalPath)) {
        if (!openFile(entry.originalPath, error))
            return false;
    } else {
        newDocument();
        if (!entry.originalPath.isEmpty())
            m_messageBar->showMessage(
                tr("%1 no longer exists; the recovered text is unsaved").arg(entry.originalPath),
                MessageBar::Kind::Warning);
    }
    // Replace the text as one undoable edit, so the buffer is modified and Undo shows the
    // file as it is on disk.
    m_recovery->remove(m_bufferId);
    m_bufferId = entry.bufferId;
    m_editor->beginUndoAction();
    m_editor->selectAll(true);
    m_editor->replaceSelectedText(*text);
    m_editor->endUndoAction();
    m_editor->setCursorPosition(0, 0);
    Q_EMIT modificationChanged(m_editor->isModified());
    return true;
}

void EditorPane::setupPromptView()
{
    m_promptView = new PromptView(m_stack);
    m_promptView->setEditor(m_editor);
    m_stack->addWidget(m_promptView);

    // A segmented pair above the document: which view shows it.
    auto* bar = new QWidget(this);
    bar->setObjectName(QStringLiteral("viewSwitch"));
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(6, 2, 6, 2);
    row->setSpacing(0);
    m_promptButton = new QToolButton(bar);
    m_promptButton->setText(tr("Prompt"));
    m_promptButton->setAccessibleName(tr("Prompt view"));
    m_promptButton->setToolTip(tr("Show the program as prompts and settings (Ctrl+Shift+Y)"));
    m_yamlButton = new QToolButton(bar);
    m_yamlButton->setText(tr("YAML"));
    m_yamlButton->setAccessibleName(tr("YAML view"));
    m_yamlButton->setToolTip(tr("Show the program's YAML source (Ctrl+Shift+Y)"));
    auto* group = new QButtonGroup(bar);
    for (QToolButton* b : {m_promptButton, m_yamlButton}) {
        b->setCheckable(true);
        b->setAutoRaise(true);
        b->setFocusPolicy(Qt::TabFocus);
        group->addButton(b);
        row->addWidget(b);
    }
    m_yamlButton->setChecked(true);
    row->addStretch(1);
    static_cast<QVBoxLayout*>(layout())->addWidget(bar);

    m_promptMode = new QAction(tr("&Prompt View"), this);
    m_promptMode->setCheckable(true);
    m_promptMode->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Y));
    m_promptMode->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_promptMode->setToolTip(tr("Switch between the Prompt view and the YAML view"));
    addAction(m_promptMode);
    connect(m_promptButton, &QToolButton::clicked, this, [this] { setPromptMode(true); });
    connect(m_yamlButton, &QToolButton::clicked, this, [this] { setPromptMode(false); });
    connect(m_promptMode, &QAction::toggled, this, [this](bool on) { setPromptMode(on); });
    m_promptView->setFilePath(m_filePath);
}

bool EditorPane::isPromptMode() const
{
    return m_stack && m_stack->currentWidget() == m_promptView;
}

void EditorPane::setPromptMode(bool prompt)
{
    const bool had = hasFocus() || isAncestorOf(QApplication::focusWidget());
    if (prompt != isPromptMode()) {
        m_stack->setCurrentWidget(prompt ? static_cast<QWidget*>(m_promptView) : m_editor);
        setFocusProxy(prompt ? static_cast<QWidget*>(m_promptView) : m_editor);
        if (prompt)
            m_findBar->hide();
        if (!m_filePath.isEmpty())
            QSettings().setValue(promptModeKey(m_filePath), prompt);
        if (had)
            (prompt ? static_cast<QWidget*>(m_promptView) : m_editor)->setFocus();
    }
    {
        const QSignalBlocker block(m_promptMode);
        m_promptMode->setChecked(prompt);
    }
    m_promptButton->setChecked(prompt);
    m_yamlButton->setChecked(!prompt);
    Q_EMIT promptModeChanged(prompt);
}

void EditorPane::restorePromptMode()
{
    if (!m_stack)
        return;
    const bool prompt =
        !m_filePath.isEmpty() && QSettings().value(promptModeKey(m_filePath), false).toBool();
    if (prompt != isPromptMode())
        setPromptMode(prompt);
}

} // namespace hako
