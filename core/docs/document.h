#pragma once

#include "core/util/diagnostic.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace hako::docs {

/// One line of a document: where it starts in Document::text() and how many UTF-16 code units
/// it has, without its terminator (`\n`, `\r\n` or `\r`).
struct LineSpan {
    qsizetype start = 0;
    qsizetype length = 0;
};

/// A loaded text document: the decoded original text (never changed), its lines exactly as in
/// the file, the encoding it was read in, and what was recognised of Aozora Bunko markup.
///
/// Immutable once built; safe to read from several threads. Share it with shared_ptr.
class Document {
public:
    Document() = default;
    /// Builds a document from decoded text (lines split on `\n`, `\r\n` and `\r`).
    explicit Document(QString text, QString path = {}, QString encoding = QStringLiteral("UTF-8"));

    const QString& text() const { return m_text; }
    const QString& path() const { return m_path; }
    /// The encoding the bytes were decoded from (`UTF-8`, `Shift_JIS`, `UTF-16LE`, …).
    const QString& encoding() const { return m_encoding; }
    /// Problems met while loading that did not stop it (undecodable bytes, …).
    const QList<Diagnostic>& warnings() const { return m_warnings; }
    void addWarning(Diagnostic d) { m_warnings.append(std::move(d)); }

    /// Number of lines (a final terminator does not start an extra empty line).
    qsizetype lineCount() const { return qsizetype(m_lines.size()); }
    /// Line `line` (1-based); an empty span past the end.
    LineSpan lineSpan(qsizetype line) const;
    /// The text of line `line` (1-based) without its terminator; a null view past the end.
    QStringView lineText(qsizetype line) const;
    /// The 1-based line holding text offset `offset`.
    qsizetype lineAt(qsizetype offset) const;

    /// True when the text carries an Aozora Bunko header (the 【テキスト中に現れる記号について】
    /// block) or footer (底本：…); ruby and ［＃…］ notes are then interpreted.
    bool isAozora() const { return m_aozora; }
    /// First and last lines of the body (1-based, inclusive): the whole text for plain files,
    /// the lines between the Aozora header and footer otherwise.
    qsizetype bodyFirstLine() const { return m_bodyFirst; }
    qsizetype bodyLastLine() const { return m_bodyLast; }

    /// Pages of a document extracted from a PDF: the number of pages (0 for plain text) and the
    /// 1-based page holding text offset `offset` (0 when the document has no pages).
    qsizetype pageCount() const { return qsizetype(m_pageStarts.size()); }
    qsizetype pageAt(qsizetype offset) const;
    /// Where each page starts in text(), ascending (the first is 0).
    void setPageStarts(std::vector<qsizetype> starts) { m_pageStarts = std::move(starts); }

    /// True for the quick first-screen copy made by loadDocumentHead(): only the first lines
    /// of the file; the whole document follows from loadDocument().
    bool isPartial() const { return m_partial; }
    /// Size of the file in bytes (0 when the document was not read from a file).
    qint64 fileSize() const { return m_fileSize; }
    void setPartial(bool partial, qint64 fileSize)
    {
        m_partial = partial;
        m_fileSize = fileSize;
    }

private:
    void splitLines();
    void detectAozora();

    QString m_text;
    QString m_path;
    QString m_encoding;
    QList<Diagnostic> m_warnings;
    // Lines as stored: 8 bytes instead of 16 (files are limited to kMaxDocumentBytes, so
    // positions fit in 32 bits).
    struct PackedLine {
        uint32_t start;
        uint32_t length;
    };
    std::vector<PackedLine> m_lines;
    bool m_aozora = false;
    qsizetype m_bodyFirst = 1;
    qsizetype m_bodyLast = 0;
    bool m_partial = false;
    qint64 m_fileSize = 0;
    std::vector<qsizetype> m_pageStarts;
};

/// The largest file a Document can hold, whatever LoadOptions::maxBytes says: lines, units
/// and search positions are stored in 32 bits, and a file never decodes to more UTF-16 code
/// units than it has bytes. Larger files are refused when opened, with a message.
inline constexpr qint64 kMaxDocumentBytes = qint64(0xFFFFFFFFu);

/// How to open a file.
struct LoadOptions {
    /// Decode with this encoding instead of detecting one (any name QStringDecoder knows).
    QString encoding;
    /// Files larger than this (or than kMaxDocumentBytes) are refused with a message instead
    /// of exhausting memory (the decoded text and its search copy take about four times the
    /// size of Japanese UTF-8).
    qint64 maxBytes = qint64(512) * 1024 * 1024;
};

/// Reads a text file or a PDF (by its `%PDF-` signature; text per page through the PDF
/// extractor plugin, see pdfextractor.h, pages separated by a form feed line). For text:
/// detects the encoding (byte order marks, then uchardet: UTF-8, UTF-16,
/// Shift_JIS/CP932, EUC-JP, …), refuses binary files with a message, replaces undecodable bytes
/// with U+FFFD and says so in a warning. The file is memory-mapped while it is decoded.
/// Blocking; call it from a worker thread for large files.
Result<Document> loadDocument(const QString& path, const LoadOptions& options = {});

/// The first screen of a file, fast whatever the file's size: detects the encoding on the
/// first bytes and decodes only about `headBytes` of them, up to the last complete line. The
/// result isPartial() (unless the whole file fitted) and is meant to be shown while
/// loadDocument() and the index are built in the background. Blocking but short (a few ms).
Result<Document> loadDocumentHead(const QString& path, qint64 headBytes = 256 * 1024,
                                  const LoadOptions& options = {});

/// The same for bytes already in memory (`name` is used in messages).
Result<Document> decodeDocument(QByteArrayView bytes, const QString& name,
                                const LoadOptions& options = {});

} // namespace hako::docs
