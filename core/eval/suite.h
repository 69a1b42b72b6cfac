#pragma once

#include "core/eval/evaluator.h"
#include "core/util/diagnostic.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace hako::eval {

/// An evaluation suite, a YAML file beside the programs it tests:
///
/// ```yaml
/// name: summaries                # default: the file's base name
/// description: …
/// dataset: data/questions.jsonl  # a JSONL/JSON/CSV/promptfoo file (relative to the suite),
///                                # or the name of a stored dataset (`name@3`: version 3)
/// target: summarise.pdl          # the PDL program run once per example (inputs as variables)
/// output: answer                 # optional: the variable whose value is the output
///                                # (default: the program's result text)
/// concurrency: 4
/// judge_model: openai/gpt-4o-mini
/// embedding_model: openai/text-embedding-3-small
/// language: ja                   # the model-graded prompts' language (en, ja)
/// models: {openai/gpt-4o: ollama/granite3.2:8b, "*": …}   # model overrides for the target
/// fail_under: 0.8                # the mean of every evaluator's mean must reach this
/// max_drop: 0.05                 # allowed drop of an evaluator's mean against the baseline
/// evaluators:
///   - type: exact_match
///   - {name: short, type: length_chars, max: 200, threshold: 1, min_pass_rate: 0.9}
///   - {type: criteria, criteria: conciseness}
/// ```
/// Evaluator keys other than name/type/threshold/min_score/min_pass_rate are its options.
struct Suite {
    QString path; ///< the file, absolute ("" when parsed from text)
    QString name;
    QString description;
    QString dataset;
    QString target;
    QString outputVariable;
    int concurrency = 4;
    QString judgeModel;
    QString embeddingModel;
    QString language = QStringLiteral("en");
    QHash<QString, QString> modelOverrides;
    std::optional<double> failUnder;
    double maxDrop = 0;
    QList<EvaluatorSpec> evaluators;

    /// Resolves a path the suite names against the suite's folder.
    QString resolve(const QString& relative) const;
    /// The suite as JSON (recorded with each experiment).
    QJsonObject toJson() const;

    /// Parses a suite; errors carry the file and line (`suite.yaml:7:5: …`).
    static Result<Suite> parse(const QByteArray& yaml, const QString& path = {});
    /// parse() for a file that is a suite's settings and evaluators with keys of its own
    /// (`otherKeys`, left to the caller): `hako serve --evaluate`'s online evaluation.
    static Result<Suite> parse(const QByteArray& yaml, const QString& path,
                               const QStringList& otherKeys);
    static Result<Suite> load(const QString& path);
};

} // namespace hako::eval
