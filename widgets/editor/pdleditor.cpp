#include "widgets/editor/pdleditor.h"

#include "core/workbench/programfile.h"
#include "widgets/common/thememanager.h"
#include "widgets/editor/editorcolor.h"
#include "widgets/editor/pdllexer.h"

#include <QApplication>
#include <QEvent>
#include <QKeyEvent>
#include <QKeySequence>

namespace hako {

namespace {
// Not named like QsciScintilla::MarginType, whose members would win inside the class.
enum Margin { LineNumberMargin = 0, MarkerMargin = 1, FoldMargin = 2 };
} // namespace

PdlEditor::PdlEditor(QWidget* parent) : QsciScintilla(parent)
{
    setAccessibleName(tr("Program editor"));
    setUtf8(true);
    setLexer(new PdlLexer(this));
    const QFont font = PdlLexer::editorFont();
    setFont(font);

    // YAML forbids tabs for indentation: the Tab key inserts two spaces.
    setIndentationsUseTabs(false);
    setTabWidth(2);
    setIndentationWidth(2);
    setTabIndents(true);
    setBackspaceUnindents(true);
    setAutoIndent(true);
    setIndentationGuides(true);

    setMarginType(LineNumberMargin, QsciScintilla::NumberMargin);
    setMarginLineNumbers(LineNumberMargin, true);
    setMarginsFont(font);
    // The breakpoint gutter: a strip of its own colour, so that it shows where to click.
    setMarginType(MarkerMargin, QsciScintilla::SymbolMarginColor);
    setMarginWidth(MarkerMargin, 16);
    setMarginMarkerMask(LineNumberMargin, 0);
    setMarginMarkerMask(MarkerMargin, (1 << ErrorMarker) | (1 << WarningMarker) |
                                          (1 << BreakpointMarker) |
                                          (1 << ConditionalBreakpointMarker) |
                                          (1 << DisabledBreakpointMarker) | (1 << LogpointMarker));
    // Breakpoints: a click on the marker margin toggles a red dot.
    markerDefine(QsciScintilla::Circle, BreakpointMarker);
    markerDefine(QsciScintilla::Circle, ConditionalBreakpointMarker);
    markerDefine(QsciScintilla::Circle, DisabledBreakpointMarker);
    markerDefine(QsciScintilla::SmallRectangle, LogpointMarker);
    markerDefine(QsciScintilla::Background, PausedLineMarker);
    setMarginSensitivity(MarkerMargin, true);
    connect(this, &QsciScintilla::marginClicked, this,
            [this](int margin, int line, Qt::KeyboardModifiers) {
                if (margin == MarkerMargin)
                    toggleBreakpoint(line + 1);
            });
    setFolding(QsciScintilla::BoxedTreeFoldStyle, FoldMargin);
    SendScintilla(SCI_SETMARGINLEFT, 0ul, 6l);

    setBraceMatching(QsciScintilla::SloppyBraceMatch);

    setCaretLineVisible(true);
    setCaretWidth(2);
    setEdgeMode(QsciScintilla::EdgeNone);
    setWrapMode(QsciScintilla::WrapNone);
    setScrollWidthTracking(true);
    setScrollWidth(1);
    SendScintilla(SCI_SETEXTRAASCENT, 1);
    SendScintilla(SCI_SETEXTRADESCENT, 1);
    setFrameShape(QFrame::NoFrame);

    // Scintilla binds some keys the workbench uses for its own actions (Ctrl+/ is "word part
    // left"); free them so the menu shortcuts reach their actions.
    const QList<QKeySequence> reserved = {QKeySequence(Qt::CTRL | Qt::Key_Slash),
                                          QKeySequence(Qt::CTRL | Qt::Key_F),
                                          QKeySequence(Qt::CTRL | Qt::Key_H),
                                          QKeySequence(Qt::Key_F3),
                                          QKeySequence(Qt::SHIFT | Qt::Key_F3),
                                          QKeySequence(Qt::CTRL | Qt::Key_N),
                                          QKeySequence(Qt::CTRL | Qt::Key_O),
                                          QKeySequence(Qt::CTRL | Qt::Key_S),
                                          QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S),
                                          QKeySequence(Qt::CTRL | Qt::Key_Q)};
    for (const QKeySequence& seq : reserved) {
        const int key = seq[0].toCombined();
        if (QsciCommand* cmd = standardCommands()->boundTo(key)) {
            if (cmd->key() == key)
                cmd->setKey(0);
            if (cmd->alternateKey() == key)
                cmd->setAlternateKey(0);
        }
    }

