#pragma once

#include "core/pdl/value.h"
#include "core/util/diagnostic.h"

#include <QByteArray>
#include <QString>

#include <optional>
#include <string_view>

namespace hako::pdl {

/// Images in model messages: OpenAI content parts `{type: image_url, image_url: {url}}` whose
/// URL is a `data:image/…;base64,…` URL. The bytes travel unchanged through contexts, traces,
/// the prompt log and requests; only what is shown to a person replaces them with a short
/// placeholder such as `[image: PNG 1240×1754, 812 KB]`. Everything here is pure and
/// thread-safe (QtCore only: formats and sizes are read from the file headers, not decoded).

/// An image's format and pixel size read from its first bytes.
struct ImageFacts {
    QString format;   ///< "PNG", "JPEG", "WebP", "GIF"; empty when the bytes are none of these
    QString mimeType; ///< "image/png", …
    int width = 0;    ///< 0 when the header does not say
    int height = 0;
    qint64 bytes = 0; ///< the whole image's size
};

/// Sniffs the format and size from `data` (the first bytes suffice; `totalBytes` is the whole
/// image's size when `data` is only its start, else -1).
ImageFacts sniffImage(const QByteArray& data, qint64 totalBytes = -1);

/// The largest image image_url() reads (the size OpenAI accepts per image).
inline constexpr qint64 kMaxImageBytes = 20 * 1024 * 1024;

/// Tokens an image counts for in Hako's estimates when a server reports no usage: a fixed
/// small number (OpenAI's cost of a low-detail image), since the real cost depends on the
/// model's tiling and never on the length of the base64 text.
inline constexpr int64_t kImageTokenEstimate = 85;

/// `data:image/png;base64,…` of the image file at `path` (PNG, JPEG, WebP or GIF, recognised
/// from its bytes): an error naming the file when it is missing, not an image, or larger than
/// kMaxImageBytes. Reads the file: call off the GUI thread.
Result<std::string> imageDataUrl(const QString& path);

/// Whether `s` is a base64 `data:` URL (of an image or anything else).
bool isBase64DataUrl(std::string_view s);

/// The bytes of a base64 `data:` URL and its media type; nothing for other strings.
struct DataUrl {
    QString mimeType;
    QByteArray bytes;
};
std::optional<DataUrl> decodeDataUrl(std::string_view url);

/// `[image: PNG 1240×1754, 812 KB]` for a data URL (only its first bytes are decoded), or
/// `[data: application/pdf, 3 KB]` for another media type; `[image: <url>]` for a web URL.
QString dataUrlPlaceholder(std::string_view url);

/// The text a person sees for a message's `content`: a string as is; a list of OpenAI parts
/// as its text parts and image placeholders, one per line; any other value as its text with
/// every data URL replaced by its placeholder. Never contains base64 data.
std::string contentDisplayText(const Value& content);

/// One piece of streamed output text (a console's) with its data URLs replaced by placeholders.
/// `insideDataUrl` carries the state between pieces: set when this piece ends inside a data
/// URL's base64, and then the next piece's leading base64 is dropped.
std::string streamedDisplayText(std::string_view piece, bool* insideDataUrl);

/// `value` with every base64 data URL, at any depth and also inside a longer string, replaced by
/// its placeholder: for
/// views that show arbitrary values (variables, JSON, diffs, copies as text).
Value withDataUrlPlaceholders(const Value& value);

/// Whether `value` holds a base64 data URL anywhere (strings, also inside a longer text such as
/// a message printed as text; lists, dicts).
bool holdsDataUrl(const Value& value);

/// The images of a content value, in order: the data URLs of its `image_url` parts.
std::vector<std::string_view> contentImageUrls(const Value& content);

/// A token estimate for a message's content: its text at about four bytes a token, each image
/// part kImageTokenEstimate.
int64_t estimateContentTokens(const Value& content);

} // namespace hako::pdl
