#include "widgets/editor/editorpane.h"

#include "core/workbench/programfile.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/common/messagebar.h"
#include "widgets/editor/findbar.h"
#include "widgets/editor/pdleditor.h"

#include <QFileInfo>
#include <QVBoxLayout>

namespace hako {

EditorPane::EditorPane(WorkbenchContext* context, QWidget* parent)
    : QWidget(parent), m_context(context), m_editor(new PdlEditor(this)),
      m_findBar(new FindBar(m_editor, this)), m_messageBar(new MessageBar(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_messageBar);
    layout->addWidget(m_editor, 1);
    layout->addWidget(m_findBar);
    setFocusProxy(m_editor);

    connect(m_editor, &QsciScintilla::modificationChanged, this, &EditorPane::modificationChanged);
    connect(m_editor, &PdlEditor::cursorLineColumnChanged, this,
            &EditorPane::cursorPositionChanged);
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

void EditorPane::newDocument()
{
    m_editor->setDocumentText(QString());
    m_editor->setEolMode(QsciScintilla::EolUnix);
    m_hasBom = false;
    m_messageBar->clearMessage();
    setFilePath(QString());
    Q_EMIT modificationChanged(false);
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
    m_editor->setDocumentText(loaded->text);
    m_hasBom = loaded->hasBom;
    m_messageBar->clearMessage();
    setFilePath(QFileInfo(path).absoluteFilePath());
    Q_EMIT modificationChanged(false);
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

bool EditorPane::saveAs(const QString& path, QString* error)
{
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
    setFilePath(QFileInfo(path).absoluteFilePath());
    return true;
}

void EditorPane::setFilePath(const QString& path)
{
    const bool changed = path != m_filePath;
    m_filePath = path;
    if (m_context)
        m_context->setCurrentProgram(path, this);
    if (changed)
        Q_EMIT filePathChanged(path);
}

} // namespace hako
