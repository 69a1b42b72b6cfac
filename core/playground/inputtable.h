#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

namespace hako::playground {

/// The value a typed input stands for, one rule for the Prompt view's inputs and the
/// playground's table: a text that is a JSON list or record (`["a", "b"]`, `{"k": 1}`) is that
/// list or record; anything else is the text itself (never split into characters). Pure.
QJsonValue inputValueFromText(const QString& text);

/// The text a cell or field shows for `value`, read back by inputValueFromText(): a text as it
/// is, a list or record as compact JSON (its characters, not \u escapes), a number or a
/// boolean as JSON writes it, nothing for null. One rule for every place that fills inputs from
/// values (a logged call, a saved set, the program's own values). Pure.
QString inputTextFromValue(const QJsonValue& value);

/// How inputValueFromText() reads `text`, in the interface's language: "text (12 characters)",
/// "a list of 3 items", "a record of 2 fields". Pure.
QString describeInputText(const QString& text);

/// Rows copied from a spreadsheet (or typed lines): cells separated by tabs, rows by line
/// breaks (LF or CRLF); a cell that starts with `"` is quoted as spreadsheets copy a cell
/// holding line breaks, tabs or quotes (`""` is one quote). A trailing line break ends the last
/// row, it does not start an empty one. Reads what Python's csv module writes with the
/// `excel-tab` dialect. Pure.
QList<QStringList> parseSpreadsheetRows(const QString& text);

/// A label for each of `rows` (the playground's input rows, in `columns` order) that tells them
/// apart: "2: tone=丁寧", naming the first column whose values differ between the rows (the
/// first column when all are alike), its value shortened to 30 characters. Pure.
QStringList inputRowLabels(const QList<QJsonObject>& rows, const QStringList& columns);

} // namespace hako::playground
