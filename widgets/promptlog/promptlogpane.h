#pragma once

#include "core/promptlog/callquery.h"
#include "core/promptlog/callscore.h"
#include "core/util/diagnostic.h"
#include "core/util/latestjob.h"

#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTextBrowser;
class QToolButton;
class QSortFilterProxyModel;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QTimer;

namespace hako {

class AnnotationDialog;
class MessageBar;
class ScoreChartPanel;
class TimeChart;
class WorkbenchContext;

namespace promptlog {
class CallTableModel;
class PromptLog;
struct LogSnapshot;
struct OverTimeCharts;
class StatsTableModel;
struct CallRecord;
} // namespace promptlog

/// The Prompt Log pane: the model calls of every run (the context's prompt log) in a sortable
/// table under filters (full text, prompt, model, status, tags typed or checked, time range),
/// the selected call's messages (coloured by role), reply, parameters and usage below with links
/// to its trace, its source and the playground; a second tab of per-prompt (tag, model, day)
/// statistics with each row's tokens over time; a third of charts over time. The calls table is
/// virtual: every matching call scrolls, its pages read as they come into view, sorted by the
/// store. Every query runs off
/// the GUI thread; a newer one supersedes older ones. While hidden the pane only notes that it is
/// out of date and refreshes when shown. GUI thread.
class PromptLogPane : public QWidget {
    Q_OBJECT
public:
    explicit PromptLogPane(QWidget* parent = nullptr);
    ~PromptLogPane() override;

    /// The context whose prompt log the pane shows (not owned). The log is opened on the first
    /// refresh while the pane is visible.
    void setWorkbenchContext(WorkbenchContext* context);

    /// The filter the controls describe (without the page limit).
    promptlog::CallFilter currentFilter() const;

    QTabWidget* tabs() const { return m_tabs; }
    QTableView* callsView() const { return m_callsView; }
    QTableView* statsView() const { return m_statsView; }
    QTextBrowser* detailView() const { return m_detail; }
    QLineEdit* searchField() const { return m_search; }
    QLineEdit* promptField() const { return m_prompt; }
    QLineEdit* modelField() const { return m_model; }
    QLineEdit* tagField() const { return m_tags; }
    QComboBox* statusCombo() const { return m_status; }
    /// Which calls: any, a program's own, the judges', the playground's, experiments', received.
    QComboBox* originCombo() const { return m_origin; }
    QComboBox* rangeCombo() const { return m_range; }
    /// Lists the tags of the log as check boxes (a menu).
    QToolButton* tagsButton() const { return m_tagsButton; }
    QPushButton* showInTraceButton() const { return m_showTrace; }
    QPushButton* showSourceButton() const { return m_showSource; }
    QPushButton* openInPlaygroundButton() const { return m_openPlayground; }
    QPushButton* addToDatasetButton() const { return m_addToDataset; }
    /// Annotate…: score the shown call (✓, ✗, a number or a label) and note why; kept in the
    /// log as the call's score from a person.
    QPushButton* annotateButton() const { return m_annotate; }
    /// The Over Time tab's mean score per evaluator.
    ScoreChartPanel* scoreChart() const { return m_scoreChart; }
    /// Opens the annotation editor for the shown call (null when none is shown).
    AnnotationDialog* annotateShownCall();
    /// The charts of the "Over time" tab: calls, success rate, mean latency, tokens.
    QList<TimeChart*> charts() const { return m_charts; }
    QComboBox* groupCombo() const { return m_group; }
    QLabel* summaryLabel() const { return m_summary; }
    QLabel* emptyLabel() const { return m_empty; }
    promptlog::CallTableModel* callModel() const { return m_calls; }
    promptlog::StatsTableModel* statsModel() const { return m_stats; }

    /// The plain text the detail shows for `call` (listed with its content). Pure.
    static QString detailText(const promptlog::CallRecord& call);
    /// The same as HTML, each message on the background of its role. Pure.
    static QString detailHtml(const promptlog::CallRecord& call);

