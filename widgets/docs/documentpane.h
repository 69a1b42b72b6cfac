#pragma once

#include "core/util/latestjob.h"

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
class QToolButton;

namespace hako::docs {
class Document;
class DocumentIndex;
class DocumentSession;
class HitListModel;
class TranscriptModel;
struct CommandResult;
struct TranscriptEntry;
enum class UnitKind;
enum class OutputMode;
} // namespace hako::docs

namespace hako {

class DocumentView;
class WorkbenchContext;

/// The documents pane: the file's name, a virtualised viewer, a command line with history
/// (`search`, `show`, `rank`, `answer`, …), the hit list (click → scroll and highlight), the
/// session transcript with a cost meter (every command of the session, those a PDL program
/// runs included), units and output mode switches, transcript export (JSON, Markdown), and
/// F3 / Shift+F3 for the next/previous hit. Opening and indexing run in the background with
/// progress; commands run off the GUI thread and report back by signal. Opening a document
/// brings the dock holding the pane forward. GUI thread only.
class DocumentPane : public QWidget {
    Q_OBJECT
public:
    enum class ExportFormat { Json, Markdown };

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
    QTableView* transcriptView() const { return m_transcript; }
    docs::HitListModel* hitModel() const { return m_hitModel; }
    docs::TranscriptModel* transcriptModel() const { return m_transcriptModel; }
    QLabel* costLabel() const { return m_cost; }
    QLabel* fileLabel() const { return m_file; }
    QComboBox* unitsBox() const { return m_units; }
    QComboBox* modeBox() const { return m_mode; }
    QCheckBox* rubyBox() const { return m_ruby; }
    QToolButton* exportButton() const { return m_export; }
    /// The hit of row `row` as the hit list shows it (label and snippet; ruby markup hidden
    /// while the view reads ruby).
    QString shownHitText(int row) const;
    /// The output of transcript row `row` as the transcript shows it (likewise).
    QString shownTranscriptOutput(int row) const;
    /// The command line's completions: earlier commands (latest first), searches suggested
    /// when nothing matched, then the command names.
    QStringListModel* completions() const { return m_completions; }

    /// Re-indexes the open document with lines, sentences or paragraphs as units (in the
    /// background; documentReady follows). The session goes on: its transcript and cost stay,
    /// with an entry saying from where on numbers mean the new units.
    void setUnits(docs::UnitKind units);
    /// Seed (the seed game's exact output) or context (snippets around the hits) output.
    void setMode(docs::OutputMode mode);

    /// Writes the session's transcript to `path` atomically; false with `error` set when it
    /// could not be written (or no document is open).
    bool exportTranscript(const QString& path, ExportFormat format, QString* error = nullptr);

    /// Selects hit `row` of the hit list: the viewer scrolls to it and highlights it.
    void selectHit(int row);
    void nextHit();
    void previousHit();

Q_SIGNALS:
    void documentReady(const QString& path);
    void failed(const QString& message);
    void commandFinished(const QString& output);
    /// A command was added to the session's transcript (typed here or run by a program).
    void transcriptChanged();

private:
    /// The controls' signals, the command line's history and the F3 shortcuts (constructor).
    void connectControls();
    /// The hit list and the transcript, their delegates and wrapping.
    void createLists();
    void onIndexed(std::shared_ptr<const docs::DocumentIndex> index, const QString& error,
                   const QString& warnings);
    void onCommandDone(const docs::CommandResult& result);
    void onRecorded(const docs::DocumentSession* session, const docs::TranscriptEntry& entry);
    void onExecuted(const docs::DocumentSession* session, const docs::CommandResult& result);
    void showPreview(std::shared_ptr<const docs::Document> head);
    void setSession(std::shared_ptr<docs::DocumentSession> session);
    void updateCompletions();
    void raiseDock();
    void chooseExport(ExportFormat format);
    bool eventFilter(QObject* watched, QEvent* event) override;

    DocumentView* m_view = nullptr;
    QLineEdit* m_command = nullptr;
    QListView* m_hits = nullptr;
    QTableView* m_transcript = nullptr;
    QLabel* m_cost = nullptr;
    QLabel* m_file = nullptr;
    QLabel* m_message = nullptr;
    QProgressBar* m_progress = nullptr;
    QComboBox* m_units = nullptr;
    QComboBox* m_mode = nullptr;
    QCheckBox* m_ruby = nullptr;
    QToolButton* m_export = nullptr;
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
    LatestJob m_latest;
};

} // namespace hako
