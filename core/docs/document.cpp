#include "core/docs/document.h"

#include "core/docs/pdfextractor.h"

#include <QFile>
#include <QStringDecoder>

#include <uchardet.h>

#ifdef Q_OS_UNIX
#include <sys/mman.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <memory>
#include <optional>

namespace hako::docs {

Document::Document(QString text, QString path, QString encoding)
    : m_text(std::move(text)), m_path(std::move(path)), m_encoding(std::move(encoding))
{
    splitLines();
    detectAozora();
}

void Document::splitLines()
{
    m_lines.clear();
    const QChar* data = m_text.constData();
    const qsizetype n = m_text.size();
    // Most lines of a novel are long: estimate to avoid regrowing the vector many times.
    m_lines.reserve(size_t(n / 40 + 16));
    qsizetype start = 0;
    qsizetype i = 0;
    while (i < n) {
        const char16_t c = data[i].unicode();
        if (c == u'\n' || c == u'\r') {
            m_lines.push_back({uint32_t(start), uint32_t(i - start)});
            if (c == u'\r' && i + 1 < n && data[i + 1].unicode() == u'\n')
                ++i;
            start = ++i;
            continue;
        }
        // Skip quickly to the next candidate terminator.
        const qsizetype next = QStringView(data + i, n - i).indexOf(u'\n');
        const qsizetype cr = QStringView(data + i, next < 0 ? n - i : next).indexOf(u'\r');
        if (cr >= 0)
            i += cr;
        else if (next >= 0)
            i += next;
        else
            i = n;
    }
    if (start < n)
        m_lines.push_back({uint32_t(start), uint32_t(n - start)});
    m_bodyFirst = 1;
    m_bodyLast = lineCount();
}

void Document::detectAozora()
{
    m_aozora = false;
    const qsizetype lines = lineCount();
    const QString dashes = QStringLiteral("-------");
    // Header: the symbol legend framed by two dashed lines within the first lines.
    qsizetype headerEnd = 0;
    int dashCount = 0;
    bool legend = false;
    for (qsizetype l = 1; l <= std::min<qsizetype>(lines, 60); ++l) {
        const QStringView t = lineText(l);
        if (t.startsWith(dashes)) {
            ++dashCount;
            if (dashCount == 2 && legend) {
                headerEnd = l;
                break;
            }
        } else if (t.contains(u"【テキスト中に現れる記号について】")) {
            legend = true;
        }
    }
    // Footer: the colophon starting with 底本： near the end.
    qsizetype footerStart = 0;
    for (qsizetype l = lines; l >= 1 && l > lines - 80; --l) {
        if (lineText(l).startsWith(u"底本：")) {
            footerStart = l;
            break;
        }
    }
    if (headerEnd > 0 || footerStart > 0)
        m_aozora = true;
    if (headerEnd > 0)
        m_bodyFirst = headerEnd + 1;
    if (footerStart > 0)
        m_bodyLast = footerStart - 1;
}

LineSpan Document::lineSpan(qsizetype line) const
{
    if (line < 1 || line > lineCount())
        return {m_text.size(), 0};
    const PackedLine& p = m_lines[size_t(line - 1)];
    return {p.start, p.length};
}

QStringView Document::lineText(qsizetype line) const
{
    if (line < 1 || line > lineCount())
        return {};
    const LineSpan s = lineSpan(line);
    return QStringView(m_text).mid(s.start, s.length);
}

qsizetype Document::pageAt(qsizetype offset) const
{
    if (m_pageStarts.empty())
        return 0;
    auto it = std::upper_bound(m_pageStarts.begin(), m_pageStarts.end(), offset);
    return std::max<qsizetype>(1, qsizetype(it - m_pageStarts.begin()));
}

qsizetype Document::lineAt(qsizetype offset) const
{
    auto it = std::upper_bound(m_lines.begin(), m_lines.end(), offset,
                               [](qsizetype o, const PackedLine& s) { return o < s.start; });
    if (it == m_lines.begin())
        return 1;
    return qsizetype(it - m_lines.begin());
}

namespace {

struct Detected {
    QByteArray name;
    qsizetype bomLength = 0;
};

// UTF-16 without a byte order mark: nearly every code unit, read one way, is a plausible
// character (ASCII, CJK punctuation, kana, kanji, full-width forms). Other encodings read as
// UTF-16 give mostly unassigned or unusual code units.
QByteArray sniffUtf16(QByteArrayView head)
{
    const qsizetype n = std::min<qsizetype>(head.size(), 4096) & ~qsizetype(1);
    if (n < 8)
        return {};
    auto plausible = [&](bool littleEndian) {
        qsizetype good = 0;
        for (qsizetype i = 0; i < n; i += 2) {
            const auto lo = static_cast<unsigned char>(head[littleEndian ? i : i + 1]);
            const auto hi = static_cast<unsigned char>(head[littleEndian ? i + 1 : i]);
            const char16_t c = char16_t(hi << 8 | lo);
            if ((c >= 0x20 && c < 0x7F) || c == u'\n' || c == u'\r' || c == u'\t' ||
                (c >= 0x3000 && c <= 0x30FF) || (c >= 0x4E00 && c <= 0x9FFF) ||
                (c >= 0xFF00 && c <= 0xFFEF) || (c >= 0xA0 && c <= 0x17F))
                ++good;
        }
        return good * 100 >= (n / 2) * 97;
    };
    if (plausible(true))
        return "UTF-16LE";
    if (plausible(false))
        return "UTF-16BE";
    return {};
}

bool looksBinary(QByteArrayView head)
{
    const qsizetype n = std::min<qsizetype>(head.size(), 65536);
    qsizetype control = 0;
    for (qsizetype i = 0; i < n; ++i) {
        const unsigned char c = static_cast<unsigned char>(head[i]);
        if (c == 0)
            return true;
        if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != 0x1b)
            ++control;
    }
    return n > 0 && control * 20 > n;
}

QByteArray detectWithUchardet(QByteArrayView bytes)
{
    std::unique_ptr<std::remove_pointer_t<uchardet_t>, void (*)(uchardet_t)> det(uchardet_new(),
                                                                                 uchardet_delete);
    // A sample is enough; whole 100 MB files would cost seconds for no better answer.
    const qsizetype sample = std::min<qsizetype>(bytes.size(), 512 * 1024);
    if (uchardet_handle_data(det.get(), bytes.data(), size_t(sample)) != 0)
        return {};
    uchardet_data_end(det.get());
    return QByteArray(uchardet_get_charset(det.get()));
}

Detected detectEncoding(QByteArrayView bytes)
{
    if (bytes.startsWith("\xEF\xBB\xBF"))
        return {"UTF-8", 3};
    if (bytes.startsWith("\xFF\xFE"))
        return {"UTF-16LE", 2};
    if (bytes.startsWith("\xFE\xFF"))
        return {"UTF-16BE", 2};
    // Only text that is not UTF-8 is a candidate: ASCII letter pairs read as UTF-16 look like
    // kanji.
    QStringDecoder utf8(QStringDecoder::Utf8);
    (void)utf8.decode(bytes.first(std::min<qsizetype>(bytes.size(), 4096)));
    if (utf8.hasError() || bytes.first(std::min<qsizetype>(bytes.size(), 4096)).contains('\0')) {
        if (QByteArray utf16 = sniffUtf16(bytes); !utf16.isEmpty())
            return {utf16, 0};
    }
    QByteArray name = detectWithUchardet(bytes);
    const QByteArray upper = name.toUpper();
    if (upper.isEmpty() || upper == "ASCII" || upper == "UTF-8")
        return {"UTF-8", 0};
    // uchardet names Shift_JIS for what is in practice usually CP932 (Windows extensions such
    // as ① or ㈱); CP932 is a superset, so decode with it.
    if (upper == "SHIFT_JIS")
        return {"windows-31j", 0};
    return {name, 0};
}

// Decodes with a converter Qt does not implement itself (ICU: Shift_JIS/CP932, EUC-JP, …).
// ICU substitutes U+001A (SUB) for undecodable bytes and drops an incomplete character at the
// end; the README promises U+FFFD for both. 0x1A is a single-byte character in every
// ASCII-compatible encoding, so the input is decoded between its own 0x1A bytes, and every SUB
// that comes out of a piece is a substitution. With `flush` an incomplete character at the end
// becomes U+FFFD too; without, it is left out (the caller cuts after the last line anyway).
QString decodeWithIcu(QByteArrayView bytes, const QByteArray& encoding, bool flush, bool* errors)
{
    QString text;
    qsizetype pos = 0;
    while (true) {
        const qsizetype sub = bytes.indexOf('\x1a', pos);
        const qsizetype end = sub < 0 ? bytes.size() : sub;
        QStringDecoder decoder(encoding.constData());
        QString piece = decoder.decode(bytes.sliced(pos, end - pos));
        if (flush || sub >= 0) {
            // A stateful decoder keeps an incomplete last character; a line break after it
            // shows whether there was one (it comes back as a substitution).
            const QString rest = decoder.decode(QByteArrayView("\n"));
            if (rest.size() > 1) {
                piece += QChar(0xFFFD);
                *errors = true;
            }
        }
        if (decoder.hasError())
            *errors = true;
        if (piece.contains(QChar(0x1A))) {
            piece.replace(QChar(0x1A), QChar(0xFFFD));
            *errors = true;
        }
        // One piece (a file without 0x1A bytes) is the text itself: no second copy.
        if (pos == 0 && sub < 0)
            return piece;
        text += piece;
        if (sub < 0)
            break;
        text += QChar(0x1A);
        pos = sub + 1;
    }
    return text;
}

// Decodes UTF-8 slice by slice into one buffer. With `mapped` (the bytes are a read-only file
// mapping) the pages of each decoded slice are dropped from the process, so the peak is the
// text alone instead of the text plus the whole file. An incomplete character at the end
// becomes U+FFFD.
QString decodeUtf8InSlices(QByteArrayView bytes, bool mapped, bool* errors)
{
    QStringDecoder decoder(QStringConverter::Utf8); // stateful: characters cut between slices
    QString text(decoder.requiredSpace(bytes.size()) + 8, Qt::Uninitialized);
    QChar* const begin = text.data();
    QChar* out = begin;
    constexpr qsizetype kSlice = qsizetype(8) << 20;
#ifdef Q_OS_UNIX
    const quintptr page = quintptr(sysconf(_SC_PAGESIZE));
    quintptr released = (quintptr(bytes.data()) + page - 1) & ~(page - 1);
#endif
    for (qsizetype pos = 0; pos < bytes.size(); pos += kSlice) {
        out = decoder.appendToBuffer(out, bytes.sliced(pos, std::min(kSlice, bytes.size() - pos)));
#ifdef Q_OS_UNIX
        if (mapped) {
            const quintptr done =
                quintptr(bytes.data() + std::min(pos + kSlice, bytes.size())) & ~(page - 1);
            if (done > released) {
                madvise(reinterpret_cast<void*>(released), size_t(done - released), MADV_DONTNEED);
                released = done;
            }
        }
#else
        Q_UNUSED(mapped);
#endif
    }
    // A stateful decoder keeps an incomplete last character; a line break after it shows
    // whether there was one (it comes back as a replacement).
    QChar tail[8];
    if (decoder.appendToBuffer(tail, QByteArrayView("\n")) - tail > 1) {
        *out++ = QChar(0xFFFD);
        *errors = true;
    }
    if (decoder.hasError())
        *errors = true;
    text.truncate(out - begin);
    text.squeeze();
    return text;
}

// Decodes `bytes` (a whole file, or with `headBytes` >= 0 only about that many of its first
// bytes, cut after the last complete line) into a Document.
Result<Document> decodeBytes(QByteArrayView bytes, const QString& name, const LoadOptions& options,
                             qsizetype headBytes, bool mapped = false)
{
    Detected enc;
    if (!options.encoding.isEmpty()) {
        enc.name = options.encoding.toLatin1();
    } else {
        enc = detectEncoding(bytes);
        if (!enc.name.startsWith("UTF-16") && looksBinary(bytes))
            return makeError(QStringLiteral("%1: this looks like a binary file, not text; it was "
                                            "not opened")
                                 .arg(name));
    }
    QStringDecoder decoder(enc.name.constData(), QStringConverter::Flag::Stateless);
    if (!decoder.isValid())
        return makeError(
            QStringLiteral("%1: unknown encoding '%2'").arg(name, QString::fromLatin1(enc.name)));
    QString text;
    bool partial = false;
    bool hadErrors = false;
    const bool icu = !QStringConverter::encodingForName(enc.name.constData()).has_value();
    if (headBytes >= 0 && bytes.size() - enc.bomLength > headBytes) {
        // A stateful decoder keeps a character cut at the end of the slice to itself instead of
        // reporting it as an error; the last, possibly cut, line is dropped.
        if (icu) {
            text =
                decodeWithIcu(bytes.sliced(enc.bomLength, headBytes), enc.name, false, &hadErrors);
        } else {
            QStringDecoder head(enc.name.constData());
            text = head.decode(bytes.sliced(enc.bomLength, headBytes));
        }
        const qsizetype lastBreak = text.lastIndexOf(u'\n');
        if (lastBreak > 0)
            text.truncate(lastBreak + 1);
        partial = true;
        hadErrors = text.contains(QChar(0xFFFD));
    } else if (icu) {
        text = decodeWithIcu(bytes.sliced(enc.bomLength), enc.name, true, &hadErrors);
    } else if (enc.name == "UTF-8") {
        text = decodeUtf8InSlices(bytes.sliced(enc.bomLength), mapped, &hadErrors);
    } else {
        text = decoder.decode(bytes.sliced(enc.bomLength));
        hadErrors = decoder.hasError();
    }
    // The decoder reserves room for the worst case (one character per byte); Japanese UTF-8
    // needs a third of it.
    text.squeeze();
    const QString encodingName = enc.name == "windows-31j" ? QStringLiteral("Shift_JIS (CP932)")
                                                           : QString::fromLatin1(enc.name);
    Document doc(std::move(text), name, encodingName);
    if (partial)
        doc.setPartial(true, bytes.size());
    if (hadErrors) {
        const qsizetype first = doc.text().indexOf(QChar(0xFFFD));
        const qsizetype count = doc.text().count(QChar(0xFFFD));
        SourceSpan span;
        span.file = name;
        if (first >= 0) {
            span.line = int(doc.lineAt(first));
            span.column = int(first - doc.lineSpan(span.line).start + 1);
        }
        doc.addWarning({Severity::Warning,
                        QStringLiteral("%1 undecodable byte sequence(s) in %2 text were replaced "
                                       "by U+FFFD")
                            .arg(count)
                            .arg(encodingName),
                        span});
    }
    return doc;
}

// Whether a file of `size` bytes is beyond what may be opened; `error` then says why.
bool tooLarge(const QString& name, qint64 size, const LoadOptions& options, Diagnostic* error)
{
    if (size > kMaxDocumentBytes) {
        *error = makeError(QStringLiteral("%1: the file is too large to open (%2 MB): documents "
                                          "are limited to 4 GB, as their text positions are "
                                          "32-bit")
                               .arg(name)
                               .arg(size / (1024 * 1024)));
        return true;
    }
    if (size > options.maxBytes) {
        *error = makeError(
            QStringLiteral("%1: the file is too large to open (%2 MB; the limit is %3 MB)")
                .arg(name)
                .arg(size / (1024 * 1024))
                .arg(options.maxBytes / (1024 * 1024)));
        return true;
    }
    return false;
}

// The first steps of every load from disk: open `path`, refuse it when too large, and give a PDF
// to the extractor. Returns the result when the load ends there (an error or the PDF's text),
// nothing when the file's bytes are to be decoded.
std::optional<Result<Document>> openForLoad(QFile& file, const QString& path,
                                            const LoadOptions& options)
{
    if (!file.open(QIODevice::ReadOnly))
        return makeError(QStringLiteral("%1: cannot open: %2").arg(path, file.errorString()));
    if (Diagnostic error; tooLarge(path, file.size(), options, &error))
        return error;
    if (file.peek(5) == "%PDF-")
        return loadPdfDocument(path);
    return std::nullopt;
}

} // namespace

