#pragma once

#include "core/pdl/interp/tracenode.h"
#include "core/pdl/value.h"
#include "core/run/runenvironment.h"
#include "core/util/cancel.h"
#include "core/util/diagnostic.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <vector>

namespace hako {

/// One cell of a Jupyter notebook (nbformat 4). A PDL cell is a code cell whose first line is the
/// `%%pdl` magic of the reference's Jupyter extension, so the same file runs in Jupyter with it.
struct NotebookCell {
    enum class Kind { Code, Markdown, Raw };
    Kind kind = Kind::Code;
    QString source;     ///< the cell's text as written (with the `%%pdl` line for PDL cells)
    QJsonArray outputs; ///< code cells: what the last run showed (nbformat outputs)
    QJsonValue executionCount = QJsonValue::Null;
    /// metadata, id, attachments and any field Hako does not read, written back as they were.
    QJsonObject other;

    bool isPdl() const;
    /// The program of a PDL cell: its text with the magic line blanked (so that error lines are
    /// the cell's own lines).
    QString program() const;
    /// The magic line's `-r`/`--reset-context`: the cell starts from an empty context.
    bool resetsContext() const;
    /// A new PDL cell holding `program`.
    static NotebookCell pdl(const QString& program);
};

/// A Jupyter notebook (nbformat 4): its cells, metadata and whatever else it holds, kept as read.
class Notebook {
public:
    std::vector<NotebookCell> cells;
    QJsonObject metadata;
    int formatMinor = 5;
    QJsonObject other; ///< top-level fields other than cells, metadata and the format numbers

    /// Reads an `.ipynb` file: an error with its location when it is not nbformat 4 JSON.
    static Result<Notebook> read(const QString& path);
    static Result<Notebook> fromJson(const QByteArray& json, const QString& name);
    /// The notebook as nbformat 4 JSON (one space indent, as Jupyter writes it).
    QByteArray toJson() const;
    /// Writes the file atomically: the old content stays until the new one is complete.
    bool write(const QString& path, QString* error) const;
    /// An empty notebook for PDL: a Python kernel (where the reference's `%%pdl` magic lives)
    /// and one cell loading the extension.
    static Notebook forPdl();
};

/// Runs PDL cells one after another, each seeing the variables and the background context the
/// earlier cells left, as the reference's `%%pdl` cells share the notebook's namespace. Runs on
/// the calling thread, which must not be a GUI thread (model and code blocks wait).
class NotebookKernel {
public:
    /// `environment` composes each cell's run (models, prompt log, sandbox); `notebookPath`
    /// names the cells in errors (`name.ipynb#3`) and its folder is where relative reads resolve.
    NotebookKernel(RunEnvironment environment, QString notebookPath);

    struct CellRun {
        bool ok = false;
        QString text;     ///< the result as `hako run` prints it
        Diagnostic error; ///< when !ok
        pdl::TracePtr trace;
    };
    /// Runs PDL cell `index` of `notebook` (other cells are left alone and give ok with no text),
    /// and writes its outputs and execution count into the cell.
    CellRun run(Notebook& notebook, int index, const CancelToken& cancel = {});
    /// Forgets every variable and the context (Jupyter's "restart the kernel").
    void restart();
    const pdl::Dict& scope() const { return m_scope; }

private:
    RunEnvironment m_environment;
    QString m_path;
    pdl::Dict m_scope;
    int m_executionCount = 0;
};

} // namespace hako
