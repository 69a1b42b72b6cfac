#pragma once

#include "core/util/diagnostic.h"

#include <QSet>
#include <QWidget>

#include <memory>

class QLabel;
class QModelIndex;
class QStackedWidget;
class QTreeView;

namespace hako {

namespace pdl {
class OutlineModel;
struct ProgramReport;
} // namespace pdl

class EditorAnalysis;
class PdlEditor;

/// The Outline pane: the blocks of the program in the editor as a tree (their `def` names, or
/// kind and summary), rebuilt whenever a new analysis report arrives. Clicking or activating
/// (Enter) an item selects that block in the editor; moving the editor's cursor selects the
/// item of the innermost block holding it, without taking the keyboard focus. Shows a short
/// explanation instead of the tree while there is no program or it cannot be read. Items the
/// user collapsed stay collapsed across rebuilds. GUI thread only.
class OutlineView : public QWidget {
    Q_OBJECT
public:
    /// `editor` is not owned and must outlive the view.
    explicit OutlineView(PdlEditor* editor, QWidget* parent = nullptr);
    ~OutlineView() override;

    /// Follows `analysis` (not owned; null stops): shows its current report now and each one
    /// it delivers later.
    void setAnalysis(EditorAnalysis* analysis);
    /// Shows the outline of `report`; null (or a report without a program) shows the empty
    /// state.
    void setReport(std::shared_ptr<const pdl::ProgramReport> report);

    QTreeView* treeView() const { return m_tree; }
    pdl::OutlineModel* model() const { return m_model; }
    /// Whether the explanation is shown instead of the tree, and its text.
    bool isShowingEmptyState() const;
    QString emptyStateText() const;

Q_SIGNALS:
    /// An item was clicked or activated; its block's span has been selected in the editor.
    void blockActivated(const hako::SourceSpan& span);

private:
    void reveal(const QModelIndex& index);
    void followCursor(int line, int column);
    void showEmpty(const QString& text);
    QString pathKey(const QModelIndex& index) const;
    void restoreExpansion(const QModelIndex& parent);

    PdlEditor* m_editor;
    EditorAnalysis* m_analysis = nullptr;
    pdl::OutlineModel* m_model;
    QTreeView* m_tree;
    QLabel* m_empty;
    QStackedWidget* m_stack;
    /// The span last selected from here: cursor moves inside it keep its item selected.
    SourceSpan m_revealed;
    QSet<QString> m_collapsed;
    bool m_rebuilding = false;
};

} // namespace hako
