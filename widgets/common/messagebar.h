#pragma once

#include <QFrame>

class QLabel;
class QToolButton;

namespace hako {

/// A non-modal, dismissable message strip shown above a pane (errors, warnings, notes).
class MessageBar : public QFrame {
    Q_OBJECT
public:
    enum class Kind { Error, Warning, Information };

    explicit MessageBar(QWidget* parent = nullptr);

    /// Shows `text` (plain text) styled for `kind`; replaces any current message.
    void showMessage(const QString& text, Kind kind = Kind::Error);
    /// Hides the bar and forgets the message.
    void clearMessage();

    QString text() const;
    Kind kind() const { return m_kind; }

private:
    QLabel* m_icon;
    QLabel* m_text;
    QToolButton* m_close;
    Kind m_kind = Kind::Information;
};

} // namespace hako
