#include "widgets/otel/otelrunlist.h"

#include "widgets/trace/tracepanestyle.h"

#include <QDateTime>
#include <QPalette>

namespace hako {

namespace {

QString bubble(const QString& who, const QString& text, const QColor& tint, bool right)
{
    QString body = text.toHtmlEscaped();
    body.replace(QLatin1Char('\n'), QLatin1String("<br>"));
    return QStringLiteral("<table width='100%' cellspacing='0' cellpadding='2'><tr>%1"
                          "<td width='80%' bgcolor='%2' style='padding:6px'>"
                          "<b>%3</b><br>%4</td>%5</tr></table>")
        .arg(right ? QStringLiteral("<td width='20%'></td>") : QString(), tint.name(),
             who.toHtmlEscaped(), body,
             right ? QString() : QStringLiteral("<td width='20%'></td>"));
}

QString totalsLine(int runs, int64_t tokens, const std::optional<double>& cost, int64_t nanos,
                   int errors)
{
    QStringList parts;
    parts << OtelRunList::tr("%n run(s)", nullptr, runs);
    parts << OtelRunList::tr("%1 tokens").arg(tokens);
    if (cost)
        parts << OtelRunList::tr("cost %1").arg(*cost, 0, 'f', 4);
    if (nanos > 0)
        parts << formatDuration(nanos);
    if (errors > 0)
        parts << OtelRunList::tr("%n error(s)", nullptr, errors);
    return parts.join(QStringLiteral(" · "));
}

} // namespace

QString sessionThreadHtml(const otel::RunSession& s)
{
    const QPalette palette;
    const QColor user = roleColor(QStringLiteral("user"), palette);
    const QColor assistant = roleColor(QStringLiteral("assistant"), palette);
    QString html = QStringLiteral("<h3>%1</h3><p>%2</p>")
                       .arg(OtelRunList::tr("Session %1")
                                .arg(QString::fromStdString(s.session))
                                .toHtmlEscaped(),
                            totalsLine(int(s.runs.size()), s.tokens(), s.cost,
                                       s.endNanos - s.startNanos, s.errors)
                                .toHtmlEscaped());
    for (const otel::RunRow& r : s.runs) {
        const QString when = r.startNanos > 0
                                 ? QDateTime::fromMSecsSinceEpoch(r.startNanos / 1000000)
                                       .toLocalTime()
                                       .toString(QStringLiteral("HH:mm:ss"))
                                 : QString();
        html +=
            QStringLiteral("<p style='color:gray'>%1 %2 — %3</p>")
                .arg(
                    when.toHtmlEscaped(), QString::fromStdString(r.name).toHtmlEscaped(),
                    totalsLine(1, r.tokens(), r.cost, r.durationNanos(), r.errors).toHtmlEscaped());
        const QString who =
            r.user.empty() ? OtelRunList::tr("Input") : QString::fromStdString(r.user);
        html += bubble(who,
                       r.input.empty() ? OtelRunList::tr("(no input recorded)")
                                       : QString::fromStdString(r.input),
                       user, false);
        QString reply = r.output.empty() ? OtelRunList::tr("(no output recorded)")
                                         : QString::fromStdString(r.output);
        if (r.status == otel::RunStatus::Error)
            reply += QLatin1Char('\n') +
                     OtelRunList::tr("The run ended with %n error(s).", nullptr, r.errors);
        else if (r.status == otel::RunStatus::Running)
            reply += QLatin1Char('\n') + OtelRunList::tr("Still running.");
        html += bubble(OtelRunList::tr("Output"), reply, assistant, true);
    }
    return html;
}

} // namespace hako
