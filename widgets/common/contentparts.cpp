#include "widgets/common/contentparts.h"

#include "core/pdl/imagecontent.h"

#include <QBuffer>
#include <QCache>
#include <QHBoxLayout>
#include <QImageReader>
#include <QLabel>
#include <QPixmap>
#include <QUrl>

namespace hako {

namespace {

constexpr auto kScheme = "hako-image";

// Thumbnails by a key of their data URL, so that showing the same message again does not
// decode its images again. Bounded by pixels (about 40 MB of thumbnails).
QCache<QString, QImage>& cache()
{
    static QCache<QString, QImage> c(10 * 1000 * 1000);
    return c;
}

QString keyOf(std::string_view url)
{
    const size_t h = qHash(QByteArrayView(url.data(), qsizetype(url.size())), 0);
    return QStringLiteral("%1-%2").arg(h, 0, 16).arg(url.size());
}

// The cached thumbnail's link, decoding it first when needed; empty when it cannot be read.
QString linkFor(std::string_view url, QSize* size)
{
    const QString key = keyOf(url);
    QImage* image = cache().object(key);
    if (!image) {
        QImage thumb = contentparts::thumbnailOf(url);
        if (thumb.isNull())
            return {};
        const qsizetype cost = thumb.width() * thumb.height();
        image = new QImage(std::move(thumb));
        if (!cache().insert(key, image, cost))
            return {};
        image = cache().object(key);
    }
    *size = image->size();
    return QLatin1String(kScheme) + QLatin1Char(':') + key;
}

QString escapedText(const std::string& text, int limit)
{
    QString t = QString::fromStdString(text);
    if (t.size() > limit)
        t = t.left(limit) + QStringLiteral("…");
    return t.toHtmlEscaped();
}

// "PNG 160×220, 664 B" of an image URL (its placeholder without the brackets).
QString descriptionOf(std::string_view url)
{
    QString text = pdl::dataUrlPlaceholder(url);
    if (text.startsWith(QLatin1String("[image: ")) && text.endsWith(QLatin1Char(']')))
        text = text.mid(8).chopped(1);
    return text;
}

std::string_view urlOfPart(const pdl::Value& part)
{
    const pdl::Value* image = part.asDict().find("image_url");
    const pdl::Value* url = image && image->isDict() ? image->asDict().find("url") : image;
    return url && url->isString() ? std::string_view(url->asString()) : std::string_view();
}

QString imageHtml(std::string_view url, int index, int count)
{
    const QString caption = descriptionOf(url).toHtmlEscaped();
    const QString label = ContentBrowser::tr("Image %1 of %2").arg(index).arg(count);
    QSize size;
    const QString link = pdl::isBase64DataUrl(url) ? linkFor(url, &size) : QString();
    if (link.isEmpty())
        return QStringLiteral("<div><small>%1: %2</small></div>")
            .arg(label.toHtmlEscaped(), caption);
    return QStringLiteral("<div><img src=\"%1\" width=\"%2\" height=\"%3\" alt=\"%4\" "
                          "title=\"%4\"><br><small>%4: %5</small></div>")
        .arg(link)
        .arg(size.width())
        .arg(size.height())
        .arg(label.toHtmlEscaped(), caption);
}

} // namespace

namespace contentparts {

QString contentHtml(const pdl::Value& content, int textLimit)
{
    const std::vector<std::string_view> urls = pdl::contentImageUrls(content);
    if (urls.empty())
        return QStringLiteral("<span style='white-space:pre-wrap;'>%1</span>")
            .arg(escapedText(pdl::contentDisplayText(content), textLimit));
    QString html;
    int index = 0;
    for (const pdl::Value& part : content.asList()) {
        const pdl::Value* type = part.isDict() ? part.asDict().find("type") : nullptr;
        if (type && type->isString() && type->asString() == "image_url") {
            html += imageHtml(urlOfPart(part), ++index, int(urls.size()));
            continue;
        }
        const pdl::Value single(pdl::List{part});
        html += QStringLiteral("<div style='white-space:pre-wrap;'>%1</div>")
                    .arg(escapedText(pdl::contentDisplayText(single), textLimit));
    }
    return html;
}

QImage thumbnailOf(std::string_view url, int edge)
{
    std::optional<pdl::DataUrl> data = pdl::decodeDataUrl(url);
    if (!data)
        return {};
    QBuffer buffer(&data->bytes);
    buffer.open(QIODevice::ReadOnly);
    QImageReader reader(&buffer);
    const QSize full = reader.size();
    if (full.isValid() && (full.width() > edge || full.height() > edge))
        reader.setScaledSize(full.scaled(edge, edge, Qt::KeepAspectRatio));
    QImage image = reader.read();
    if (image.isNull())
        return {};
    if (image.width() > edge || image.height() > edge)
        image = image.scaled(edge, edge, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    return image;
}

QImage cachedThumbnail(const QUrl& link)
{
    if (link.scheme() != QLatin1String(kScheme))
        return {};
    const QImage* image = cache().object(link.path());
    return image ? *image : QImage();
}

} // namespace contentparts

ContentBrowser::ContentBrowser(QWidget* parent) : QTextBrowser(parent) {}

QVariant ContentBrowser::loadResource(int type, const QUrl& name)
{
    if (type == QTextDocument::ImageResource && name.scheme() == QLatin1String(kScheme)) {
        const QImage image = contentparts::cachedThumbnail(name);
        if (!image.isNull())
            return image;
        return {};
    }
    return QTextBrowser::loadResource(type, name);
}

ImagePartsStrip::ImagePartsStrip(QWidget* parent) : QWidget(parent), m_layout(new QHBoxLayout(this))
{
    m_layout->setContentsMargins(0, 2, 0, 2);
    m_layout->addStretch(1);
    setAccessibleName(tr("Images in this message"));
    hide();
}

void ImagePartsStrip::setContent(const pdl::Value& content)
{
    qDeleteAll(m_labels);
    m_labels.clear();
    const std::vector<std::string_view> urls = pdl::contentImageUrls(content);
    for (size_t i = 0; i < urls.size(); ++i) {
        auto* label = new QLabel(this);
        const QString name =
            tr("Image %1 of %2: %3").arg(i + 1).arg(urls.size()).arg(descriptionOf(urls[i]));
        const QImage thumb = contentparts::thumbnailOf(urls[i]);
        if (thumb.isNull())
            label->setText(pdl::dataUrlPlaceholder(urls[i]));
        else
            label->setPixmap(QPixmap::fromImage(thumb));
        label->setFrameShape(QFrame::StyledPanel);
        label->setAccessibleName(name);
        label->setToolTip(name);
        m_layout->insertWidget(int(i), label);
        m_labels.append(label);
    }
    setVisible(!m_labels.isEmpty());
}

} // namespace hako
