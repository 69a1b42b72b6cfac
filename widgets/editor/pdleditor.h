#pragma once

#include "core/pdl/debug/debugger.h"
#include "core/pdl/lang/completion.h"
#include "core/util/diagnostic.h"
#include "widgets/editor/qsci.h"

#include <QHash>
#include <QMap>

#include <functional>
#include <memory>

namespace hako::pdl {
struct ProgramReport;
}

namespace hako {

/// How findNext()/replaceAll() interpret the search text.
struct FindOptions {
    bool matchCase = false;
    bool wholeWord = false;
    bool regex = false; ///< ECMAScript-style regular expression; replacements may use \1…\9
};

/// The PDL source editor: QScintilla set up for YAML (2-space soft tabs, UTF-8, line numbers,
/// folding, brace matching, PDL colouring) plus search, replace and comment toggling, and the
/// language features: diagnostics shown as squiggles and margin markers (setReport), hover
/// documentation (mouse dwell), completion (Ctrl+Space, and automatically after a few typed
/// characters) and exact span selection. Positions in its API are 1-based lines and columns
/// counted in code points, as everywhere in core; byte positions stay inside. GUI thread only.
class PdlEditor : public QsciScintilla {
    Q_OBJECT
public:
    explicit PdlEditor(QWidget* parent = nullptr);

    /// Selects the next match after the selection (or the previous one before it when
    /// `backwards`), wrapping around the document. Returns false when there is no match.
    bool findNext(const QString& text, const FindOptions& options, bool backwards = false);
    /// Replaces the selection if it is a match of `text`, then selects the next match.
    /// Returns true if a replacement was made.
    bool replaceCurrent(const QString& text, const QString& replacement,
                        const FindOptions& options);
    /// Replaces every match in the document as one undo step; returns the number replaced.
    int replaceAll(const QString& text, const QString& replacement, const FindOptions& options);

    /// Comments out the selected lines (or the current line) with `# `, or uncomments them when
    /// they are all comments already. One undo step.
    void toggleComment();
    /// Replaces `length` UTF-16 code units at `offset` of text() by `replacement` for each
    /// edit (sorted, non-overlapping, offsets into the text before any of them) as one undo
    /// step; the view keeps its scroll position.
    struct TextReplacement {
        qsizetype offset = 0;
        qsizetype length = 0;
        QString replacement;
    };
    void applyTextEdits(const QList<TextReplacement>& edits);

    /// The cursor position as 1-based line and column counted in Unicode code points.
    QPair<int, int> cursorLineColumn() const;

    /// Replaces the whole text as a fresh document: no undo history, not modified, and new lines
    /// typed afterwards use the text's own line ending.
    void setDocumentText(const QString& text);

    // --- language features ---------------------------------------------------------------

    /// Indicator numbers of the diagnostic squiggles and margin marker numbers.
    static constexpr int ErrorIndicator = 8;
    static constexpr int WarningIndicator = 9;
    static constexpr int ErrorMarker = 0;
    static constexpr int WarningMarker = 1;
    /// The red dot of a breakpoint in the marker margin, and the paused line's background.
    static constexpr int BreakpointMarker = 2;
    static constexpr int PausedLineMarker = 3;
    /// The orange dot of a breakpoint with a condition.
    static constexpr int ConditionalBreakpointMarker = 4;
    /// The hollow ring of a disabled breakpoint, and the square of a logpoint.
    static constexpr int DisabledBreakpointMarker = 5;
    static constexpr int LogpointMarker = 6;

    /// Breakpoints: 1-based lines holding a red dot in the marker margin (a click on the
    /// margin toggles one; the dots move with the text as it is edited).
    QList<int> breakpointLines() const;
    void setBreakpointLines(const QList<int>& lines);
    void toggleBreakpoint(int line);
    /// The condition of the breakpoint on 1-based `line` (a PDL expression such as `i == 3`;
    /// empty: it always pauses, or there is no breakpoint there).
    QString breakpointCondition(int line) const;
    /// Puts a breakpoint on `line` that pauses only when `condition` is true (an empty
    /// condition makes it unconditional). Its dot turns orange; the condition moves with the
    /// line as the text is edited.
    void setBreakpointCondition(int line, const QString& condition);
    /// Every breakpoint's line and condition (empty for none), by line.
    QMap<int, QString> breakpointConditions() const;
    /// Every breakpoint with its condition, logpoint message and whether it is on, by line.
    QMap<int, pdl::BreakpointSpec> breakpointSpecs() const;
    /// The breakpoint on `line` (a default one when there is none).
    pdl::BreakpointSpec breakpointSpec(int line) const;
    /// Puts a breakpoint on `line` (replacing the one there): its marker shows whether it is
    /// off (a ring), a logpoint (a square), conditional (orange) or plain (red).
    void setBreakpointSpec(int line, const pdl::BreakpointSpec& spec);
    void removeBreakpoint(int line);
    void clearBreakpoints();
    /// While a run is paused: the value of the variable named `word` as a hover shows it
    /// (empty: none). Null: no values on hover.
    using ValueHover = std::function<QString(const QString& word)>;
    void setValueHover(ValueHover hover) { m_valueHover = std::move(hover); }
    /// What the value hover shows at (line, code-point column), or empty.
    QString valueHoverAt(int line, int column) const;
    /// Highlights 1-based `line` as where a debugged run is paused; 0 clears it.
    void setPausedLine(int line);

