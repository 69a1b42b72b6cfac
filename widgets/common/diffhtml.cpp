#include "widgets/common/diffhtml.h"

namespace hako {

using DiffSegment = WordDiffSegment;

QString diffHtml(const std::vector<DiffSegment>& diff)
{
    QString out;
    for (const DiffSegment& s : diff) {
        const QString text = s.text.toHtmlEscaped();
        switch (s.op) {
        case DiffSegment::Op::Equal:
            out += text;
            break;
        case DiffSegment::Op::Delete:
            out += QStringLiteral("<span style=\"background-color:#ffd7d5; color:#82071e; "
                                  "text-decoration:line-through\">") +
                   text + QStringLiteral("</span>");
            break;
        case DiffSegment::Op::Insert:
            out += QStringLiteral("<span style=\"background-color:#ccffd8; color:#055d20\">") +
                   text + QStringLiteral("</span>");
            break;
        }
    }
    return out;
}

QString diffHtml(const QString& a, const QString& b)
{
    return diffHtml(wordDiff(a, b));
}

} // namespace hako
