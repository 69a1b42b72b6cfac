#include "widgets/memory/componentbardelegate.h"

#include "core/memory/candidatemodel.h"

#include <QPainter>

namespace hako {

ComponentBarDelegate::ComponentBarDelegate(QObject* parent) : QStyledItemDelegate(parent) {}

QColor ComponentBarDelegate::colorOf(int component)
{
    static const QColor colors[] = {QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b),
                                    QColor(0x59, 0xa1, 0x4f)};
    return colors[component % 3];
}

void ComponentBarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                                 const QModelIndex& index) const
{
    QStyledItemDelegate::paint(painter, option, index);
    const QVariantList parts = index.data(memory::CandidateModel::ComponentsRole).toList();
    if (parts.isEmpty())
        return;
    const bool selected = index.data(memory::CandidateModel::SelectedRole).toBool();
    const QRect area = option.rect.adjusted(3, 4, -3, -4);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, false);
    painter->setPen(Qt::NoPen);
    double x = area.left();
    for (int i = 0; i < parts.size(); ++i) {
        const double w = std::max(0.0, parts[i].toDouble()) / m_maxTotal * area.width();
        if (w <= 0)
            continue;
        QColor c = colorOf(i);
        if (!selected)
            c.setAlpha(90);
        painter->setBrush(c);
        painter->drawRect(QRectF(x, area.top(), w, area.height()));
        x += w;
    }
    painter->setPen(option.palette.color(QPalette::Mid));
    painter->setBrush(Qt::NoBrush);
    painter->drawRect(area.adjusted(0, 0, -1, -1));
    painter->restore();
}

QSize ComponentBarDelegate::sizeHint(const QStyleOptionViewItem& option,
                                     const QModelIndex& index) const
{
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    return {std::max(s.width(), 220), s.height()};
}

} // namespace hako
