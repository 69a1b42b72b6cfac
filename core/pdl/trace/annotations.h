#pragma once

#include "core/util/diagnostic.h"

#include <QByteArray>
#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <functional>

namespace hako::pdl {

class TraceModel;
struct TraceItem;

/// How an annotation scores its block: thumbs up or down, a number, or a label from a set the
/// user configures (`good`, `wrong tool`, …).
enum class ScoreKind { Thumbs, Number, Label };

/// "thumbs", "number", "label".
QString scoreKindName(ScoreKind kind);

/// A person's judgement of one executed block or span: a score and a note, by someone, at a
/// time. `nodeId` is the trace node's `pdl__id` (a span id for OTel traces). A plain value.
struct Annotation {
    QString nodeId;
    ScoreKind kind = ScoreKind::Thumbs;
    /// Thumbs: true (up) or false (down); Number: a double; Label: a string.
    QJsonValue value = true;
    QString note;
    QString author; ///< optional
    QDateTime time; ///< UTC

    /// What the tree shows on the node: 👍, 👎, the number, or the label.
    QString marker() const;
    /// The value as the filter's `score:` compares it: `up`/`down`, the number, the label.
    QString scoreText() const;
    QJsonObject toJson() const;
    /// An annotation from its JSON form; an error naming what is missing or wrong.
    static Result<Annotation> fromJson(const QJsonObject& object);
    bool operator==(const Annotation& other) const;
};

using Annotations = QHash<QString, Annotation>; ///< by nodeId

/// Where a trace file's annotations live: `<trace>.annotations.json` next to it.
QString annotationsPath(const QString& tracePath);
/// Reads the annotations kept for the trace at `tracePath`. No sidecar file: none (not an
/// error). A sidecar that is not Hako's annotations (garbled, another format): a plain error,
/// and the file is left as it is.
Result<Annotations> readAnnotations(const QString& tracePath);
/// Writes `annotations` as the trace's sidecar, atomically (QSaveFile); removes the sidecar
/// when there are none. An error says why it could not be written.
Result<bool> writeAnnotations(const QString& tracePath, const Annotations& annotations);

/// The annotations as JSON Lines, one per annotated node in tree order, each with the block's
/// kind, label, input (a model call's messages; else null) and output (its result text).
QByteArray exportAnnotationsJsonl(const Annotations& annotations, const TraceModel& model);

/// The words of a Trace Tree search that are about annotations: `annotated`, `score:<value>`
/// (`score:up`, `score:down`, `score:0.8`, `score:>0.5`, `score:<3`, `score:wrong`) and
/// `note:<word>`. take() removes the words it understands from `words`.
struct AnnotationQuery {
    bool annotated = false;
    QStringList scores;
    QStringList noteWords;

    static AnnotationQuery take(QStringList& words);
    bool isEmpty() const { return !annotated && scores.isEmpty() && noteWords.isEmpty(); }
    /// Whether a node with `annotation` (null: not annotated) satisfies every criterion.
    bool matches(const Annotation* annotation) const;
};

} // namespace hako::pdl
