#pragma once

#include "core/pdl/value.h"

#include <QImage>
#include <QTextBrowser>
#include <QWidget>

#include <string_view>

class QHBoxLayout;
class QLabel;

namespace hako {

/// Message content (a string, or a list of OpenAI parts with `image_url` images) for people to
/// read: text as text, each image as a thumbnail with a caption such as
/// `[image: PNG 1240×1754, 812 KB]` — never as base64. Rich-text views put contentHtml() into
/// a ContentBrowser; widget layouts use ImagePartsStrip. GUI thread (the thumbnail cache is
/// not locked).
namespace contentparts {

/// The longest edge of a thumbnail, in pixels.
inline constexpr int kThumbnailEdge = 160;

/// HTML for `content`: text escaped and kept as written (at most `textLimit` characters), each
/// image a `hako-image:` thumbnail that a ContentBrowser shows, captioned with its size.
QString contentHtml(const pdl::Value& content, int textLimit = 20000);

/// A thumbnail of the image in data URL `url`, its longest edge at most `edge`; a null image
/// when the URL holds no image Qt can read. Decodes the image (scaled while reading).
QImage thumbnailOf(std::string_view url, int edge = kThumbnailEdge);

/// The thumbnail a `hako-image:` link of contentHtml() stands for (null when unknown).
QImage cachedThumbnail(const QUrl& link);

} // namespace contentparts

/// A QTextBrowser that shows the image thumbnails of contentparts::contentHtml().
class ContentBrowser : public QTextBrowser {
    Q_OBJECT
public:
    explicit ContentBrowser(QWidget* parent = nullptr);
    QVariant loadResource(int type, const QUrl& name) override;
};

/// A row of image thumbnails (QLabels), one per image part of a content value, each with an
/// accessible name and tooltip "Image 1 of 2: PNG 1240×1754, 812 KB". Hidden when there are
/// none.
class ImagePartsStrip : public QWidget {
    Q_OBJECT
public:
    explicit ImagePartsStrip(QWidget* parent = nullptr);
    /// Shows the images of `content` (decoded now: a few thumbnails of the selected message).
    void setContent(const pdl::Value& content);
    /// The thumbnails shown, in order.
    QList<QLabel*> thumbnails() const { return m_labels; }

private:
    QHBoxLayout* m_layout;
    QList<QLabel*> m_labels;
};

} // namespace hako
