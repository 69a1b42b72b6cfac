#include "core/workbench/programfile.h"

#include "core/pdl/parser/programparser.h"
#include "core/util/outputfile.h"

#include <QFile>
#include <QFileInfo>
#include <QStringDecoder>

namespace hako {
namespace {

// The first byte offset where `bytes` stops being well-formed UTF-8 (-1 if valid), as the parser
// finds it, except that NUL bytes are left for the parser to report: the editor opens them.
qsizetype firstInvalidUtf8(const QByteArray& bytes)
{
    for (qsizetype from = 0;;) {
        const qsizetype at = pdl::firstInvalidUtf8(
            QByteArray::fromRawData(bytes.constData() + from, bytes.size() - from));
        if (at < 0)
            return -1;
        if (bytes.at(from + at) != '\0')
            return from + at;
        from += at + 1;
    }
}

} // namespace

LineEnding ProgramFile::detectLineEnding(const QString& text)
{
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == u'\n')
            return LineEnding::Unix;
        if (text[i] == u'\r')
            return (i + 1 < text.size() && text[i + 1] == u'\n') ? LineEnding::Windows
                                                                 : LineEnding::OldMac;
    }
    return LineEnding::Unix;
}

Result<ProgramText> ProgramFile::load(const QString& path)
{
    QFile file(path);
    if (!QFileInfo(path).exists())
        return makeError(QStringLiteral("no such file"), SourceSpan{path});
    if (QFileInfo(path).isDir())
        return makeError(QStringLiteral("is a directory"), SourceSpan{path});
    if (!file.open(QIODevice::ReadOnly))
        return makeError(QStringLiteral("cannot open: %1").arg(file.errorString()),
                         SourceSpan{path});
    QByteArray bytes = file.readAll();
    if (file.error() != QFileDevice::NoError)
        return makeError(QStringLiteral("cannot read: %1").arg(file.errorString()),
                         SourceSpan{path});

    ProgramText result;
    if (bytes.startsWith("\xEF\xBB\xBF")) {
        result.hasBom = true;
        bytes.remove(0, 3);
    }
    const qsizetype bad = firstInvalidUtf8(bytes);
    if (bad >= 0) {
        const QByteArray before = bytes.left(bad);
        const int line = int(before.count('\n')) + 1;
        const qsizetype lineStart = before.lastIndexOf('\n') + 1;
        const int column = int(QString::fromUtf8(before.mid(lineStart)).toUcs4().size()) + 1;
        SourceSpan span{path, line, column, line, column};
        const QString hex =
            QStringLiteral("%1").arg(uint(uchar(bytes[bad])), 2, 16, QLatin1Char('0')).toUpper();
        return makeError(
            QStringLiteral("invalid UTF-8 (byte 0x%1); the file must be UTF-8 encoded").arg(hex),
            span);
    }
    result.text = QString::fromUtf8(bytes);
    result.lineEnding = detectLineEnding(result.text);
    return result;
}

Result<bool> ProgramFile::save(const QString& path, const QString& text, bool withBom)
{
    QByteArray bytes;
    if (withBom)
        bytes = "\xEF\xBB\xBF";
    bytes += text.toUtf8();
    // A program is the user's source, shared like any other: a new one gets the umask's
    // permissions.
    QString error;
    if (!writeOutputFile(path, bytes, &error, NewFileAccess::Shared))
        return makeError(QStringLiteral("cannot save: %1").arg(error), SourceSpan{path});
    return true;
}

} // namespace hako
