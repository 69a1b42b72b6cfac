#include "core/eval/datasetio.h"
#include "core/eval/textmetrics.h"
#include "core/eval/yamljson_p.h"

#include "core/docs/document.h"
#include "core/util/boundedfile.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <yaml-cpp/yaml.h>

namespace hako::eval {

namespace {

const QString kInputs = QStringLiteral("inputs");
const QString kReference = QStringLiteral("reference");
const QString kMetadata = QStringLiteral("metadata");
const QString kOutputs = QStringLiteral("outputs");

// One JSON object as an example: the `{inputs, reference|expected|outputs, metadata}` form, or
// a flat object whose keys (but those) are the inputs.
std::optional<Example> exampleFromObject(const QJsonObject& o, QString* why)
{
    Example e;
    e.id = o.value(QStringLiteral("id")).toString();
    if (o.contains(kInputs)) {
        if (!o.value(kInputs).isObject()) {
            *why = QStringLiteral("inputs: expected an object");
            return std::nullopt;
        }
        e.inputs = o.value(kInputs).toObject();
    } else {
        for (auto it = o.begin(); it != o.end(); ++it) {
            if (it.key() != kReference && it.key() != QLatin1String("expected") &&
                it.key() != kMetadata && it.key() != kOutputs && it.key() != QLatin1String("id"))
                e.inputs.insert(it.key(), it.value());
        }
    }
    if (o.contains(kReference))
        e.reference = o.value(kReference);
    else if (o.contains(QStringLiteral("expected")))
        e.reference = o.value(QStringLiteral("expected"));
    else if (o.contains(kOutputs)) {
        // LangSmith keeps outputs as a dict; a single value is the reference itself.
        const QJsonValue out = o.value(kOutputs);
        if (out.isObject() && out.toObject().size() == 1)
            e.reference = out.toObject().begin().value();
        else if (!out.isNull())
            e.reference = out;
    }
    if (o.contains(kMetadata)) {
        if (!o.value(kMetadata).isObject() && !o.value(kMetadata).isNull()) {
            *why = QStringLiteral("metadata: expected an object");
            return std::nullopt;
        }
        e.metadata = o.value(kMetadata).toObject();
    }
    return e;
}

void addObject(ParsedExamples& out, int index, const QJsonValue& v)
{
    if (!v.isObject()) {
        out.problems.append({index, QString(), QStringLiteral("expected a JSON object")});
        return;
    }
    QString why;
    std::optional<Example> e = exampleFromObject(v.toObject(), &why);
    if (!e) {
        const qsizetype colon = why.indexOf(QLatin1String(": "));
        out.problems.append({index, why.left(colon), why.mid(colon + 2)});
        return;
    }
    out.examples.append(*e);
    out.sourceIndex.append(index);
}

// RFC 4180: quoted fields may hold commas, quotes ("") and line breaks.
QList<QStringList> parseCsv(const QString& text)
{
    QList<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false, fieldStarted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"')) {
                if (i + 1 < text.size() && text[i + 1] == QLatin1Char('"')) {
                    field += c;
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                field += c;
            }
            continue;
        }
        if (c == QLatin1Char('"') && !fieldStarted) {
            quoted = fieldStarted = true;
        } else if (c == QLatin1Char(',')) {
            row << field;
            field.clear();
            fieldStarted = false;
        } else if (c == QLatin1Char('\n') || c == QLatin1Char('\r')) {
            if (c == QLatin1Char('\r') && i + 1 < text.size() && text[i + 1] == QLatin1Char('\n'))
                ++i;
            row << field;
            field.clear();
            fieldStarted = false;
            if (!(row.size() == 1 && row[0].isEmpty()))
                rows << row;
            row.clear();
        } else {
            field += c;
            fieldStarted = true;
        }
    }
    if (fieldStarted || !field.isEmpty() || !row.isEmpty()) {
        row << field;
        rows << row;
    }
    return rows;
}

