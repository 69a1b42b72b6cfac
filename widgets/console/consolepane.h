#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QToolButton;

namespace hako {

class RunController;

/// The Console: a run's standard output and error as they stream, and — when a `read` block
/// waits — an input field with the program's prompt (Enter sends a line; a multi-line read gets
/// a text box sent with Ctrl+Enter; "End input" answers with end of file). Never blocks: the
/// run waits on its own thread. GUI thread only.
class ConsolePane : public QWidget {
    Q_OBJECT
public:
    explicit ConsolePane(RunController* run, QWidget* parent = nullptr);

    /// Everything shown so far (output, echoed input, run banners).
    QString text() const;
    /// Whether the input row is showing (a read is waiting).
    bool isAskingForInput() const;
    /// The prompt of the waiting read.
    QString prompt() const;
    /// Answers the waiting read as if typed and sent (tests and scripting).
    void submitInput(const QString& text);
    /// Clears the console.
    void clear();

    QLineEdit* inputLine() const { return m_line; }

private:
    void append(const QString& text, bool isError);
    void appendNote(const QString& text);
    void showInput(const QString& prompt, bool multiline);
    void hideInput();

    RunController* m_run;
    QPlainTextEdit* m_output;
    QWidget* m_inputRow;
    QLabel* m_prompt;
    QStackedWidget* m_inputStack;
    QLineEdit* m_line;
    QPlainTextEdit* m_multi;
    QPushButton* m_send;
    QPushButton* m_eof;
    bool m_multiline = false;
    bool m_insideDataUrl = false; ///< the output so far ends inside an image's base64
};

} // namespace hako
