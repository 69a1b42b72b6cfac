#pragma once

#include "core/eval/dataset.h"
#include "core/promptlog/callrecord.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace hako::eval {

/// The file formats datasets are imported from and exported to.
enum class DatasetFormat {
    Jsonl,     ///< one example a line: `{inputs, reference, metadata}` or a flat object
    Json,      ///< an array of such objects, or `{examples: [...]}`
    Csv,       ///< a header row; `input.x`/`inputs.x`/plain columns are inputs,
               ///< `reference`/`expected`/`__expected` the reference, `metadata.x` metadata
    LangSmith, ///< LangSmith example JSONL: `{inputs, outputs, metadata}`
    Promptfoo, ///< promptfoo `tests:` YAML: `vars:` are inputs, `assert:` kept in metadata
};

/// `jsonl`, `json`, `csv`, `langsmith`, `promptfoo` (also `yaml`).
std::optional<DatasetFormat> datasetFormatFromName(const QString& name);
QString datasetFormatName(DatasetFormat format);
/// The format a file name suggests (`.jsonl`, `.json`, `.csv`, `.yaml`/`.yml`); JSONL lines with
/// `outputs` and no `reference` are read as LangSmith's anyway.
DatasetFormat datasetFormatForPath(const QString& path);

/// What an import read: the examples that parsed, and each one that did not (with its index
/// among the file's examples, 0-based, the field when one is to blame, and why). Shape checks
/// against the dataset's schema come after (Dataset::add).
struct ParsedExamples {
    QList<Example> examples;
    QList<ShapeProblem> problems;
    /// Index of each parsed example among the file's examples (for the shape check's report).
    QList<int> sourceIndex;
};

/// Parses `data` in `format`. Fails only when the file as a whole is unusable (not a JSON
/// array, a CSV without header, YAML that does not parse: the error carries the line). A CSV
/// that is not UTF-8 is decoded when its encoding is recognised reliably (Shift_JIS/CP932,
/// EUC-JP, UTF-16, other multi-byte encodings: what Excel saves), else refused at the line of
/// its first unreadable byte, saying to save it as UTF-8; never read with U+FFFD in place of
/// characters.
Result<ParsedExamples> parseExamples(const QByteArray& data, DatasetFormat format,
                                     const QString& origin = {});

/// A CSV column and what it becomes in an example.
struct CsvColumn {
    enum class Role {
        Input,     ///< the input `name`
        Reference, ///< the reference answer
        Expected,  ///< promptfoo's `__expected`: an assertion, or the answer itself
        Metadata,  ///< the metadata field `name`
        Id,        ///< the example's id
        Ignored,   ///< left out
    };
    QString header; ///< as the file writes it
    Role role = Role::Input;
    QString name; ///< the input's or metadata field's name

    bool operator==(const CsvColumn&) const = default;
};

/// What a CSV file holds before it is imported, for a person to check the mapping: the
/// encoding it was read in ("UTF-8", "UTF-8 (BOM)", "SHIFT_JIS", …), each column with the role
/// its header gives it (`reference`/`expected` the reference, `metadata.x`, `id`, `input.x`,
/// anything else an input of that name), the number of rows and the first rows.
struct CsvPreview {
    QString encoding;
    QList<CsvColumn> columns;
    int rowCount = 0;
    QList<QStringList> rows;
};

/// Reads the CSV in `data` as parseExamples would (same decoding, same refusal of a file that
/// cannot be read), keeping `sampleRows` rows. Pure.
Result<CsvPreview> previewCsv(const QByteArray& data, const QString& origin = {},
                              int sampleRows = 5);
/// The examples of the CSV in `data` with each column playing the role `columns` gives it
/// (one per column of the file, as previewCsv gives them, perhaps changed by the person). Pure.
Result<ParsedExamples> parseCsvExamples(const QByteArray& data, const QString& origin,
                                        const QList<CsvColumn>& columns);

/// The examples in `format` (UTF-8). CSV flattens inputs to `input.<name>` columns (values that
/// are not strings as JSON), the reference to `reference`, metadata to `metadata.<name>`.
QByteArray exportExamples(const QList<Example>& examples, DatasetFormat format);

/// A dataset read from a file: parsed, its schema inferred, the examples that do not fit left
/// out and reported (`problems`, indexes among the file's examples). The name is the file's
/// base name. Errors: unreadable file, a file unusable as a whole.
struct ImportedDataset {
    Dataset dataset;
    QList<ShapeProblem> problems;
};
Result<ImportedDataset> importDatasetFile(const QString& path,
                                          std::optional<DatasetFormat> format = std::nullopt);

/// Examples from logged model calls: inputs are the run's inputs, else the last user message
/// as `input`; with `replyAsReference` the reply is the reference. Metadata names the call
/// (`call_uid`, `prompt`, `model`).
QList<Example> fromCalls(const QList<promptlog::CallRecord>& calls, bool replyAsReference);

} // namespace hako::eval