QString csvField(const QString& s)
{
    if (s.contains(QLatin1Char(',')) || s.contains(QLatin1Char('"')) ||
        s.contains(QLatin1Char('\n')) || s.contains(QLatin1Char('\r'))) {
        QString q = s;
        q.replace(QLatin1String("\""), QLatin1String("\"\""));
        return QLatin1Char('"') + q + QLatin1Char('"');
    }
    return s;
}

QString csvValue(const QJsonValue& v)
{
    if (v.isUndefined() || v.isNull())
        return QString();
    return v.isString() ? v.toString() : canonicalJson(v);
}

// The byte offset where `data` stops being well-formed UTF-8 (overlong forms, surrogates and
// code points past U+10FFFF included), or -1.
qsizetype firstInvalidUtf8(QByteArrayView data)
{
    const auto* p = reinterpret_cast<const unsigned char*>(data.data());
    const qsizetype n = data.size();
    qsizetype i = 0;
    while (i < n) {
        const unsigned char c = p[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        const int length = c >= 0xC2 && c <= 0xDF   ? 2
                           : c >= 0xE0 && c <= 0xEF ? 3
                           : c >= 0xF0 && c <= 0xF4 ? 4
                                                    : 0;
        if (length == 0 || i + length > n)
            return i;
        // The second byte's range excludes overlong forms, surrogates and > U+10FFFF.
        const unsigned char low = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
        const unsigned char high = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
        if (p[i + 1] < low || p[i + 1] > high)
            return i;
        for (int k = 2; k < length; ++k)
            if ((p[i + k] & 0xC0) != 0x80)
                return i;
        i += length;
    }
    return -1;
}

// Encodings whose detection is reliable enough to import without asking: the multi-byte
// ones (Excel saves CSV in the system's code page: Shift_JIS in Japan) and UTF-16 ("Unicode
// text"). A single-byte guess (WINDOWS-1252, …) is as likely a damaged UTF-8 file read as
// mojibake, so it is refused instead.
bool reliablyDetected(const QString& encoding)
{
    static const char* const kMultiByte[] = {"SHIFT_JIS", "EUC-JP", "ISO-2022-JP", "UTF-16",
                                             "GB18030",   "GB2312", "BIG5",        "EUC-KR",
                                             "EUC-TW",    "UHC",    "WINDOWS-31J", "CP932"};
    const QString upper = encoding.toUpper();
    for (const char* name : kMultiByte)
        if (upper.startsWith(QLatin1String(name)))
            return true;
    return false;
}

// A text file's characters: UTF-8 (a byte order mark dropped), else the encoding hako_docs
// detects when it is reliable and decodes every byte; else an error at the first byte that is
// not UTF-8, saying what to do. Never U+FFFD in place of what could not be read.
Result<QString> decodeText(const QByteArray& data, const QString& origin,
                           QString* encoding = nullptr)
{
    const qsizetype bad = firstInvalidUtf8(data);
    if (bad < 0) {
        QString text = QString::fromUtf8(data);
        const bool bom = text.startsWith(QChar(0xFEFF));
        if (bom)
            text.remove(0, 1);
        if (encoding)
            *encoding = bom ? QStringLiteral("UTF-8 (BOM)") : QStringLiteral("UTF-8");
        return text;
    }
    Result<docs::Document> doc = docs::decodeDocument(data, origin);
    if (doc.ok() && reliablyDetected(doc->encoding()) && doc->warnings().isEmpty() &&
        !doc->text().contains(QChar(0xFFFD))) {
        if (encoding)
            *encoding = doc->encoding();
        return doc->text();
    }
    const qsizetype lineStart = data.lastIndexOf('\n', bad - 1) + 1;
    const int line = int(data.left(bad).count('\n')) + 1;
    const int column =
        int(QString::fromUtf8(data.mid(lineStart, bad - lineStart)).toUcs4().size()) + 1;
    const QString guess = doc.ok() && doc->encoding() != QLatin1String("UTF-8")
                              ? QStringLiteral(" (it may be %1)").arg(doc->encoding())
                              : QString();
    const QString byte =
        QStringLiteral("%1").arg(uint(uchar(data.at(bad))), 2, 16, QLatin1Char('0')).toUpper();
    return makeError(QStringLiteral("the file is not UTF-8%1: byte 0x%2 cannot be read; save it "
                                    "as UTF-8 (in Excel: \"CSV UTF-8\") and import it again")
                         .arg(guess, byte),
                     SourceSpan{origin, line, column, 0, 0});
}

// The role a column plays by its header, as the formats Hako exports and promptfoo write them;
// any other header is an input of that name.
CsvColumn columnForHeader(const QString& header)
{
    const QString name = header.trimmed();
    CsvColumn c{header, CsvColumn::Role::Input, name};
    if (name == kReference || name == QLatin1String("expected") ||
        name == QLatin1String("expected_output"))
        c.role = CsvColumn::Role::Reference;
    else if (name == QLatin1String("__expected"))
        c.role = CsvColumn::Role::Expected;
    else if (name.startsWith(QLatin1String("metadata.")))
        c = {header, CsvColumn::Role::Metadata, name.mid(9)};
    else if (name == QLatin1String("id"))
        c.role = CsvColumn::Role::Id;
    else if (name.startsWith(QLatin1String("inputs.")))
        c.name = name.mid(7);
    else if (name.startsWith(QLatin1String("input.")))
        c.name = name.mid(6);
    else if (name.startsWith(QLatin1String("__")))
        c.role = CsvColumn::Role::Ignored;
    return c;
}

// One example of a CSV row, each field where its column's role puts it.
Example csvExample(const QList<CsvColumn>& columns, const QStringList& row)
{
    Example e;
    QJsonArray asserts;
    for (qsizetype c = 0; c < columns.size() && c < row.size(); ++c) {
        const CsvColumn& column = columns[c];
        const QString& value = row[c];
        switch (column.role) {
        case CsvColumn::Role::Input:
            e.inputs.insert(column.name, value);
            break;
        case CsvColumn::Role::Reference:
            e.reference = value;
            break;
        case CsvColumn::Role::Expected:
            // promptfoo: `__expected` holds an assertion (`contains: x`) or the answer itself.
            if (!value.isEmpty())
                asserts.append(value);
            if (!value.contains(QLatin1Char(':')))
                e.reference = value;
            break;
        case CsvColumn::Role::Metadata:
            e.metadata.insert(column.name, value);
            break;
        case CsvColumn::Role::Id:
            e.id = value;
            break;
        case CsvColumn::Role::Ignored:
            break;
        }
    }
    if (!asserts.isEmpty())
        e.metadata.insert(QStringLiteral("assert"), asserts);
    return e;
}

Result<QList<QStringList>> csvRows(const QByteArray& data, const QString& origin,
                                   QString* encoding = nullptr)
{
    Result<QString> decoded = decodeText(data, origin, encoding);
    if (!decoded.ok())
        return decoded.error();
    QList<QStringList> rows = parseCsv(*decoded);
    if (rows.isEmpty())
        return makeError(QStringLiteral("%1: a CSV dataset needs a header row").arg(origin));
    return rows;
}

Result<ParsedExamples> parseCsvRows(const QList<QStringList>& rows, const QList<CsvColumn>& columns)
{
    const QStringList& header = rows.first();
    ParsedExamples out;
    for (int r = 1; r < rows.size(); ++r) {
        const int index = r - 1;
        const QStringList& row = rows[r];
        if (row.size() != header.size()) {
            out.problems.append({index, QString(),
                                 QStringLiteral("row %1 has %2 fields, the header %3")
                                     .arg(r + 1)
                                     .arg(row.size())
                                     .arg(header.size())});
            continue;
        }
        out.examples.append(csvExample(columns, row));
        out.sourceIndex.append(index);
    }
    return out;
}

Result<ParsedExamples> parseCsvExamples(const QByteArray& data, const QString& origin)
{
    Result<QList<QStringList>> rows = csvRows(data, origin);
    if (!rows)
        return rows.error();
    QList<CsvColumn> columns;
    for (const QString& h : rows->first())
        columns << columnForHeader(h);
    return parseCsvRows(*rows, columns);
}

Result<ParsedExamples> parsePromptfoo(const QByteArray& data, const QString& origin)
{
    Result<YAML::Node> loaded = loadYaml(data, origin);
    if (!loaded)
        return loaded.error();
    YAML::Node root = *loaded;
    YAML::Node tests = root.IsMap() ? root["tests"] : root;
    if (!tests || !tests.IsSequence())
        return makeError(QStringLiteral("%1: expected a `tests:` list").arg(origin),
                         SourceSpan{origin, root.Mark().line + 1, 1, 0, 0});
    ParsedExamples out;
    int index = 0;
    try {
        for (const YAML::Node& test : tests) {
            const int line = test.Mark().line + 1;
            if (!test.IsMap()) {
                out.problems.append(
                    {index++, QString(), QStringLiteral("line %1: expected a mapping").arg(line)});
                continue;
            }
            Example e;
            const QJsonValue vars = yamlToJson(test["vars"]);
            if (!vars.isObject() && !vars.isNull()) {
                out.problems.append({index++, QStringLiteral("vars"),
                                     QStringLiteral("line %1: expected a mapping").arg(line)});
                continue;
            }
            e.inputs = vars.toObject();
            if (test["description"])
                e.metadata.insert(QStringLiteral("description"),
                                  QString::fromStdString(test["description"].Scalar()));
            const QJsonValue asserts = yamlToJson(test["assert"]);
            if (asserts.isArray()) {
                e.metadata.insert(QStringLiteral("assert"), asserts);
                for (const QJsonValue& a : asserts.toArray()) {
                    const QString type = a.toObject().value(QStringLiteral("type")).toString();
                    if (type == QLatin1String("equals")) {
                        e.reference = a.toObject().value(QStringLiteral("value"));
                        break;
                    }
                }
            }
            out.examples.append(e);
            out.sourceIndex.append(index++);
        }
    } catch (const YAML::Exception& e) {
        return yamlError(e, origin);
    }
    return out;
}

} // namespace

