#include "core/memory/worddiff.h"

#include <QStringList>

namespace hako::memory {

namespace {

QStringList words(const QString& text)
{
    QStringList out;
    QString cur;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c.isSpace() && !cur.isEmpty() && !cur.back().isSpace()) {
            cur += c;
            continue;
        }
        if (!c.isSpace() && !cur.isEmpty() && cur.back().isSpace()) {
            out.append(cur);
            cur.clear();
        }
        cur += c;
    }
    if (!cur.isEmpty())
        out.append(cur);
    return out;
}

} // namespace

std::vector<DiffSegment> wordDiff(const QString& before, const QString& after)
{
    const QStringList a = words(before), b = words(after);
    const qsizetype n = a.size(), m = b.size();
    // Compare words without their trailing whitespace.
    auto same = [&](qsizetype i, qsizetype j) {
        return a[i].trimmed() == b[j].trimmed();
    };
    std::vector<std::vector<int>> lcs(size_t(n + 1), std::vector<int>(size_t(m + 1), 0));
    for (qsizetype i = n - 1; i >= 0; --i)
        for (qsizetype j = m - 1; j >= 0; --j)
            lcs[size_t(i)][size_t(j)] =
                same(i, j) ? lcs[size_t(i + 1)][size_t(j + 1)] + 1
                           : std::max(lcs[size_t(i + 1)][size_t(j)], lcs[size_t(i)][size_t(j + 1)]);
    std::vector<DiffSegment> out;
    auto push = [&out](DiffSegment::Op op, const QString& w) {
        if (!out.empty() && out.back().op == op)
            out.back().text += w;
        else
            out.push_back({op, w});
    };
    qsizetype i = 0, j = 0;
    while (i < n && j < m) {
        if (same(i, j)) {
            push(DiffSegment::Op::Same, b[j]);
            ++i;
            ++j;
        } else if (lcs[size_t(i + 1)][size_t(j)] >= lcs[size_t(i)][size_t(j + 1)]) {
            push(DiffSegment::Op::Removed, a[i++]);
        } else {
            push(DiffSegment::Op::Added, b[j++]);
        }
    }
    while (i < n)
        push(DiffSegment::Op::Removed, a[i++]);
    while (j < m)
        push(DiffSegment::Op::Added, b[j++]);
    return out;
}

QString diffToHtml(const std::vector<DiffSegment>& diff)
{
    QString html;
    for (const DiffSegment& s : diff) {
        const QString t = s.text.toHtmlEscaped();
        switch (s.op) {
        case DiffSegment::Op::Same:
            html += t;
            break;
        case DiffSegment::Op::Removed:
            html += QStringLiteral(
                        "<span style=\"background:#f8d0d0;text-decoration:line-through\">%1</span>")
                        .arg(t);
            break;
        case DiffSegment::Op::Added:
            html += QStringLiteral("<span style=\"background:#c8f0c8\">%1</span>").arg(t);
            break;
        }
    }
    return html;
}

} // namespace hako::memory
