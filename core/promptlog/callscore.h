#pragma once

#include "core/promptlog/callquery.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace hako::promptlog {

/// Who scored a call: a person (an annotation), an evaluator run on arriving calls (`hako
/// serve --evaluate`, the window's receiver) or an experiment.
enum class ScoreSource { Human, Online, Experiment };
/// "human", "online", "experiment".
QString scoreSourceName(ScoreSource source);
std::optional<ScoreSource> scoreSourceFromName(const QString& name);

/// What a score holds: thumbs up/down or pass/fail (Bool: `number` 1 or 0), a number, or a
/// label (from the annotation's set, or an evaluator's; `number` may hold its score too).
enum class ScoreValueKind { Bool, Number, Label };
QString scoreValueKindName(ScoreValueKind kind);
std::optional<ScoreValueKind> scoreValueKindFromName(const QString& name);

/// One score of one logged call. A call has at most one score per (name, source): setting it
/// again replaces it (a person changing their annotation, an evaluator run again).
struct CallScore {
    int64_t id = 0;  ///< the store's number; 0 until stored
    QString callUid; ///< CallRecord::uid (the call need not be committed yet)
    QString name;    ///< the evaluator's name, or "human"
    ScoreValueKind kind = ScoreValueKind::Number;
    std::optional<double> number;
    QString label;
    /// Whether the call passed: thumbs up/down, an evaluator's threshold; none for a bare
    /// number or label.
    std::optional<bool> passed;
    QString note; ///< the annotation's note, the evaluator's reasoning
    ScoreSource source = ScoreSource::Human;
    int64_t createdAt = 0; ///< UTC ms; PromptLog::setScore() fills in now when 0
    QString author;        ///< who (a person's name; empty when unknown)

    /// "✓"/"✗" (thumbs, pass/fail), the label, or the number ("0.75", with ✓/✗ after an
    /// evaluator's).
    QString text() const;
    QJsonObject toJson() const;
    /// A score as toJson() writes it (`hako log export` lines carry their call's scores); the
    /// error names the field that is missing or wrong.
    static Result<CallScore> fromJson(const QJsonObject& o);
    bool operator==(const CallScore&) const = default;
};

/// Which scores a query is about; empty fields match every score.
struct ScoreFilter {
    QStringList callUids;
    QString name;
    std::optional<ScoreSource> source;
    std::optional<int64_t> since; ///< UTC ms of the score, inclusive
    std::optional<int64_t> until; ///< exclusive
    int limit = 0;                ///< 0 = no limit; newest first
};

/// One evaluator's (or "human"'s) scores summed up (`hako log stats --by evaluator`).
struct ScoreStats {
    QString name;
    int64_t scores = 0;
    std::optional<double> mean; ///< of the scores that are numbers (Bool: 1/0)
    int64_t passed = 0;
    int64_t judged = 0; ///< scores with a pass or fail
    bool operator==(const ScoreStats&) const = default;
};

/// One evaluator's scores over a SeriesRange (by when they were given): per bucket, how many
/// and their mean (NaN where none are numbers).
struct ScoreSeries {
    QString name;
    std::vector<int64_t> count;
    std::vector<double> mean;
    bool operator==(const ScoreSeries&) const = default;
};

} // namespace hako::promptlog
