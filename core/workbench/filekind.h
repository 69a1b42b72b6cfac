#pragma once

#include <QString>

namespace hako {

/// What a file given to the workbench is, and so which pane opens it.
enum class FileKind {
    Program,     ///< a PDL program (YAML or JSON): the editor
    Trace,       ///< a trace written by Hako or the reference interpreter: the trace panes
    Document,    ///< a text or PDF file to read and search: Documents
    MemoryStore, ///< an agent-memory store (SQLite, usually `.hakomem`): Memory
    Notebook,    ///< a Jupyter notebook (`.ipynb`, nbformat JSON): the Notebook pane
};

/// Decides what `path` is by its content first, then by its name: a SQLite header is a memory
/// store, `%PDF-` a document, a JSON object with a trace node's fields (`kind` with `pdl__id`,
/// `pdl__result` or `pdl__timing`, or the reference's older `id`/`result`/`timing`) a trace;
/// `*.trace.json`/`*_trace.json` are traces even when their start is unusual; OpenTelemetry
/// OTLP files (JSON with `resourceSpans`, or OTLP protobuf) are traces too (trace readers open
/// them through otel::registerOtlpTraceFormat, which loading this library does); `.pdl`, `.yaml`,
/// `.yml` and other JSON are programs; other readable text is a document. A file that cannot
/// be read counts as a program, so that the editor reports why. Reads at most the first 64 KB.
FileKind detectFileKind(const QString& path);

/// A short name of the kind for messages ("trace", "document", …).
QString fileKindName(FileKind kind);

} // namespace hako
