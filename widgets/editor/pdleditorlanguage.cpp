// PdlEditor's language features: diagnostics, span selection, hover and completion.
#include "core/pdl/lang/builtindocs.h"
#include "core/pdl/lang/snippets.h"
#include "core/pdl/programcheck.h"
#include "core/run/runenvironment.h"
#include "widgets/editor/pdleditor.h"

#include <QKeyEvent>
#include <QListWidget>
#include <QToolTip>

namespace hako {

namespace {

QString tooltipHtml(const QString& text)
{
    QStringList paragraphs = text.split(QStringLiteral("\n\n"));
    for (QString& p : paragraphs) {
        const QString title = p.section(QLatin1Char('\n'), 0, 0).toHtmlEscaped();
        const QString rest = p.section(QLatin1Char('\n'), 1).toHtmlEscaped();
        p = QStringLiteral("<b>%1</b>").arg(title);
        if (!rest.isEmpty())
            p += QStringLiteral("<br>") +
                 QString(rest).replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    }
    return QStringLiteral("<div style='max-width: 36em'>%1</div>")
        .arg(paragraphs.join(QStringLiteral("<hr>")));
}

bool isIdentifierChar(int ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_';
}

} // namespace

void PdlEditor::setUpLanguageFeatures()
{
    SendScintilla(SCI_INDICSETSTYLE, ErrorIndicator, INDIC_SQUIGGLEPIXMAP);
    SendScintilla(SCI_INDICSETSTYLE, WarningIndicator, INDIC_SQUIGGLEPIXMAP);
    markerDefine(QsciScintilla::Circle, ErrorMarker);
    markerDefine(QsciScintilla::Circle, WarningMarker);

    SendScintilla(SCI_SETMOUSEDWELLTIME, 450);
    connect(this, &QsciScintillaBase::SCN_DWELLSTART, this, &PdlEditor::showHover);
    connect(this, &QsciScintillaBase::SCN_DWELLEND, this, [] { QToolTip::hideText(); });
    connect(this, &QsciScintillaBase::SCN_CHARADDED, this, &PdlEditor::onCharAdded);
    connect(this, qOverload<const char*, int, int, int>(&QsciScintillaBase::SCN_AUTOCCOMPLETED),
            this, [this](const char* selection, int position, int, int) {
                onCompletionInserted(selection, position);
            });
    connect(this, qOverload<const char*, int, int, int>(&QsciScintillaBase::SCN_AUTOCSELECTION),
            this,
            [this](const char* selection, int, int, int) { onCompletionSelected(selection); });
    connect(this, &QsciScintillaBase::SCN_AUTOCSELECTIONCHANGE, this,
            [this](const char* selection, int, int) {
                showCompletionDocumentation(QString::fromUtf8(selection));
            });
    connect(this, &QsciScintillaBase::SCN_AUTOCCANCELLED, this, [] { QToolTip::hideText(); });
    SendScintilla(SCI_AUTOCSETIGNORECASE, 1);
    SendScintilla(SCI_AUTOCSETMAXHEIGHT, 12);
    // The language plus what a composed run gives a program (`doc`, `memory`, `thread`).
    RunEnvironment::registerBindingDocs();
}

long PdlEditor::bytePosition(int line, int column) const
{
    const long lineCount = SendScintilla(SCI_GETLINECOUNT);
    const int l = std::clamp(line, 1, int(lineCount)) - 1;
    const long start = SendScintilla(SCI_POSITIONFROMLINE, l);
    const long end = SendScintilla(SCI_GETLINEENDPOSITION, l);
    if (column <= 1)
        return start;
    // Scintilla counts characters as code points in UTF-8 mode, as core does.
    const long pos = SendScintilla(SCI_POSITIONRELATIVE, start, long(column - 1));
    if (pos <= 0 || pos > end)
        return end;
    return pos;
}

QPair<int, int> PdlEditor::lineColumnAt(long pos) const
{
    const long line = SendScintilla(SCI_LINEFROMPOSITION, pos);
    const long start = SendScintilla(SCI_POSITIONFROMLINE, line);
    const long column = SendScintilla(SCI_COUNTCHARACTERS, start, pos);
    return {int(line) + 1, int(column) + 1};
}

void PdlEditor::selectSpan(const SourceSpan& span)
{
    if (!span.isValid())
        return;
    const long start = bytePosition(span.line, std::max(1, span.column));
    long end = start;
    if (span.endLine > 0 && span.endColumn > 0)
        end = bytePosition(span.endLine, span.endColumn + 1);
    if (end < start)
        end = start;
    const int lastLine = span.endLine > 0 ? span.endLine : span.line;
    for (int l = span.line; l <= lastLine; ++l)
        SendScintilla(SCI_ENSUREVISIBLE, l - 1);
    // The caret at the start: the block's first line is what the reader looks for (and the
    // status bar names), and a long last line does not scroll the view sideways.
    SendScintilla(SCI_SETSEL, end, start);
    SendScintilla(SCI_SCROLLRANGE, end, start);
    SendScintilla(SCI_SCROLLCARET);
}

QList<QPair<long, long>> PdlEditor::indicatorRanges(int indicator) const
{
    QList<QPair<long, long>> out;
    const long length = SendScintilla(SCI_GETLENGTH);
    long pos = 0;
    while (pos < length) {
        const long end = SendScintilla(SCI_INDICATOREND, indicator, pos);
        if (SendScintilla(SCI_INDICATORVALUEAT, indicator, pos) != 0)
            out.append({pos, end});
        if (end <= pos)
            break;
        pos = end;
    }
    return out;
}

void PdlEditor::setReport(std::shared_ptr<const pdl::ProgramReport> report)
{
    m_report = std::move(report);
    const long length = SendScintilla(SCI_GETLENGTH);
    for (int indicator : {ErrorIndicator, WarningIndicator}) {
        SendScintilla(SCI_SETINDICATORCURRENT, indicator);
        SendScintilla(SCI_INDICATORCLEARRANGE, 0l, length);
    }
    markerDeleteAll(ErrorMarker);
    markerDeleteAll(WarningMarker);
    if (!m_report)
        return;
    const QString file = m_report->parse.program ? m_report->parse.program->file : QString();
    const long lineCount = SendScintilla(SCI_GETLINECOUNT);
    for (const Diagnostic& d : m_report->diagnostics) {
        const SourceSpan& s = d.span;
        if (!s.isValid() || s.line > lineCount ||
            (!s.file.isEmpty() && !file.isEmpty() && s.file != file))
            continue;
        const bool error = d.severity == Severity::Error;
        const long start = bytePosition(s.line, std::max(1, s.column));
        const long lineEnd = SendScintilla(SCI_GETLINEENDPOSITION, s.line - 1);
        long end;
        if (s.endLine == s.line && s.endColumn >= s.column && s.column > 0)
            end = bytePosition(s.line, s.endColumn + 1);
        else if (s.endLine > s.line)
            end = lineEnd; // a block's span: mark its first line only
        else
            end = SendScintilla(SCI_WORDENDPOSITION, start, 1l);
        if (end <= start)
            end = start < lineEnd ? long(SendScintilla(SCI_POSITIONAFTER, start)) : start;
        long from = start;
        if (from == end && from > SendScintilla(SCI_POSITIONFROMLINE, s.line - 1))
            from = SendScintilla(SCI_POSITIONBEFORE, start); // at a line end: the last char
        if (end > from) {
            SendScintilla(SCI_SETINDICATORCURRENT, error ? ErrorIndicator : WarningIndicator);
            SendScintilla(SCI_INDICATORFILLRANGE, from, end - from);
        }
        markerAdd(s.line - 1, error ? ErrorMarker : WarningMarker);
    }
}

QString PdlEditor::hoverTextAt(int line, int column) const
{
    QStringList lines;
    const int count = this->lines();
    lines.reserve(count);
    for (int l = 0; l < count; ++l) {
        QString t = text(l);
        while (t.endsWith(QLatin1Char('\n')) || t.endsWith(QLatin1Char('\r')))
            t.chop(1);
        lines.append(t);
    }
    return pdl::hoverTextAt(lines, line, column, m_report.get());
}

QString PdlEditor::identifierAt(long pos) const
{
    const QString line = text(int(SendScintilla(SCI_LINEFROMPOSITION, pos)));
    const int at = int(SendScintilla(
        SCI_COUNTCHARACTERS,
        SendScintilla(SCI_POSITIONFROMLINE, SendScintilla(SCI_LINEFROMPOSITION, pos)), pos));
    auto word = [](QChar c) {
        return c.isLetterOrNumber() || c == QLatin1Char('_');
    };
    if (at < 0 || at >= line.size() || !word(line.at(at)))
        return {};
    int start = at, end = at;
    while (start > 0 && word(line.at(start - 1)))
        --start;
    while (end < line.size() && word(line.at(end)))
        ++end;
    return line.mid(start, end - start);
}

QString PdlEditor::valueHoverAt(int line, int column) const
{
    if (!m_valueHover)
        return {};
    const QString word = identifierAt(bytePosition(line, column));
    return word.isEmpty() ? QString() : m_valueHover(word);
}

void PdlEditor::showHover(int position, int x, int y)
{
    if (position < 0)
        return;
    const auto [line, column] = lineColumnAt(position);
    // While a run is paused, a variable's value comes first.
    const QString value = valueHoverAt(line, column);
    if (!value.isEmpty()) {
        QToolTip::showText(viewport()->mapToGlobal(QPoint(x, y)), value, viewport());
        return;
    }
    const QString text = hoverTextAt(line, column);
    if (text.isEmpty())
        return;
    QToolTip::showText(viewport()->mapToGlobal(QPoint(x, y)), tooltipHtml(text), viewport());
}

pdl::Completions PdlEditor::completionsAtCursor() const
{
    const auto [line, column] = cursorLineColumn();
    // Only the lines the context needs: the text is split once per request.
    QStringList lines = text().split(QLatin1Char('\n'));
    for (QString& l : lines) {
        if (l.endsWith(QLatin1Char('\r')))
            l.chop(1);
    }
    pdl::Completions c =
        pdl::completionsAt(lines, line, column, m_report ? m_report->scopes.get() : nullptr,
                           m_modelNames, m_defaultModel);
    for (pdl::CompletionItem& i : c.items)
        if (i.kind == pdl::CompletionItem::Kind::Model && i.documentation.isEmpty())
            i.documentation = m_modelReasons.value(i.text);
    return c;
}

bool PdlEditor::showCompletions(bool automatic)
{
    const pdl::Completions c = completionsAtCursor();
    if (c.items.isEmpty())
        return false;
    if (automatic && c.prefix.size() < 2 && !c.prefix.endsWith(QLatin1Char('.')))
        return false;
    QStringList texts;
    texts.reserve(c.items.size());
    m_shownKeys.clear();
    m_shownSnippets.clear();
    m_shownDocs.clear();
    for (const pdl::CompletionItem& i : c.items) {
        texts.append(i.text);
        if (i.kind == pdl::CompletionItem::Kind::Snippet)
            m_shownSnippets.insert(i.text, i.snippet);
        if (!i.documentation.isEmpty())
            m_shownDocs.insert(i.text, i.documentation);
        if (i.kind == pdl::CompletionItem::Kind::Field ||
            i.kind == pdl::CompletionItem::Kind::BlockKind)
            m_shownKeys.insert(i.text);
    }
    const QByteArray list = texts.join(QLatin1Char('\n')).toUtf8();
    SendScintilla(SCI_AUTOCSETSEPARATOR, long('\n'));
    SendScintilla(SCI_AUTOCSETORDER, 2l); // SC_ORDER_CUSTOM: already sorted our way
    SendScintilla(SCI_AUTOCSHOW, static_cast<unsigned long>(c.prefix.toUtf8().size()),
                  list.constData());
    if (SendScintilla(SCI_AUTOCACTIVE) == 0)
        return false;
    const long current = SendScintilla(SCI_AUTOCGETCURRENT);
    if (current >= 0 && current < texts.size())
        showCompletionDocumentation(texts.at(current));
    return true;
}

void PdlEditor::onCompletionSelected(const char* selection)
{
    QToolTip::hideText();
    const auto it = m_shownSnippets.constFind(QString::fromUtf8(selection));
    if (it == m_shownSnippets.constEnd())
        return;
    // Cancelling inside the notification stops Scintilla from typing the label.
    SendScintilla(SCI_AUTOCCANCEL);
    insertSnippet(*it);
}

bool PdlEditor::insertSnippet(const pdl::Snippet& snippet)
{
    const auto [line, column] = cursorLineColumn();
    QStringList lines = text().split(QLatin1Char('\n'));
    for (QString& l : lines) {
        if (l.endsWith(QLatin1Char('\r')))
            l.chop(1);
    }
    const QString eol = eolMode() == EolWindows ? QStringLiteral("\r\n")
                        : eolMode() == EolMac   ? QStringLiteral("\r")
                                                : QStringLiteral("\n");
    const std::optional<pdl::SnippetEdit> edit =
        pdl::snippetEditAt(lines, line, column, snippet, eol);
    if (!edit)
        return false;
    const long from = bytePosition(edit->line, edit->fromColumn);
    const long to = bytePosition(edit->line, edit->toColumn);
    const QByteArray bytes = edit->text.toUtf8();
    const long caret = from + long(edit->text.left(edit->cursorOffset).toUtf8().size());
    beginUndoAction();
    SendScintilla(SCI_SETTARGETRANGE, static_cast<unsigned long>(from), to);
    SendScintilla(SCI_REPLACETARGET, static_cast<unsigned long>(bytes.size()), bytes.constData());
    SendScintilla(SCI_GOTOPOS, static_cast<unsigned long>(caret));
    endUndoAction();
    return true;
}

void PdlEditor::showCompletionDocumentation(const QString& item)
{
    const QString doc = m_shownDocs.value(item);
    if (doc.isEmpty()) {
        QToolTip::hideText();
        return;
    }
    // Beside the list when it can be found, else below the caret.
    QPoint at;
    for (QListWidget* list : findChildren<QListWidget*>()) {
        if (list->isVisible()) {
            const QRect row = list->visualItemRect(list->currentItem());
            at = list->mapToGlobal(QPoint(list->width() + 4, std::max(0, row.top())));
            break;
        }
    }
    if (at.isNull()) {
        const long pos = SendScintilla(SCI_GETCURRENTPOS);
        at = viewport()->mapToGlobal(QPoint(int(SendScintilla(SCI_POINTXFROMPOSITION, 0ul, pos)),
                                            int(SendScintilla(SCI_POINTYFROMPOSITION, 0ul, pos)) +
                                                int(SendScintilla(SCI_TEXTHEIGHT, 0ul)) * 2));
    }
    QToolTip::showText(at, tooltipHtml(item + QLatin1Char('\n') + doc), viewport());
}

void PdlEditor::onCompletionInserted(const char* selection, int position)
{
    Q_UNUSED(position)
    if (!m_shownKeys.contains(QString::fromUtf8(selection)))
        return;
    // A key needs its `: ` (unless the line already has it after the cursor).
    const long caret = SendScintilla(SCI_GETCURRENTPOS);
    if (SendScintilla(SCI_GETCHARAT, caret) == ':')
        return;
    const QByteArray colon(": ");
    SendScintilla(SCI_INSERTTEXT, caret, colon.constData());
    SendScintilla(SCI_GOTOPOS, static_cast<unsigned long>(caret + colon.size()));
}

void PdlEditor::onCharAdded(int ch)
{
    if (SendScintilla(SCI_AUTOCACTIVE))
        return;
    if (isIdentifierChar(ch) || ch == '.')
        showCompletions(true);
}

bool PdlEditor::goToDefinition()
{
    if (!m_report || !m_report->scopes)
        return false;
    const auto [line, column] = cursorLineColumn();
    // The cursor sits before `column`: a name just typed ends at column - 1.
    const pdl::VariableDefinition* d = m_report->scopes->resolveAt(line, column);
    if (!d && column > 1)
        d = m_report->scopes->resolveAt(line, column - 1);
    const QString file = m_report->parse.program ? m_report->parse.program->file : QString();
    if (!d || !d->span.isValid() || d->span.file != file)
        return false;
    selectSpan(d->span);
    return true;
}

void PdlEditor::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_F12 && event->modifiers() == Qt::NoModifier) {
        goToDefinition();
        event->accept();
        return;
    }
    if (event->key() == Qt::Key_Space && (event->modifiers() & Qt::ControlModifier)) {
        showCompletions(false);
        event->accept();
        return;
    }
    QsciScintilla::keyPressEvent(event);
}

} // namespace hako
