#include "cli/output.h"

#include <algorithm>

namespace hako {

void writeText(FILE* stream, const QString& text)
{
    const QByteArray utf8 = text.toUtf8();
    writeText(stream, std::string_view(utf8.constData(), size_t(utf8.size())));
}

void writeText(FILE* stream, std::string_view utf8)
{
    std::fwrite(utf8.data(), 1, utf8.size(), stream);
    std::fflush(stream);
}

QString table(const QStringList& header, const QList<QStringList>& rows, const QList<bool>& right)
{
    QList<qsizetype> widths;
    for (const QString& h : header)
        widths.append(h.size());
    for (const QStringList& r : rows) {
        for (qsizetype i = 0; i < r.size(); ++i)
            widths[i] = std::max(widths[i], r[i].size());
    }
    auto line = [&](const QStringList& cells) -> QString {
        QString out;
        for (qsizetype i = 0; i < cells.size(); ++i) {
            const bool last = i + 1 == cells.size();
            if (i)
                out += QLatin1String("  ");
            if (right.value(i))
                out += cells[i].rightJustified(widths[i]);
            else
                out += last ? cells[i] : cells[i].leftJustified(widths[i]);
        }
        out += QLatin1Char('\n');
        return out;
    };
    QString out = line(header);
    for (const QStringList& r : rows)
        out += line(r);
    return out;
}

} // namespace hako
