// Writes the sample company report of the report pipeline (resources/examples/report_qa.pdl):
// one A4 page per entry of the JSON file's `pages`, each a list of lines, in a Japanese font.
// The tests make the PDF with it, so what each page says is known to the fake vision model.
//   hako_make_sample_report tests/data/report_qa/sample_report.json OUT.pdf
#include <QFile>
#include <QFont>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>

#include <cstdio>

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    if (argc != 3) {
        std::fprintf(stderr, "usage: hako_make_sample_report CONTENT.json OUT.pdf\n");
        return 2;
    }
    QFile in(QString::fromLocal8Bit(argv[1]));
    if (!in.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "%s: cannot be read\n", argv[1]);
        return 1;
    }
    const QJsonObject content = QJsonDocument::fromJson(in.readAll()).object();
    QPdfWriter writer(QString::fromLocal8Bit(argv[2]));
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setResolution(72);
    writer.setTitle(content[QStringLiteral("title")].toString());
    writer.setCreator(QStringLiteral("Hako tests"));
    QPainter painter(&writer);
    QFont font(QStringLiteral("Noto Sans CJK JP"));
    const QJsonArray pages = content[QStringLiteral("pages")].toArray();
    for (qsizetype p = 0; p < pages.size(); ++p) {
        if (p > 0)
            writer.newPage();
        int y = 80;
        bool first = true;
        for (const QJsonValue& line : pages[p].toArray()) {
            font.setPointSize(first ? 20 : 13);
            font.setBold(first);
            painter.setFont(font);
            painter.drawText(60, y, line.toString());
            y += first ? 44 : 28;
            first = false;
        }
        painter.setFont(QFont(QStringLiteral("Noto Sans CJK JP"), 9));
        painter.drawText(60, 800, QStringLiteral("- %1 -").arg(p + 1));
    }
    if (!painter.end()) {
        std::fprintf(stderr, "%s: the PDF could not be written\n", argv[2]);
        return 1;
    }
    return 0;
}
