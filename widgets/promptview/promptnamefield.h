#pragma once

#include <QWidget>

class QLineEdit;

namespace hako {

/// The prompt's name at the top of the Prompt view: what the prompt log, the stats, the library
/// and the experiments call it (the program's `description`). Editing it and pressing Enter (or
/// leaving the field) asks for the rename; the view writes it to the YAML. GUI thread only.
class PromptNameField : public QWidget {
    Q_OBJECT
public:
    explicit PromptNameField(QWidget* parent = nullptr);

    /// Shows `name` (the program's, "" when it has none; `fallback` is shown greyed then),
    /// unless the user is typing a name not yet given.
    void showName(const QString& name, const QString& fallback);
    QLineEdit* field() const { return m_edit; }

Q_SIGNALS:
    /// The user gave the prompt this name (trimmed, not empty, different from the shown one).
    void renamed(const QString& name);

private:
    QLineEdit* m_edit;
    QString m_shown;
};

} // namespace hako
