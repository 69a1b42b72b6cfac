#include "widgets/shape/shapesource.h"

#include "core/pdl/trace/tracemodel.h"
#include "core/promptlog/calltablemodel.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/trace/tracecontextlink.h"
#include "widgets/trace/tracepanestyle.h"

#include <QCoreApplication>
#include <QStringList>
#include <QWidget>

namespace hako {

ShapeSource::ShapeSource(WorkbenchContext* context, QObject* origin)
    : QObject(origin), m_context(context), m_origin(origin)
{
    m_rebuild.setSingleShot(true);
    connect(&m_rebuild, &QTimer::timeout, this, &ShapeSource::rebuild);
    followTraceContext(
        context, this, [this](pdl::TraceModel* model) { setModel(model); },
        [this](const QString& id) { showNode(id); }, false);
}

void ShapeSource::setModel(pdl::TraceModel* model)
{
    for (const auto& c : m_modelConnections)
        disconnect(c);
    m_modelConnections.clear();
    m_model = model;
    if (model) {
        // A streaming run changes the model many times a second: one rebuild per 200 ms.
        auto changed = [this] {
            if (!m_rebuild.isActive())
                m_rebuild.start(200);
        };
        auto now = [this] {
            m_shape = {};
            m_byId.clear();
            m_rebuild.start(0);
        };
        m_modelConnections = {
            connect(model, &pdl::TraceModel::modelAboutToBeReset, this, now),
            connect(model, &pdl::TraceModel::modelReset, this, now),
            connect(model, &pdl::TraceModel::rowsInserted, this, changed),
            connect(model, &pdl::TraceModel::rowsRemoved, this, changed),
            connect(model, &pdl::TraceModel::rowsAboutToBeRemoved, this, now),
            connect(model, &pdl::TraceModel::rowsMoved, this, changed),
            connect(model, &pdl::TraceModel::dataChanged, this, changed),
            connect(model, &pdl::TraceModel::liveRunEnded, this, changed),
        };
    }
    rebuild();
}

void ShapeSource::refresh()
{
    if (m_stale)
        rebuild();
}

void ShapeSource::rebuild()
{
    m_rebuild.stop();
    if (auto* pane = qobject_cast<QWidget*>(m_origin); pane && !pane->isVisible()) {
        m_stale = true;
        return;
    }
    m_stale = false;
    m_shape = pdl::collectShape(m_model ? m_model->root() : nullptr);
    m_totals = pdl::runTotals(m_shape);
    m_byId.clear();
    m_byId.reserve(m_shape.spans.size());
    for (size_t i = 0; i < m_shape.spans.size(); ++i)
        m_byId.emplace(m_shape.spans[i].id, int(i));
    m_current = m_context ? spanOf(m_context->currentNode().toStdString()) : -1;
    Q_EMIT shapeChanged();
}

int ShapeSource::spanOf(const std::string& id) const
{
    const auto it = m_byId.find(id);
    return it == m_byId.end() ? -1 : it->second;
}

void ShapeSource::showNode(const QString& id)
{
    m_current = id.isEmpty() ? -1 : spanOf(id.toStdString());
    Q_EMIT currentChanged(m_current);
}

void ShapeSource::select(int span)
{
    if (span < 0 || size_t(span) >= m_shape.spans.size() || !m_context)
        return;
    m_current = span;
    m_context->setCurrentNode(QString::fromStdString(m_shape.spans[size_t(span)].id), m_origin);
}

void ShapeSource::activate(int span)
{
    select(span);
    if (span < 0 || size_t(span) >= m_shape.spans.size() || !m_context || !m_model)
        return;
    const QString id = QString::fromStdString(m_shape.spans[size_t(span)].id);
    if (const pdl::TraceItem* item = m_model->findById(id); item && item->node.span.isValid())
        m_context->revealSource(item->node.span, m_origin);
}

QString ShapeSource::measuresText(const pdl::TraceMeasures& m)
{
    QStringList parts;
    if (m.durationNanos >= 0)
        parts << formatDuration(m.durationNanos);
    if (m.hasTokens)
        parts << tr("%1 tokens").arg(promptlog::formatCount(m.tokens()));
    if (m.hasCost)
        parts << tr("cost %1").arg(promptlog::formatCost(m.cost));
    return parts.join(QStringLiteral(" · "));
}

QString ShapeSource::totalsText(const pdl::RunTotals& t)
{
    QStringList parts;
    if (t.durationNanos >= 0)
        parts << formatDuration(t.durationNanos);
    parts << (t.hasTokens ? tr("%1 tokens").arg(promptlog::formatCount(t.tokens()))
                          : tr("no token counts"));
    if (t.hasCost)
        parts << tr("cost %1").arg(promptlog::formatCost(t.cost));
    parts << tr("%n model call(s)", nullptr, t.modelCalls);
    parts << tr("%n tool call(s)", nullptr, t.toolCalls);
    if (t.failures)
        parts << tr("%n failed", nullptr, t.failures);
    return tr("Run total: %1").arg(parts.join(QStringLiteral(" · ")));
}

QString ShapeSource::roleName(pdl::ShapeRole role)
{
    switch (role) {
    case pdl::ShapeRole::Agent:
        return tr("Agent");
    case pdl::ShapeRole::Tool:
        return tr("Tool");
    case pdl::ShapeRole::Model:
        return tr("Model call");
    case pdl::ShapeRole::Step:
        break;
    }
    return tr("Step");
}

QString ShapeSource::emptyText()
{
    return tr("Run a program or open a trace to see its shape");
}

} // namespace hako
