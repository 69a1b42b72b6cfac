#include "widgets/common/blockkindcolor.h"

#include "widgets/common/thememanager.h"

#include <iterator>

namespace hako {

namespace {

// The table, in BlockKind order (checked below): one colour per kind, for light palettes.
// Related kinds get related colours (loops yellows, code oranges, calls blues, structure
// browns) told apart by lightness; every pair stays apart and none comes near the failure red
// (tst_blockkindcolor measures both as CIE76 ΔE, light and dark).
struct KindColor {
    pdl::BlockKind kind;
    QRgb rgb;
};
constexpr KindColor kTable[] = {
    {pdl::BlockKind::Data, 0x00897b},       // teal
    {pdl::BlockKind::Model, 0x7c4dff},      // violet: what a model produced
    {pdl::BlockKind::Read, 0x43a047},       // green
    {pdl::BlockKind::Text, 0x546e7a},       // blue grey
    {pdl::BlockKind::LastOf, 0x8d6e63},     // brown
    {pdl::BlockKind::Array, 0x33691e},      // dark green
    {pdl::BlockKind::Object, 0xc0ca33},     // lime
    {pdl::BlockKind::Sequence, 0x4e342e},   // dark brown
    {pdl::BlockKind::Get, 0x4dd0e1},        // cyan
    {pdl::BlockKind::Message, 0x3949ab},    // indigo
    {pdl::BlockKind::If, 0x8e24aa},         // purple (a crimson read as "failed")
    {pdl::BlockKind::Match, 0xd05ce3},      // orchid
    {pdl::BlockKind::Repeat, 0xfdd835},     // yellow
    {pdl::BlockKind::Map, 0x9e7c0a},        // dark gold
    {pdl::BlockKind::Function, 0x01579b},   // dark blue
    {pdl::BlockKind::Call, 0x039be5},       // light blue
    {pdl::BlockKind::Code, 0xef8a00},       // orange, kept well away from the failure red
    {pdl::BlockKind::Args, 0xffcc80},       // light orange
    {pdl::BlockKind::Include, 0x1de9b6},    // aquamarine
    {pdl::BlockKind::Import, 0x004d40},     // dark teal
    {pdl::BlockKind::Aggregator, 0xb39ddb}, // lavender
    {pdl::BlockKind::Empty, 0x9e9e9e},      // grey
    {pdl::BlockKind::Error, 0xe53935},      // the failure red: failureColor()
};
constexpr bool tableInKindOrder()
{
    for (size_t i = 0; i < std::size(kTable); ++i)
        if (size_t(kTable[i].kind) != i)
            return false;
    return std::size(kTable) == size_t(pdl::BlockKind::Error) + 1;
}
static_assert(tableInKindOrder(), "one entry per BlockKind, in its order");

} // namespace

QColor failureColor(bool dark)
{
    return blockKindColor(pdl::BlockKind::Error, dark);
}

QColor blockKindColor(pdl::BlockKind kind, bool dark)
{
    const QColor c = QColor::fromRgb(kTable[size_t(kind)].rgb);
    return dark ? c.lighter(135) : c;
}

QColor blockKindTint(pdl::BlockKind kind, const QPalette& palette)
{
    const bool dark = ThemeManager::isDark(palette);
    const QColor c = blockKindColor(kind, dark);
    const QColor base = palette.color(QPalette::Base);
    const double t = dark ? 0.55 : 0.45;
    return QColor::fromRgbF(float(base.redF() + (c.redF() - base.redF()) * t),
                            float(base.greenF() + (c.greenF() - base.greenF()) * t),
                            float(base.blueF() + (c.blueF() - base.blueF()) * t));
}

} // namespace hako
