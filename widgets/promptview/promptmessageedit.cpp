#include "widgets/promptview/promptmessageedit.h"

#include "widgets/common/thememanager.h"

#include <QAbstractTextDocumentLayout>
#include <QEvent>
#include <QHelpEvent>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSyntaxHighlighter>
#include <QTextBlock>
#include <QToolTip>

namespace hako {

namespace {

const QRegularExpression& templatePattern()
{
    static const QRegularExpression re(QStringLiteral("\\$\\{[^}]*\\}|\\{\\{[^}]*\\}\\}"));
    return re;
}

} // namespace

/// `${ … }` (and Jinja's `{{ … }}`) as chips: a tinted background and a text of the same hue,
/// darker on light palettes and lighter on dark ones (both above 4.5:1).
class PromptMessageEdit::ChipHighlighter : public QSyntaxHighlighter {
public:
    using QSyntaxHighlighter::QSyntaxHighlighter;

    bool dark = false;

protected:
    void highlightBlock(const QString& text) override
    {
        QTextCharFormat chip;
        chip.setBackground(dark ? QColor(0x1f, 0x3a, 0x63) : QColor(0xdb, 0xea, 0xfe));
        chip.setForeground(dark ? QColor(0xc6, 0xdc, 0xff) : QColor(0x1e, 0x3a, 0x8a));
        chip.setFontWeight(QFont::DemiBold);
        auto it = templatePattern().globalMatch(text);
        while (it.hasNext()) {
            const QRegularExpressionMatch m = it.next();
            setFormat(int(m.capturedStart()), int(m.capturedLength()), chip);
        }
    }
};

PromptMessageEdit::PromptMessageEdit(QWidget* parent) : QPlainTextEdit(parent)
{
    setTabChangesFocus(true);
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_chips = new ChipHighlighter(document());
    m_chips->dark = ThemeManager::isDark(palette());
    connect(this, &QPlainTextEdit::textChanged, this, [this] {
        updateHeight();
        if (!m_quiet)
            Q_EMIT edited();
    });
    updateHeight();
}

void PromptMessageEdit::setTextQuietly(const QString& text)
{
    if (toPlainText() == text)
        return;
    const int pos = textCursor().position();
    m_quiet = true;
    setPlainText(text);
    m_quiet = false;
    QTextCursor c = textCursor();
    c.setPosition(std::min(pos, int(text.size())));
    setTextCursor(c);
}

QSize PromptMessageEdit::sizeHint() const
{
    return {QPlainTextEdit::sizeHint().width(), m_height};
}

QSize PromptMessageEdit::minimumSizeHint() const
{
    return {100, m_height};
}

void PromptMessageEdit::resizeEvent(QResizeEvent* e)
{
    QPlainTextEdit::resizeEvent(e);
    updateHeight();
}

void PromptMessageEdit::updateHeight()
{
    // QPlainTextEdit lays out only what it shows: measure the wrapped lines ourselves.
    const QFontMetrics fm = fontMetrics();
    const int width = std::max(50, viewport()->width() - int(2 * document()->documentMargin()) - 4);
    int lines = 0;
    for (QTextBlock b = document()->begin(); b.isValid(); b = b.next()) {
        const QString t = b.text();
        lines += t.isEmpty()
                     ? 1
                     : std::max(1, fm.boundingRect(QRect(0, 0, width, 1 << 20),
                                                   Qt::TextWordWrap | Qt::TextWrapAnywhere, t)
                                           .height() /
                                       fm.lineSpacing());
    }
    const int h = std::max(1, lines) * fontMetrics().lineSpacing() +
                  int(2 * document()->documentMargin()) + 2 * frameWidth() + 2;
    if (h != m_height) {
        m_height = h;
        setFixedHeight(h);
        updateGeometry();
    }
}

QString PromptMessageEdit::variableAt(int pos) const
{
    const QTextBlock block = document()->findBlock(pos);
    const int inBlock = pos - block.position();
    auto it = templatePattern().globalMatch(block.text());
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        if (inBlock < m.capturedStart() || inBlock > m.capturedEnd())
            continue;
        static const QRegularExpression name(QStringLiteral("[A-Za-z_][A-Za-z0-9_]*"));
        const QRegularExpressionMatch n = name.match(m.captured());
        return n.hasMatch() ? n.captured() : QString();
    }
    return {};
}

QString PromptMessageEdit::originText(const QString& name) const
{
    const QString origin = m_origins.value(name);
    return origin.isEmpty() ? tr("%1: a value computed by the program").arg(name)
                            : tr("%1: %2").arg(name, origin);
}

bool PromptMessageEdit::viewportEvent(QEvent* e)
{
    // Tooltips arrive at the viewport, which the scroll area hands to viewportEvent().
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const QPoint p = help->pos();
        const QString name = variableAt(cursorForPosition(p).position());
        if (name.isEmpty()) {
            QToolTip::hideText();
            e->ignore();
            return true;
        }
        QToolTip::showText(help->globalPos(), originText(name), this);
        return true;
    }
    return QPlainTextEdit::viewportEvent(e);
}

void PromptMessageEdit::changeEvent(QEvent* e)
{
    QPlainTextEdit::changeEvent(e);
    if (e->type() == QEvent::PaletteChange && ThemeManager::isDark(palette()) != m_chips->dark) {
        m_chips->dark = !m_chips->dark;
        // Recolouring marks the document changed, which is no edit of the user's.
        m_quiet = true;
        m_chips->rehighlight();
        m_quiet = false;
    }
}

bool PromptMessageEdit::chipsAreDark() const
{
    return m_chips->dark;
}

void PromptMessageEdit::focusOutEvent(QFocusEvent* e)
{
    QPlainTextEdit::focusOutEvent(e);
    Q_EMIT focusLost();
}

} // namespace hako