    connect(this, &QsciScintilla::linesChanged, this, &PdlEditor::updateMarginWidth);
    connect(this, &QsciScintilla::cursorPositionChanged, this, [this] {
        const auto [line, column] = cursorLineColumn();
        Q_EMIT cursorLineColumnChanged(line, column);
    });
    updateMarginWidth();
    setUpLanguageFeatures();
    applyColors();
}

void PdlEditor::applyColors()
{
    // The application's palette, not the widget's: QScintilla sets the widget's window colour
    // to the paper of the text itself.
    const bool dark = ThemeManager::isDark(QApplication::palette(this));
    m_darkColors = dark;
    auto color = [dark](EditorColor role) {
        return editorColor(role, dark);
    };
    if (auto* pdlLexer = qobject_cast<PdlLexer*>(lexer()))
        pdlLexer->applyColors(dark);
    // What lies below the last line and right of the text is drawn in the default style,
    // which the lexer sets only when it is attached.
    SendScintilla(SCI_STYLESETBACK, STYLE_DEFAULT, color(EditorColor::Background));
    SendScintilla(SCI_STYLESETFORE, STYLE_DEFAULT, color(EditorColor::Text));
    setCaretForegroundColor(color(EditorColor::Caret));
    setCaretLineBackgroundColor(color(EditorColor::CaretLine));
    setSelectionBackgroundColor(color(EditorColor::Selection));
    // Selected text keeps its syntax colours (the selection is a tint, not a solid block).
    resetSelectionForegroundColor();
    setIndentationGuidesForegroundColor(color(EditorColor::IndentationGuide));
    setIndentationGuidesBackgroundColor(color(EditorColor::Background));
    setMatchedBraceBackgroundColor(color(EditorColor::BraceMatchBackground));
    setMatchedBraceForegroundColor(color(EditorColor::BraceMatchText));
    setUnmatchedBraceForegroundColor(color(EditorColor::BraceUnmatchedText));
    setUnmatchedBraceBackgroundColor(color(EditorColor::Background));

    setMarginsBackgroundColor(color(EditorColor::MarginBackground));
    setMarginsForegroundColor(color(EditorColor::LineNumber));
    setFoldMarginColors(color(EditorColor::FoldMargin), color(EditorColor::FoldMargin));
    // Soft grey fold markers instead of Scintilla's black boxes.
    for (int marker = SC_MARKNUM_FOLDEREND; marker <= int(SC_MARKNUM_FOLDEROPEN); ++marker) {
        SendScintilla(SCI_MARKERSETFORE, marker, color(EditorColor::FoldMarkerFore));
        SendScintilla(SCI_MARKERSETBACK, marker, color(EditorColor::FoldMarkerBack));
    }

    SendScintilla(SCI_INDICSETFORE, ErrorIndicator, color(EditorColor::ErrorSquiggle));
    SendScintilla(SCI_INDICSETFORE, WarningIndicator, color(EditorColor::WarningSquiggle));
    setMarkerBackgroundColor(color(EditorColor::ErrorMarker), ErrorMarker);
    setMarkerForegroundColor(color(EditorColor::ErrorMarker), ErrorMarker);
    setMarkerBackgroundColor(color(EditorColor::WarningMarker), WarningMarker);
    setMarkerForegroundColor(color(EditorColor::WarningMarker), WarningMarker);
    setMarkerBackgroundColor(color(EditorColor::Breakpoint), BreakpointMarker);
    setMarkerForegroundColor(color(EditorColor::BreakpointOutline), BreakpointMarker);
    setMarkerBackgroundColor(color(EditorColor::ConditionalBreakpoint),
                             ConditionalBreakpointMarker);
    setMarkerForegroundColor(color(EditorColor::ConditionalBreakpointOutline),
                             ConditionalBreakpointMarker);
    const QColor gutter = m_darkColors ? color(EditorColor::MarginBackground).lighter(125)
                                       : color(EditorColor::MarginBackground).darker(106);
    setMarginBackgroundColor(MarkerMargin, gutter);
    // A disabled breakpoint: a ring in the breakpoint's colour; a logpoint: a square.
    setMarkerBackgroundColor(gutter, DisabledBreakpointMarker);
    setMarkerForegroundColor(color(EditorColor::Breakpoint), DisabledBreakpointMarker);
    setMarkerBackgroundColor(color(EditorColor::Breakpoint), LogpointMarker);
    setMarkerForegroundColor(color(EditorColor::BreakpointOutline), LogpointMarker);
    setMarkerBackgroundColor(color(EditorColor::PausedLine), PausedLineMarker);
}

