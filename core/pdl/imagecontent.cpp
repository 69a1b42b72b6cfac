#include "core/pdl/imagecontent.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>

namespace hako::pdl {

namespace {

constexpr std::string_view kBase64Marker = ";base64,";
// Headers hold the pixel size within the first bytes; a JPEG's may follow large EXIF or
// colour-profile segments, so some hundreds of kilobytes are decoded for it.
constexpr qsizetype kHeadBytes = 512 * 1024;

uint32_t be16(const QByteArray& d, qsizetype i)
{
    return (uint32_t(uint8_t(d[i])) << 8) | uint8_t(d[i + 1]);
}

uint32_t le16(const QByteArray& d, qsizetype i)
{
    return (uint32_t(uint8_t(d[i + 1])) << 8) | uint8_t(d[i]);
}

uint32_t be32(const QByteArray& d, qsizetype i)
{
    return (be16(d, i) << 16) | be16(d, i + 2);
}

uint32_t le24(const QByteArray& d, qsizetype i)
{
    return le16(d, i) | (uint32_t(uint8_t(d[i + 2])) << 16);
}

void jpegSize(const QByteArray& d, ImageFacts& f)
{
    qsizetype i = 2;
    while (i + 9 < d.size()) {
        if (uint8_t(d[i]) != 0xFF)
            return;
        const uint8_t marker = uint8_t(d[i + 1]);
        if (marker == 0xFF) { // fill byte
            ++i;
            continue;
        }
        if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD9)) { // no length
            i += 2;
            continue;
        }
        const bool sof =
            marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
        if (sof) {
            f.height = int(be16(d, i + 5));
            f.width = int(be16(d, i + 7));
            return;
        }
        i += 2 + be16(d, i + 2);
    }
}

void webpSize(const QByteArray& d, ImageFacts& f)
{
    if (d.size() < 30)
        return;
    const QByteArray chunk = d.mid(12, 4);
    if (chunk == "VP8 ") {
        f.width = int(le16(d, 26) & 0x3FFF);
        f.height = int(le16(d, 28) & 0x3FFF);
    } else if (chunk == "VP8L") {
        const uint32_t b0 = uint8_t(d[21]), b1 = uint8_t(d[22]), b2 = uint8_t(d[23]),
                       b3 = uint8_t(d[24]);
        f.width = int(1 + (((b1 & 0x3F) << 8) | b0));
        f.height = int(1 + (((b3 & 0xF) << 10) | (b2 << 2) | ((b1 & 0xC0) >> 6)));
    } else if (chunk == "VP8X") {
        f.width = int(1 + le24(d, 24));
        f.height = int(1 + le24(d, 27));
    }
}

QString sizeText(qint64 bytes)
{
    if (bytes < 1024)
        return QStringLiteral("%1 B").arg(bytes);
    if (bytes < 1024 * 1024)
        return QStringLiteral("%1 KB").arg((bytes + 512) / 1024);
    return QStringLiteral("%1 MB").arg(double(bytes) / (1024.0 * 1024.0), 0, 'f', 1);
}

// The media type and the base64 payload of a data URL (empty payload: not one).
std::pair<std::string_view, std::string_view> splitDataUrl(std::string_view url)
{
    if (url.size() < 5 || url.substr(0, 5) != "data:")
        return {};
    const size_t marker = url.find(kBase64Marker);
    // The header is short; a comma before the marker means the payload is not base64.
    if (marker == std::string_view::npos || marker > 256 ||
        url.substr(0, marker).find(',') != std::string_view::npos)
        return {};
    std::string_view header = url.substr(5, marker - 5);
    header = header.substr(0, header.find(';'));
    return {header, url.substr(marker + kBase64Marker.size())};
}

qint64 base64DecodedSize(std::string_view payload)
{
    qint64 n = qint64(payload.size()) / 4 * 3;
    if (!payload.empty() && payload.back() == '=')
        --n;
    if (payload.size() > 1 && payload[payload.size() - 2] == '=')
        --n;
    return std::max<qint64>(0, n);
}

bool isBase64Char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
           c == '/' || c == '=';
}

// `text` with every base64 data URL inside it (a message printed as text, a JSON dump) replaced
// by its placeholder; nothing when there is none.
std::optional<std::string> replaceDataUrls(std::string_view text)
{
    if (text.find(kBase64Marker) == std::string_view::npos)
        return std::nullopt;
    std::string out;
    size_t done = 0;
    size_t at = text.find("data:");
    bool replaced = false;
    while (at != std::string_view::npos) {
        const size_t marker = text.find(kBase64Marker, at);
        if (marker == std::string_view::npos)
            break;
        const std::string_view header = text.substr(at, marker - at);
        // A media type is short and has no spaces, quotes or commas.
        if (header.size() > 256 || header.find_first_of(" ,'\"\n") != std::string_view::npos) {
            at = text.find("data:", at + 5);
            continue;
        }
        size_t end = marker + kBase64Marker.size();
        while (end < text.size() && isBase64Char(text[end]))
            ++end;
        out.append(text.substr(done, at - done));
        out += dataUrlPlaceholder(text.substr(at, end - at)).toStdString();
        done = end;
        replaced = true;
        at = text.find("data:", end);
    }
    if (!replaced)
        return std::nullopt;
    out.append(text.substr(done));
    return out;
}

