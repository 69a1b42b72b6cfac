#pragma once

#include "core/playground/promptdoc.h"

#include <QFrame>
#include <QJsonValue>

class QComboBox;
class QDoubleSpinBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTimer;
class QToolButton;
class QVBoxLayout;

namespace hako {

struct PromptReply;

/// One model call of the Prompt view as a card: its heading, "Try in Playground" and "Pause
/// Here", the model picker, temperature, maximum reply length and stop texts, then the body the
/// view adds (the call's messages and sections), then the latest reply.
///
/// The card edits nothing itself: a change the person makes is announced (modelChosen,
/// parameterChanged; number fields after a pause in typing) and the view turns it into a YAML
/// edit; setItem() shows the block as the YAML now says, leaving a field being typed in alone.
/// GUI thread only.
class PromptCard : public QFrame {
    Q_OBJECT
public:
    /// A card for `item` (a PromptDocItem of kind Card), offering `modelNames` in its picker.
    PromptCard(const playground::PromptDocItem& item, const QStringList& modelNames,
               QWidget* parent = nullptr);

    /// The block the card shows, as of the latest setItem().
    const playground::PromptDocItem& item() const { return m_item; }
    /// The name the card goes by (its heading, else "model call at line N").
    QString displayName() const;
    /// Shows `item` (the same block after the YAML changed) without disturbing a field the
    /// person is typing in.
    void setItem(const playground::PromptDocItem& item);
    /// The names the model picker offers (the current model stays offered too).
    void setModelNames(const QStringList& names);
    /// Whether "Pause Here" is on (the editor has a breakpoint on the block's first line).
    void setPaused(bool on);
    /// Shows `reply` under the card, or hides the reply when null.
    void setReply(const PromptReply* reply);
    /// Adds a widget (a message, a section, a note) to the card's body, above the reply.
    void addBody(QWidget* widget);
    /// The heading label (the view sets its font when zooming).
    QLabel* heading() const { return m_heading; }
    /// Announces at once a number still waiting for a pause in typing.
    void commitPending();
    /// Puts the keyboard focus on the card's Up (`delta` < 0) or Down button, else on Rename.
    void focusAction(int delta);

    /// The card's position in the document's pre-order (the view's bookkeeping).
    int index = -1;

Q_SIGNALS:
    /// The person chose or typed another model.
    void modelChosen(const QString& model);
    /// The person changed a parameter (`key` as the YAML names it; an undefined or null
    /// `value` removes it).
    void parameterChanged(const QString& key, const QJsonValue& value);
    /// "Pause Here" was switched.
    void pauseToggled(bool on);
    /// "Try in Playground" was pressed.
    void tryInPlaygroundRequested();
    /// Up (-1) or Down (+1) was pressed: move the call before or after its neighbour.
    void moveRequested(int delta);
    /// "Rename…" was pressed.
    void renameRequested();
    /// "Remove" was pressed.
    void removeRequested();

private:
    void buildHeader();
    void buildSettings();
    void buildActions(QHBoxLayout* header);
    void announceModel();

    playground::PromptDocItem m_item;
    QStringList m_modelNames;
    QVBoxLayout* m_layout = nullptr;
    QLabel* m_heading = nullptr;
    QToolButton* m_pause = nullptr;
    QToolButton* m_try = nullptr;
    QToolButton* m_up = nullptr;
    QToolButton* m_down = nullptr;
    QToolButton* m_rename = nullptr;
    QToolButton* m_remove = nullptr;
    QComboBox* m_model = nullptr;
    QDoubleSpinBox* m_temperature = nullptr;
    QSpinBox* m_maxTokens = nullptr;
    QLineEdit* m_stop = nullptr;
    QLabel* m_reply = nullptr;
    QTimer* m_paramTimer = nullptr;
    QString m_pendingParameter;
};

} // namespace hako