std::optional<DatasetFormat> datasetFormatFromName(const QString& name)
{
    const QString n = name.toLower();
    if (n == QLatin1String("jsonl"))
        return DatasetFormat::Jsonl;
    if (n == QLatin1String("json"))
        return DatasetFormat::Json;
    if (n == QLatin1String("csv"))
        return DatasetFormat::Csv;
    if (n == QLatin1String("langsmith"))
        return DatasetFormat::LangSmith;
    if (n == QLatin1String("promptfoo") || n == QLatin1String("yaml"))
        return DatasetFormat::Promptfoo;
    return std::nullopt;
}

QString datasetFormatName(DatasetFormat format)
{
    switch (format) {
    case DatasetFormat::Jsonl:
        return QStringLiteral("jsonl");
    case DatasetFormat::Json:
        return QStringLiteral("json");
    case DatasetFormat::Csv:
        return QStringLiteral("csv");
    case DatasetFormat::LangSmith:
        return QStringLiteral("langsmith");
    case DatasetFormat::Promptfoo:
        return QStringLiteral("promptfoo");
    }
    return {};
}

DatasetFormat datasetFormatForPath(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("json"))
        return DatasetFormat::Json;
    if (suffix == QLatin1String("csv"))
        return DatasetFormat::Csv;
    if (suffix == QLatin1String("yaml") || suffix == QLatin1String("yml"))
        return DatasetFormat::Promptfoo;
    return DatasetFormat::Jsonl;
}

