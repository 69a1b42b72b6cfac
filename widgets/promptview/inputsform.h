#pragma once

#include "core/playground/promptdoc.h"

#include <QGroupBox>
#include <QJsonObject>

#include <functional>
#include <optional>

class QComboBox;
class QFormLayout;
class QLabel;
class QPushButton;

namespace hako {

/// The Prompt view's inputs form: one field per input of the program, the control matching its
/// kind (a line, several lines, a number, a list one item per line, a file with Choose…), and
/// named input sets: the values saved under a name (Save Set…), chosen again from the list,
/// deleted, or exported as a data file for `hako run -f` (Export Data File…). Values are JSON
/// (a number is a number, a list an array). GUI thread.
class InputsForm : public QGroupBox {
    Q_OBJECT
public:
    explicit InputsForm(QWidget* parent = nullptr);

    /// Rebuilds the fields for `inputs`, filled from `values`.
    void setInputs(const QList<playground::PromptDocInput>& inputs, const QJsonObject& values);
    /// Where the named sets of this program are kept (a settings key; empty: no sets).
    void setSetsKey(const QString& key);
    /// The settings key of the named sets of the program at `programPath`.
    static QString setsKeyFor(const QString& programPath);
    /// The named sets saved for the program at `programPath` (name → values), by name.
    static QList<QPair<QString, QJsonObject>> storedSets(const QString& programPath);

    QJsonObject values() const { return m_values; }
    /// The names of the saved sets, sorted.
    QStringList setNames() const;
    /// Saves the current values as set `name` (replacing one of that name).
    void saveSet(const QString& name);
    /// Fills the form with set `name`; false when there is none.
    bool loadSet(const QString& name);
    void deleteSet(const QString& name);
    /// Writes the values as a YAML data file (`hako run -f FILE`); false with `error` set.
    bool exportDataFile(const QString& path, QString* error = nullptr) const;

    /// Replace the dialogs (tests): the name of a new set, a file to choose, a path to export to.
    using Ask = std::function<std::optional<QString>()>;
    void setSetNameQuestion(Ask ask) { m_askSetName = std::move(ask); }
    void setFileQuestion(Ask ask) { m_askFile = std::move(ask); }
    void setExportQuestion(Ask ask) { m_askExport = std::move(ask); }

Q_SIGNALS:
    /// A value changed (typed, chosen, or a set loaded).
    void valuesChanged();
    /// Something to tell the person (an export written or failed).
    void message(const QString& text, bool error);

private:
    void rebuild();
    void addInputRow(QFormLayout* form, const playground::PromptDocInput& input);
    void addSetsRow(QFormLayout* form);
    void setValue(const QString& name, const QJsonValue& value);
    QJsonObject sets() const;
    void storeSets(const QJsonObject& sets);
    void updateSetControls();

    QList<playground::PromptDocInput> m_inputs;
    QJsonObject m_values;
    QString m_setsKey;
    QComboBox* m_sets = nullptr;
    QPushButton* m_deleteSet = nullptr;
    QLabel* m_status = nullptr;
    Ask m_askSetName, m_askFile, m_askExport;
};

} // namespace hako
