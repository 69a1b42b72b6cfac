#pragma once

#include <QHash>
#include <QPlainTextEdit>

namespace hako {

/// The editable text of one prompt message or paragraph in the Prompt view: wraps, grows with
/// its text (no inner scroll bar), moves focus on Tab, and shows each `${ … }` as a coloured
/// chip whose tooltip says where the value comes from (setOrigins()). GUI thread only.
class PromptMessageEdit : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit PromptMessageEdit(QWidget* parent = nullptr);

    /// Variable name → where its value comes from ("an input of the program", …).
    void setOrigins(const QHash<QString, QString>& origins) { m_origins = origins; }
    /// Replaces the text without emitting `edited` and without growing the undo history of an
    /// unchanged text; keeps the cursor position when it can.
    void setTextQuietly(const QString& text);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    /// Whether the `${ }` chips use their dark-palette colours (they follow the palette).
    bool chipsAreDark() const;

Q_SIGNALS:
    /// The user changed the text (not setTextQuietly).
    void edited();
    /// Focus left the editor (pending edits should be written now).
    void focusLost();

protected:
    bool viewportEvent(QEvent* e) override;
    void focusOutEvent(QFocusEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    void updateHeight();

public:
    /// The `${ … }` around document position `pos`, as the first name it reads; "" if none.
    QString variableAt(int pos) const;
    /// The tooltip text for variable `name` ("name: where it comes from").
    QString originText(const QString& name) const;

private:
    class ChipHighlighter;
    ChipHighlighter* m_chips = nullptr;
    QHash<QString, QString> m_origins;
    bool m_quiet = false;
    int m_height = 0;
};

} // namespace hako
