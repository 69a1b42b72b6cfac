#pragma once

#include "core/util/diagnostic.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

namespace hako::eval {

/// One example of a dataset: the variables a program or prompt is given, the expected answer
/// (optional: QJsonValue::Undefined when there is none) and free metadata (an import's
/// assertions, the logged call it came from, …). A plain value.
struct Example {
    /// Stable identity across versions and experiments (made from the inputs when empty, see
    /// ensureId()).
    QString id;
    QJsonObject inputs;
    QJsonValue reference = QJsonValue(QJsonValue::Undefined);
    QJsonObject metadata;

    bool hasReference() const { return !reference.isUndefined() && !reference.isNull(); }
    /// The reference as text: a string as is, anything else as compact JSON; "" without one.
    QString referenceText() const;
    /// `{id, inputs, reference?, metadata?}`.
    QJsonObject toJson() const;
    static Example fromJson(const QJsonObject& object);
    /// Gives an empty id one made of the inputs' canonical JSON (SHA-1, 12 hex digits).
    void ensureId();

    bool operator==(const Example& other) const;
};

/// Why one example does not fit its dataset's schema: which example (0-based, in the order
/// given), which field (`inputs.question`, `reference`; "" for the whole example) and why.
struct ShapeProblem {
    int index = -1;
    QString field;
    QString reason;

    /// `example 3: inputs.question: expected string, got 3`.
    QString toString() const;
};

/// A dataset: a name, a description, its version (0 until stored; every stored edit makes a
/// new one, see EvalStore) and its examples, all of one shape (`schema`, a JSON Schema over
/// `{inputs, reference}`; inferred from the first examples when empty, editable).
struct Dataset {
    QString name;
    QString description;
    int version = 0;
    QJsonObject schema;
    QList<Example> examples;

    /// A JSON Schema for the examples' shape, from up to `sample` of the first examples: each
    /// input field's type is the one most of them have (integers count as numbers); a field is
    /// required when most of them have it; `reference`'s type likewise when most have one. A
    /// single malformed example among the first ones therefore does not shape the schema.
    static QJsonObject inferSchema(const QList<Example>& examples, int sample = 20);

    /// The schema for inputs of PDL type `inputsType` (`{question: string, n: integer}`; a JSON
    /// Schema passes through) and, when given, a reference of PDL type `referenceType`.
    static Result<QJsonObject> schemaFromPdlTypes(const QJsonValue& inputsType,
                                                  const QJsonValue& referenceType = {});

    /// What of `examples` does not fit `schema` (the dataset's, or the inferred one when
    /// empty); indexes start at `firstIndex`. An invalid schema is one problem at index -1.
    QList<ShapeProblem> check(const QList<Example>& examples, int firstIndex = 0) const;

    /// Adds `examples` that fit (inferring the schema first when there is none) and reports
    /// those that do not (not added), with indexes counted from 0 in `examples`.
    QList<ShapeProblem> add(const QList<Example>& examples);

    /// The input columns in the schema's order (a column may be empty in every example).
    QStringList inputNames() const;
    /// A new text input column, empty ("") in every example; an error when `name` is empty or
    /// already an input.
    Result<bool> addInput(const QString& name);
    /// Renames an input column in the schema and in every example; an error when `from` is no
    /// input, or `to` is empty or already an input.
    Result<bool> renameInput(const QString& from, const QString& to);
    /// Removes an input column from the schema and from every example; an error when `name`
    /// is no input.
    Result<bool> removeInput(const QString& name);
};

} // namespace hako::eval

#include <QMetaType>
Q_DECLARE_METATYPE(hako::eval::ShapeProblem)
