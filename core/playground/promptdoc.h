#pragma once

#include "core/playground/savetoprogram.h"
#include "core/util/diagnostic.h"

#include <QHash>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

namespace hako::playground {

/// One thing the Prompt view shows for a block of a program.
struct PromptDocItem {
    enum class Kind {
        Card,      ///< a model call: heading, model, parameters, its messages in `children`
        Paragraph, ///< a literal text (a string `data`/bare scalar block)
        Message,   ///< a `{role, content}` message whose content is a string
        Value,     ///< a `defs` entry holding a string, a list of strings, a number or a bool
        Section,   ///< a loop, condition, function, code, … with a sentence; `children` inside
    };
    Kind kind = Kind::Paragraph;
    /// The block's identity for replies (blockId() of its span); stable while lines above keep.
    QString id;
    SourceSpan span; ///< the block's span (a card: its mapping, as saveToProgram takes it)
    /// A `def` name (or the `defs` key for a Value) shown as a heading; "" for none.
    QString heading;

    // Paragraph, Message, Value:
    QString role;        ///< "system", "user", "assistant", … ("" when not a message)
    QString text;        ///< the scalar's value
    SourceSpan textSpan; ///< the scalar as written (its start is what replaceScalar takes)
    bool editable = false;
    /// What a Value holds: a text, a list of texts (`list`), a number or a yes/no (`fixed`).
    /// For a List, textSpan is the list's start (what replaceList takes); for a Number or a
    /// Bool, the scalar's (replaceFixedValue). `editable` (replaceScalar) is false for them.
    /// Fields: a step's `spec:` (names and types), `list` holding "name: type" lines
    /// (replaceFields).
    enum class ValueType { Text, List, Number, Bool, Fields };
    ValueType valueType = ValueType::Text;
    QStringList list;
    QJsonValue fixed;

    // Card:
    QString model;
    SourceSpan modelSpan; ///< invalid when the model is not a plain string
    bool modelEditable = false;
    /// No `input`: the call sends everything the program produced before it.
    bool usesContext = false;
    /// temperature, max_tokens/max_new_tokens, stop as written (undefined: absent).
    QJsonValue temperature;
    QJsonValue maxTokens;
    QString maxTokensKey = QStringLiteral("max_tokens"); ///< the key used (or to insert)
    QJsonValue stop;
    QString stopKey = QStringLiteral("stop"); ///< `stop` or `stop_sequences`, as written
    /// True when editParameter() can change the parameters of this call.
    bool parametersEditable = false;

    // Section:
    QString label;    ///< "Loop", "Condition", "Function", "Code", …
    QString sentence; ///< one plain sentence saying what it does
    /// True for parts only an engineer should change (code, imports): the view says so.
    bool engineerOnly = false;

    /// Card: its messages; Section: the blocks inside.
    QList<PromptDocItem> children;
};

/// A variable the program uses but never defines: what the user fills in before a run.
struct PromptDocInput {
    /// What kind of value the program expects, from how it uses the name: the form offers the
    /// matching control.
    enum class Kind {
        Text,     ///< one line
        LongText, ///< several lines (`article`, `document`, a prompt's body)
        Number,   ///< compared or computed with numbers, or a count/limit field
        List,     ///< looped over (`for:`), indexed, or joined
        File,     ///< a path: read (`read:`), or named so (`file`, `path`)
    };
    QString name;
    QList<SourceSpan> uses;
    Kind kind = Kind::Text;
};

/// The kind of input `name` is, from the source lines of its uses in `text` (a PDL program).
/// Pure; exposed for tests.
PromptDocInput::Kind inferInputKind(const QString& name, const QList<SourceSpan>& uses,
                                    const QString& text);

/// The Prompt view's model of a program: its model calls as cards, texts as paragraphs, `defs`
/// strings as values, control flow as labelled sections, and the program's inputs. A plain value
/// built from the text; copy it freely between threads.
struct PromptDoc {
    QList<PromptDocItem> items;
    QList<PromptDocInput> inputs;
    /// Where each variable's value comes from, in one plain phrase ("an input of the program",
    /// "set on line 12"), for tooltips on `${ name }`.
    QHash<QString, QString> origins;

    /// The view model of `text` (a PDL program; `fileName` goes into spans). `externalNames`
    /// are names bound from outside (they are not inputs). The error is the YAML's first error
    /// (with its line) when the text cannot be read. Pure; thread-safe.
    static Result<PromptDoc> build(const QString& text, const QString& fileName = {},
                                   const QStringList& externalNames = {});

    /// The identity of the block at `span` ("line:column"), as PromptDocItem::id.
    static QString blockId(const SourceSpan& span);
};

/// The minimal edit of `source` that makes the string scalar starting at 1-based (line, column)
/// read as `value`: only the scalar's own text is replaced, keeping its style when it can hold
/// the new text (plain, '…', "…", or a `|` block with the same indentation), else a literal
/// block (multi-line, when the place allows) or a double-quoted string. The edited text is
/// parsed again and checked to read back `value`. No edit when it already does. Pure.
Result<QList<TextEdit>> replaceScalar(const QString& source, int line, int column,
                                      const QString& value);

/// The minimal edits of `source` that set the model parameter `name` of the model block at
/// `blockSpan` (a card's span) to `value` (undefined or null: remove it). A missing
/// `parameters:` is inserted; other parameters, comments and quoting stay byte for byte
/// (saveToProgram does the writing). Checked by parsing the result again. Pure.
Result<QList<TextEdit>> editParameter(const QString& source, const SourceSpan& blockSpan,
                                      const QString& name, const QJsonValue& value);

} // namespace hako::playground
