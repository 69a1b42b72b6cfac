#pragma once

#include "core/playground/promptdoc.h"

#include <QJsonValue>
#include <QWidget>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QPlainTextEdit;
class QTimer;

namespace hako {

/// A `defs` value of the Prompt view that is not a text: a list of texts (one item per line),
/// a number (a spin box) or a yes/no (a check box). The widget edits nothing itself: a change is
/// announced after a short pause in typing (or when the field loses the focus) and the view
/// writes it to the YAML; setItem() shows the value as the YAML now says, leaving a field being
/// typed in alone. GUI thread only.
class PromptValueEdit : public QWidget {
    Q_OBJECT
public:
    /// An editor for `item` (a Value whose valueType is List, Number or Bool).
    explicit PromptValueEdit(const playground::PromptDocItem& item, QWidget* parent = nullptr);

    const playground::PromptDocItem& item() const { return m_item; }
    /// Shows `item` (the same value after the YAML changed) unless a change is waiting.
    void setItem(const playground::PromptDocItem& item);
    /// Announces at once a change still waiting for a pause in typing.
    void commitPending();
    /// The field the person edits (the list's text, the spin box or the check box).
    QWidget* field() const;

    /// The value's position in the document's pre-order (the view's bookkeeping).
    int index = -1;

Q_SIGNALS:
    /// The person changed the value: a JSON array of strings for a list, else a number or bool.
    void changed(const QJsonValue& value);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QJsonValue current() const;
    void show(const playground::PromptDocItem& item);

    playground::PromptDocItem m_item;
    QPlainTextEdit* m_list = nullptr;
    QDoubleSpinBox* m_number = nullptr;
    QCheckBox* m_bool = nullptr;
    QTimer* m_timer = nullptr;
};

} // namespace hako
