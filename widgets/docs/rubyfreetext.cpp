#include "widgets/docs/rubyfreetext.h"

#include "core/docs/rubyline.h"

#include <vector>

namespace hako {

QString rubyFreeText(const QString& text, QList<QPoint>* marks)
{
    if (!text.contains(u'《') && !text.contains(u'［'))
        return text;
    QString out;
    out.reserve(text.size());
    // Where each original position lands in `out`.
    std::vector<qsizetype> toOut(size_t(text.size() + 1), 0);
    qsizetype start = 0;
    while (start <= text.size()) {
        qsizetype end = text.indexOf(u'\n', start);
        if (end < 0)
            end = text.size();
        const docs::RubyLine laid =
            docs::layoutRubyLine(QStringView(text).sliced(start, end - start));
        const qsizetype base = out.size();
        for (qsizetype i = start; i <= end; ++i)
            toOut[size_t(i)] = base + laid.displayPos(i - start);
        out += laid.text;
        if (end == text.size())
            break;
        out += u'\n';
        start = end + 1;
    }
    if (marks)
        for (QPoint& m : *marks)
            m = QPoint(int(toOut[size_t(qBound(0, m.x(), int(text.size())))]),
                       int(toOut[size_t(qBound(0, m.y(), int(text.size())))]));
    return out;
}

} // namespace hako
