#include "widgets/common/blockkindcolor.h"

namespace hako {

namespace {

bool paletteIsDark(const QPalette& palette)
{
    return palette.color(QPalette::Window).lightness() <
           palette.color(QPalette::WindowText).lightness();
}

} // namespace

QColor failureColor(bool dark)
{
    const QColor c(0xe5, 0x39, 0x35);
    return dark ? c.lighter(135) : c;
}

QColor blockKindColor(pdl::BlockKind kind, bool dark)
{
    using pdl::BlockKind;
    QColor c;
    switch (kind) {
    case BlockKind::Model:
        c = QColor(0x7c, 0x4d, 0xff); // violet: what a model produced
        break;
    case BlockKind::Text:
        c = QColor(0x54, 0x6e, 0x7a);
        break;
    case BlockKind::Data:
        c = QColor(0x00, 0x89, 0x7b);
        break;
    case BlockKind::Code:
    case BlockKind::Args:
        c = QColor(0xef, 0x8a, 0x00); // orange, kept well away from the failure red
        break;
    case BlockKind::Read:
        c = QColor(0x43, 0xa0, 0x47);
        break;
    case BlockKind::Repeat:
    case BlockKind::Map:
        c = QColor(0xf9, 0xa8, 0x25);
        break;
    case BlockKind::If:
    case BlockKind::Match:
        c = QColor(0x8e, 0x24, 0xaa); // was a crimson that read as "failed"
        break;
    case BlockKind::Call:
    case BlockKind::Function:
        c = QColor(0x03, 0x9b, 0xe5);
        break;
    case BlockKind::LastOf:
    case BlockKind::Sequence:
        c = QColor(0x8d, 0x6e, 0x63);
        break;
    case BlockKind::Array:
    case BlockKind::Object:
        c = QColor(0x6d, 0x8b, 0x2f);
        break;
    case BlockKind::Message:
        c = QColor(0x39, 0x49, 0xab);
        break;
    case BlockKind::Get:
        c = QColor(0x26, 0xa6, 0x9a);
        break;
    case BlockKind::Include:
    case BlockKind::Import:
        c = QColor(0x6d, 0x4c, 0x41);
        break;
    case BlockKind::Aggregator:
        c = QColor(0x5e, 0x35, 0xb1);
        break;
    case BlockKind::Error:
        return failureColor(dark);
    case BlockKind::Empty:
        c = QColor(0x9e, 0x9e, 0x9e);
        break;
    }
    return dark ? c.lighter(135) : c;
}

QColor blockKindTint(pdl::BlockKind kind, const QPalette& palette)
{
    const bool dark = paletteIsDark(palette);
    const QColor c = blockKindColor(kind, dark);
    const QColor base = palette.color(QPalette::Base);
    const double t = dark ? 0.55 : 0.45;
    return QColor::fromRgbF(float(base.redF() + (c.redF() - base.redF()) * t),
                            float(base.greenF() + (c.greenF() - base.greenF()) * t),
                            float(base.blueF() + (c.blueF() - base.blueF()) * t));
}

} // namespace hako