Result<ParsedExamples> parseExamples(const QByteArray& data, DatasetFormat format,
                                     const QString& origin)
{
    switch (format) {
    case DatasetFormat::Jsonl:
    case DatasetFormat::LangSmith: {
        ParsedExamples out;
        int index = 0;
        const QList<QByteArray> lines = data.split('\n');
        for (int l = 0; l < lines.size(); ++l) {
            const QByteArray line = lines[l].trimmed();
            if (line.isEmpty())
                continue;
            QJsonParseError error;
            const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
            if (error.error != QJsonParseError::NoError) {
                out.problems.append(
                    {index++, QString(),
                     QStringLiteral("line %1: not JSON: %2").arg(l + 1).arg(error.errorString())});
                continue;
            }
            addObject(out, index++, doc.isObject() ? QJsonValue(doc.object()) : QJsonValue());
        }
        return out;
    }
    case DatasetFormat::Json: {
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(data, &error);
        if (error.error != QJsonParseError::NoError) {
            const int line = int(data.left(error.offset).count('\n')) + 1;
            return makeError(QStringLiteral("not JSON: %1").arg(error.errorString()),
                             SourceSpan{origin, line, 1, 0, 0});
        }
        QJsonArray items =
            doc.isArray() ? doc.array() : doc.object().value(QStringLiteral("examples")).toArray();
        if (!doc.isArray() && !doc.object().value(QStringLiteral("examples")).isArray())
            return makeError(QStringLiteral("%1: expected an array of examples or "
                                            "{\"examples\": [...]}")
                                 .arg(origin));
        ParsedExamples out;
        for (int i = 0; i < items.size(); ++i)
            addObject(out, i, items[i]);
        return out;
    }
    case DatasetFormat::Csv:
        return parseCsvExamples(data, origin);
    case DatasetFormat::Promptfoo:
        return parsePromptfoo(data, origin);
    }
    return makeError(QStringLiteral("unknown format"));
}

