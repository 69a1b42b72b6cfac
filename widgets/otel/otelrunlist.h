#pragma once

#include "core/otel/runtable.h"
#include "core/otel/traceassembler.h"

#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <vector>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSplitter;
class QTextBrowser;
class QTreeWidget;
class QTreeWidgetItem;

namespace hako {

/// The Runs dock: the runs of a trace file, an OTLP file or the live receiver, one row each
/// (name, status, start, duration, spans, tokens, cost, errors, session, user), newest last
/// until a header is clicked (every column sorts). A filter field keeps the runs whose name,
/// session or user hold its words (`status:error`, `session:X`, `user:X` narrow further).
/// "Group by session" puts the runs of one session under it with the session's totals;
/// picking a session shows its thread (each run's input and output in order, with totals)
/// below the list. Clicking or activating a run asks for it (runRequested); selecting two
/// runs enables Compare (compareRequested). A line above the list says where the runs come
/// from; while there are none, or the filter hides them all, the list says what to do.
/// "Prompt log" asks for the runs the prompt log holds (promptLogRequested). New runs (a
/// receiver's, while spans arrive) change the rows in place: selection, expansion and scroll
/// stay. GUI thread.
class OtelRunList : public QWidget {
    Q_OBJECT
public:
    explicit OtelRunList(QWidget* parent = nullptr);

    /// Lists `runs` with `shown` as the current row; `heading` says where they come from.
    /// Keeps the selection, the expanded sessions and the filter.
    void setRuns(const QString& heading, const std::vector<otel::RunRow>& runs,
                 const std::string& shown);
    /// The same for an assembler's traces (no tokens, sessions or users).
    void setRuns(const QString& heading, const std::vector<otel::TraceSummary>& runs,
                 const std::string& shown);
    /// Empties the list.
    void clear();

    QTreeWidget* list() const { return m_list; }
    QLabel* heading() const { return m_heading; }
    QLineEdit* filterField() const { return m_filter; }
    QCheckBox* groupBySession() const { return m_group; }
    QPushButton* compareButton() const { return m_compare; }
    QPushButton* promptLogButton() const { return m_promptLog; }
    QTextBrowser* threadView() const { return m_thread; }
    /// The trace id of top-level row `row` (empty when out of range or a session).
    QString traceIdAt(int row) const;
    /// The ids of the selected runs, in list order.
    QStringList selectedRunIds() const;
    /// Every run listed (before filtering).
    const std::vector<otel::RunRow>& runs() const { return m_runs; }

    /// A row's columns (their order in the list).
    enum Column {
        NameColumn,
        StatusColumn,
        StartColumn,
        DurationColumn,
        SpansColumn,
        TokensColumn,
        CostColumn,
        ErrorsColumn,
        SessionColumn,
        UserColumn,
        ColumnCount
    };

Q_SIGNALS:
    /// The user picked a run.
    void runRequested(const QString& traceId);
    /// The user asked to compare two runs (in list order).
    void compareRequested(const QString& leftId, const QString& rightId);
    /// The user asked for the runs of the prompt log.
    void promptLogRequested();

private:
    void rebuild();
    void update();
    void placeRun(const otel::RunRow& run, QTreeWidgetItem* parent,
                  QHash<QString, QTreeWidgetItem*>& existing, QTreeWidgetItem*& shown);
    void finishFill(int shownRows);
    void fillRun(QTreeWidgetItem* item, const otel::RunRow& run);
    void fillSession(QTreeWidgetItem* item, const otel::RunSession& session);
    void selectionChanged();
    void showThread(const QString& session);
    const otel::RunRow* runById(const QString& id) const;

    QLabel* m_heading;
    QLineEdit* m_filter;
    QCheckBox* m_group;
    QPushButton* m_compare;
    QPushButton* m_promptLog;
    QLabel* m_empty;
    QTreeWidget* m_list;
    QTextBrowser* m_thread;
    QSplitter* m_split = nullptr;
    std::vector<otel::RunRow> m_runs;
    std::string m_shown;
    QSet<QString> m_collapsed; ///< sessions the user closed
    bool m_filling = false;
};

/// The thread of a session as HTML: a header with the runs, tokens, cost and duration, then
/// each run in start order, its input as the user's message and its output as the reply
/// (a run's error said). Pure.
QString sessionThreadHtml(const otel::RunSession& session);

} // namespace hako