    /// Shows a program report: a squiggle under each diagnostic's span and a marker in the
    /// margin of its line; hover and completion use its scope analysis. Null clears them.
    void setReport(std::shared_ptr<const pdl::ProgramReport> report);
    std::shared_ptr<const pdl::ProgramReport> report() const { return m_report; }

    /// The byte position of 1-based `line` and code-point `column` (clamped to the line; a
    /// column one past the end is the line end).
    long bytePosition(int line, int column) const;
    /// The 1-based line and code-point column of byte position `pos`.
    QPair<int, int> lineColumnAt(long pos) const;
    /// Selects exactly `span` (end column inclusive; a span without an end selects nothing
    /// and puts the cursor at its start), unfolds and scrolls to it.
    void selectSpan(const SourceSpan& span);
    /// The [start, end) byte ranges currently marked with `indicator`.
    QList<QPair<long, long>> indicatorRanges(int indicator) const;

    /// Hover documentation at (line, column) as plain text; empty when there is none.
    QString hoverTextAt(int line, int column) const;
    /// The completions at the cursor.
    pdl::Completions completionsAtCursor() const;
    /// Opens the completion list at the cursor; `automatic` (typing) needs a prefix of two
    /// characters (or a `.`/`${` just typed). Returns whether a list is shown.
    bool showCompletions(bool automatic = false);
    /// Moves to the definition of the variable under the cursor (F12) when it is written in
    /// this file; returns whether it moved.
    bool goToDefinition();
    /// Model names offered after `model:`.
    void setModelNames(const QStringList& names) { m_modelNames = names; }
    QStringList modelNames() const { return m_modelNames; }
    /// Why each model name is offered ("A model of the server …"), shown beside it in the list.
    void setModelReasons(const QHash<QString, QString>& reasons) { m_modelReasons = reasons; }
    /// The model the `model call` snippet names (the configured default, e.g.
    /// `ollama/granite3.3:8b`; empty: the `default` alias).
    void setDefaultModel(const QString& name) { m_defaultModel = name; }
    QString defaultModel() const { return m_defaultModel; }
    /// Inserts `snippet` where a block can start at the cursor (replacing the identifier typed
    /// before it), re-indented to the file's step and line ending, as one undo step, with the
    /// cursor on its placeholder. Returns false (changing nothing) where no block can start.
    bool insertSnippet(const pdl::Snippet& snippet);

    /// Sets every colour of the editor and its lexer from the colour table (editorcolor.h),
    /// light or dark as ThemeManager::isDark(QApplication::palette()) says. Called by the
    /// constructor and whenever the palette turns from light to dark or back.
    void applyColors();
    /// Whether the dark colours are in use.
    bool usesDarkColors() const { return m_darkColors; }

Q_SIGNALS:
    /// Emitted when the cursor moves; line and column are 1-based code-point positions.
    void cursorLineColumnChanged(int line, int column);
    /// A breakpoint was added or removed (by a click or toggleBreakpoint()): all the lines.
    void breakpointsChanged(const QList<int>& lines);

protected:
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;

private:
    /// Searches [from, to) (backwards when from > to); returns the match start or -1 and
    /// leaves the target set to the match.
    long searchRange(const QByteArray& needle, int flags, long from, long to);
    int searchFlags(const FindOptions& options) const;
    bool selectionMatches(const QByteArray& needle, int flags);
    void updateMarginWidth();
    void forgetSpecsAt(int line);
    void setUpLanguageFeatures();
    void showHover(int position, int x, int y);
    void onCharAdded(int ch);
    void onCompletionInserted(const char* selection, int position);
    void onCompletionSelected(const char* selection);
    void showCompletionDocumentation(const QString& item);

    std::shared_ptr<const pdl::ProgramReport> m_report;
    /// Breakpoints that are not plain (a condition, a message, off), by the handle of their
    /// marker (which follows its line through edits).
    QHash<int, pdl::BreakpointSpec> m_specs;
    ValueHover m_valueHover;
    /// The identifier (`a_b`, not `a.b`) at byte position `pos`, or empty.
    QString identifierAt(long pos) const;
    QStringList m_modelNames;
    QHash<QString, QString> m_modelReasons;
    /// The field and block-kind names of the list on show: choosing one also types `: `.
    QSet<QString> m_shownKeys;
    QString m_defaultModel;
    /// The snippets and documentation of the list on show, by the text it shows.
    QHash<QString, pdl::Snippet> m_shownSnippets;
    QHash<QString, QString> m_shownDocs;
    bool m_darkColors = false;
};

} // namespace hako