bool PdlEditor::event(QEvent* event)
{
    // Ctrl+\ and Ctrl+Shift+\ are the window's (View › Split View, Move Program to Other Side):
    // QScintilla would take them as typed control characters.
    if (event->type() == QEvent::ShortcutOverride) {
        auto* key = static_cast<QKeyEvent*>(event);
        const auto mods = key->modifiers() & ~Qt::KeypadModifier;
        if (key->key() == Qt::Key_Backslash &&
            (mods == Qt::ControlModifier || mods == (Qt::ControlModifier | Qt::ShiftModifier))) {
            event->ignore();
            return false;
        }
    }
    // Another theme: a new application palette (ApplicationPaletteChange; the widget's own
    // palette, partly set by QScintilla, may not change) or a palette given by the parent.
    if ((event->type() == QEvent::ApplicationPaletteChange ||
         event->type() == QEvent::PaletteChange) &&
        ThemeManager::isDark(QApplication::palette(this)) != m_darkColors)
        applyColors();
    return QsciScintilla::event(event);
}

void PdlEditor::updateMarginWidth()
{
    const QString digits = QString(qMax(3, int(QString::number(lines()).size())), u'9');
    setMarginWidth(LineNumberMargin, QStringLiteral("  ") + digits);
}

void PdlEditor::setDocumentText(const QString& text)
{
    setText(text);
    switch (ProgramFile::detectLineEnding(text)) {
    case LineEnding::Unix:
        setEolMode(EolUnix);
        break;
    case LineEnding::Windows:
        setEolMode(EolWindows);
        break;
    case LineEnding::OldMac:
        setEolMode(EolMac);
        break;
    }
    SendScintilla(SCI_EMPTYUNDOBUFFER);
    setModified(false);
    setCursorPosition(0, 0);
}

QPair<int, int> PdlEditor::cursorLineColumn() const
{
    int line = 0;
    int index = 0;
    // QScintilla's index counts characters (SCI_COUNTCHARACTERS: code points in UTF-8 mode).
    getCursorPosition(&line, &index);
    return {line + 1, index + 1};
}

int PdlEditor::searchFlags(const FindOptions& options) const
{
    int flags = 0;
    if (options.matchCase)
        flags |= SCFIND_MATCHCASE;
    if (options.wholeWord)
        flags |= SCFIND_WHOLEWORD;
    if (options.regex)
        flags |= SCFIND_REGEXP | SCFIND_CXX11REGEX;
    return flags;
}

long PdlEditor::searchRange(const QByteArray& needle, int flags, long from, long to)
{
    SendScintilla(SCI_SETSEARCHFLAGS, flags);
    SendScintilla(SCI_SETTARGETRANGE, from, to);
    return SendScintilla(SCI_SEARCHINTARGET, static_cast<unsigned long>(needle.size()),
                         needle.constData());
}

