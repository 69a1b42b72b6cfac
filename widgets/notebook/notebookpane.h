#pragma once

#include "core/workbench/notebook.h"

#include <QFutureWatcher>
#include <QWidget>

#include <deque>
#include <functional>
#include <memory>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QToolButton;
class QVBoxLayout;

namespace hako {

struct RunTrustCheck;

namespace pdl {
class TraceModel;
}

/// The Notebook pane: a Jupyter notebook of `%%pdl` cells (NotebookKernel) shown as editable
/// cells with their outputs below them. Run a cell (its ▶ or Shift+Enter in it), Run All, Restart
/// (forget every variable and the context), add a cell, save (the `.ipynb` file, atomically).
/// Each run's boxes open in the trace panes (Boxes). Runs go one at a time on a worker thread;
/// the pane stays responsive. GUI thread only.
class NotebookPane : public QWidget {
    Q_OBJECT
public:
    explicit NotebookPane(QWidget* parent = nullptr);
    ~NotebookPane() override;

    /// How a run of the notebook at `path` is composed (models, prompt log, sandbox): the
    /// workbench's, as for a program in that folder.
    void setEnvironmentFactory(std::function<RunEnvironment(const QString& path)> factory);
    /// Asked before a run when a cell would run code or reach other servers from a folder that
    /// is not trusted; true runs it. Unset: such a run is refused.
    void setTrustQuestion(std::function<bool(const QString& path, const RunTrustCheck&)> ask);

    /// Opens `path`; false with the reason shown in the pane when it is not a notebook.
    bool openNotebook(const QString& path);
    /// Writes the notebook (cells as edited, outputs of the last runs) back to its file.
    bool save(QString* error);
    QString path() const { return m_path; }
    int cellCount() const { return int(m_cells.size()); }
    bool isRunning() const { return m_running >= 0; }

    void runCell(int index);
    void runAll();
    void restartKernel();
    void addCell();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

Q_SIGNALS:
    /// The trace of a cell's last run, to show in the trace panes.
    void traceRequested(hako::pdl::TraceModel* model);
    void statusMessage(const QString& text, int timeout);
    /// A run ended (one cell).
    void cellFinished(int index, bool ok);

private:
    struct CellView {
        QWidget* frame = nullptr;
        QLabel* count = nullptr;
        QPlainTextEdit* editor = nullptr; ///< PDL and other code cells
        QLabel* markdown = nullptr;       ///< markdown cells, rendered
        QLabel* output = nullptr;
        QPushButton* run = nullptr;
        QPushButton* boxes = nullptr;
        pdl::TraceModel* trace = nullptr;
    };
    struct Finished {
        int index = -1;
        NotebookKernel::CellRun run;
        NotebookCell cell;
    };

    void rebuild();
    CellView makeCell(int index);
    void showOutput(int index);
    void syncSources();
    bool consentFor(const std::vector<int>& cells);
    void startNext();
    void finished();
    void updateButtons();

    Notebook m_notebook;
    QString m_path;
    std::shared_ptr<NotebookKernel> m_kernel;
    std::function<RunEnvironment(const QString&)> m_environment;
    std::function<bool(const QString&, const RunTrustCheck&)> m_askTrust;
    bool m_trustedThisSession = false;
    bool m_sandbox = false;
    std::vector<CellView> m_cells;
    std::deque<int> m_queue;
    int m_running = -1;
    QFutureWatcher<Finished> m_watcher;
    QLabel* m_title = nullptr;
    QLabel* m_empty = nullptr;
    QToolButton* m_runAll = nullptr;
    QToolButton* m_restart = nullptr;
    QToolButton* m_add = nullptr;
    QToolButton* m_save = nullptr;
    QVBoxLayout* m_cellLayout = nullptr;
};

} // namespace hako
