#include "widgets/workbench/annotationlinks.h"

#include "core/pdl/trace/tracemodel.h"
#include "core/pdl/valuejson.h"
#include "core/promptlog/promptlog.h"
#include "core/util/outputfile.h"
#include "core/util/whenready.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/promptlog/callscores.h"
#include "widgets/trace/annotationdialog.h"
#include "widgets/trace/tracetreeview.h"
#include "widgets/workbench/tracedocks.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace hako {

AnnotationLinks::AnnotationLinks(WorkbenchContext* context, TraceDocks* traces, QObject* parent)
    : QObject(parent), m_context(context), m_traces(traces),
      m_annotate(new QAction(tr("Annotate…"), this)),
      m_addToDataset(new QAction(tr("Add Annotated Call to Dataset"), this)),
      m_export(new QAction(tr("Export Annotations…"), this))
{
    m_annotate->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    m_annotate->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_annotate->setToolTip(tr("Score the selected block (✓, ✗, a number or a label) and note why"));
    m_addToDataset->setToolTip(
        tr("Make the selected annotated model call an example: its messages as the input, the "
           "note (else the reply) as the reference"));
    m_export->setToolTip(tr("Save this trace's annotations with each block's input and output "
                            "as JSON Lines"));
    connect(m_annotate, &QAction::triggered, this, [this] { annotateCurrent(); });
    connect(m_addToDataset, &QAction::triggered, this, [this] {
        const QList<promptlog::CallRecord> calls = currentAsCalls();
        if (calls.isEmpty())
            Q_EMIT statusMessage(tr("Select an annotated model call to add it to a dataset."),
                                 6000);
        else
            Q_EMIT addToDatasetRequested(calls);
    });
    connect(m_export, &QAction::triggered, this, &AnnotationLinks::exportWithDialog);

    TraceTreeView* tree = traces->treeView();
    QTreeView* view = tree->treeView();
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
    tree->addAction(m_annotate); // the shortcut works anywhere in the pane
    view->addActions({m_annotate, m_addToDataset, m_export});
    tree->searchField()->setPlaceholderText(
        tr("Search blocks (text, kind:model, def:name, failed, annotated, score:down, note:word)"));
    tree->setRowMarker([this](const pdl::TraceItem* item) {
        const pdl::Annotation* a = annotationOf(item);
        return a ? a->marker() : QString();
    });
    tree->setWordHandler([this](QStringList& words) -> std::function<bool(const pdl::TraceItem*)> {
        const pdl::AnnotationQuery query = pdl::AnnotationQuery::take(words);
        if (query.isEmpty())
            return nullptr;
        return [this, query](const pdl::TraceItem* item) {
            return query.matches(annotationOf(item));
        };
    });

    if (QWidget* detail = traces->detailDock()->widget()) {
        m_detail = new QLabel(detail);
        m_detail->setAccessibleName(tr("Annotation"));
        m_detail->setWordWrap(true);
        m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
        m_detail->setContentsMargins(6, 2, 6, 4);
        m_detail->hide();
        if (auto* layout = qobject_cast<QVBoxLayout*>(detail->layout()))
            layout->addWidget(m_detail);
        detail->addAction(m_annotate);
    }
    connect(context, &WorkbenchContext::currentNodeChanged, this, &AnnotationLinks::updateDetail);
    connect(context, &WorkbenchContext::traceModelChanged, this, [this](pdl::TraceModel* model) {
        watch(model);
        changed();
    });
    watch(traces->fileTraceModel());
    watch(context->traceModel());
}

QString AnnotationLinks::tracePathOf(const pdl::TraceModel* model) const
{
    // Only a trace file has a place for its annotations; a run's trace names its program.
    if (!model || model != m_traces->fileTraceModel())
        return QString();
    return model->source();
}

void AnnotationLinks::watch(pdl::TraceModel* model)
{
    if (!model || m_watched.contains(model))
        return;
    m_watched.append(model);
    connect(model, &QAbstractItemModel::modelReset, this, [this, model] { reload(model); });
    connect(model, &QObject::destroyed, this, [this, model] {
        m_watched.removeAll(model);
        m_notes.remove(model);
    });
    reload(model);
}

