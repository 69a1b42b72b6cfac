#include "widgets/trace/tracepanestyle.h"

#include "widgets/common/blockkindcolor.h"
#include "widgets/common/thememanager.h"

#include "core/pdl/trace/boxlayout.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/pdl/trace/tracesource.h"

#include <QHash>
#include <QPainter>
#include <QPixmap>

namespace hako {

QString itemLabel(const pdl::TraceItem* item)
{
    if (!item)
        return {};
    const QString def = pdl::defName(item);
    return def.isEmpty() ? item->label() : def;
}

int iterationNumber(const pdl::TraceItem* item)
{
    if (!item || !item->parent || !pdl::isLoopIteration(*item))
        return 0;
    const pdl::BlockKind loop = item->parent->node.kind;
    if (loop != pdl::BlockKind::Repeat && loop != pdl::BlockKind::Map)
        return 0;
    int number = 0;
    const auto& siblings = item->parent->children;
    for (int i = 0; i <= item->row && i < int(siblings.size()); ++i)
        number += pdl::isLoopIteration(*siblings[size_t(i)]) ? 1 : 0;
    return number;
}

QString rowLabel(const pdl::TraceItem* item)
{
    return iterationLabel(iterationNumber(item), itemLabel(item));
}

QString iterationLabel(int n, const QString& label)
{
    return n > 0 ? QStringLiteral("#%1  %2").arg(n).arg(label) : label;
}

QColor kindColor(pdl::BlockKind kind, const QPalette& palette)
{
    return blockKindTint(kind, palette);
}

QIcon kindIcon(pdl::BlockKind kind, const QPalette& palette)
{
    static QHash<QPair<int, bool>, QIcon> cache;
    const auto key = qMakePair(int(kind), ThemeManager::isDark(palette));
    if (auto it = cache.constFind(key); it != cache.constEnd())
        return *it;
    QPixmap pm(24, 24);
    pm.fill(Qt::transparent);
    {
        QPainter p(&pm);
        p.setRenderHint(QPainter::Antialiasing);
        const QColor c = kindColor(kind, palette);
        p.setPen(QPen(c.darker(150), 1.5));
        p.setBrush(c);
        p.drawRoundedRect(QRectF(4, 4, 16, 16), 4, 4);
    }
    QIcon icon(pm);
    cache.insert(key, icon);
    return icon;
}

QColor roleColor(const QString& role, const QPalette& palette)
{
    int hue = 220;
    int sat = 20;
    if (role == QLatin1String("system"))
        hue = 270, sat = 90;
    else if (role == QLatin1String("user"))
        hue = 210, sat = 120;
    else if (role == QLatin1String("assistant"))
        hue = 28, sat = 170;
    else if (role == QLatin1String("tool"))
        hue = 150, sat = 110;
    return ThemeManager::isDark(palette) ? QColor::fromHsl(hue, sat, 60)
                                         : QColor::fromHsl(hue, sat, 235);
}

QString formatDuration(qint64 nanos)
{
    if (nanos < 0)
        return {};
    const double ms = double(nanos) / 1e6;
    if (ms < 1)
        return QStringLiteral("%1 µs").arg(qRound(ms * 1000));
    if (ms < 1000)
        return QStringLiteral("%1 ms").arg(ms, 0, 'f', ms < 10 ? 1 : 0);
    if (ms < 120000)
        return QStringLiteral("%1 s").arg(ms / 1000, 0, 'f', 2);
    return QStringLiteral("%1 min").arg(ms / 60000, 0, 'f', 1);
}

QString formatBytes(qint64 bytes)
{
    if (bytes < 1024)
        return QStringLiteral("%1 B").arg(bytes);
    if (bytes < 1024 * 1024)
        return QStringLiteral("%1 KB").arg(double(bytes) / 1024, 0, 'f', 1);
    return QStringLiteral("%1 MB").arg(double(bytes) / (1024 * 1024), 0, 'f', 1);
}

} // namespace hako
