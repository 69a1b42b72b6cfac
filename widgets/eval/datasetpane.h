#pragma once

#include "core/eval/datasetio.h"

#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

class QComboBox;
class QLineEdit;
class QPushButton;
class QTableView;

namespace hako::eval {
class DatasetTableModel;
class EvalStore;
} // namespace hako::eval

namespace hako {

class MessageBar;

/// The dataset editor: a dataset's examples as an editable table (one column per input, and
/// the reference), its name and description, rows added and removed, import and export in
/// every format core/eval reads and writes, examples added from logged calls, and Save (a new
/// version in the EvalStore). An edit or import that does not fit the dataset's shape is
/// refused and said in the message bar above the table, with the example and field. Opening and
/// saving call the store on the GUI thread (a dataset of a few thousand rows saves in
/// milliseconds; move them to a worker if datasets grow). GUI thread only.
class DatasetPane : public QWidget {
    Q_OBJECT
public:
    explicit DatasetPane(QWidget* parent = nullptr);
    ~DatasetPane() override;

    void setStore(std::shared_ptr<eval::EvalStore> store);
    /// Shows `dataset` (unsaved until save()).
    void setDataset(const eval::Dataset& dataset);
    const eval::Dataset& dataset() const;
    /// Opens the stored dataset `name` at `version` (0: the latest); false (and a message)
    /// when there is none.
    bool open(const QString& name, int version = 0);

    /// Adds the examples of a file; those that do not fit are left out and listed in the
    /// message bar. Gives how many were added.
    int importFile(const QString& path);
    /// Writes the examples to `path` in `format`.
    bool exportFile(const QString& path, eval::DatasetFormat format);
    /// Adds examples made of logged calls (Prompt Log › Add to Dataset); gives how many fit.
    int addCalls(const QList<promptlog::CallRecord>& calls, bool replyAsReference);
    /// Stores the table as a new version; gives it (0 and a message on failure).
    int save(const QString& message = {});

    QTableView* table() const { return m_table; }
    MessageBar* messageBar() const { return m_messages; }
    QLineEdit* nameField() const { return m_name; }
    eval::DatasetTableModel* model() const { return m_model; }

    /// Where a new, empty dataset takes its columns from: the inputs of the prompt it is for
    /// (asked when the table is empty and has no columns).
    void setInputsSource(std::function<QStringList()> source);
    /// Input columns, as the table's header menu and Add Column… do; false and a message in
    /// the pane when the name is empty or taken.
    bool addColumn(const QString& name);
    bool renameColumn(const QString& from, const QString& to);
    bool removeColumn(const QString& name);
    /// Replaces the dialog that shows a CSV file's columns before importing it (tests): it may
    /// change the columns' roles; false cancels the import.
    void setImportReview(std::function<bool(eval::CsvPreview&)> review)
    {
        m_reviewImport = std::move(review);
    }
    /// Replaces the dialog asking for a column's name (tests); nullopt: cancelled.
    void setColumnNameQuestion(
        std::function<std::optional<QString>(const QString& title, const QString& current)> ask)
    {
        m_askColumnName = std::move(ask);
    }

    /// The saved datasets (to open one) and the versions of the one shown.
    QComboBox* storedBox() const { return m_stored; }
    QComboBox* versionBox() const { return m_versions; }

protected:
    void showEvent(QShowEvent* e) override;

private:
    void setupColumns(QPushButton* addColumn);
    void suggestColumns();
    std::optional<QString> askColumnName(const QString& title, const QString& current);
    bool reviewImport(eval::CsvPreview& preview);
    void reloadStored();
    /// Whether the table may be replaced: unchanged since opened or saved, or the user agrees
    /// to discard the edits.
    bool mayReplace();
    void report(const QList<eval::ShapeProblem>& problems, int added);

    std::shared_ptr<eval::EvalStore> m_store;
    eval::DatasetTableModel* m_model;
    QTableView* m_table;
    MessageBar* m_messages;
    QLineEdit* m_name;
    QLineEdit* m_description;
    QComboBox* m_stored;
    QComboBox* m_versions;
    bool m_dirty = false;
    std::function<QStringList()> m_inputsSource;
    std::function<bool(eval::CsvPreview&)> m_reviewImport;
    std::function<std::optional<QString>(const QString&, const QString&)> m_askColumnName;
};

} // namespace hako