void AnnotationLinks::reload(pdl::TraceModel* model)
{
    m_notes.remove(model);
    const QString path = tracePathOf(model);
    if (!path.isEmpty()) {
        m_unreadable.remove(path);
        Result<pdl::Annotations> read = pdl::readAnnotations(path);
        if (read)
            m_notes.insert(model, *read);
        else {
            m_unreadable.insert(path, read.error().message);
            Q_EMIT statusMessage(read.error().message, 10000);
        }
    }
    if (model == m_context->traceModel())
        changed();
}

pdl::Annotations AnnotationLinks::annotations() const
{
    return m_notes.value(m_context ? m_context->traceModel() : nullptr);
}

const pdl::Annotation* AnnotationLinks::annotationOf(const pdl::TraceItem* item) const
{
    if (!item || !m_context)
        return nullptr;
    const auto notes = m_notes.constFind(m_context->traceModel());
    if (notes == m_notes.cend())
        return nullptr;
    const auto found = notes->constFind(QString::fromStdString(item->node.id));
    return found == notes->cend() ? nullptr : &*found;
}

void AnnotationLinks::setAnnotation(const pdl::Annotation& annotation)
{
    pdl::TraceModel* model = m_context->traceModel();
    if (!model || annotation.nodeId.isEmpty())
        return;
    pdl::Annotations& notes = m_notes[model];
    notes.insert(annotation.nodeId, annotation);
    const QString path = tracePathOf(model);
    if (path.isEmpty()) {
        Q_EMIT statusMessage(tr("Annotated. This run's trace is not a file: save it (Run › Save "
                                "Trace As…) and open it to keep its annotations."),
                             8000);
    } else if (m_unreadable.contains(path)) {
        Q_EMIT statusMessage(m_unreadable.value(path) + QLatin1Char(' ') +
                                 tr("The new annotation is kept until the window closes."),
                             10000);
    } else if (Result<bool> written = pdl::writeAnnotations(path, notes); !written) {
        Q_EMIT statusMessage(written.error().message, 10000);
    }
    scoreInLog(annotation.nodeId, annotation);
    changed();
}

void AnnotationLinks::removeAnnotation(const QString& nodeId)
{
    pdl::TraceModel* model = m_context->traceModel();
    if (!model || !m_notes[model].remove(nodeId))
        return;
    const QString path = tracePathOf(model);
    if (!path.isEmpty() && !m_unreadable.contains(path))
        if (Result<bool> written = pdl::writeAnnotations(path, m_notes[model]); !written)
            Q_EMIT statusMessage(written.error().message, 10000);
    scoreInLog(nodeId, std::nullopt);
    changed();
}

void AnnotationLinks::scoreInLog(const QString& nodeId,
                                 const std::optional<pdl::Annotation>& annotation)
{
    pdl::TraceModel* model = m_context->traceModel();
    const pdl::TraceItem* item = model ? model->findById(nodeId) : nullptr;
    std::shared_ptr<promptlog::PromptLog> log = m_context->promptLog();
    if (!item || item->node.kind != pdl::BlockKind::Model || !log)
        return;
    // The call is the one of this node in this run: a kept trace is named by its run id (the
    // workbench's runs, `hako serve`'s received traces); a run's live trace by its program.
    const QString path = tracePathOf(model);
    const QString runId =
        path.isEmpty() ? QString() : QFileInfo(path).fileName().section('.', 0, 0);
    const QString program = path.isEmpty() ? model->source() : QString();
    whenReady(this, QtConcurrent::run([log, nodeId, runId, program, annotation]() -> QString {
                  promptlog::CallFilter filter;
                  filter.traceNodeId = nodeId;
                  filter.runId = runId;
                  filter.limit = 20;
                  Result<QList<promptlog::CallRecord>> calls = log->list(filter);
                  if (!calls)
                      return calls.error().message;
                  for (const promptlog::CallRecord& c : *calls) {
                      if (runId.isEmpty() && c.programPath != program)
                          continue;
                      Result<bool> done =
                          annotation ? log->setScore(scoreFromAnnotation(*annotation, c.uid))
                                     : log->removeScore(c.uid, QStringLiteral("human"),
                                                        promptlog::ScoreSource::Human);
                      return done ? QString() : done.error().message;
                  }
                  return QString(); // the call is not in the log (not logged, or pruned)
              }),
              [this](const QString& error) {
                  if (!error.isEmpty())
                      Q_EMIT statusMessage(
                          tr("The score was not kept in the prompt log: %1").arg(error), 10000);
                  else
                      Q_EMIT m_context->promptLogCommitted(); // the Prompt log shows it
              });
}

