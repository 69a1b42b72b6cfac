#include "core/workbench/notebook.h"

#include "core/pdl/interp/interpreter.h"
#include "core/pdl/programcheck.h"
#include "core/util/boundedfile.h"
#include "core/util/outputfile.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>

namespace hako {

namespace {

QString say(const char* text)
{
    return QCoreApplication::translate("hako::Notebook", text);
}

// nbformat keeps multi-line text either as one string or as a list of lines.
QString joinedText(const QJsonValue& value)
{
    if (value.isString())
        return value.toString();
    QString out;
    for (const QJsonValue& line : value.toArray())
        out += line.toString();
    return out;
}

// The list of lines Jupyter writes: each line keeps its line break, the last has none.
QJsonArray lines(const QString& text)
{
    QJsonArray out;
    qsizetype start = 0;
    while (start < text.size()) {
        const qsizetype nl = text.indexOf(QLatin1Char('\n'), start);
        const qsizetype end = nl < 0 ? text.size() : nl + 1;
        out.append(text.mid(start, end - start));
        start = end;
    }
    return out;
}

QString magicLine(const QString& source)
{
    const qsizetype nl = source.indexOf(QLatin1Char('\n'));
    return (nl < 0 ? source : source.left(nl)).trimmed();
}

NotebookCell cellFromJson(const QJsonObject& object)
{
    NotebookCell cell;
    const QString type = object.value(QLatin1String("cell_type")).toString();
    cell.kind = type == QLatin1String("markdown") ? NotebookCell::Kind::Markdown
                : type == QLatin1String("raw")    ? NotebookCell::Kind::Raw
                                                  : NotebookCell::Kind::Code;
    cell.source = joinedText(object.value(QLatin1String("source")));
    cell.outputs = object.value(QLatin1String("outputs")).toArray();
    cell.executionCount = object.value(QLatin1String("execution_count"));
    cell.other = object;
    for (const char* known : {"cell_type", "source", "outputs", "execution_count"})
        cell.other.remove(QLatin1String(known));
    return cell;
}

QJsonObject cellToJson(const NotebookCell& cell)
{
    QJsonObject object = cell.other;
    object.insert(QStringLiteral("cell_type"),
                  cell.kind == NotebookCell::Kind::Markdown ? QStringLiteral("markdown")
                  : cell.kind == NotebookCell::Kind::Raw    ? QStringLiteral("raw")
                                                            : QStringLiteral("code"));
    object.insert(QStringLiteral("source"), lines(cell.source));
    if (!object.contains(QLatin1String("metadata")))
        object.insert(QStringLiteral("metadata"), QJsonObject());
    if (cell.kind == NotebookCell::Kind::Code) {
        object.insert(QStringLiteral("outputs"), cell.outputs);
        object.insert(QStringLiteral("execution_count"), cell.executionCount.isUndefined()
                                                             ? QJsonValue(QJsonValue::Null)
                                                             : cell.executionCount);
    }
    return object;
}

// What a run shows under its cell: the result as a stream, or the error as Jupyter shows one.
QJsonArray outputsOf(const NotebookKernel::CellRun& run)
{
    if (run.ok) {
        if (run.text.isEmpty())
            return {};
        return {QJsonObject{{QStringLiteral("output_type"), QStringLiteral("stream")},
                            {QStringLiteral("name"), QStringLiteral("stdout")},
                            {QStringLiteral("text"), lines(run.text + QLatin1Char('\n'))}}};
    }
    return {QJsonObject{{QStringLiteral("output_type"), QStringLiteral("error")},
                        {QStringLiteral("ename"), QStringLiteral("PDLRuntimeError")},
                        {QStringLiteral("evalue"), run.error.message},
                        {QStringLiteral("traceback"), QJsonArray{run.error.toString()}}}};
}

} // namespace

bool NotebookCell::isPdl() const
{
    static const QRegularExpression magic(QStringLiteral("^%%pdl(\\s|$)"));
    return kind == Kind::Code && magic.match(magicLine(source)).hasMatch();
}

QString NotebookCell::program() const
{
    const qsizetype nl = source.indexOf(QLatin1Char('\n'));
    return nl < 0 ? QString() : QLatin1Char('\n') + source.mid(nl + 1);
}

bool NotebookCell::resetsContext() const
{
    const QStringList words = magicLine(source).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    return words.contains(QLatin1String("-r")) || words.contains(QLatin1String("--reset-context"));
}

NotebookCell NotebookCell::pdl(const QString& program)
{
    NotebookCell cell;
    cell.source = QStringLiteral("%%pdl\n") + program;
    return cell;
}

Result<Notebook> Notebook::read(const QString& path)
{
    Result<QByteArray> text = readBoundedFile(path);
    if (!text)
        return text.error();
    return fromJson(*text, path);
}

Result<Notebook> Notebook::fromJson(const QByteArray& json, const QString& name)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        SourceSpan at;
        at.file = name;
        at.line = int(json.left(parseError.offset).count('\n')) + 1;
        at.column = 1;
        return makeError(
            say(QT_TRANSLATE_NOOP("hako::Notebook", "%1 is not a notebook: %2"))
                .arg(QFileInfo(name).fileName(),
                     document.isObject()
                         ? parseError.errorString()
                         : say(QT_TRANSLATE_NOOP("hako::Notebook", "the file is not JSON"))),
            at);
    }
    QJsonObject root = document.object();
    if (root.value(QLatin1String("nbformat")).toInt() != 4 ||
        !root.value(QLatin1String("cells")).isArray())
        return makeError(
            say(QT_TRANSLATE_NOOP(
                    "hako::Notebook",
                    "%1 is not a Jupyter notebook of format 4 (nbformat 4, with cells)."))
                .arg(QFileInfo(name).fileName()));
    Notebook notebook;
    for (const QJsonValue& cell : root.value(QLatin1String("cells")).toArray())
        notebook.cells.push_back(cellFromJson(cell.toObject()));
    notebook.metadata = root.value(QLatin1String("metadata")).toObject();
    notebook.formatMinor = root.value(QLatin1String("nbformat_minor")).toInt(5);
    for (const char* known : {"cells", "metadata", "nbformat", "nbformat_minor"})
        root.remove(QLatin1String(known));
    notebook.other = root;
    return notebook;
}