bool PdlEditor::selectionMatches(const QByteArray& needle, int flags)
{
    const long start = SendScintilla(SCI_GETSELECTIONSTART);
    const long end = SendScintilla(SCI_GETSELECTIONEND);
    if (start == end)
        return false;
    return searchRange(needle, flags, start, end) == start &&
           SendScintilla(SCI_GETTARGETEND) == end;
}

bool PdlEditor::findNext(const QString& text, const FindOptions& options, bool backwards)
{
    if (text.isEmpty())
        return false;
    const QByteArray needle = text.toUtf8();
    const int flags = searchFlags(options);
    const long length = SendScintilla(SCI_GETLENGTH);
    const long selStart = SendScintilla(SCI_GETSELECTIONSTART);
    const long selEnd = SendScintilla(SCI_GETSELECTIONEND);

    long found = -1;
    if (!backwards) {
        found = searchRange(needle, flags, selEnd, length);
        if (found < 0)
            found = searchRange(needle, flags, 0, selEnd);
    } else {
        found = searchRange(needle, flags, selStart, 0);
        if (found < 0)
            found = searchRange(needle, flags, length, selStart);
    }
    if (found < 0)
        return false;
    const long end = SendScintilla(SCI_GETTARGETEND);
    SendScintilla(SCI_SETSEL, found, end);
    SendScintilla(SCI_SCROLLCARET);
    return true;
}

bool PdlEditor::replaceCurrent(const QString& text, const QString& replacement,
                               const FindOptions& options)
{
    if (text.isEmpty() || isReadOnly())
        return false;
    const QByteArray needle = text.toUtf8();
    const int flags = searchFlags(options);
    bool replaced = false;
    if (selectionMatches(needle, flags)) {
        const QByteArray with = replacement.toUtf8();
        const long start = SendScintilla(SCI_GETTARGETSTART);
        const long written =
            SendScintilla(options.regex ? SCI_REPLACETARGETRE : SCI_REPLACETARGET,
                          static_cast<unsigned long>(with.size()), with.constData());
        SendScintilla(SCI_SETSEL, start + written, start + written);
        replaced = true;
    }
    findNext(text, options);
    return replaced;
}

int PdlEditor::replaceAll(const QString& text, const QString& replacement,
                          const FindOptions& options)
{
    if (text.isEmpty() || isReadOnly())
        return 0;
    const QByteArray needle = text.toUtf8();
    const QByteArray with = replacement.toUtf8();
    const int flags = searchFlags(options);
    const unsigned int replaceMessage = options.regex ? SCI_REPLACETARGETRE : SCI_REPLACETARGET;

    int count = 0;
    long pos = 0;
    beginUndoAction();
    for (;;) {
        const long length = SendScintilla(SCI_GETLENGTH);
        if (pos > length)
            break;
        const long start = searchRange(needle, flags, pos, length);
        if (start < 0)
            break;
        const long end = SendScintilla(SCI_GETTARGETEND);
        const long written = SendScintilla(replaceMessage, static_cast<unsigned long>(with.size()),
                                           with.constData());
        ++count;
        pos = start + written;
        // An empty match (e.g. `^`) would match again at the same place: step past one
        // character so the loop always advances.
        if (end == start) {
            if (pos >= SendScintilla(SCI_GETLENGTH))
                break;
            pos = SendScintilla(SCI_POSITIONAFTER, pos);
        }
    }
    endUndoAction();
    return count;
}

