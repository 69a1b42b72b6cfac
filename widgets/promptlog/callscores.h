#pragma once

#include "core/pdl/trace/annotations.h"
#include "core/promptlog/callquery.h"
#include "core/promptlog/callscore.h"

#include <QWidget>

#include <optional>

#include <functional>

class QComboBox;
class QLabel;

namespace hako {

class AnnotationDialog;
class TimeChart;

/// Opens the annotation editor (Annotate…) for a logged call, filled with its person's score
/// among `scores`; `save` gets the new score when the user saves, nothing when they remove it.
/// The dialog deletes itself when closed.
AnnotationDialog* openCallAnnotation(QWidget* parent, const promptlog::CallRecord& call,
                                     const QList<promptlog::CallScore>& scores,
                                     std::function<void(std::optional<promptlog::CallScore>)> save);

/// The words of the Prompt log's search that are about scores, as the Trace Tree's search has
/// them: `scored` (any score), `score:✓` (`score:pass`, `score:up`: one passed, none failed),
/// `score:✗` (`score:fail`, `score:down`: one failed). Removes them from `text`. Pure.
std::optional<promptlog::CallFilter::Scored> takeScoreWords(QString& text);

/// A call's scores for its detail: one line each (name, value, who, note). Pure.
QString scoresHtml(const QList<promptlog::CallScore>& scores);

/// A person's annotation of a model call as the call's score in the prompt log (source human,
/// named "human"), and back. Pure.
promptlog::CallScore scoreFromAnnotation(const pdl::Annotation& annotation, const QString& callUid);
pdl::Annotation annotationFromScore(const promptlog::CallScore& score);

/// The Over Time tab's scores: the mean score of one evaluator (or of people, "human") per
/// bucket, the evaluator picked from those that scored in the range; "No scores yet — …" when
/// none did. GUI thread.
class ScoreChartPanel : public QWidget {
    Q_OBJECT
public:
    explicit ScoreChartPanel(QWidget* parent = nullptr);

    /// The series of a snapshot, with its buckets' labels.
    void setSeries(const QList<promptlog::ScoreSeries>& series, const QStringList& labels);

    QComboBox* evaluatorCombo() const { return m_evaluator; }
    TimeChart* chart() const { return m_chart; }
    QLabel* emptyLabel() const { return m_empty; }

private:
    void showChosen();

    QComboBox* m_evaluator;
    TimeChart* m_chart;
    QLabel* m_empty;
    QList<promptlog::ScoreSeries> m_series;
    QStringList m_labels;
};

} // namespace hako