QByteArray Notebook::toJson() const
{
    QJsonObject root = other;
    QJsonArray cellArray;
    for (const NotebookCell& cell : cells)
        cellArray.append(cellToJson(cell));
    root.insert(QStringLiteral("cells"), cellArray);
    root.insert(QStringLiteral("metadata"), metadata);
    root.insert(QStringLiteral("nbformat"), 4);
    root.insert(QStringLiteral("nbformat_minor"), formatMinor);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

bool Notebook::write(const QString& path, QString* error) const
{
    return writeOutputFile(path, toJson(), error);
}

Notebook Notebook::forPdl()
{
    Notebook notebook;
    notebook.formatMinor = 4; // cells without ids, which every nbformat 4 reader takes
    notebook.metadata.insert(
        QStringLiteral("kernelspec"),
        QJsonObject{{QStringLiteral("name"), QStringLiteral("python3")},
                    {QStringLiteral("display_name"), QStringLiteral("Python 3")},
                    {QStringLiteral("language"), QStringLiteral("python")}});
    NotebookCell load;
    load.source = QStringLiteral("%load_ext pdl.pdl_notebook_ext");
    notebook.cells.push_back(load);
    return notebook;
}

NotebookKernel::NotebookKernel(RunEnvironment environment, QString notebookPath)
    : m_environment(std::move(environment)), m_path(std::move(notebookPath))
{
    if (m_environment.baseFolder.isEmpty())
        m_environment.baseFolder = QFileInfo(m_path).absolutePath();
}

NotebookKernel::CellRun NotebookKernel::run(Notebook& notebook, int index,
                                            const CancelToken& cancel)
{
    CellRun out;
    if (index < 0 || size_t(index) >= notebook.cells.size() ||
        !notebook.cells[size_t(index)].isPdl()) {
        out.ok = true;
        return out;
    }
    NotebookCell& cell = notebook.cells[size_t(index)];
    // The cell as a file of the notebook's folder: relative reads resolve there, errors name it.
    const QString name =
        QFileInfo(m_path).absoluteFilePath() + QStringLiteral("#%1").arg(index + 1);
    const pdl::ParseResult parsed = pdl::checkProgramText(cell.program().toUtf8(), name);
    if (!parsed.ok() || !parsed.program) {
        out.error =
            parsed.diagnostics.empty()
                ? makeError(say(QT_TRANSLATE_NOOP("hako::Notebook", "The cell cannot be read.")))
                : parsed.diagnostics.front();
    } else {
        pdl::RunOptions options;
        options.initialScope = m_scope;
        if (cell.resetsContext())
            options.initialScope.set("pdl_context", pdl::Value(pdl::List()));
        options.cancel = cancel;
        options.trace = true;
        options.keepContext = true;
        // A configuration error leaves the run without models: cells without model blocks
        // still run, and a model block says what is missing (as in the workbench).
        m_environment.compose(options);
        pdl::Interpreter interpreter(options);
        const pdl::RunResult result = interpreter.run(parsed.program);
        out.ok = result.ok;
        out.error = result.error;
        out.trace = result.trace;
        if (result.ok) {
            std::string text;
            result.result.writeText([&text](std::string_view piece) { text += piece; });
            out.text = QString::fromStdString(text);
            // Later cells see what this one defined, as the magic copies the scope back.
            m_scope = result.scope;
        }
    }
    cell.outputs = outputsOf(out);
    cell.executionCount = ++m_executionCount;
    return out;
}

void NotebookKernel::restart()
{
    m_scope = pdl::Dict();
    m_executionCount = 0;
}

} // namespace hako