void PdlEditor::toggleComment()
{
    if (isReadOnly())
        return;
    int lineFrom = 0;
    int indexFrom = 0;
    int lineTo = 0;
    int indexTo = 0;
    if (hasSelectedText()) {
        getSelection(&lineFrom, &indexFrom, &lineTo, &indexTo);
        if (indexTo == 0 && lineTo > lineFrom)
            --lineTo; // a selection ending at a line start does not include that line
    } else {
        getCursorPosition(&lineFrom, &indexFrom);
        lineTo = lineFrom;
    }

    auto indentOf = [](const QString& line) {
        int i = 0;
        while (i < line.size() && (line[i] == u' ' || line[i] == u'\t'))
            ++i;
        return i;
    };
    auto isBlank = [](const QString& line) {
        return line.trimmed().isEmpty();
    };

    bool allCommented = true;
    int minIndent = INT_MAX;
    bool anyContent = false;
    for (int l = lineFrom; l <= lineTo; ++l) {
        const QString line = text(l);
        if (isBlank(line))
            continue;
        anyContent = true;
        const int indent = indentOf(line);
        minIndent = qMin(minIndent, indent);
        if (line.at(indent) != u'#')
            allCommented = false;
    }
    if (!anyContent)
        return;

    beginUndoAction();
    for (int l = lineFrom; l <= lineTo; ++l) {
        const QString line = text(l);
        if (isBlank(line))
            continue;
        const long lineStart = positionFromLineIndex(l, 0);
        if (allCommented) {
            // Indentation is ASCII, so its character count equals its byte count.
            const int hash = indentOf(line);
            const int remove = (hash + 1 < line.size() && line[hash + 1] == u' ') ? 2 : 1;
            SendScintilla(SCI_SETTARGETRANGE, lineStart + hash, lineStart + hash + remove);
            SendScintilla(SCI_REPLACETARGET, 0ul, "");
        } else {
            insertAt(QStringLiteral("# "), l, minIndent);
        }
    }
    endUndoAction();
}

} // namespace hako