QByteArray exportExamples(const QList<Example>& examples, DatasetFormat format)
{
    QByteArray out;
    switch (format) {
    case DatasetFormat::Jsonl:
        for (const Example& e : examples)
            out += QJsonDocument(e.toJson()).toJson(QJsonDocument::Compact) + '\n';
        break;
    case DatasetFormat::LangSmith:
        for (const Example& e : examples) {
            QJsonObject o{{kInputs, e.inputs}};
            if (e.hasReference())
                o.insert(kOutputs,
                         e.reference.isObject()
                             ? e.reference
                             : QJsonValue(QJsonObject{{QStringLiteral("output"), e.reference}}));
            else
                o.insert(kOutputs, QJsonValue(QJsonValue::Null));
            o.insert(kMetadata, e.metadata);
            out += QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
        }
        break;
    case DatasetFormat::Json: {
        QJsonArray a;
        for (const Example& e : examples)
            a.append(e.toJson());
        out = QJsonDocument(a).toJson(QJsonDocument::Indented);
        break;
    }
    case DatasetFormat::Csv: {
        QStringList inputs, meta;
        bool anyReference = false, anyId = false;
        for (const Example& e : examples) {
            for (const QString& k : e.inputs.keys())
                if (!inputs.contains(k))
                    inputs << k;
            for (const QString& k : e.metadata.keys())
                if (!meta.contains(k))
                    meta << k;
            anyReference = anyReference || e.hasReference();
            anyId = anyId || !e.id.isEmpty();
        }
        QStringList header;
        if (anyId)
            header << QStringLiteral("id");
        for (const QString& k : inputs)
            header << csvField(QStringLiteral("input.") + k);
        if (anyReference)
            header << kReference;
        for (const QString& k : meta)
            header << csvField(QStringLiteral("metadata.") + k);
        out += header.join(QLatin1Char(',')).toUtf8() + "\r\n";
        for (const Example& e : examples) {
            QStringList row;
            if (anyId)
                row << csvField(e.id);
            for (const QString& k : inputs)
                row << csvField(csvValue(e.inputs.value(k)));
            if (anyReference)
                row << csvField(csvValue(e.reference));
            for (const QString& k : meta)
                row << csvField(csvValue(e.metadata.value(k)));
            out += row.join(QLatin1Char(',')).toUtf8() + "\r\n";
        }
        break;
    }
    case DatasetFormat::Promptfoo:
        // JSON is YAML: one flow mapping per test keeps every string exact.
        out += "tests:\n";
        for (const Example& e : examples) {
            out += "  - vars: " + QJsonDocument(e.inputs).toJson(QJsonDocument::Compact) + '\n';
            QJsonArray asserts = e.metadata.value(QStringLiteral("assert")).toArray();
            if (asserts.isEmpty() && e.hasReference())
                asserts.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("equals")},
                                           {QStringLiteral("value"), e.reference}});
            if (!asserts.isEmpty())
                out +=
                    "    assert: " + QJsonDocument(asserts).toJson(QJsonDocument::Compact) + '\n';
            const QString description = e.metadata.value(QStringLiteral("description")).toString();
            if (!description.isEmpty())
                out += "    description: " +
                       QJsonDocument(QJsonArray{description})
                           .toJson(QJsonDocument::Compact)
                           .mid(1)
                           .chopped(1) +
                       '\n';
        }
        break;
    }
    return out;
}

