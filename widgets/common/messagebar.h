#pragma once

#include <QColor>
#include <QFrame>

#include <functional>

class QLabel;
class QPushButton;
class QToolButton;

namespace hako {

/// A non-modal, dismissable message strip shown above a pane (errors, warnings, notes).
class MessageBar : public QFrame {
    Q_OBJECT
public:
    enum class Kind { Error, Warning, Information };

    explicit MessageBar(QWidget* parent = nullptr);

    /// Shows `text` (plain text) styled for `kind`; replaces any current message. With
    /// `actionText`, a button beside the text offers what to do about it (`Configure models…`)
    /// and calls `action` when pressed.
    void showMessage(const QString& text, Kind kind = Kind::Error,
                     const QString& actionText = QString(), std::function<void()> action = {});
    /// Folds `detail` (the technical wording) under the message: a "Details" button shows it.
    /// Call after showMessage(); an empty detail removes the button.
    void setDetail(const QString& detail);
    /// Hides the bar and forgets the message.
    void clearMessage();

    QString text() const;
    QString detail() const;
    bool isDetailShown() const;
    /// The offered action's label ("" when none).
    QString actionText() const;
    Kind kind() const { return m_kind; }

protected:
    void changeEvent(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    /// The kind's colours for a light or dark application palette.
    void applyColors();

    QLabel* m_icon;
    QLabel* m_text;
    QLabel* m_detail;
    QToolButton* m_details;
    QToolButton* m_close;
    QPushButton* m_action;
    std::function<void()> m_onAction;
    Kind m_kind = Kind::Information;
    bool m_darkColors = false;
    QColor m_border;
};

} // namespace hako