namespace hako {

void PdlEditor::applyTextEdits(const QList<TextReplacement>& edits)
{
    if (edits.isEmpty())
        return;
    const QString before = text();
    const int firstLine = int(SendScintilla(SCI_GETFIRSTVISIBLELINE));
    beginUndoAction();
    // From the last to the first: earlier offsets stay valid.
    for (auto it = edits.crbegin(); it != edits.crend(); ++it) {
        const long start = long(QStringView(before).left(it->offset).toUtf8().size());
        const long end =
            start + long(QStringView(before).mid(it->offset, it->length).toUtf8().size());
        const QByteArray with = it->replacement.toUtf8();
        SendScintilla(SCI_SETTARGETRANGE, static_cast<unsigned long>(start), end);
        SendScintilla(SCI_REPLACETARGET, static_cast<unsigned long>(with.size()), with.constData());
    }
    endUndoAction();
    SendScintilla(SCI_SETFIRSTVISIBLELINE, static_cast<unsigned long>(firstLine));
}

namespace {
constexpr unsigned kBreakpointMask =
    (1u << PdlEditor::BreakpointMarker) | (1u << PdlEditor::ConditionalBreakpointMarker) |
    (1u << PdlEditor::DisabledBreakpointMarker) | (1u << PdlEditor::LogpointMarker);

int markerFor(const pdl::BreakpointSpec& spec)
{
    if (!spec.enabled)
        return PdlEditor::DisabledBreakpointMarker;
    if (!spec.logMessage.isEmpty())
        return PdlEditor::LogpointMarker;
    if (!spec.condition.isEmpty())
        return PdlEditor::ConditionalBreakpointMarker;
    return PdlEditor::BreakpointMarker;
}
} // namespace

QList<int> PdlEditor::breakpointLines() const
{
    QList<int> lines;
    for (int line = markerFindNext(0, kBreakpointMask); line >= 0;
         line = markerFindNext(line + 1, kBreakpointMask))
        lines << line + 1;
    return lines;
}

void PdlEditor::setBreakpointLines(const QList<int>& lines)
{
    for (int marker :
         {BreakpointMarker, ConditionalBreakpointMarker, DisabledBreakpointMarker, LogpointMarker})
        markerDeleteAll(marker);
    m_specs.clear();
    for (int line : lines)
        if (line >= 1 && line <= this->lines())
            markerAdd(line - 1, BreakpointMarker);
}

void PdlEditor::toggleBreakpoint(int line)
{
    if (line < 1 || line > lines())
        return;
    if (markersAtLine(line - 1) & kBreakpointMask) {
        removeBreakpoint(line);
        return;
    }
    markerAdd(line - 1, BreakpointMarker);
    Q_EMIT breakpointsChanged(breakpointLines());
}

void PdlEditor::removeBreakpoint(int line)
{
    if (line < 1 || line > lines() || !(markersAtLine(line - 1) & kBreakpointMask))
        return;
    forgetSpecsAt(line);
    for (int marker :
         {BreakpointMarker, ConditionalBreakpointMarker, DisabledBreakpointMarker, LogpointMarker})
        markerDelete(line - 1, marker);
    Q_EMIT breakpointsChanged(breakpointLines());
}

void PdlEditor::clearBreakpoints()
{
    if (breakpointLines().isEmpty())
        return;
    setBreakpointLines({});
    Q_EMIT breakpointsChanged({});
}

void PdlEditor::forgetSpecsAt(int line)
{
    // Also drops the specs whose marker went with deleted text.
    for (auto it = m_specs.begin(); it != m_specs.end();)
        if (markerLine(it.key()) == line - 1 || markerLine(it.key()) < 0)
            it = m_specs.erase(it);
        else
            ++it;
}

QString PdlEditor::breakpointCondition(int line) const
{
    return breakpointSpec(line).condition;
}

pdl::BreakpointSpec PdlEditor::breakpointSpec(int line) const
{
    for (auto it = m_specs.cbegin(); it != m_specs.cend(); ++it)
        if (markerLine(it.key()) == line - 1)
            return it.value();
    return {};
}

void PdlEditor::setBreakpointCondition(int line, const QString& condition)
{
    pdl::BreakpointSpec spec = breakpointSpec(line);
    spec.condition = condition.trimmed();
    setBreakpointSpec(line, spec);
}

void PdlEditor::setBreakpointSpec(int line, const pdl::BreakpointSpec& spec)
{
    if (line < 1 || line > lines())
        return;
    // The line's marker (and its spec) goes; the new one replaces it.
    forgetSpecsAt(line);
    for (int marker :
         {BreakpointMarker, ConditionalBreakpointMarker, DisabledBreakpointMarker, LogpointMarker})
        markerDelete(line - 1, marker);
    pdl::BreakpointSpec trimmed = spec;
    trimmed.condition = spec.condition.trimmed();
    const int handle = markerAdd(line - 1, markerFor(trimmed));
    if (handle >= 0 && !(trimmed == pdl::BreakpointSpec{}))
        m_specs.insert(handle, trimmed);
    Q_EMIT breakpointsChanged(breakpointLines());
}

QMap<int, pdl::BreakpointSpec> PdlEditor::breakpointSpecs() const
{
    QMap<int, pdl::BreakpointSpec> all;
    for (int line : breakpointLines())
        all.insert(line, {});
    for (auto it = m_specs.cbegin(); it != m_specs.cend(); ++it) {
        const int line = markerLine(it.key());
        if (line >= 0 && all.contains(line + 1))
            all[line + 1] = it.value();
    }
    return all;
}

QMap<int, QString> PdlEditor::breakpointConditions() const
{
    QMap<int, QString> all;
    const QMap<int, pdl::BreakpointSpec> specs = breakpointSpecs();
    for (auto it = specs.cbegin(); it != specs.cend(); ++it)
        all.insert(it.key(), it->condition);
    return all;
}

void PdlEditor::setPausedLine(int line)
{
    markerDeleteAll(PausedLineMarker);
    if (line >= 1 && line <= lines()) {
        markerAdd(line - 1, PausedLineMarker);
        ensureLineVisible(line - 1);
    }
}

} // namespace hako
