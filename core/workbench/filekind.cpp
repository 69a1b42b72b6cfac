#include "core/workbench/filekind.h"

#include "core/otel/otlpfile.h"

#include <QFile>
#include <QFileInfo>
#include <QObject>
#include <QRegularExpression>
#include <QStringList>

namespace hako {

namespace {

constexpr qint64 kHeadBytes = 64 * 1024;

// Every trace reader of the workbench (TraceLoader, readTraceFile) also reads OTLP files once
// this library is loaded.
[[maybe_unused]] const bool kOtlpRegistered = (otel::registerOtlpTraceFormat(), true);

bool hasJsonKey(const QByteArray& head, const char* key)
{
    // A key is a quoted name followed by a colon; the same word as a value does not count.
    const QByteArray quoted = QByteArray("\"") + key + '"';
    for (qsizetype at = head.indexOf(quoted); at >= 0; at = head.indexOf(quoted, at + 1)) {
        qsizetype i = at + quoted.size();
        while (i < head.size() &&
               (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r'))
            ++i;
        if (i < head.size() && head[i] == ':')
            return true;
    }
    return false;
}

bool looksLikeTrace(const QByteArray& head)
{
    if (!hasJsonKey(head, "kind"))
        return false;
    if (hasJsonKey(head, "pdl__id") || hasJsonKey(head, "pdl__result") ||
        hasJsonKey(head, "pdl__timing"))
        return true;
    // The reference's older traces: `id`, `result`, `timing`.
    return hasJsonKey(head, "id") && (hasJsonKey(head, "result") || hasJsonKey(head, "timing"));
}

// A PDL program in YAML starts a block with one of these keys at the left margin.
bool looksLikePdlYaml(const QByteArray& head)
{
    static const QRegularExpression blockKey(
        QStringLiteral("^(text|lastOf|model|defs|description|data|code|call|if|repeat|for|"
                       "match|function|read|include|import|message|array|object|get|lang|"
                       "role|def|contribute|parser|spec)\\s*:"),
        QRegularExpression::MultilineOption);
    return blockKey.match(QString::fromUtf8(head)).hasMatch();
}

} // namespace

FileKind detectFileKind(const QString& path)
{
    const QFileInfo info(path);
    const QString name = info.fileName().toLower();
    const QString suffix = info.suffix().toLower();
    QFile file(path);
    // Only regular files are read: a FIFO or device would block or never end.
    if (!info.isFile() || !file.open(QIODevice::ReadOnly))
        return FileKind::Program;
    QByteArray head = file.read(kHeadBytes);
    if (head.startsWith("SQLite format 3"))
        return FileKind::MemoryStore;
    if (head.startsWith("%PDF-"))
        return FileKind::Document;
    if (head.startsWith("\xEF\xBB\xBF"))
        head.remove(0, 3);
    const QByteArray trimmed = head.trimmed();
    if (name.endsWith(QLatin1String(".trace.json")) || name.endsWith(QLatin1String("_trace.json")))
        return FileKind::Trace;
    if (otel::looksLikeOtlp(head))
        return FileKind::Trace;
    if (trimmed.startsWith('{') && looksLikeTrace(trimmed))
        return FileKind::Trace;
    if (suffix == QLatin1String("hakomem"))
        return FileKind::MemoryStore;
    if (suffix == QLatin1String("ipynb") ||
        (trimmed.startsWith('{') && head.contains("\"nbformat\"") && head.contains("\"cells\"")))
        return FileKind::Notebook;
    if (suffix == QLatin1String("pdl") || suffix == QLatin1String("yaml") ||
        suffix == QLatin1String("yml") || suffix == QLatin1String("json"))
        return FileKind::Program;
    static const QStringList textSuffixes{
        QStringLiteral("txt"), QStringLiteral("md"),   QStringLiteral("markdown"),
        QStringLiteral("rst"), QStringLiteral("csv"),  QStringLiteral("tsv"),
        QStringLiteral("log"), QStringLiteral("html"), QStringLiteral("htm"),
        QStringLiteral("tex"), QStringLiteral("org"),  QStringLiteral("adoc")};
    if (textSuffixes.contains(suffix))
        return FileKind::Document;
    if (head.contains('\0'))
        return FileKind::Document; // UTF-16 text, or binary the Documents pane will refuse
    return looksLikePdlYaml(head) ? FileKind::Program : FileKind::Document;
}

QString fileKindName(FileKind kind)
{
    switch (kind) {
    case FileKind::Program:
        return QObject::tr("program");
    case FileKind::Trace:
        return QObject::tr("trace");
    case FileKind::Document:
        return QObject::tr("document");
    case FileKind::MemoryStore:
        return QObject::tr("memory store");
    case FileKind::Notebook:
        return QObject::tr("notebook");
    }
    return {};
}

} // namespace hako