std::string imagePartText(const Value& part)
{
    const Value* image = part.asDict().find("image_url");
    const Value* url = image && image->isDict() ? image->asDict().find("url") : image;
    if (url && url->isString())
        return dataUrlPlaceholder(url->asString()).toStdString();
    return "[image]";
}

} // namespace

ImageFacts sniffImage(const QByteArray& d, qint64 totalBytes)
{
    ImageFacts f;
    f.bytes = totalBytes >= 0 ? totalBytes : d.size();
    if (d.size() >= 24 && d.startsWith("\x89PNG\r\n\x1a\n")) {
        f.format = QStringLiteral("PNG");
        f.mimeType = QStringLiteral("image/png");
        f.width = int(be32(d, 16));
        f.height = int(be32(d, 20));
    } else if (d.size() >= 4 && d.startsWith("\xFF\xD8\xFF")) {
        f.format = QStringLiteral("JPEG");
        f.mimeType = QStringLiteral("image/jpeg");
        jpegSize(d, f);
    } else if (d.size() >= 10 && (d.startsWith("GIF87a") || d.startsWith("GIF89a"))) {
        f.format = QStringLiteral("GIF");
        f.mimeType = QStringLiteral("image/gif");
        f.width = int(le16(d, 6));
        f.height = int(le16(d, 8));
    } else if (d.size() >= 16 && d.startsWith("RIFF") && d.mid(8, 4) == "WEBP") {
        f.format = QStringLiteral("WebP");
        f.mimeType = QStringLiteral("image/webp");
        webpSize(d, f);
    }
    return f;
}

Result<std::string> imageDataUrl(const QString& path)
{
    const QFileInfo info(path);
    if (!info.exists())
        return Diagnostic{
            Severity::Error, QStringLiteral("no image file %1").arg(info.absoluteFilePath()), {}};
    if (!info.isFile())
        return Diagnostic{
            Severity::Error,
            QStringLiteral("%1 is a folder, not an image file").arg(info.absoluteFilePath()),
            {}};
    if (info.size() > kMaxImageBytes)
        return Diagnostic{
            Severity::Error,
            QStringLiteral("%1 is %2; an image sent to a model may be at most %3")
                .arg(info.fileName(), sizeText(info.size()), sizeText(kMaxImageBytes)),
            {}};
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Diagnostic{
            Severity::Error,
            QStringLiteral("cannot read %1: %2").arg(info.absoluteFilePath(), file.errorString()),
            {}};
    // Bounded again: the file may have grown since it was measured.
    const QByteArray bytes = file.read(kMaxImageBytes + 1);
    if (bytes.size() > kMaxImageBytes)
        return Diagnostic{Severity::Error,
                          QStringLiteral("%1 is larger than %2, the most an image sent to a model "
                                         "may be")
                              .arg(info.fileName(), sizeText(kMaxImageBytes)),
                          {}};
    const ImageFacts facts = sniffImage(bytes);
    if (facts.format.isEmpty())
        return Diagnostic{
            Severity::Error,
            QStringLiteral("%1 is not a PNG, JPEG, WebP or GIF image").arg(info.fileName()),
            {}};
    std::string out = "data:" + facts.mimeType.toStdString() + ";base64,";
    out += bytes.toBase64().toStdString();
    return out;
}

bool isBase64DataUrl(std::string_view s)
{
    return !splitDataUrl(s).second.empty();
}

std::optional<DataUrl> decodeDataUrl(std::string_view url)
{
    auto [type, payload] = splitDataUrl(url);
    if (payload.empty())
        return std::nullopt;
    DataUrl out;
    out.mimeType = QString::fromUtf8(type.data(), qsizetype(type.size()));
    out.bytes =
        QByteArray::fromBase64(QByteArray::fromRawData(payload.data(), qsizetype(payload.size())));
    return out;
}

QString dataUrlPlaceholder(std::string_view url)
{
    auto [type, payload] = splitDataUrl(url);
    if (payload.empty()) {
        // A web address is short enough to show; anything else is cut.
        QString text = QString::fromUtf8(url.data(), qsizetype(std::min<size_t>(url.size(), 200)));
        if (url.size() > 200)
            text += QStringLiteral("…");
        return QStringLiteral("[image: %1]").arg(text);
    }
    const qint64 total = base64DecodedSize(payload);
    // Only the start is decoded (a multiple of four characters stays valid base64).
    const size_t take = std::min<size_t>(payload.size(), size_t(kHeadBytes) / 3 * 4);
    const QByteArray head =
        QByteArray::fromBase64(QByteArray::fromRawData(payload.data(), qsizetype(take)));
    const ImageFacts facts = sniffImage(head, total);
    if (facts.format.isEmpty())
        return QStringLiteral("[data: %1, %2]")
            .arg(QString::fromUtf8(type.data(), qsizetype(type.size())), sizeText(total));
    if (facts.width > 0 && facts.height > 0)
        return QStringLiteral("[image: %1 %2×%3, %4]")
            .arg(facts.format)
            .arg(facts.width)
            .arg(facts.height)
            .arg(sizeText(total));
    return QStringLiteral("[image: %1, %2]").arg(facts.format, sizeText(total));
}

