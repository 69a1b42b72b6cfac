#pragma once

#include <QObject>

class QAction;
class QDockWidget;
class QMainWindow;

namespace hako {

class EvalLinks;
class FileController;
class LibraryPane;
class ProgramTabs;

/// The prompt library in the window: the Library dock (LibraryPane), File › Save Version…
/// (the current program saved, then recorded as a version), opening a prompt's file from the
/// library, and restoring an old version into its program as an edit that can be undone.
class LibraryLinks : public QObject {
    Q_OBJECT
public:
    LibraryLinks(QMainWindow* window, ProgramTabs* tabs, FileController* files);

    QDockWidget* dock() const { return m_dock; }
    LibraryPane* pane() const { return m_pane; }
    /// The library's experiments come from (and Run on Dataset runs in) `evaluations`.
    void connectEvaluations(EvalLinks* evaluations);
    /// File › Save Version… (Ctrl+Alt+S).
    QAction* saveVersionAction() const { return m_saveVersion; }

Q_SIGNALS:
    void statusMessage(const QString& text, int timeoutMs);

private:
    void saveVersion(const QString& message);
    void restore(const QString& path, const QByteArray& text);

    ProgramTabs* m_tabs;
    FileController* m_files;
    LibraryPane* m_pane;
    QDockWidget* m_dock;
    QAction* m_saveVersion;
};

} // namespace hako
