#pragma once

#include <QObject>

#include <functional>

class QDockWidget;
class QMainWindow;

namespace hako {

class FileController;
class NotebookPane;
class RunActions;
class TraceDocks;

/// Notebooks in the window: the Notebook dock (NotebookPane) opened by File › Open of an
/// `.ipynb`, its runs composed and trust-checked as the window's program runs are (RunActions),
/// a cell's boxes shown in the trace panes.
class NotebookLinks : public QObject {
    Q_OBJECT
public:
    /// `makeRoom` gives an opened notebook's dock its share of the window (DockLayout).
    NotebookLinks(QMainWindow* window, std::function<void(QDockWidget*)> makeRoom,
                  FileController* files, RunActions* runs, TraceDocks* traces);

    QDockWidget* dock() const { return m_dock; }
    NotebookPane* pane() const { return m_pane; }

Q_SIGNALS:
    void statusMessage(const QString& text, int timeoutMs);

private:
    QDockWidget* m_dock;
    NotebookPane* m_pane;
};

} // namespace hako
