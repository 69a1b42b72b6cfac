// One-off tool that renders hako.svg's geometry to the committed PNGs (Qt SVG is not a build
// dependency). Build and run by hand:
//   g++ -std=c++20 -fPIC render-icons.cpp $(pkg-config --cflags --libs Qt6Gui) -o /tmp/ri
//   QT_QPA_PLATFORM=offscreen /tmp/ri resources/icons
#include <QGuiApplication>
#include <QImage>
#include <QLinearGradient>
#include <QPainter>
#include <QPainterPath>

static void draw(QPainter& p)
{
    QLinearGradient bg(0, 12, 0, 244);
    bg.setColorAt(0, QColor(0x2b, 0x5c, 0x8a));
    bg.setColorAt(1, QColor(0x1b, 0x3a, 0x5c));
    p.setPen(Qt::NoPen);
    p.setBrush(bg);
    p.drawRoundedRect(QRectF(12, 12, 232, 232), 48, 48);
    QColor gold(0xf4, 0xc9, 0x5d);
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(gold, 14));
    p.drawRoundedRect(QRectF(50, 50, 156, 156), 24, 24);
    gold.setAlphaF(0.8);
    p.setPen(QPen(gold, 12));
    p.drawRoundedRect(QRectF(86, 86, 84, 84), 14, 14);
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(0xf0, 0x8a, 0x4b));
    p.drawRoundedRect(QRectF(113, 113, 30, 30), 6, 6);
}

int main(int argc, char** argv)
{
    QGuiApplication app(argc, argv);
    const QString dir = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral(".");
    for (int size : {16, 22, 24, 32, 48, 64, 128, 256}) {
        QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QPainter p(&image);
        p.setRenderHint(QPainter::Antialiasing);
        p.scale(size / 256.0, size / 256.0);
        draw(p);
        p.end();
        image.save(QStringLiteral("%1/hako-%2.png").arg(dir).arg(size));
    }
    return 0;
}
