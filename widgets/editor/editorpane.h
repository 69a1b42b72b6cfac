#pragma once

#include <QWidget>

namespace hako {

class FindBar;
class MessageBar;
class PdlEditor;
class WorkbenchContext;

/// One program document: the editor with its message bar and find bar. Loads and saves through
/// ProgramFile, shows load/save errors inline, and publishes the current program path to the
/// WorkbenchContext. GUI thread only.
class EditorPane : public QWidget {
    Q_OBJECT
public:
    /// `context` is not owned and must outlive the pane (may be null in tests).
    explicit EditorPane(WorkbenchContext* context, QWidget* parent = nullptr);

    PdlEditor* editor() const { return m_editor; }
    FindBar* findBar() const { return m_findBar; }
    MessageBar* messageBar() const { return m_messageBar; }

    /// Starts an empty, unnamed, unmodified program.
    void newDocument();
    /// Loads `path`. On failure keeps the current document, shows the error in the message bar,
    /// stores it in `error` (if given) and returns false.
    bool openFile(const QString& path, QString* error = nullptr);
    /// Saves to the current path; false (with the error shown) if it fails or there is no path.
    bool save(QString* error = nullptr);
    /// Saves to `path` and makes it the current path on success.
    bool saveAs(const QString& path, QString* error = nullptr);

    /// Absolute path of the document, empty for a new one.
    QString filePath() const { return m_filePath; }
    /// The file name, or "untitled.pdl" for a new document.
    QString displayName() const;
    bool isModified() const;
    /// "LF", "CRLF" or "CR": the line ending new lines get.
    QString lineEndingName() const;

Q_SIGNALS:
    void modificationChanged(bool modified);
    void filePathChanged(const QString& path);
    void cursorPositionChanged(int line, int column);

private:
    void setFilePath(const QString& path);

    WorkbenchContext* m_context;
    PdlEditor* m_editor;
    FindBar* m_findBar;
    MessageBar* m_messageBar;
    QString m_filePath;
    bool m_hasBom = false;
};

} // namespace hako
