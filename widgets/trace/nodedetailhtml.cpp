#include "widgets/trace/nodedetailhtml.h"

#include "core/pdl/imagecontent.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/pdl/trace/tracesource.h"
#include "core/pdl/trace/valuetreemodel.h"
#include "core/promptlog/pricetable.h"
#include "widgets/common/contentparts.h"
#include "widgets/common/thememanager.h"
#include "widgets/trace/tracepanestyle.h"

#include <QDateTime>
#include <QFileInfo>
#include <QLocale>
#include <QUrl>

namespace hako {

using pdl::TraceItem;
using pdl::Value;

QString escapedLimited(const QString& text, int limit)
{
    if (text.size() <= limit)
        return text.toHtmlEscaped();
    return text.left(limit).toHtmlEscaped() +
           QObject::tr("<br><i>… %1 more characters (see the Result tab)</i>")
               .arg(text.size() - limit);
}

namespace {

QString textOf(const Value& v)
{
    // Images (base64 data URLs, also inside a text) read as short placeholders.
    if (pdl::holdsDataUrl(v))
        return textOf(pdl::withDataUrlPlaceholders(v));
    // Bounded: a 10 MB string is cut before it is copied into a QString.
    if (v.isString()) {
        const std::string& s = v.asString();
        const size_t take = std::min<size_t>(s.size(), size_t(kInlineTextLimit) * 4 + 16);
        QString t = QString::fromUtf8(s.data(), qsizetype(take));
        if (take < s.size())
            t += QStringLiteral("…");
        return t;
    }
    return pdl::ValueTreeModel::preview(v, kInlineTextLimit);
}

QString pre(const QString& text, const QString& background = {})
{
    QString style = QStringLiteral("white-space:pre-wrap; font-family:monospace;");
    if (!background.isEmpty())
        style += QStringLiteral(" background-color:%1;").arg(background);
    return QStringLiteral("<pre style='%1'>%2</pre>").arg(style, escapedLimited(text));
}

QString row(const QString& name, const QString& valueHtml)
{
    return QStringLiteral("<tr><td style='padding-right:12px; color:gray;'>%1</td><td>%2</td></tr>")
        .arg(name.toHtmlEscaped(), valueHtml);
}

QString nodeLink(const pdl::TraceModel* model, const QString& id, const QString& text)
{
    if (model && model->findById(id))
        return QStringLiteral("<a href='node:%1'>%2</a>")
            .arg(QString::fromUtf8(QUrl::toPercentEncoding(id)), text.toHtmlEscaped());
    return text.toHtmlEscaped();
}

const Value* expr(const pdl::TraceNode& n, const char* name)
{
    for (const auto& [k, v] : n.exprs)
        if (k == name)
            return &v;
    return nullptr;
}

// An OpenTelemetry span's category (OpenInference's span kind or the GenAI operation) as the
// tools its users know label it: AGENT, TOOL, LLM, CHAIN, RETRIEVER…; empty for PDL blocks.
QString spanBadge(const pdl::TraceNode& n)
{
    const Value* otel = expr(n, "otel");
    if (!otel || !otel->isDict())
        return {};
    const Value* category = otel->asDict().find("category");
    return category && category->isString() ? textOf(*category).toUpper() : QString();
}

// The model calls below a block (itself included), their tokens and, where the price table
// prices their models, their cost.
struct CallTotals {
    int calls = 0;
    int64_t prompt = 0;
    int64_t completion = 0;
    double cost = 0;
    int priced = 0;
};

CallTotals callTotals(const TraceItem& top)
{
    CallTotals t;
    const Result<promptlog::PriceTable> prices =
        promptlog::PriceTable::load(promptlog::PriceTable::defaultPath());
    std::vector<const TraceItem*> stack{&top};
    while (!stack.empty()) {
        const TraceItem* item = stack.back();
        stack.pop_back();
        for (const auto& c : item->children)
            stack.push_back(c.get());
        const pdl::TraceNode& n = item->node;
        if (n.kind != pdl::BlockKind::Model || !n.usage.isDict())
            continue;
        const Value* p = n.usage.asDict().find("prompt_tokens");
        const Value* c = n.usage.asDict().find("completion_tokens");
        const int64_t prompt = p && p->isInt() ? p->asInt() : 0;
        const int64_t completion = c && c->isInt() ? c->asInt() : 0;
        ++t.calls;
        t.prompt += prompt;
        t.completion += completion;
        const Value* model = expr(n, "model");
        if (prices && model) {
            if (auto cost = prices->cost(textOf(*model), prompt, completion, std::nullopt)) {
                t.cost += *cost;
                ++t.priced;
            }
        }
    }
    return t;
}

QString totalsText(const CallTotals& t)
{
    QString text = QObject::tr("%n model call(s)", nullptr, t.calls) + QStringLiteral(" · ") +
                   QObject::tr("%1 prompt + %2 completion = <b>%3 tokens</b>")
                       .arg(QLocale().toString(qlonglong(t.prompt)),
                            QLocale().toString(qlonglong(t.completion)),
                            QLocale().toString(qlonglong(t.prompt + t.completion)));
    if (t.priced > 0)
        text += QStringLiteral(" · ") +
                (t.priced < t.calls
                     ? QObject::tr("<b>%1</b> (the %n priced call(s))", nullptr, t.priced)
                     : QStringLiteral("<b>%1</b>"))
                    .arg(QLocale().toString(t.cost, 'f', 4));
    return text;
}

QString heading(const QString& text)
{
    return QStringLiteral("<h4 style='margin-top:12px; margin-bottom:4px;'>%1</h4>")
        .arg(text.toHtmlEscaped());
}

// The block's identity, origin, timing and totals (the first table).
QString identityHtml(const TraceItem& item, const pdl::TraceModel* model, const QColor& kc)
{
    const pdl::TraceNode& n = item.node;
    QString html;
    html += QStringLiteral("<table cellspacing='0' cellpadding='1'>");
    const QString kindSwatch =
        QStringLiteral("<span style='background-color:%1;'>&nbsp;%2&nbsp;</span>")
            .arg(kc.name(), QString::fromLatin1(pdl::blockKindName(n.kind)));
    if (const QString badge = spanBadge(n); !badge.isEmpty())
        html += row(QObject::tr("span"),
                    QStringLiteral("<b style='background-color:%1;'>&nbsp;%2&nbsp;</b> "
                                   "<small>(%3)</small>")
                        .arg(kc.name(), badge.toHtmlEscaped(),
                             QObject::tr("shown as %1")
                                 .arg(QString::fromLatin1(pdl::blockKindName(n.kind)))));
    else
        html += row(QObject::tr("kind"), kindSwatch);
    const QString def = pdl::defName(&item);
    if (!def.isEmpty())
        html += row(QObject::tr("def"), QStringLiteral("<b>%1</b>").arg(def.toHtmlEscaped()));
    if (!n.id.empty())
        html += row(
            QObject::tr("id"),
            QStringLiteral("<code>%1</code>").arg(QString::fromStdString(n.id).toHtmlEscaped()));
    if (!n.description.empty())
        html +=
            row(QObject::tr("description"), QString::fromStdString(n.description).toHtmlEscaped());
    if (!item.field.empty() && item.parent && item.parent->parent)
        html += row(QObject::tr("in"),
                    QStringLiteral("%1 <code>%2</code>")
                        .arg(nodeLink(model, QString::fromStdString(item.parent->node.id),
                                      item.parent->label()),
                             QString::fromStdString(item.field).toHtmlEscaped()));
    if (n.span.isValid())
        html +=
            row(QObject::tr("source"), QStringLiteral("<a href='source:'>%1:%2:%3</a>")
                                           .arg(QFileInfo(n.span.file).fileName().toHtmlEscaped())
                                           .arg(n.span.line)
                                           .arg(n.span.column));
    else
        html +=
            row(QObject::tr("source"), QObject::tr("<i>no location in this trace — the "
                                                   "Source tab rebuilds it from the trace</i>"));
    if (n.contribute) {
        QStringList t;
        for (const std::string& s : *n.contribute)
            t.append(QString::fromStdString(s));
        html += row(QObject::tr("contribute"),
                    t.isEmpty() ? QObject::tr("<i>nothing</i>") : t.join(QStringLiteral(", ")));
    }
    // Timing.
    if (n.startNanos > 0) {
        const QDateTime start = QDateTime::fromMSecsSinceEpoch(n.startNanos / 1000000);
        QString timing = start.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
        if (item.running)
            timing += QObject::tr(" — running");
        else if (item.cancelled)
            timing += QObject::tr(" — stopped by the user");
        else if (n.endNanos >= n.startNanos)
            timing += QStringLiteral(" — <b>%1</b>").arg(formatDuration(n.endNanos - n.startNanos));
        html += row(QObject::tr("time"), timing);
    }
    if (!item.children.empty()) {
        html += row(QObject::tr("children"), QString::number(item.children.size()));
        // What the whole run (or agent, or loop) used: the sum of the model calls below.
        if (const CallTotals totals = callTotals(item); totals.calls > 0)
            html += row(QObject::tr("total"), totalsText(totals));
    }
    html += QStringLiteral("</table>");

    return html;
}

// Model blocks: the model, its parameters, usage and speed.
QString modelRowsHtml(const pdl::TraceNode& n)
{
    QString modelRows;
    if (const Value* m = expr(n, "model"))
        modelRows += row(QObject::tr("model"),
                         QStringLiteral("<code>%1</code>").arg(textOf(*m).toHtmlEscaped()));
    // Which model answered: the alias resolved by Settings › Model Endpoints, and the name the
    // server gave in its reply when that differs.
    if (n.usage.isDict()) {
        const Value* resolved = n.usage.asDict().find("resolved_model");
        const Value* served = n.usage.asDict().find("response_model");
        const QString alias = expr(n, "model") ? textOf(*expr(n, "model")) : QString();
        if (resolved && resolved->isString() &&
            QString::fromStdString(resolved->asString()) != alias)
            modelRows +=
                row(QObject::tr("sent to"),
                    QStringLiteral("<code>%1</code>")
                        .arg(QString::fromStdString(resolved->asString()).toHtmlEscaped()));
        if (served && served->isString() &&
            (!resolved || !resolved->isString() || served->asString() != resolved->asString()) &&
            QString::fromStdString(served->asString()) != alias)
            modelRows += row(QObject::tr("answered by"),
                             QStringLiteral("<code>%1</code>")
                                 .arg(QString::fromStdString(served->asString()).toHtmlEscaped()));
    }
    if (const Value* p = expr(n, "parameters"); p && p->isDict()) {
        QStringList set;
        for (const auto& [k, v] : p->asDict().items())
            if (!v.isNull())
                set.append(QStringLiteral("<code>%1</code>: %2")
                               .arg(QString::fromStdString(k.str()).toHtmlEscaped(),
                                    pdl::ValueTreeModel::preview(v, 200).toHtmlEscaped()));
        modelRows +=
            row(QObject::tr("parameters"),
                set.isEmpty() ? QObject::tr("<i>defaults</i>") : set.join(QStringLiteral("<br>")));
    }
    if (n.usage.isDict()) {
        const auto* completion = n.usage.asDict().find("completion_tokens");
        const auto* prompt = n.usage.asDict().find("prompt_tokens");
        QString usage;
        if (prompt && prompt->isNumber())
            usage += QObject::tr("%1 prompt").arg(prompt->asInt());
        if (completion && completion->isNumber()) {
            if (!usage.isEmpty())
                usage += QStringLiteral(" + ");
            usage += QObject::tr("%1 completion tokens").arg(completion->asInt());
        }
        modelRows += row(QObject::tr("usage"), usage);
        if (completion && completion->isNumber() && n.endNanos > n.startNanos && n.startNanos > 0) {
            const double seconds = double(n.endNanos - n.startNanos) / 1e9;
            modelRows += row(
                QObject::tr("speed"),
                QObject::tr("%1 tokens/s").arg(double(completion->asInt()) / seconds, 0, 'f', 1));
        }
    }
    if (modelRows.isEmpty())
        return {};
    return heading(QObject::tr("Model")) +
           QStringLiteral("<table cellspacing='0' cellpadding='1'>%1</table>").arg(modelRows);
}

// A message's content: text as written, images as thumbnails (never their base64 text).
QString contentHtml(const Value& content)
{
    if (!pdl::contentImageUrls(content).empty())
        return contentparts::contentHtml(content, 4000);
    return QStringLiteral("<span style='white-space:pre-wrap;'>%1</span>")
        .arg(escapedLimited(textOf(content), 4000));
}

// Model blocks: the messages sent, each on its role's colour with a link to where it was
// defined (`defsites` collects those, in order).
QString messagesHtml(const pdl::TraceNode& n, const pdl::TraceModel* model, const QPalette& palette,
                     QStringList* defsites)
{
    QString html;
    const Value& messages = !n.modelInput.isNull() ? n.modelInput : n.context;
    if (messages.isList()) {
        html += heading(QObject::tr("Messages sent (%1)").arg(messages.asList().size()));
        html += QStringLiteral("<table width='100%' cellspacing='3' cellpadding='6'>");
        for (const Value& msg : messages.asList()) {
            QString role = QStringLiteral("?");
            QString content;
            QString defsite;
            if (msg.isDict()) {
                if (const Value* r = msg.asDict().find("role"))
                    role = QString::fromStdString(r->toText());
                if (const Value* c = msg.asDict().find("content"))
                    content = contentHtml(*c);
                if (const Value* d = msg.asDict().find("pdl__defsite"); d && d->isString())
                    defsite = QString::fromStdString(d->asString());
            } else {
                content = contentHtml(msg);
            }
            if (defsites)
                defsites->append(defsite);
            QString from;
            if (!defsite.isEmpty())
                from = QStringLiteral(" &nbsp;<small>%1 %2</small>")
                           .arg(QObject::tr("from"), nodeLink(model, defsite, defsite));
            html += QStringLiteral("<tr><td style='background-color:%1;'><b>%2</b>%3<br>"
                                   "%4</td></tr>")
                        .arg(roleColor(role, palette).name(), role.toHtmlEscaped(), from, content);
        }
        html += QStringLiteral("</table>");
    }
    return html;
}

// Code blocks: what ran and what it printed.
QString codeHtml(const TraceItem& item, const QPalette& palette)
{
    const pdl::TraceNode& n = item.node;
    QString html;
    QString code;
    if (const Value* c = expr(n, "code"))
        code = textOf(*c);
    else
        for (const auto& c : item.children)
            if (c->field == "code")
                code += c->resultText();
    if (!code.isEmpty()) {
        html += heading(QObject::tr("Code"));
        html += pre(code);
    }
    if (!n.out.empty()) {
        html += heading(QObject::tr("stdout"));
        html += pre(QString::fromStdString(n.out));
    }
    if (!n.err.empty()) {
        html += heading(QObject::tr("stderr"));
        html += pre(QString::fromStdString(n.err), ThemeManager::isDark(palette)
                                                       ? QStringLiteral("#4a3a1a")
                                                       : QStringLiteral("#fff6e0"));
    }
    return html;
}

// Other evaluated fields (conditions, loop lists, call arguments…).
QString evaluatedFieldsHtml(const pdl::TraceNode& n)
{
    QString fields;
    for (const auto& [k, v] : n.exprs) {
        if (n.kind == pdl::BlockKind::Model && (k == "model" || k == "parameters"))
            continue;
        if (n.kind == pdl::BlockKind::Code && k == "code")
            continue;
        fields += row(QString::fromStdString(k),
                      QStringLiteral("<code>%1</code>")
                          .arg(pdl::ValueTreeModel::preview(v, 300).toHtmlEscaped()));
    }
    if (fields.isEmpty())
        return {};
    return heading(QObject::tr("Evaluated fields")) +
           QStringLiteral("<table cellspacing='0' cellpadding='1'>%1</table>").arg(fields);
}

} // namespace

QString nodeSummaryHtml(const TraceItem& item, const pdl::TraceModel* model,
                        const QPalette& palette, QStringList* defsites)
{
    const pdl::TraceNode& n = item.node;
    QString html = identityHtml(item, model, kindColor(n.kind, palette));
    if (item.failed()) {
        html += heading(QObject::tr("Error"));
        html += pre(QString::fromStdString(n.error), ThemeManager::isDark(palette)
                                                         ? QStringLiteral("#5a2323")
                                                         : QStringLiteral("#fde8e8"));
    }
    if (n.kind == pdl::BlockKind::Model)
        html += modelRowsHtml(n) + messagesHtml(n, model, palette, defsites);
    if (n.kind == pdl::BlockKind::Code)
        html += codeHtml(item, palette);
    html += evaluatedFieldsHtml(n);
    if (!item.failed()) {
        html += heading(item.running ? QObject::tr("Output so far") : QObject::tr("Result"));
        if (item.running)
            html += pre(QString::fromStdString(item.streamed().substr(0, kInlineTextLimit * 4)));
        else if (!n.hasResult)
            html += QObject::tr("<i>no result recorded</i>");
        else
            html += pre(textOf(n.result));
    }
    return html;
}

} // namespace hako
