#pragma once

#include "core/playground/playgroundprompt.h"

#include <QGroupBox>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QToolButton;
class QVBoxLayout;

namespace hako {
class ImagePartsStrip;

/// One variant column of the Playground pane: the model picker, the parameter controls and the
/// editable role/content message rows of one PlaygroundPrompt. Parameters the controls do not
/// show (and a response format other than text/json_object) are kept as they came. Every
/// control carries an accessible name starting with "Variant N". GUI thread.
class VariantEditor : public QGroupBox {
    Q_OBJECT
public:
    explicit VariantEditor(int number, QWidget* parent = nullptr);

    /// Renumbers the column (title and accessible names).
    void setNumber(int number);
    int number() const { return m_number; }

    void setPrompt(const playground::PlaygroundPrompt& prompt);
    /// The prompt the controls describe now.
    playground::PlaygroundPrompt prompt() const;

    /// The model names the picker offers (the current text stays).
    void setModels(const QStringList& models);
    void setRemovable(bool removable);

    void addMessage(const playground::PromptMessage& message = {});
    void removeMessage(int index);
    int messageCount() const { return int(m_rows.size()); }

    QComboBox* modelCombo() const { return m_model; }
    QDoubleSpinBox* temperatureSpin() const { return m_temperature; }
    QSpinBox* maxTokensSpin() const { return m_maxTokens; }
    QDoubleSpinBox* topPSpin() const { return m_topP; }
    QLineEdit* stopField() const { return m_stop; }
    QSpinBox* seedSpin() const { return m_seed; }
    QComboBox* responseFormatCombo() const { return m_responseFormat; }
    QComboBox* roleCombo(int index) const;
    QPlainTextEdit* messageEdit(int index) const;
    QPushButton* addMessageButton() const { return m_addMessage; }
    QPushButton* removeButton() const { return m_remove; }
    QPushButton* saveButton() const { return m_save; }
    QPushButton* copyButton() const { return m_copy; }

    /// Stop strings as the field shows them: comma separated, `\n`, `\t`, `\,` and `\\`
    /// escaped. Pure.
    static QString stopText(const QStringList& stop);
    static QStringList parseStop(const QString& text);

Q_SIGNALS:
    /// Any control changed.
    void changed();
    void removeRequested();
    void saveRequested();
    void copyRequested();

private:
    struct Row {
        QWidget* widget;
        QComboBox* role;
        QPlainTextEdit* text;
        QToolButton* remove;
        ImagePartsStrip* images; ///< thumbnails of `attachments`
        QJsonArray attachments;  ///< kept and sent again unchanged (see PromptMessage)
    };
    void updateNames();

    int m_number;
    QComboBox* m_model;
    QDoubleSpinBox* m_temperature;
    QSpinBox* m_maxTokens;
    QDoubleSpinBox* m_topP;
    QLineEdit* m_stop;
    QSpinBox* m_seed;
    QComboBox* m_responseFormat;
    QVBoxLayout* m_rowsLayout;
    QPushButton* m_addMessage;
    QPushButton* m_remove;
    QPushButton* m_save;
    QPushButton* m_copy;
    std::vector<Row> m_rows;
    QJsonObject m_extra;
    QJsonValue m_customFormat;
    QString m_name;
    /// The prompt's identity in the log (PlaygroundPrompt::promptId, …), kept as given.
    QString m_promptId;
    QString m_programId;
    QString m_programName;
};

} // namespace hako