Result<ImportedDataset> importDatasetFile(const QString& path, std::optional<DatasetFormat> format)
{
    Result<QByteArray> data = readBoundedFile(path);
    if (!data.ok())
        return data.error();
    const DatasetFormat f = format.value_or(datasetFormatForPath(path));
    Result<ParsedExamples> parsed = parseExamples(*data, f, path);
    if (!parsed.ok())
        return parsed.error();
    ImportedDataset out;
    out.dataset.name = QFileInfo(path).completeBaseName();
    out.problems = parsed->problems;
    const QList<ShapeProblem> shape = out.dataset.add(parsed->examples);
    for (ShapeProblem p : shape) {
        p.index = parsed->sourceIndex.value(p.index, p.index);
        out.problems.append(p);
    }
    std::sort(out.problems.begin(), out.problems.end(),
              [](const ShapeProblem& a, const ShapeProblem& b) { return a.index < b.index; });
    return out;
}

QList<Example> fromCalls(const QList<promptlog::CallRecord>& calls, bool replyAsReference)
{
    QList<Example> out;
    for (const promptlog::CallRecord& call : calls) {
        Example e;
        if (!call.inputs.isEmpty()) {
            e.inputs = call.inputs;
        } else {
            for (qsizetype i = call.messages.size() - 1; i >= 0; --i) {
                const QJsonObject m = call.messages.at(i).toObject();
                if (m.value(QStringLiteral("role")).toString() == QLatin1String("user")) {
                    e.inputs.insert(QStringLiteral("input"), m.value(QStringLiteral("content")));
                    break;
                }
            }
        }
        if (replyAsReference)
            e.reference = call.reply;
        e.metadata.insert(QStringLiteral("call_uid"), call.uid);
        if (!call.promptName.isEmpty())
            e.metadata.insert(QStringLiteral("prompt"), call.promptName);
        if (!call.model.isEmpty())
            e.metadata.insert(QStringLiteral("model"), call.model);
        e.ensureId();
        out.append(e);
    }
    return out;
}

Result<CsvPreview> previewCsv(const QByteArray& data, const QString& origin, int sampleRows)
{
    CsvPreview preview;
    Result<QList<QStringList>> rows = csvRows(data, origin, &preview.encoding);
    if (!rows)
        return rows.error();
    for (const QString& h : rows->first())
        preview.columns << columnForHeader(h);
    preview.rowCount = int(rows->size()) - 1;
    preview.rows = rows->mid(1, sampleRows);
    return preview;
}

Result<ParsedExamples> parseCsvExamples(const QByteArray& data, const QString& origin,
                                        const QList<CsvColumn>& columns)
{
    Result<QList<QStringList>> rows = csvRows(data, origin);
    if (!rows)
        return rows.error();
    if (columns.size() != rows->first().size())
        return makeError(QStringLiteral("%1: the file has %2 columns, the mapping %3")
                             .arg(origin)
                             .arg(rows->first().size())
                             .arg(columns.size()));
    return parseCsvRows(*rows, columns);
}

} // namespace hako::eval
