#pragma once

#include <QPointer>
#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListView;
class QProgressBar;
class QStringListModel;
class QTableView;

namespace hako::docs {
class Document;
class DocumentIndex;
class DocumentSession;
class HitListModel;
class TranscriptModel;
struct CommandResult;
enum class UnitKind;
} // namespace hako::docs

namespace hako {

class DocumentView;
class WorkbenchContext;

/// The documents pane: a virtualised viewer, a command line with history (`search`, `show`,
/// `rank`, `answer`, …), the hit list (click → scroll and highlight), the session transcript
/// with a cost meter, and F3 / Shift+F3 for the next/previous hit. Opening and indexing run in
/// the background with progress; commands run off the GUI thread and report back by signal.
/// GUI thread only.
class DocumentPane : public QWidget {
    Q_OBJECT
public:
    explicit DocumentPane(QWidget* parent = nullptr);
    ~DocumentPane() override;

    /// Starts loading and indexing `path` in the background; documentReady or failed follows.
    void openDocument(const QString& path);
    /// Runs one command line in the session (as if typed). Before the index is ready the
    /// command waits and runs as soon as it is.
    void runCommand(const QString& command);

    std::shared_ptr<docs::DocumentSession> session() const { return m_session; }
    /// Publishes the open document's session to `context` (and every later one), so that runs
    /// get it as `doc`.
    void setWorkbenchContext(WorkbenchContext* context);
    DocumentView* view() const { return m_view; }
    QLineEdit* commandLine() const { return m_command; }
    QListView* hitList() const { return m_hits; }
    docs::HitListModel* hitModel() const { return m_hitModel; }
    docs::TranscriptModel* transcriptModel() const { return m_transcriptModel; }
    QLabel* costLabel() const { return m_cost; }
    QComboBox* unitsBox() const { return m_units; }
    QCheckBox* rubyBox() const { return m_ruby; }
    /// The command line's completions: earlier commands (latest first), searches suggested
    /// when nothing matched, then the command names.
    QStringListModel* completions() const { return m_completions; }

    /// Re-indexes the open document with lines, sentences or paragraphs as units (in the
    /// background; documentReady follows). The session starts over.
    void setUnits(docs::UnitKind units);

    /// Selects hit `row` of the hit list: the viewer scrolls to it and highlights it.
    void selectHit(int row);
    void nextHit();
    void previousHit();

Q_SIGNALS:
    void documentReady(const QString& path);
    void failed(const QString& message);
    void commandFinished(const QString& output);

private:
    void onIndexed(std::shared_ptr<const docs::DocumentIndex> index, const QString& error,
                   const QString& warnings);
    void onCommandDone(const docs::CommandResult& result);
    void showPreview(std::shared_ptr<const docs::Document> head);
    void setSession(std::shared_ptr<docs::DocumentSession> session);
    void updateCompletions();
    bool eventFilter(QObject* watched, QEvent* event) override;

    DocumentView* m_view = nullptr;
    QLineEdit* m_command = nullptr;
    QListView* m_hits = nullptr;
    QTableView* m_transcript = nullptr;
    QLabel* m_cost = nullptr;
    QLabel* m_message = nullptr;
    QProgressBar* m_progress = nullptr;
    QComboBox* m_units = nullptr;
    QCheckBox* m_ruby = nullptr;
    QStringListModel* m_completions = nullptr;
    QStringList m_suggested;
    bool m_loading = false; ///< opening or indexing in the background
    docs::HitListModel* m_hitModel = nullptr;
    docs::TranscriptModel* m_transcriptModel = nullptr;
    std::shared_ptr<docs::DocumentSession> m_session;
    QPointer<WorkbenchContext> m_context;
    QStringList m_history;
    QStringList m_pending; ///< commands typed before the index was ready
    int m_historyPos = 0;
    int m_generation = 0;
};

} // namespace hako
