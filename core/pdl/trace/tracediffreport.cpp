// The text and JSON reports of a trace comparison (`hako diff`, `--json`).
#include "core/pdl/trace/tracediff.h"

#include "core/pdl/trace/tracemodel.h"

#include <QHash>
#include <QJsonArray>

#include <algorithm>
#include <functional>
#include <string_view>
#include <unordered_map>

namespace hako::pdl {

// ---- reports -----------------------------------------------------------------------------------

namespace {

QString oneLine(QString s)
{
    s.replace(QLatin1Char('\n'), QLatin1String("\\n"));
    s.replace(QLatin1Char('\t'), QLatin1String("\\t"));
    return s;
}

// The word diff with long unchanged runs shortened to their ends.
QString compactDiff(const std::vector<WordChange>& changes)
{
    std::vector<WordChange> shown = changes;
    for (size_t i = 0; i < shown.size(); ++i) {
        WordChange& c = shown[i];
        if (c.op != WordChange::Op::Equal || c.text.size() <= 80)
            continue;
        const bool first = i == 0, last = i + 1 == shown.size();
        if (first)
            c.text = QStringLiteral("…") + c.text.right(30);
        else if (last)
            c.text = c.text.left(30) + QStringLiteral("…");
        else
            c.text = c.text.left(30) + QStringLiteral("…") + c.text.right(30);
    }
    return oneLine(formatWordDiff(shown));
}

QString lineOf(const TraceDiff::Node& n)
{
    const int l = n.left ? n.left->span.line : 0;
    const int r = n.right ? n.right->span.line : 0;
    if (l > 0 && r > 0 && l != r)
        return QStringLiteral("line %1 → %2").arg(l).arg(r);
    if (r > 0 || l > 0)
        return QStringLiteral("line %1").arg(r > 0 ? r : l);
    return QString();
}

int subtreeSize(const TraceDiff& diff, int index)
{
    int n = 1;
    for (int c : diff.node(index).children)
        n += subtreeSize(diff, c);
    return n;
}

QString delta(int64_t a, int64_t b)
{
    const int64_t d = b - a;
    return QStringLiteral("%1 → %2 (%3%4)").arg(a).arg(b).arg(d > 0 ? "+" : "").arg(d);
}

QString costText(double c)
{
    return QString::number(c, 'f', c != 0 && std::abs(c) < 0.01 ? 6 : 4);
}

QJsonValue measuresJson(const TraceMeasures& m)
{
    QJsonObject o;
    if (m.durationNanos >= 0)
        o[QStringLiteral("duration_ms")] = double(m.durationNanos) / 1e6;
    if (m.hasTokens) {
        o[QStringLiteral("prompt_tokens")] = qint64(m.promptTokens);
        o[QStringLiteral("completion_tokens")] = qint64(m.completionTokens);
    }
    if (m.hasCost)
        o[QStringLiteral("cost")] = m.cost;
    return o;
}

QJsonArray wordsJson(const std::vector<WordChange>& changes)
{
    QJsonArray a;
    for (const WordChange& c : changes) {
        QJsonObject o;
        o[QStringLiteral("op")] = c.op == WordChange::Op::Equal    ? QStringLiteral("equal")
                                  : c.op == WordChange::Op::Delete ? QStringLiteral("delete")
                                                                   : QStringLiteral("insert");
        o[QStringLiteral("text")] = c.text;
        a.append(o);
    }
    return a;
}

const char* messageStatusName(MessageDiff::Status s)
{
    switch (s) {
    case MessageDiff::Status::Same:
        return "same";
    case MessageDiff::Status::Changed:
        return "changed";
    case MessageDiff::Status::Inserted:
        return "inserted";
    case MessageDiff::Status::Deleted:
        return "deleted";
    }
    return "same";
}

// Visits every row that differs, but only the top of an inserted or deleted subtree.
void forEachDifference(const TraceDiff& diff, const std::function<void(int)>& visit)
{
    std::vector<int> stack{0};
    while (!stack.empty()) {
        const int i = stack.back();
        stack.pop_back();
        const TraceDiff::Node& n = diff.node(i);
        if (n.status != TraceDiff::Status::Same)
            visit(i);
        if (n.status == TraceDiff::Status::Inserted || n.status == TraceDiff::Status::Deleted ||
            !n.descendantsDiffer)
            continue;
        for (auto it = n.children.rbegin(); it != n.children.rend(); ++it)
            stack.push_back(*it);
    }
}

} // namespace

QString TraceDiff::report(const QString& leftName, const QString& rightName) const
{
    QString out;
    out += QStringLiteral("--- %1\n+++ %2\n").arg(leftName, rightName);
    if (!isEmpty()) {
        forEachDifference(*this, [&](int i) {
            const Node& n = node(i);
            const TraceNode& shown = n.right ? *n.right : *n.left;
            const char mark = n.status == Status::Changed    ? '~'
                              : n.status == Status::Inserted ? '+'
                                                             : '-';
            QString head = QStringLiteral("%1 %2 (%3)")
                               .arg(QLatin1Char(mark))
                               .arg(n.path, traceNodeLabel(shown));
            const QString line = lineOf(n);
            if (!line.isEmpty())
                head += QLatin1String(" ") + line;
            head += QLatin1String(": ");
            if (n.status == Status::Changed) {
                head += changeNames(n.changes).join(QLatin1String(", "));
            } else {
                head += QLatin1String(statusName(n.status));
                const int below = subtreeSize(*this, i) - 1;
                if (below > 0)
                    head += QStringLiteral(" with %1 block(s) below").arg(below);
            }
            out += head + QLatin1Char('\n');
            if (n.status == Status::Changed) {
                if (n.changes & (ResultChanged | ErrorChanged))
                    out += QLatin1String("    result: ") + compactDiff(resultDiff(i)) +
                           QLatin1Char('\n');
                if (n.changes & PromptChanged) {
                    for (const MessageDiff& m : promptDiff(i)) {
                        if (m.status == MessageDiff::Status::Same)
                            continue;
                        const int at = (m.rightIndex >= 0 ? m.rightIndex : m.leftIndex) + 1;
                        out += QStringLiteral("    message %1 (%2) %3: %4\n")
                                   .arg(at)
                                   .arg(m.role.isEmpty() ? QStringLiteral("-") : m.role,
                                        QLatin1String(messageStatusName(m.status)),
                                        compactDiff(m.words));
                    }
                }
                if (n.changes & ExpressionsChanged)
                    for (const ExpressionDiff& e : expressionDiff(i)) {
                        // Short values side by side; long ones (messages, parameters) as a
                        // word diff, where the change can be found.
                        if (e.left.isEmpty() || e.right.isEmpty() ||
                            e.left.size() + e.right.size() <= 60)
                            out += QStringLiteral("    %1: %2 → %3\n")
                                       .arg(e.name,
                                            oneLine(e.left.isEmpty() ? QStringLiteral("-")
                                                                     : e.left.left(200)),
                                            oneLine(e.right.isEmpty() ? QStringLiteral("-")
                                                                      : e.right.left(200)));
                        else
                            out += QStringLiteral("    %1: %2\n")
                                       .arg(e.name, compactDiff(joinChangesAcrossSpaces(
                                                        wordDiff(e.left, e.right))));
                    }
                if (n.changes & OutputChanged)
                    out += QLatin1String("    output: ") + compactDiff(outputDiff(i)) +
                           QLatin1Char('\n');
                if (n.leftOwn.hasTokens || n.rightOwn.hasTokens) {
                    if (n.leftOwn.tokens() != n.rightOwn.tokens())
                        out += QLatin1String("    tokens: ") +
                               delta(n.leftOwn.tokens(), n.rightOwn.tokens()) + QLatin1Char('\n');
                }
            } else {
                const QString text = traceNodeText(shown);
                if (!text.isEmpty())
                    out += QLatin1String("    ") +
                           compactDiff({WordChange{WordChange::Op::Equal, text}}) +
                           QLatin1Char('\n');
            }
        });
    }
    out += QStringLiteral("%1 changed, %2 inserted, %3 deleted, %4 same\n")
               .arg(m_counts.changed)
               .arg(m_counts.inserted)
               .arg(m_counts.deleted)
               .arg(m_counts.same);
    if (!isEmpty()) {
        const Node& root = node(0);
        const TraceMeasures& l = root.leftSubtree;
        const TraceMeasures& r = root.rightSubtree;
        if (l.durationNanos >= 0 && r.durationNanos >= 0)
            out +=
                QStringLiteral("duration: %1 → %2 (%3)\n")
                    .arg(formatDurationNanos(l.durationNanos), formatDurationNanos(r.durationNanos),
                         formatDurationNanos(r.durationNanos - l.durationNanos, true));
        if (l.hasTokens || r.hasTokens)
            out += QStringLiteral("tokens: %1; prompt %2, completion %3\n")
                       .arg(delta(l.tokens(), r.tokens()), delta(l.promptTokens, r.promptTokens),
                            delta(l.completionTokens, r.completionTokens));
        if (l.hasCost || r.hasCost)
            out += QStringLiteral("cost: %1 → %2\n").arg(costText(l.cost), costText(r.cost));
    }
    if (isUndetermined())
        out += QStringLiteral("the runs could not be compared in full: %1 block(s) hold blocks "
                              "or values nested too deeply to compare\n")
                   .arg(m_counts.notCompared);
    else
        out += isSame() ? QStringLiteral("the runs are the same (timings aside)\n")
                        : QStringLiteral("the runs differ\n");
    return out;
}

QJsonObject TraceDiff::toJson(const QString& leftName, const QString& rightName) const
{
    QJsonObject doc;
    doc[QStringLiteral("left")] = leftName;
    doc[QStringLiteral("right")] = rightName;
    doc[QStringLiteral("same")] = isSame();
    doc[QStringLiteral("complete")] = m_counts.notCompared == 0;
    QJsonObject summary;
    summary[QStringLiteral("same")] = m_counts.same;
    summary[QStringLiteral("changed")] = m_counts.changed;
    summary[QStringLiteral("inserted")] = m_counts.inserted;
    summary[QStringLiteral("deleted")] = m_counts.deleted;
    summary[QStringLiteral("not_compared")] = m_counts.notCompared;
    if (!isEmpty()) {
        summary[QStringLiteral("left_totals")] = measuresJson(node(0).leftSubtree);
        summary[QStringLiteral("right_totals")] = measuresJson(node(0).rightSubtree);
    }
    doc[QStringLiteral("summary")] = summary;
    QJsonArray differences;
    if (!isEmpty()) {
        forEachDifference(*this, [&](int i) {
            const Node& n = node(i);
            const TraceNode& shown = n.right ? *n.right : *n.left;
            QJsonObject o;
            o[QStringLiteral("status")] = QLatin1String(statusName(n.status));
            o[QStringLiteral("path")] = n.path;
            o[QStringLiteral("kind")] = QLatin1String(blockKindName(shown.kind));
            if (!shown.def.empty())
                o[QStringLiteral("def")] = QString::fromStdString(shown.def);
            if (!n.field.empty())
                o[QStringLiteral("field")] = QString::fromStdString(n.field);
            if (n.left) {
                o[QStringLiteral("left_id")] = QString::fromStdString(n.left->id);
                if (n.left->span.line > 0)
                    o[QStringLiteral("left_line")] = n.left->span.line;
            }
            if (n.right) {
                o[QStringLiteral("right_id")] = QString::fromStdString(n.right->id);
                if (n.right->span.line > 0)
                    o[QStringLiteral("right_line")] = n.right->span.line;
            }
            if (n.status == Status::Changed) {
                o[QStringLiteral("changes")] = QJsonArray::fromStringList(changeNames(n.changes));
                if (n.changes & (ResultChanged | ErrorChanged)) {
                    o[QStringLiteral("left_result")] = traceNodeText(*n.left);
                    o[QStringLiteral("right_result")] = traceNodeText(*n.right);
                    o[QStringLiteral("result_diff")] = wordsJson(resultDiff(i));
                }
                if (n.changes & PromptChanged) {
                    QJsonArray messages;
                    for (const MessageDiff& m : promptDiff(i)) {
                        QJsonObject mo;
                        mo[QStringLiteral("status")] = QLatin1String(messageStatusName(m.status));
                        mo[QStringLiteral("role")] = m.role;
                        mo[QStringLiteral("left_index")] = m.leftIndex;
                        mo[QStringLiteral("right_index")] = m.rightIndex;
                        if (m.status != MessageDiff::Status::Same)
                            mo[QStringLiteral("diff")] = wordsJson(m.words);
                        messages.append(mo);
                    }
                    o[QStringLiteral("messages")] = messages;
                }
                if (n.changes & ExpressionsChanged) {
                    QJsonArray exprs;
                    for (const ExpressionDiff& e : expressionDiff(i))
                        exprs.append(QJsonObject{{QStringLiteral("name"), e.name},
                                                 {QStringLiteral("left"), e.left},
                                                 {QStringLiteral("right"), e.right}});
                    o[QStringLiteral("expressions")] = exprs;
                }
                if (n.changes & OutputChanged)
                    o[QStringLiteral("output_diff")] = wordsJson(outputDiff(i));
            } else {
                o[QStringLiteral("result")] = traceNodeText(shown);
                o[QStringLiteral("blocks")] = subtreeSize(*this, i);
            }
            o[QStringLiteral("left_measures")] = measuresJson(n.leftSubtree);
            o[QStringLiteral("right_measures")] = measuresJson(n.rightSubtree);
            differences.append(o);
        });
    }
    doc[QStringLiteral("differences")] = differences;
    return doc;
}

} // namespace hako::pdl