std::string contentDisplayText(const Value& content)
{
    if (content.isString()) {
        std::optional<std::string> replaced = replaceDataUrls(content.asString());
        return replaced ? std::move(*replaced) : content.asString();
    }
    if (content.isNull() || content.isUndefined())
        return {};
    if (content.isList() && !content.asList().empty()) {
        std::string out;
        bool parts = true;
        for (const Value& part : content.asList()) {
            const Value* type = part.isDict() ? part.asDict().find("type") : nullptr;
            if (!type || !type->isString()) {
                parts = false;
                break;
            }
            std::string piece;
            if (type->asString() == "text") {
                const Value* text = part.asDict().find("text");
                piece = text ? contentDisplayText(*text) : std::string();
            } else if (type->asString() == "image_url") {
                piece = imagePartText(part);
            } else {
                piece = withDataUrlPlaceholders(part).toText();
            }
            if (!out.empty())
                out += '\n';
            out += piece;
        }
        if (parts)
            return out;
    }
    if (!holdsDataUrl(content))
        return content.toText();
    return withDataUrlPlaceholders(content).toText();
}

std::string streamedDisplayText(std::string_view piece, bool* insideDataUrl)
{
    size_t start = 0;
    if (*insideDataUrl) {
        while (start < piece.size() && isBase64Char(piece[start]))
            ++start;
        if (start == piece.size())
            return {};
        *insideDataUrl = false;
    }
    const std::string_view rest = piece.substr(start);
    const size_t last = rest.rfind("data:");
    if (last != std::string_view::npos) {
        const size_t marker = rest.find(kBase64Marker, last);
        if (marker != std::string_view::npos && marker - last <= 256) {
            size_t end = marker + kBase64Marker.size();
            while (end < rest.size() && isBase64Char(rest[end]))
                ++end;
            *insideDataUrl = end == rest.size();
        }
    }
    return replaceDataUrls(rest).value_or(std::string(rest));
}

bool holdsDataUrl(const Value& value)
{
    switch (value.type()) {
    case Value::Type::String:
        return value.asString().find(kBase64Marker) != std::string::npos &&
               replaceDataUrls(value.asString()).has_value();
    case Value::Type::List:
        return std::any_of(value.asList().begin(), value.asList().end(),
                           [](const Value& v) { return holdsDataUrl(v); });
    case Value::Type::Dict:
        for (const auto& [k, v] : value.asDict())
            if (holdsDataUrl(v))
                return true;
        return false;
    default:
        return false;
    }
}

Value withDataUrlPlaceholders(const Value& value)
{
    if (!holdsDataUrl(value))
        return value;
    if (value.isString())
        return Value(replaceDataUrls(value.asString()).value_or(value.asString()));
    if (value.isList()) {
        List out;
        out.reserve(value.asList().size());
        for (const Value& v : value.asList())
            out.push_back(withDataUrlPlaceholders(v));
        return Value(std::move(out), value.isTuple()).wrapped(value.wrapper());
    }
    Dict out;
    for (const auto& [k, v] : value.asDict())
        out.set(k, withDataUrlPlaceholders(v));
    return Value(std::move(out)).wrapped(value.wrapper());
}

std::vector<std::string_view> contentImageUrls(const Value& content)
{
    std::vector<std::string_view> out;
    if (!content.isList())
        return out;
    for (const Value& part : content.asList()) {
        if (!part.isDict())
            continue;
        const Value* type = part.asDict().find("type");
        if (!type || !type->isString() || type->asString() != "image_url")
            continue;
        const Value* image = part.asDict().find("image_url");
        const Value* url = image && image->isDict() ? image->asDict().find("url") : image;
        if (url && url->isString())
            out.push_back(url->asString());
    }
    return out;
}

int64_t estimateContentTokens(const Value& content)
{
    const int64_t images = int64_t(contentImageUrls(content).size());
    std::string text;
    if (images == 0 && content.isString())
        text = content.asString();
    else if (content.isList()) {
        for (const Value& part : content.asList()) {
            const Value* t = part.isDict() ? part.asDict().find("text") : nullptr;
            if (t && t->isString())
                text += t->asString();
        }
    } else if (!content.isNull() && !content.isUndefined()) {
        text = contentDisplayText(content);
    }
    const int64_t textTokens =
        text.empty() ? 0 : std::max<int64_t>(1, int64_t((text.size() + 3) / 4));
    return textTokens + images * kImageTokenEstimate;
}

} // namespace hako::pdl
