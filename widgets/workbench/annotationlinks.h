#pragma once

#include "core/pdl/trace/annotations.h"
#include "core/promptlog/callrecord.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>

#include <optional>

class QAction;
class QLabel;

namespace hako {

class AnnotationDialog;
class TraceDocks;
class WorkbenchContext;
namespace pdl {
class TraceModel;
struct TraceItem;
} // namespace pdl

/// Annotations in the window: Annotate… (Ctrl+Shift+A, in the Trace Tree's and Detail's context
/// menus) scores the current block or span and notes why; the Trace Tree marks annotated rows
/// (👍, 👎, the score) and its search understands `annotated`, `score:<value>`, `note:<word>`; the
/// Detail pane shows the current block's annotation. A trace file's annotations are kept next to
/// it (`<trace>.annotations.json`) and come back when it is opened again; a run's that was not
/// saved live as long as its trace is shown. Add to Dataset makes an annotated model call a
/// dataset example (its note as the reference); Export Annotations… writes JSON Lines. GUI
/// thread; wiring only (the store is core/pdl/trace/annotations.h).
class AnnotationLinks : public QObject {
    Q_OBJECT
public:
    AnnotationLinks(WorkbenchContext* context, TraceDocks* traces, QObject* parent = nullptr);

    QAction* annotateAction() const { return m_annotate; }
    QAction* addToDatasetAction() const { return m_addToDataset; }
    QAction* exportAction() const { return m_export; }
    /// The line in the Detail pane showing the current block's annotation.
    QLabel* detailLabel() const { return m_detail; }

    /// The annotations of the shown trace.
    pdl::Annotations annotations() const;
    /// The annotation of `item` in the shown trace, or null.
    const pdl::Annotation* annotationOf(const pdl::TraceItem* item) const;
    /// Keeps `annotation` for the shown trace (and in its sidecar file when it is a file).
    void setAnnotation(const pdl::Annotation& annotation);
    void removeAnnotation(const QString& nodeId);
    /// Opens the editor for the current node (returned; deletes itself when closed), or null
    /// when no node is selected.
    AnnotationDialog* annotateCurrent();
    /// Writes the shown trace's annotations as JSON Lines to `path`; false with the reason in
    /// the status bar when it cannot.
    bool exportTo(const QString& path);
    /// The current node as a prompt-log call (its messages; its note, else its output, as the
    /// reply); empty unless it is an annotated model call.
    QList<promptlog::CallRecord> currentAsCalls() const;

Q_SIGNALS:
    void statusMessage(const QString& text, int timeout);
    /// Add to Dataset on an annotated model call (EvalLinks::addToDataset takes it).
    void addToDatasetRequested(const QList<hako::promptlog::CallRecord>& calls);

private:
    QString tracePathOf(const pdl::TraceModel* model) const;
    void watch(pdl::TraceModel* model);
    void reload(pdl::TraceModel* model);
    void changed();
    void updateDetail();
    void exportWithDialog();
    /// A model call's annotation (none: removed) as the call's score in the prompt log.
    void scoreInLog(const QString& nodeId, const std::optional<pdl::Annotation>& annotation);

    QPointer<WorkbenchContext> m_context;
    TraceDocks* m_traces;
    QAction* m_annotate;
    QAction* m_addToDataset;
    QAction* m_export;
    QLabel* m_detail = nullptr;
    QHash<const pdl::TraceModel*, pdl::Annotations> m_notes;
    /// Sidecars that could not be read: never written over (nothing of them is lost).
    QHash<QString, QString> m_unreadable;
    QList<const pdl::TraceModel*> m_watched;
};

} // namespace hako
