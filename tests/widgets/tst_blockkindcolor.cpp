// One colour per block kind, from one table (widgets/common/blockkindcolor): every kind has its
// own colour, none close to the failure red, in light and dark palettes; and the boxes, their
// legend and the trace tree paint each kind in the table's colour (read back from the pixels).
#include "core/pdl/trace/boxlayout.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/common/blockkindcolor.h"
#include "widgets/trace/boxpainter.h"
#include "widgets/trace/tracetreeview.h"

#include <QImage>
#include <QPainter>
#include <QTest>
#include <QTreeView>

#include <cmath>

using namespace hako;
using pdl::BlockKind;

namespace {

std::vector<BlockKind> everyKind()
{
    std::vector<BlockKind> kinds;
    for (int k = 0; k <= int(BlockKind::Error); ++k)
        kinds.push_back(BlockKind(k));
    return kinds;
}

// CIE L*a*b* of an sRGB colour (D65), for CIE76 ΔE: the Euclidean distance.
std::array<double, 3> lab(const QColor& c)
{
    auto linear = [](double v) {
        return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    const double r = linear(c.redF()), g = linear(c.greenF()), b = linear(c.blueF());
    const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    const double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    const double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    auto f = [](double t) {
        return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116;
    };
    return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
}

double deltaE(const QColor& a, const QColor& b)
{
    const auto la = lab(a), lb = lab(b);
    return std::hypot(la[0] - lb[0], la[1] - lb[1], la[2] - lb[2]);
}

// A palette of one grey: text and frames vanish into the background, so every coloured pixel
// a pane paints for a kind comes from the kind's colour.
QPalette plainPalette(const QColor& c)
{
    QPalette p;
    for (int group = 0; group < QPalette::NColorGroups; ++group)
        for (int role = 0; role < QPalette::NColorRoles; ++role)
            if (role != QPalette::NoRole)
                p.setColor(QPalette::ColorGroup(group), QPalette::ColorRole(role), c);
    return p;
}

int chroma(const QColor& c)
{
    return std::max({c.red(), c.green(), c.blue()}) - std::min({c.red(), c.green(), c.blue()});
}

// Whether the pixels of `image` inside `rect` show `kind` and nothing else, on a grey
// background: every coloured pixel has the kind's hue (which mixing with grey, antialiasing
// and lighter/darker shades keep), and the most colourful one (outline, label) has about the kind's
// colourfulness, so kinds of one hue but other shades are told apart. Says why not in `why`.
bool paintedIn(const QImage& image, const QRect& rect, const QColor& kind, QString* why)
{
    const int kindChroma = chroma(kind);
    const double kindHue = kind.hsvHueF() * 360;
    int seen = 0;
    int strongest = 0;
    for (int y = rect.top(); y <= rect.bottom(); ++y) {
        for (int x = rect.left(); x <= rect.right(); ++x) {
            const QColor p = image.pixelColor(x, y);
            const int c = chroma(p);
            if (c < 24)
                continue; // too grey for its hue to mean anything
            ++seen;
            strongest = std::max(strongest, c);
            const double d = std::abs(p.hsvHueF() * 360 - kindHue);
            if (kindChroma < 24 || std::min(d, 360 - d) > 6) {
                *why = QStringLiteral("pixel %1,%2 is %3, not a shade of %4")
                           .arg(x)
                           .arg(y)
                           .arg(p.name(), kind.name());
                return false;
            }
        }
    }
    if (kindChroma >= 24 &&
        (seen < 8 || strongest < 0.8 * kindChroma || strongest > 1.25 * kindChroma + 4)) {
        *why = QStringLiteral("%1 coloured pixels, the most colourful %2 where %3 is %4")
                   .arg(seen)
                   .arg(strongest)
                   .arg(kind.name())
                   .arg(kindChroma);
        return false;
    }
    return true;
}

// A trace with one leaf of every kind but Error under a lastOf.
pdl::TracePtr traceOfEveryKind()
{
    auto root = std::make_shared<pdl::TraceNode>();
    root->kind = BlockKind::LastOf;
    root->id = "lastOf";
    root->isLeaf = false;
    pdl::TraceNode::Children children{"lastOf", {}, false};
    int i = 0;
    for (BlockKind k : everyKind()) {
        if (k == BlockKind::Error)
            continue;
        auto node = std::make_shared<pdl::TraceNode>();
        node->kind = k;
        node->id = "lastOf." + std::to_string(i++) + "." + pdl::blockKindName(k);
        children.nodes.push_back(node);
    }
    root->children.push_back(std::move(children));
    return root;
}

} // namespace

class TestBlockKindColor : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void table_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }
    // Every kind its own colour, none that could be read as "failed".
    void table()
    {
        QFETCH(bool, dark);
        const QColor failure = failureColor(dark);
        QCOMPARE(blockKindColor(BlockKind::Error, dark), failure);
        const std::vector<BlockKind> kinds = everyKind();
        for (BlockKind a : kinds) {
            if (a == BlockKind::Error)
                continue;
            const QColor ca = blockKindColor(a, dark);
            QVERIFY2(deltaE(ca, failure) >= 35,
                     qPrintable(QStringLiteral("%1 (%2) is %3 from the failure red %4")
                                    .arg(QLatin1String(pdl::blockKindName(a)), ca.name())
                                    .arg(deltaE(ca, failure))
                                    .arg(failure.name())));
            for (BlockKind b : kinds) {
                if (int(b) <= int(a) || b == BlockKind::Error)
                    continue;
                const QColor cb = blockKindColor(b, dark);
                QVERIFY2(deltaE(ca, cb) >= 15,
                         qPrintable(QStringLiteral("%1 (%2) and %3 (%4) are only %5 apart")
                                        .arg(QLatin1String(pdl::blockKindName(a)), ca.name(),
                                             QLatin1String(pdl::blockKindName(b)), cb.name())
                                        .arg(deltaE(ca, cb))));
            }
        }
    }

    void boxesAndLegend_data() { table_data(); }
    // The boxes and the legend paint each kind in the table's colour (its shades), and in no
    // other colour.
    void boxesAndLegend()
    {
        QFETCH(bool, dark);
        const QColor base = dark ? Qt::black : Qt::white;
        pdl::BoxLayoutParams params;
        const BoxPainter painter(plainPalette(base), QFont(), QFont(), params);
        QCOMPARE(painter.isDark(), dark);
        // One box of each kind on its own, so that only the background surrounds it.
        for (BlockKind k : everyKind()) {
            if (k == BlockKind::Error)
                continue;
            auto node = std::make_shared<pdl::TraceNode>();
            node->kind = k;
            node->id = pdl::blockKindName(k);
            pdl::TraceModel model;
            model.setTrace(node);
            const pdl::BoxLayout layout =
                pdl::layoutBoxes(pdl::collectBoxInput(model.root(), params), params);
            QCOMPARE(layout.boxes.size(), size_t(1));
            const BoxViewport view;
            QImage image(layout.size.toSize() + QSize(2 * int(view.margin), 2 * int(view.margin)),
                         QImage::Format_RGB32);
            image.fill(base);
            {
                QPainter p(&image);
                painter.paint(p, layout, view, QRectF(image.rect()));
            }
            QString why;
            QVERIFY2(paintedIn(image, image.rect(), blockKindColor(k, dark), &why),
                     qPrintable(QStringLiteral("box of %1: %2")
                                    .arg(QLatin1String(pdl::blockKindName(k)), why)));
        }

        for (BlockKind k : everyKind()) {
            if (k == BlockKind::Error)
                continue;
            const QFontMetricsF fm{QFont()};
            const QRectF area(0, 0, 600, painter.legendRowsHeight(600, {k}));
            QImage legend(area.size().toSize(), QImage::Format_RGB32);
            legend.fill(base);
            {
                QPainter p(&legend);
                painter.paintLegendRows(p, area, {k});
            }
            // The first entry is the kind's swatch, at the start of the first row.
            const QRect swatch(6, 2, int(fm.height() * 0.8) + 5, int(fm.height()) + 3);
            QString why;
            QVERIFY2(paintedIn(legend, swatch, blockKindColor(k, dark), &why),
                     qPrintable(QStringLiteral("legend of %1: %2")
                                    .arg(QLatin1String(pdl::blockKindName(k)), why)));
        }
    }

    // The tree's kind swatches are the table's tint of the kind.
    void tree()
    {
        WorkbenchContext context;
        pdl::TraceModel model;
        model.setTrace(traceOfEveryKind());
        context.setTraceModel(&model);
        TraceTreeView pane(&context);
        pane.resize(400, 900);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        QTreeView* view = pane.treeView();
        view->expandAll();
        view->clearSelection();
        view->setCurrentIndex({});
        const QImage image = view->viewport()->grab().toImage();
        const QModelIndex root = view->model()->index(0, 0);
        QCOMPARE(view->model()->rowCount(root), int(BlockKind::Error));
        for (int row = 0; row < view->model()->rowCount(root); ++row) {
            const QModelIndex index = view->model()->index(row, 0, root);
            const auto* item = reinterpret_cast<const pdl::TraceItem*>(
                index.data(pdl::TraceModel::ItemRole).value<quintptr>());
            QVERIFY(item);
            const QColor tint = blockKindTint(item->node.kind, view->palette());
            const QRect r = view->visualRect(index) & image.rect();
            QVERIFY(!r.isEmpty());
            int same = 0;
            for (int y = r.top(); y <= r.bottom(); ++y)
                for (int x = r.left(); x <= r.right(); ++x) {
                    const QColor p = image.pixelColor(x, y);
                    same += std::abs(p.red() - tint.red()) <= 2 &&
                            std::abs(p.green() - tint.green()) <= 2 &&
                            std::abs(p.blue() - tint.blue()) <= 2;
                }
            QVERIFY2(same >= 9,
                     qPrintable(QStringLiteral("row of %1: %2 pixels of %3")
                                    .arg(QLatin1String(pdl::blockKindName(item->node.kind)))
                                    .arg(same)
                                    .arg(tint.name())));
        }
    }
};

QTEST_MAIN(TestBlockKindColor)
#include "tst_blockkindcolor.moc"