    /// The time ranges the range combo offers: none (any time), then the last hour, 24 hours,
    /// 7 days, 30 days; with their series buckets.
    static promptlog::SeriesRange seriesRangeFor(int rangeIndex, int64_t nowMs,
                                                 QString* bucketLabel = nullptr);

public Q_SLOTS:
    /// Lists the calls and stats again (now when visible, else when next shown).
    void refresh();

Q_SIGNALS:
    /// A refresh's results are in the tables (or its error is shown).
    void refreshed();
    /// The detail shows the call with this store id.
    void detailShown(qint64 id);
    /// Show in Trace: the run's trace at the call's node.
    void showInTraceRequested(const QString& runId, const QString& nodeId,
                              const QString& programPath);
    /// Show Source: the model block that made the call.
    void showSourceRequested(const QString& programPath, const hako::SourceSpan& span);
    /// Open in Playground: the call, with its messages and parameters.
    void openInPlaygroundRequested(const hako::promptlog::CallRecord& call);
    /// Add to Dataset: the selected calls (read in full, oldest first), each one's inputs and
    /// its reply as the reference an example.
    void addToDatasetRequested(const QList<hako::promptlog::CallRecord>& calls);
    /// A line for the window's status bar.
    void statusMessage(const QString& text, int timeout);

protected:
    void showEvent(QShowEvent* event) override;

private:
    /// Parts of the constructor: the Calls, Stats and Over Time tabs, and the controls'
    /// signals.
    QWidget* buildCallsPage();
    QWidget* buildStatsPage();
    QWidget* buildChartsPage();
    void connectControls();
    void startQuery();
    /// A query's answer on screen: tables, tag menu, charts, selection, summary.
    void showSnapshot(promptlog::LogSnapshot s, const promptlog::CallFilter& filter,
                      const QString& bucketLabel);
    void showCharts(const promptlog::OverTimeCharts& charts);
    void loadPage(int page, LatestJob::Ticket ticket);
    void showDetailOf(const QModelIndex& proxyIndex);
    void addSelectedToDataset();
    void updateEmptyState(int64_t total);
    void updateTagMenu(const QStringList& tags);
    void showCall(const promptlog::CallRecord* call,
                  const QList<promptlog::CallScore>& scores = {});
    void saveScore(std::optional<promptlog::CallScore> score, const QString& callUid);
    std::shared_ptr<promptlog::PromptLog> log();

    WorkbenchContext* m_context = nullptr;
    MessageBar* m_messageBar;
    QLineEdit* m_search;
    QLineEdit* m_prompt;
    QLineEdit* m_model;
    QLineEdit* m_tags;
    QComboBox* m_status;
    QComboBox* m_origin;
    QComboBox* m_range;
    QToolButton* m_tagsButton;
    QPushButton* m_refresh;
    QLabel* m_summary;
    QTabWidget* m_tabs;
    QStackedWidget* m_callsStack;
    QLabel* m_empty;
    QTableView* m_callsView;
    QTextBrowser* m_detail;
    QPushButton* m_showTrace;
    QPushButton* m_showSource;
    QPushButton* m_openPlayground;
    QPushButton* m_addToDataset;
    QPushButton* m_annotate;
    ScoreChartPanel* m_scoreChart = nullptr;
    std::unique_ptr<promptlog::CallRecord> m_shownCall;
    QList<promptlog::CallScore> m_shownScores;
    QList<TimeChart*> m_charts;
    QComboBox* m_group;
    QTableView* m_statsView;
    promptlog::CallTableModel* m_calls;
    promptlog::StatsTableModel* m_stats;
    QSortFilterProxyModel* m_statsProxy;
    QTimer* m_debounce;
    LatestJob m_latest;
    promptlog::CallFilter m_pageFilter; ///< what the table's rows are (pages read with it)
    LatestJob m_latestDetail;
    bool m_stale = true;
    bool m_openWarned = false;
    bool m_columnsFitted = false;
    bool m_statsColumnsFitted = false;
};

} // namespace hako
