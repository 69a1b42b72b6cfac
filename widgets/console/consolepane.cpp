#include "widgets/console/consolepane.h"

#include "core/pdl/imagecontent.h"

#include "core/workbench/runcontroller.h"

#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QShortcut>
#include <QStackedWidget>
#include <QTextCharFormat>
#include <QTextCursor>
#include <QToolButton>
#include <QVBoxLayout>

namespace hako {

ConsolePane::ConsolePane(RunController* run, QWidget* parent)
    : QWidget(parent), m_run(run), m_output(new QPlainTextEdit(this)),
      m_inputRow(new QWidget(this)), m_prompt(new QLabel(m_inputRow)),
      m_inputStack(new QStackedWidget(m_inputRow)), m_line(new QLineEdit(m_inputStack)),
      m_multi(new QPlainTextEdit(m_inputStack)), m_send(new QPushButton(tr("Send"), m_inputRow)),
      m_eof(new QPushButton(tr("End Input"), m_inputRow))
{
    setObjectName(QStringLiteral("consolePane"));
    m_output->setReadOnly(true);
    m_output->setObjectName(QStringLiteral("consoleOutput"));
    m_output->setAccessibleName(tr("Program output"));
    m_output->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_output->setFont(mono);
    m_output->setPlaceholderText(tr("Program output appears here. Run a program with F5."));

    m_line->setObjectName(QStringLiteral("consoleInput"));
    m_line->setAccessibleName(tr("Program input"));
    m_multi->setAccessibleName(tr("Program input (several lines)"));
    m_line->setPlaceholderText(tr("Type a line and press Enter"));
    m_multi->setPlaceholderText(tr("Type the input; Ctrl+Enter sends it"));
    m_multi->setMaximumHeight(90);
    m_inputStack->addWidget(m_line);
    m_inputStack->addWidget(m_multi);
    m_eof->setToolTip(tr("Answer with end of input (Ctrl+D)"));
    auto* row = new QHBoxLayout(m_inputRow);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_prompt);
    row->addWidget(m_inputStack, 1);
    row->addWidget(m_send);
    row->addWidget(m_eof);
    m_prompt->setTextFormat(Qt::PlainText);
    QFont bold = m_prompt->font();
    bold.setBold(true);
    m_prompt->setFont(bold);

    auto* clearButton = new QToolButton(this);
    clearButton->setIcon(QIcon::fromTheme(QStringLiteral("edit-clear")));
    clearButton->setText(tr("Clear"));
    clearButton->setToolTip(tr("Clear the console"));
    clearButton->setAccessibleName(tr("Clear the console"));
    clearButton->setAutoRaise(true);
    connect(clearButton, &QToolButton::clicked, this, &ConsolePane::clear);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    auto* top = new QHBoxLayout;
    top->addStretch(1);
    top->addWidget(clearButton);
    layout->addLayout(top);
    layout->addWidget(m_output, 1);
    layout->addWidget(m_inputRow);
    m_inputRow->hide();

    connect(m_line, &QLineEdit::returnPressed, this, [this] { submitInput(m_line->text()); });
    connect(m_send, &QPushButton::clicked, this,
            [this] { submitInput(m_multiline ? m_multi->toPlainText() : m_line->text()); });
    connect(m_eof, &QPushButton::clicked, this, [this] {
        appendNote(tr("[end of input]"));
        hideInput();
        m_run->closeInput();
    });
    auto* sendMulti = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), m_multi);
    sendMulti->setContext(Qt::WidgetShortcut);
    connect(sendMulti, &QShortcut::activated, this,
            [this] { submitInput(m_multi->toPlainText()); });
    for (QWidget* w : {static_cast<QWidget*>(m_line), static_cast<QWidget*>(m_multi)}) {
        auto* eof = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_D), w);
        eof->setContext(Qt::WidgetShortcut);
        connect(eof, &QShortcut::activated, m_eof, &QPushButton::click);
    }

    connect(run, &RunController::started, this, [this](const QString& path) {
        appendNote(tr("▶ Running %1").arg(QFileInfo(path).fileName()));
    });
    connect(run, &RunController::output, this, &ConsolePane::append);
    connect(run, &RunController::inputRequested, this, &ConsolePane::showInput);
    connect(run, &RunController::finished, this,
            [this](bool ok, const QString&, const Diagnostic& error) {
                hideInput();
                if (ok) {
                    // The result streamed into the Console as it was produced (the run
                    // streams its result, as `hako run` does): it is not repeated here.
                    appendNote(tr("■ Finished"));
                } else if (m_run->wasStopped()) {
                    appendNote(tr("■ Stopped"));
                } else {
                    QString where;
                    if (error.span.isValid())
                        where = QStringLiteral("%1:%2:%3: ")
                                    .arg(QFileInfo(error.span.file).fileName())
                                    .arg(error.span.line)
                                    .arg(error.span.column);
                    append(where + error.message + QLatin1Char('\n'), true);
                    appendNote(tr("■ Failed"));
                }
            });
}

QString ConsolePane::text() const
{
    return m_output->toPlainText();
}

bool ConsolePane::isAskingForInput() const
{
    return !m_inputRow->isHidden();
}

QString ConsolePane::prompt() const
{
    return m_prompt->text();
}

void ConsolePane::clear()
{
    m_output->clear();
    m_insideDataUrl = false;
}

void ConsolePane::append(const QString& text, bool isError)
{
    QScrollBar* bar = m_output->verticalScrollBar();
    const bool atEnd = bar->value() >= bar->maximum() - 4;
    QTextCursor cursor(m_output->document());
    cursor.movePosition(QTextCursor::End);
    QTextCharFormat format;
    if (isError)
        format.setForeground(QColor(0xd0, 0x30, 0x30));
    else
        format.setForeground(m_output->palette().text());
    // An image in the output (a message printed as text) reads as a short placeholder.
    const std::string shown = pdl::streamedDisplayText(text.toStdString(), &m_insideDataUrl);
    cursor.insertText(QString::fromStdString(shown), format);
    if (atEnd)
        bar->setValue(bar->maximum());
}

void ConsolePane::appendNote(const QString& text)
{
    QTextCursor cursor(m_output->document());
    cursor.movePosition(QTextCursor::End);
    QTextCharFormat format;
    format.setForeground(m_output->palette().placeholderText());
    format.setFontItalic(true);
    if (!m_output->document()->isEmpty() && !m_output->toPlainText().endsWith(QLatin1Char('\n')))
        cursor.insertText(QStringLiteral("\n"));
    cursor.insertText(text + QLatin1Char('\n'), format);
    m_output->verticalScrollBar()->setValue(m_output->verticalScrollBar()->maximum());
}

void ConsolePane::showInput(const QString& prompt, bool multiline)
{
    m_multiline = multiline;
    const QString shown = prompt.trimmed().isEmpty() ? tr("Input:") : prompt.trimmed();
    m_prompt->setText(shown);
    m_inputStack->setCurrentWidget(multiline ? static_cast<QWidget*>(m_multi) : m_line);
    m_line->clear();
    m_multi->clear();
    m_inputRow->show();
    (multiline ? static_cast<QWidget*>(m_multi) : m_line)->setFocus();
}

void ConsolePane::hideInput()
{
    m_inputRow->hide();
}

void ConsolePane::submitInput(const QString& text)
{
    if (!isAskingForInput())
        return;
    append(text + (text.endsWith(QLatin1Char('\n')) ? QString() : QStringLiteral("\n")), false);
    hideInput();
    m_run->provideInput(text);
}

} // namespace hako
