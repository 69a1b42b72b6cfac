#pragma once

#include "widgets/trace/singlenodepane.h"

#include "core/pdl/value.h"

#include <QStringList>
#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QTabWidget;
class QTextBrowser;
class QToolButton;
class QTreeView;
class QUrl;

namespace hako {
class WorkbenchContext;
namespace pdl {
class TraceModel;
class ValueTreeModel;
struct TraceItem;
} // namespace pdl

/// Everything about the context's current trace node: a summary (kind, def, id, source link,
/// timing, error; model messages role-coloured with links to the blocks that contributed them,
/// parameters, token usage and speed; code, stdout and stderr), the result (text, or JSON as a
/// foldable tree), the source (the program lines at the node's span, or the block rebuilt from
/// the trace when there is no location) and the node's raw JSON. Results over 256 KB are shown
/// cut with "Open in full" and "Save…". Follows the context; link clicks select the linked
/// node and reveal its source through the context. GUI thread.
class NodeDetailView : public SingleNodePane {
    Q_OBJECT
public:
    enum Tab { SummaryTab, ResultTab, SourceTab, JsonTab };
    /// Results larger than this (bytes of text) are shown cut.
    static constexpr qsizetype kElideBytes = 256 * 1024;

    explicit NodeDetailView(WorkbenchContext* context, QWidget* parent = nullptr);

    QTabWidget* tabs() const { return m_tabs; }
    QTextBrowser* summary() const { return m_summary; }
    QPlainTextEdit* resultText() const { return m_resultText; }
    QTreeView* resultTree() const { return m_resultTree; }
    QPlainTextEdit* sourceText() const { return m_sourceText; }
    QPlainTextEdit* jsonText() const { return m_jsonText; }
    /// The `pdl__defsite` of each message sent by the shown model node, in order.
    QStringList messageDefsites() const { return m_defsites; }
    /// Follows a link of the summary (`node:<id>`, `source:`), as a click does.
    void activateLink(const QUrl& url);
    /// Whether the shown result is cut (too large to show whole).
    bool isResultElided() const { return m_elided; }
    /// Whether the Source tab shows a rebuilt block rather than program text.
    bool isSourceReconstructed() const { return m_reconstructed; }
    /// Opens the whole result in a separate window (returned; deleted on close).
    QWidget* openResultInFull();

private:
    void refresh() override;
    void showResult(const pdl::TraceItem& item);
    void showSource(const pdl::TraceItem& item);
    void showJson(const pdl::TraceItem& item);
    void saveResult();
    QString fullResultText() const;

    QLabel* m_title;
    QTabWidget* m_tabs;
    QTextBrowser* m_summary;
    // Result tab
    QWidget* m_elideBar;
    QLabel* m_elideLabel;
    QToolButton* m_textMode;
    QToolButton* m_treeMode;
    QStackedWidget* m_resultStack;
    QPlainTextEdit* m_resultText;
    QTreeView* m_resultTree;
    pdl::ValueTreeModel* m_resultModel;
    // Source tab
    QLabel* m_sourceNote;
    QToolButton* m_rebuild;
    QPlainTextEdit* m_sourceText;
    QPlainTextEdit* m_jsonText;

    QStringList m_defsites;
    pdl::Value m_result;
    bool m_elided = false;
    bool m_reconstructed = false;
};

} // namespace hako