Result<Document> decodeDocument(QByteArrayView bytes, const QString& name,
                                const LoadOptions& options)
{
    if (Diagnostic error; tooLarge(name, bytes.size(), options, &error))
        return error;
    return decodeBytes(bytes, name, options, -1);
}

Result<Document> loadDocumentHead(const QString& path, qint64 headBytes, const LoadOptions& options)
{
    QFile file(path);
    // A PDF has no quick first screen: its text comes from the extractor in one go.
    if (std::optional<Result<Document>> done = openForLoad(file, path, options))
        return std::move(*done);
    const qint64 size = file.size();
    // Only the pages the detector and the decoder touch are read from disk.
    if (size > 0) {
        if (uchar* mapped = file.map(0, size)) {
            Result<Document> doc =
                decodeBytes(QByteArrayView(reinterpret_cast<const char*>(mapped), size), path,
                            options, std::max<qint64>(headBytes, 4096));
            file.unmap(mapped);
            return doc;
        }
    }
    // Detection looks at most at the first 512 KB; the rest is not needed.
    const QByteArray bytes = file.read(std::max<qint64>(headBytes, 512 * 1024));
    Result<Document> doc = decodeBytes(bytes, path, options, std::max<qint64>(headBytes, 4096));
    if (doc.ok() && bytes.size() < size)
        doc.value().setPartial(true, size);
    return doc;
}

Result<Document> loadDocument(const QString& path, const LoadOptions& options)
{
    QFile file(path);
    if (std::optional<Result<Document>> done = openForLoad(file, path, options))
        return std::move(*done);
    const qint64 size = file.size();
    if (size == 0)
        return decodeDocument(QByteArrayView(), path, options);
    // Map instead of reading: the decoder then reads the page cache directly, without a
    // second copy of the bytes in memory.
    if (uchar* mapped = file.map(0, size)) {
        Result<Document> doc = decodeBytes(
            QByteArrayView(reinterpret_cast<const char*>(mapped), size), path, options, -1, true);
        file.unmap(mapped);
        return doc;
    }
    const QByteArray bytes = file.readAll();
    return decodeDocument(bytes, path, options);
}

} // namespace hako::docs
