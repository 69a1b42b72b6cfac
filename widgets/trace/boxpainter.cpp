#include "widgets/trace/boxpainter.h"

#include "widgets/common/blockkindcolor.h"
#include "widgets/common/thememanager.h"
#include "widgets/trace/tracepanestyle.h"

#include "core/pdl/trace/tracemodel.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QLocale>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace hako {

using pdl::BlockKind;
using pdl::Box;

namespace {

QColor mix(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
                            float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

QString tr(const char* text)
{
    return QCoreApplication::translate("hako::BoxPainter", text);
}

} // namespace

BoxPainter::BoxPainter(const QPalette& palette, const QFont& labelFont, const QFont& textFont,
                       const pdl::BoxLayoutParams& params)
    : m_palette(palette), m_labelFont(labelFont), m_textFont(textFont), m_params(params),
      m_dark(ThemeManager::isDark(palette))
{}

QColor BoxPainter::kindColor(BlockKind kind, bool dark)
{
    return blockKindColor(kind, dark);
}

QString BoxPainter::headerText(const Box& box, bool paused)
{
    if (box.has(Box::Expander) && box.has(Box::Children))
        return tr("… %1 more blocks — click to show more").arg(QLocale().toString(box.hidden));
    if (box.has(Box::Expander))
        return box.hidden == 1 ? tr("… 1 more iteration — click to show")
                               : tr("… %1 more iterations — click to show").arg(box.hidden);
    QString s = iterationLabel(box.has(Box::Iteration) ? box.iteration : 0, box.label);
    if (box.has(Box::Rendered))
        s += QStringLiteral("  ·  ") + tr("output");
    if (box.has(Box::Running))
        s += QStringLiteral("  ·  ") + (paused ? tr("paused") : tr("running…"));
    if (box.has(Box::Cancelled))
        s += QStringLiteral("  ·  ") + tr("stopped");
    if (box.has(Box::Failed))
        s += QStringLiteral("  ·  ") + tr("failed");
    return s;
}

void BoxPainter::paint(QPainter& painter, const pdl::BoxLayout& layout, const BoxViewport& view,
                       const QRectF& target) const
{
    if (layout.isEmpty())
        return;
    const double z = view.zoom;
    // The painted rectangle in layout coordinates.
    const QRectF area((target.left() + view.scroll.x() - view.margin) / z,
                      (target.top() + view.scroll.y() - view.margin) / z, target.width() / z,
                      target.height() / z);
    const std::vector<int> visible = layout.boxesIn(area, 2.0 / z);

    QFont labelFont = m_labelFont;
    QFont textFont = m_textFont;
    auto scaled = [z](QFont& f) {
        if (f.pointSizeF() > 0)
            f.setPointSizeF(std::max(0.5, f.pointSizeF() * z));
        else
            f.setPixelSize(std::max(1, int(std::lround(f.pixelSize() * z))));
    };
    scaled(labelFont);
    scaled(textFont);
    const double textFontHeight = m_params.lineHeight * z;

    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.setRenderHint(QPainter::TextAntialiasing, true);
    for (int i : visible)
        paintBox(painter, layout, i, view, target, labelFont, textFont, textFontHeight);
    painter.restore();
}

void BoxPainter::paintBox(QPainter& painter, const pdl::BoxLayout& layout, int index,
                          const BoxViewport& view, const QRectF& target, const QFont& labelFont,
                          const QFont& textFont, double textFontHeight) const
{
    const Box& b = layout.boxes[index];
    const double z = view.zoom;
    auto toDevice = [&](const QRectF& r) {
        return QRectF(r.x() * z + view.margin - view.scroll.x(),
                      r.y() * z + view.margin - view.scroll.y(), r.width() * z, r.height() * z);
    };
    const QRectF r = toDevice(b.rect);
    paintFrame(painter, b, r, index, view);

    // Text is drawn only where it can be read.
    const double pad = m_params.padding * z;
    const double headerH = m_params.headerHeight * z;
    if (headerH < 5 || r.width() < 6 * m_params.charWidth * z)
        return;
    const QRectF header(r.x() + pad, r.y() + pad * 0.5, r.width() - 2 * pad, headerH + pad * 0.5);
    const bool paused =
        !view.paused.isEmpty() && b.item &&
        view.paused == QLatin1String(b.item->node.id.data(), qsizetype(b.item->node.id.size()));
    paintHeader(painter, b, header, pad, labelFont, paused);

    if (b.lineCount == 0 || textFontHeight < 4)
        return;
    const auto kids = layout.children(index);
    const double textTop = kids.empty()
                               ? b.rect.y() + m_params.padding + m_params.headerHeight
                               : layout.boxes[kids.back()].rect.bottom() + m_params.spacing;
    const QRectF textArea =
        toDevice(QRectF(b.rect.x() + m_params.padding, textTop,
                        b.rect.width() - 2 * m_params.padding, b.lineCount * m_params.lineHeight));
    if (!textArea.intersects(target))
        return;
    paintText(painter, layout, b, textArea, target, pad, z, textFont, textFontHeight);
}

// The box's rounded rectangle: the kind's hue, stronger where highlighted, hovered or current;
// dashed while running or for an expander.
void BoxPainter::paintFrame(QPainter& painter, const Box& b, const QRectF& r, int index,
                            const BoxViewport& view) const
{
    const double z = view.zoom;
    const QColor base = m_palette.color(QPalette::Base);
    const QColor highlight = m_palette.color(QPalette::Highlight);
    const QColor kind = kindColor(b.kind, m_dark);
    const bool lit = index < int(view.highlighted.size()) && view.highlighted[index];
    const bool current = index == view.current;

    painter.setOpacity(b.has(Box::Dimmed) ? 0.42 : 1.0);
    const double radius = std::min({6.0 * z, r.width() / 4, r.height() / 4});

    // Fill: the kind's hue over the base, a little stronger at odd depths so nesting reads.
    QColor fill = mix(base, kind, (m_dark ? 0.17 : 0.08) + (b.depth % 2 ? 0.04 : 0.0));
    if (b.has(Box::Failed))
        fill = mix(base, kindColor(BlockKind::Error, m_dark), m_dark ? 0.28 : 0.14);
    if (b.has(Box::Expander))
        fill = mix(base, kind, 0.04);
    if (lit)
        fill = mix(fill, highlight, m_dark ? 0.35 : 0.25);
    if (index == view.hovered)
        fill = m_dark ? fill.lighter(115) : fill.darker(104);

    QPen pen(b.has(Box::Failed) ? kindColor(BlockKind::Error, m_dark) : kind);
    pen.setWidthF(1.0);
    if (b.has(Box::Running) || b.has(Box::Expander))
        pen.setStyle(Qt::DashLine);
    if (lit) {
        pen.setColor(highlight);
        pen.setWidthF(2.0);
    }
    if (current) {
        pen.setColor(highlight);
        pen.setWidthF(3.0);
        pen.setStyle(Qt::SolidLine);
    }
    painter.setPen(pen);
    painter.setBrush(fill);
    const double inset = pen.widthF() / 2;
    // Far out, corners are sub-pixel: plain rectangles cost a fraction of rounded ones.
    if (radius < 1.5)
        painter.drawRect(r.adjusted(inset, inset, -inset, -inset));
    else
        painter.drawRoundedRect(r.adjusted(inset, inset, -inset, -inset), radius, radius);
}

// The header line: the label on the left; the kind (after a def name) and the detail, dimmer
// and right-aligned, so both read at a glance; they give way to the label when space is short.
void BoxPainter::paintHeader(QPainter& painter, const Box& b, const QRectF& header, double pad,
                             const QFont& labelFont, bool paused) const
{
    const QColor textColor = m_palette.color(QPalette::Text);
    const QColor kind = kindColor(b.kind, m_dark);
    painter.setFont(labelFont);
    const QFontMetricsF lfm(labelFont);
    QString head = headerText(b, paused);
    painter.setPen(b.has(Box::Expander) ? textColor
                                        : (m_dark ? kind.lighter(120) : kind.darker(135)));
    QStringList right;
    if (!b.has(Box::Expander) && b.label != QLatin1String(pdl::blockKindName(b.kind)))
        right << QString::fromLatin1(pdl::blockKindName(b.kind));
    if (!b.detail.isEmpty())
        right << b.detail;
    QString note = right.join(QStringLiteral(" · "));
    const double headTextW = lfm.horizontalAdvance(head);
    double noteW = note.isEmpty() ? 0 : lfm.horizontalAdvance(note);
    const double room = header.width() - headTextW - 2 * pad;
    if (noteW > room) {
        note = room > 6 * lfm.averageCharWidth() ? lfm.elidedText(note, Qt::ElideRight, room)
                                                 : QString();
        noteW = note.isEmpty() ? 0 : lfm.horizontalAdvance(note);
    }
    const double headW = std::max(0.0, header.width() - (noteW > 0 ? noteW + pad : 0));
    painter.drawText(QRectF(header.x(), header.y(), headW, header.height()),
                     Qt::AlignLeft | Qt::AlignVCenter, lfm.elidedText(head, Qt::ElideRight, headW));
    if (!note.isEmpty()) {
        QColor dim = textColor;
        dim.setAlphaF(0.5f);
        painter.setPen(dim);
        QFont plain = labelFont;
        plain.setWeight(QFont::Normal);
        painter.setFont(plain);
        painter.drawText(header, Qt::AlignRight | Qt::AlignVCenter, note);
    }
}

// The box's own lines below its children; model output on a tinted band in the model's hue.
void BoxPainter::paintText(QPainter& painter, const pdl::BoxLayout& layout, const Box& b,
                           const QRectF& textArea, const QRectF& target, double pad, double z,
                           const QFont& textFont, double textFontHeight) const
{
    const QColor base = m_palette.color(QPalette::Base);
    const QColor textColor = m_palette.color(QPalette::Text);
    QColor ink = textColor;
    if (b.has(Box::ModelOutput)) {
        // Model output: a tinted band with an accent bar, ink in the model's hue.
        const QColor model = kindColor(BlockKind::Model, m_dark);
        painter.setPen(Qt::NoPen);
        painter.setBrush(mix(base, model, m_dark ? 0.22 : 0.10));
        const double bandLeft = textArea.x() - pad * 0.8;
        painter.drawRoundedRect(QRectF(bandLeft, textArea.y() - 1,
                                       textArea.right() + pad * 0.5 - bandLeft,
                                       textArea.height() + 2),
                                3 * z, 3 * z);
        painter.setBrush(model);
        painter.drawRect(
            QRectF(bandLeft, textArea.y() - 1, std::max(2.0, 2.5 * z), textArea.height() + 2));
        ink = m_dark ? model.lighter(140) : model.darker(150);
    } else if (b.has(Box::Failed)) {
        ink = kindColor(BlockKind::Error, m_dark);
    }
    painter.setPen(ink);
    QFont f = textFont;
    f.setItalic(b.has(Box::ModelOutput));
    painter.setFont(f);
    const QFontMetricsF tfm(f);
    painter.save();
    painter.setClipRect(textArea.adjusted(0, 0, 0, 1), Qt::IntersectClip);
    const double ascent = tfm.ascent();
    // Only the lines inside the painted rectangle.
    const int firstLine = std::max(0, int((target.top() - textArea.y()) / textFontHeight));
    for (int l = firstLine; l < b.lineCount; ++l) {
        const double y = textArea.y() + l * textFontHeight;
        if (y > target.bottom())
            break;
        QString line = layout.lineText(b, l).toString();
        if (l == b.lineCount - 1 && b.has(Box::Elided))
            line += QStringLiteral(" …");
        painter.drawText(QPointF(textArea.x(), y + ascent), line);
    }
    painter.restore();
}

void BoxPainter::paintLegend(QPainter& painter, const QRectF& area,
                             const std::vector<BlockKind>& kinds) const
{
    if (kinds.empty())
        return;
    QFont font = m_labelFont;
    const QFontMetricsF fm(font);
    const double row = fm.height() + 4;
    const double swatch = fm.height() * 0.8;
    std::vector<QString> names;
    for (BlockKind k : kinds)
        names.push_back(QString::fromLatin1(pdl::blockKindName(k)));
    const QString modelText = tr("model output");
    const QString dimText = tr("contributes nothing");
    double textW = std::max(fm.horizontalAdvance(modelText), fm.horizontalAdvance(dimText));
    for (const QString& n : names)
        textW = std::max(textW, fm.horizontalAdvance(n));
    const int columns = kinds.size() > 8 ? 2 : 1;
    const int kindRows = int((kinds.size() + columns - 1) / columns);
    const double colW = swatch + 6 + textW + 12;
    const QSizeF size(colW * columns + 12, row * (kindRows + 2) + 14);
    const QRectF box(area.right() - size.width() - 10, area.bottom() - size.height() - 10,
                     size.width(), size.height());

    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    QColor bg = m_palette.color(QPalette::Window);
    bg.setAlphaF(0.92f);
    QColor frame = m_palette.color(QPalette::Mid);
    painter.setPen(frame);
    painter.setBrush(bg);
    painter.drawRoundedRect(box, 6, 6);
    painter.setFont(font);
    const QColor base = m_palette.color(QPalette::Base);
    auto swatchRect = [&](double x, double y) {
        return QRectF(x, y + (row - swatch) / 2, swatch, swatch);
    };
    for (size_t i = 0; i < kinds.size(); ++i) {
        const double x = box.x() + 8 + colW * double(int(i) / kindRows);
        const double y = box.y() + 7 + row * double(int(i) % kindRows);
        const QColor c = kindColor(kinds[i], m_dark);
        painter.setPen(c);
        painter.setBrush(mix(base, c, m_dark ? 0.3 : 0.18));
        painter.drawRoundedRect(swatchRect(x, y), 3, 3);
        painter.setPen(m_palette.color(QPalette::WindowText));
        painter.drawText(QRectF(x + swatch + 6, y, textW + 4, row), Qt::AlignVCenter, names[i]);
    }
    double y = box.y() + 7 + row * kindRows;
    const double x = box.x() + 8;
    const QColor model = kindColor(BlockKind::Model, m_dark);
    painter.setPen(Qt::NoPen);
    painter.setBrush(mix(base, model, m_dark ? 0.22 : 0.10));
    painter.drawRect(swatchRect(x, y));
    painter.setBrush(model);
    painter.drawRect(swatchRect(x, y).adjusted(0, 0, -swatch + 3, 0));
    QFont italic = font;
    italic.setItalic(true);
    painter.setFont(italic);
    painter.setPen(m_palette.color(QPalette::WindowText));
    painter.drawText(QRectF(x + swatch + 6, y, textW + 4, row), Qt::AlignVCenter, modelText);
    painter.setFont(font);
    y += row;
    painter.setOpacity(0.42);
    painter.setPen(kindColor(BlockKind::Text, m_dark));
    painter.setBrush(mix(base, kindColor(BlockKind::Text, m_dark), 0.12));
    painter.drawRoundedRect(swatchRect(x, y), 3, 3);
    painter.setOpacity(1);
    painter.setPen(m_palette.color(QPalette::WindowText));
    painter.drawText(QRectF(x + swatch + 6, y, textW + 4, row), Qt::AlignVCenter, dimText);
    painter.restore();
}

namespace {

// One legend entry: a kind's swatch, or (kind = nullopt) one of the two text styles.
struct LegendEntry {
    int style; // 0: kind, 1: model output, 2: contributes nothing
    BlockKind kind;
    QString text;
};

std::vector<LegendEntry> legendEntries(const std::vector<BlockKind>& kinds)
{
    std::vector<LegendEntry> out;
    for (BlockKind k : kinds)
        out.push_back({0, k, QString::fromLatin1(pdl::blockKindName(k))});
    out.push_back({1, BlockKind::Model, tr("model output")});
    out.push_back({2, BlockKind::Text, tr("contributes nothing")});
    return out;
}

// Positions of the entries flowing over `width`: (x, row) per entry; returns the row count.
int flowLegend(const std::vector<LegendEntry>& entries, const QFontMetricsF& fm, double width,
               std::vector<QPointF>* at)
{
    const double swatch = fm.height() * 0.8;
    double x = 8;
    int row = 0;
    for (const LegendEntry& e : entries) {
        const double w = swatch + 4 + fm.horizontalAdvance(e.text) + 14;
        if (x > 8 && x + w > width) {
            x = 8;
            ++row;
        }
        if (at)
            at->emplace_back(x, row);
        x += w;
    }
    return row + 1;
}

} // namespace

double BoxPainter::legendRowsHeight(double width, const std::vector<BlockKind>& kinds) const
{
    const QFontMetricsF fm(m_labelFont);
    return flowLegend(legendEntries(kinds), fm, width, nullptr) * (fm.height() + 4) + 6;
}

void BoxPainter::paintLegendRows(QPainter& painter, const QRectF& area,
                                 const std::vector<BlockKind>& kinds) const
{
    const QFontMetricsF fm(m_labelFont);
    const double row = fm.height() + 4;
    const double swatch = fm.height() * 0.8;
    const std::vector<LegendEntry> entries = legendEntries(kinds);
    std::vector<QPointF> at;
    flowLegend(entries, fm, area.width(), &at);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    painter.fillRect(area, m_palette.color(QPalette::Window));
    painter.setPen(m_palette.color(QPalette::Mid));
    painter.drawLine(area.topLeft(), area.topRight());
    const QColor base = m_palette.color(QPalette::Base);
    QFont italic = m_labelFont;
    italic.setItalic(true);
    for (size_t i = 0; i < entries.size(); ++i) {
        const LegendEntry& e = entries[i];
        const double x = area.x() + at[i].x();
        const double y = area.y() + 3 + row * at[i].y();
        const QRectF sw(x, y + (row - swatch) / 2, swatch, swatch);
        const QColor c = kindColor(e.kind, m_dark);
        painter.setFont(e.style == 1 ? italic : m_labelFont);
        if (e.style == 1) {
            painter.setPen(Qt::NoPen);
            painter.setBrush(mix(base, c, m_dark ? 0.22 : 0.10));
            painter.drawRect(sw);
            painter.setBrush(c);
            painter.drawRect(sw.adjusted(0, 0, -swatch + 3, 0));
        } else {
            painter.setOpacity(e.style == 2 ? 0.42 : 1.0);
            painter.setPen(c);
            painter.setBrush(mix(base, c, e.style == 2 ? 0.12 : (m_dark ? 0.3 : 0.18)));
            painter.drawRoundedRect(sw, 3, 3);
            painter.setOpacity(1);
        }
        painter.setPen(m_palette.color(QPalette::WindowText));
        painter.drawText(QRectF(x + swatch + 4, y, area.right() - x, row), Qt::AlignVCenter,
                         e.text);
    }
    painter.restore();
}

} // namespace hako