AnnotationDialog* AnnotationLinks::annotateCurrent()
{
    pdl::TraceModel* model = m_context->traceModel();
    const QString id = m_context->currentNode();
    const pdl::TraceItem* item = model && !id.isEmpty() ? model->findById(id) : nullptr;
    if (!item) {
        Q_EMIT statusMessage(tr("Select a block in the trace to annotate it."), 6000);
        return nullptr;
    }
    pdl::Annotation start;
    start.nodeId = id;
    if (const pdl::Annotation* a = annotationOf(item))
        start = *a;
    auto* dialog = new AnnotationDialog(start, item->label(), m_traces->treeView()->window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this,
            [this, dialog] { setAnnotation(dialog->annotation()); });
    connect(dialog, &AnnotationDialog::removeRequested, this, [this, id] { removeAnnotation(id); });
    dialog->open();
    return dialog;
}

QList<promptlog::CallRecord> AnnotationLinks::currentAsCalls() const
{
    const pdl::TraceModel* model = m_context ? m_context->traceModel() : nullptr;
    const pdl::TraceItem* item = model ? model->findById(m_context->currentNode()) : nullptr;
    const pdl::Annotation* a = annotationOf(item);
    if (!a || item->node.kind != pdl::BlockKind::Model)
        return {};
    promptlog::CallRecord call;
    call.traceNodeId = a->nodeId;
    call.promptName = item->label();
    call.messages = pdl::toQJsonValue(item->node.modelInput).toArray();
    call.reply = a->note.isEmpty() ? item->resultText() : a->note;
    call.uid = QStringLiteral("annotation:%1:%2").arg(model->source(), a->nodeId);
    return {call};
}

bool AnnotationLinks::exportTo(const QString& path)
{
    const pdl::TraceModel* model = m_context->traceModel();
    QString error = tr("no trace is on show");
    if (!model ||
        !writeOutputFile(path, pdl::exportAnnotationsJsonl(annotations(), *model), &error)) {
        Q_EMIT statusMessage(tr("Cannot write %1: %2").arg(path, error), 8000);
        return false;
    }
    Q_EMIT statusMessage(tr("Exported %n annotation(s) to %1", nullptr, int(annotations().size()))
                             .arg(QDir::toNativeSeparators(path)),
                         6000);
    return true;
}

void AnnotationLinks::exportWithDialog()
{
    if (annotations().isEmpty()) {
        Q_EMIT statusMessage(tr("This trace has no annotations yet."), 6000);
        return;
    }
    const QString start = tracePathOf(m_context->traceModel());
    const QString path = QFileDialog::getSaveFileName(
        m_traces->treeView()->window(), tr("Export Annotations"),
        start.isEmpty() ? QString() : start + QStringLiteral(".annotations.jsonl"),
        tr("JSON Lines (*.jsonl);;All files (*)"));
    if (!path.isEmpty())
        exportTo(path);
}

void AnnotationLinks::changed()
{
    m_traces->treeView()->refresh();
    updateDetail();
}

void AnnotationLinks::updateDetail()
{
    const pdl::TraceModel* model = m_context ? m_context->traceModel() : nullptr;
    const pdl::TraceItem* item = model && !m_context->currentNode().isEmpty()
                                     ? model->findById(m_context->currentNode())
                                     : nullptr;
    const pdl::Annotation* a = annotationOf(item);
    m_annotate->setEnabled(item != nullptr);
    m_addToDataset->setEnabled(a && item->node.kind == pdl::BlockKind::Model);
    m_export->setEnabled(!annotations().isEmpty());
    if (!m_detail)
        return;
    if (!a) {
        m_detail->hide();
        return;
    }
    QString text = tr("Annotation: %1").arg(a->marker());
    if (!a->note.isEmpty())
        text += QStringLiteral(" — ") + a->note;
    if (!a->author.isEmpty())
        text += QStringLiteral(" (%1)").arg(a->author);
    m_detail->setText(text);
    m_detail->setAccessibleName(text); // what a screen reader reads is the annotation itself
    m_detail->show();
}

} // namespace hako
