#include "widgets/eval/datasetpane.h"

#include "core/eval/evalstore.h"
#include "core/eval/resultsmodel.h"
#include "core/util/outputfile.h"
#include "widgets/common/accessibleparts.h"
#include "widgets/common/messagebar.h"
#include "widgets/eval/csvimportdialog.h"

#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QTableView>
#include <QVBoxLayout>

namespace hako {

namespace {
const char* const kLastDatasetKey = "eval/dataset/last";
}

DatasetPane::DatasetPane(QWidget* parent)
    : QWidget(parent), m_model(new eval::DatasetTableModel(this)), m_table(new QTableView),
      m_messages(new MessageBar), m_name(new QLineEdit), m_description(new QLineEdit),
      m_stored(new QComboBox), m_versions(new QComboBox)
{
    setObjectName(QStringLiteral("datasetPane"));
    m_table->setModel(m_model);
    m_table->setAccessibleName(tr("Examples"));
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_name->setAccessibleName(tr("Dataset name"));
    m_name->setPlaceholderText(tr("name"));
    m_description->setAccessibleName(tr("Description"));
    m_description->setPlaceholderText(tr("description"));

    auto* add = new QPushButton(tr("Add Row"));
    auto* remove = new QPushButton(tr("Remove Rows"));
    auto* import = new QPushButton(tr("Import…"));
    auto* exportButton = new QPushButton(tr("Export…"));
    auto* saveButton = new QPushButton(tr("Save Version"));
    auto* addColumnButton = new QPushButton(tr("Add Column…"));
    m_stored->setAccessibleName(tr("Saved datasets"));
    m_stored->setToolTip(tr("Open a dataset saved earlier"));
    m_versions->setAccessibleName(tr("Dataset version"));
    m_versions->setToolTip(tr("Every saved edit is a version; open an older one here"));
    auto* top = new QHBoxLayout;
    top->addWidget(m_stored, 1);
    top->addWidget(m_versions);
    top->addWidget(new QLabel(tr("Dataset:")));
    top->addWidget(m_name, 1);
    top->addWidget(m_description, 2);
    auto* buttons = new QHBoxLayout;
    for (QPushButton* b : {add, remove, addColumnButton, import, exportButton, saveButton})
        buttons->addWidget(b);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_messages);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);

    connect(m_model, &eval::DatasetTableModel::shapeProblem, this,
            [this](const eval::ShapeProblem& p) {
                m_messages->showMessage(tr("Not changed: %1").arg(p.toString()));
            });
    connect(add, &QPushButton::clicked, this, [this] {
        const int row = m_table->currentIndex().isValid() ? m_table->currentIndex().row() + 1
                                                          : m_model->rowCount();
        m_model->insertRows(row, 1);
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        QList<int> rows;
        for (const QModelIndex& i : m_table->selectionModel()->selectedIndexes())
            if (!rows.contains(i.row()))
                rows << i.row();
        std::sort(rows.rbegin(), rows.rend());
        for (int r : rows)
            m_model->removeRows(r, 1);
    });
    connect(import, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Import Examples"), QString(),
            tr("Datasets (*.jsonl *.json *.csv *.yaml *.yml);;All files (*)"));
        if (!path.isEmpty())
            importFile(path);
    });
    connect(exportButton, &QPushButton::clicked, this, [this] {
        QString filter;
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export Examples"), m_name->text(),
            tr("JSON Lines (*.jsonl);;JSON (*.json);;CSV (*.csv);;LangSmith JSONL (*.jsonl);;"
               "promptfoo tests (*.yaml)"),
            &filter);
        if (path.isEmpty())
            return;
        eval::DatasetFormat format = eval::datasetFormatForPath(path);
        if (filter.startsWith(QLatin1String("LangSmith")))
            format = eval::DatasetFormat::LangSmith;
        exportFile(path, format);
    });
    connect(saveButton, &QPushButton::clicked, this, [this] { save(); });
    connect(m_stored, &QComboBox::activated, this, [this](int index) {
        const QString name = m_stored->itemData(index).toString();
        if (!name.isEmpty() && mayReplace())
            open(name);
        reloadStored();
    });
    connect(m_versions, &QComboBox::activated, this, [this](int index) {
        const int version = m_versions->itemData(index).toInt();
        if (version > 0 && version != dataset().version && mayReplace())
            open(dataset().name, version);
        reloadStored();
    });
    connect(m_model, &QAbstractItemModel::dataChanged, this, [this] { m_dirty = true; });
    connect(m_model, &QAbstractItemModel::rowsInserted, this, [this] { m_dirty = true; });
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, [this] { m_dirty = true; });
    setupColumns(addColumnButton);
    // The parts Qt adds inside these controls get names for screen readers too.
    AccessibleParts::name(this);
}

void DatasetPane::setupColumns(QPushButton* addColumnButton)
{
    addColumnButton->setToolTip(tr("Add an input column (right-click a column's header to "
                                   "rename or remove it)"));
    connect(addColumnButton, &QPushButton::clicked, this, [this] {
        if (const std::optional<QString> name = askColumnName(tr("Add Column"), QString()))
            addColumn(*name);
    });
    QHeaderView* header = m_table->horizontalHeader();
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header, &QHeaderView::customContextMenuRequested, this, [this, header](QPoint at) {
        const int column = header->logicalIndexAt(at);
        QMenu menu(this);
        menu.addAction(tr("Add Column…"), this, [this] {
            if (const std::optional<QString> name = askColumnName(tr("Add Column"), QString()))
                addColumn(*name);
        });
        // The last column is the reference, which is no input.
        if (column >= 0 && column < m_model->fields().size()) {
            const QString name = m_model->fields().at(column);
            menu.addAction(tr("Rename Column “%1”…").arg(name), this, [this, name] {
                if (const std::optional<QString> to = askColumnName(tr("Rename Column"), name))
                    renameColumn(name, *to);
            });
            menu.addAction(tr("Remove Column “%1”").arg(name), this,
                           [this, name] { removeColumn(name); });
        }
        menu.exec(header->mapToGlobal(at));
    });
}

std::optional<QString> DatasetPane::askColumnName(const QString& title, const QString& current)
{
    if (m_askColumnName)
        return m_askColumnName(title, current);
    bool ok = false;
    const QString name = QInputDialog::getText(this, title,
                                               tr("Input name (as the prompt writes "
                                                  "it inside ${ }):"),
                                               QLineEdit::Normal, current, &ok);
    return ok ? std::optional<QString>(name) : std::nullopt;
}

bool DatasetPane::addColumn(const QString& name)
{
    const Result<bool> done = m_model->addInput(name);
    if (!done)
        m_messages->showMessage(tr("No column added: %1").arg(done.error().message));
    else
        m_dirty = true;
    return done.ok();
}

bool DatasetPane::renameColumn(const QString& from, const QString& to)
{
    const Result<bool> done = m_model->renameInput(from, to);
    if (!done)
        m_messages->showMessage(tr("Not renamed: %1").arg(done.error().message));
    else
        m_dirty = true;
    return done.ok();
}

bool DatasetPane::removeColumn(const QString& name)
{
    const Result<bool> done = m_model->removeInput(name);
    if (!done)
        m_messages->showMessage(tr("Not removed: %1").arg(done.error().message));
    else
        m_dirty = true;
    return done.ok();
}

void DatasetPane::setInputsSource(std::function<QStringList()> source)
{
    m_inputsSource = std::move(source);
    suggestColumns();
}

void DatasetPane::suggestColumns()
{
    // A new dataset starts with a column for each input of the prompt it is for.
    if (!m_inputsSource || !isVisible() || !dataset().examples.isEmpty() ||
        !m_model->fields().isEmpty())
        return;
    if (m_model->suggestInputs(m_inputsSource()))
        m_messages->showMessage(tr("The columns are the inputs of the program under test; add, "
                                   "rename or remove them from the column headers' menu."),
                                MessageBar::Kind::Information);
}

void DatasetPane::showEvent(QShowEvent* e)
{
    QWidget::showEvent(e);
    suggestColumns();
}

DatasetPane::~DatasetPane() = default;

void DatasetPane::setStore(std::shared_ptr<eval::EvalStore> store)
{
    m_store = std::move(store);
    // The dataset worked on last, as it was saved (an empty table only: nothing is replaced).
    const QString last = QSettings().value(QLatin1String(kLastDatasetKey)).toString();
    if (m_store && !last.isEmpty() && dataset().examples.isEmpty() && m_name->text().isEmpty())
        open(last);
    reloadStored();
}

void DatasetPane::setDataset(const eval::Dataset& dataset)
{
    m_model->setDataset(dataset);
    m_name->setText(dataset.name);
    m_description->setText(dataset.description);
    m_messages->clearMessage();
    m_dirty = false;
    suggestColumns();
}

bool DatasetPane::mayReplace()
{
    if (!m_dirty || dataset().examples.isEmpty())
        return true;
    return QMessageBox::question(this, tr("Datasets"),
                                 tr("The examples shown have changes that are not saved. "
                                    "Discard them?"),
                                 QMessageBox::Discard | QMessageBox::Cancel,
                                 QMessageBox::Cancel) == QMessageBox::Discard;
}

void DatasetPane::reloadStored()
{
    m_stored->clear();
    m_versions->clear();
    m_stored->addItem(tr("Open a saved dataset…"), QString());
    if (!m_store)
        return;
    Result<QStringList> names = m_store->datasetNames();
    for (const QString& name : names ? *names : QStringList()) {
        Result<QList<eval::DatasetVersionInfo>> versions = m_store->versions(name);
        const eval::DatasetVersionInfo latest =
            versions && !versions->isEmpty() ? versions->last() : eval::DatasetVersionInfo{};
        m_stored->addItem(
            tr("%1 (v%2, %n example(s))", nullptr, latest.examples).arg(name).arg(latest.version),
            name);
    }
    const QString current = dataset().name;
    if (current.isEmpty())
        return;
    Result<QList<eval::DatasetVersionInfo>> versions = m_store->versions(current);
    for (const eval::DatasetVersionInfo& v :
         versions ? *versions : QList<eval::DatasetVersionInfo>())
        m_versions->insertItem(
            0,
            tr("v%1 · %2")
                .arg(v.version)
                .arg(QLocale().toString(QDateTime::fromMSecsSinceEpoch(v.createdAt),
                                        QLocale::ShortFormat)),
            v.version);
    m_versions->setCurrentIndex(std::max(0, m_versions->findData(dataset().version)));
}

const eval::Dataset& DatasetPane::dataset() const
{
    return m_model->dataset();
}

bool DatasetPane::open(const QString& name, int version)
{
    if (!m_store)
        return false;
    Result<eval::Dataset> d = m_store->dataset(name, version);
    if (!d.ok()) {
        m_messages->showMessage(d.error().message);
        return false;
    }
    setDataset(*d);
    QSettings().setValue(QLatin1String(kLastDatasetKey), d->name);
    return true;
}

void DatasetPane::report(const QList<eval::ShapeProblem>& problems, int added)
{
    if (problems.isEmpty()) {
        m_messages->showMessage(tr("Added %n example(s).", nullptr, added),
                                MessageBar::Kind::Information);
        return;
    }
    QStringList lines;
    for (const eval::ShapeProblem& p : problems.mid(0, 5))
        lines << p.toString();
    if (problems.size() > 5)
        lines << tr("… and %n more", nullptr, int(problems.size() - 5));
    m_messages->showMessage(tr("Added %1; left out %2 that do not fit: %3")
                                .arg(added)
                                .arg(problems.size())
                                .arg(lines.join(QStringLiteral("; "))),
                            MessageBar::Kind::Warning);
}

int DatasetPane::importFile(const QString& path)
{
    Result<QByteArray> data = [&]() -> Result<QByteArray> {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return makeError(QStringLiteral("%1: %2").arg(path, f.errorString()));
        return f.readAll();
    }();
    if (!data.ok()) {
        m_messages->showMessage(data.error().message);
        return 0;
    }
    const eval::DatasetFormat format = eval::datasetFormatForPath(path);
    Result<eval::ParsedExamples> parsed = makeError(QString());
    if (format == eval::DatasetFormat::Csv) {
        // A spreadsheet's columns are shown with what each becomes before anything is added.
        Result<eval::CsvPreview> preview = eval::previewCsv(*data, path);
        if (!preview.ok()) {
            m_messages->showMessage(preview.error().toString());
            return 0;
        }
        eval::CsvPreview proposed = CsvImportDialog::proposed(*preview);
        if (!reviewImport(proposed))
            return 0;
        parsed = eval::parseCsvExamples(*data, path, proposed.columns);
    } else {
        parsed = eval::parseExamples(*data, format, path);
    }
    if (!parsed.ok()) {
        m_messages->showMessage(parsed.error().toString());
        return 0;
    }
    eval::Dataset d = m_model->dataset();
    if (d.name.isEmpty())
        d.name = m_name->text().isEmpty() ? QFileInfo(path).completeBaseName() : m_name->text();
    const int before = int(d.examples.size());
    QList<eval::ShapeProblem> problems = parsed->problems;
    for (eval::ShapeProblem p : d.add(parsed->examples)) {
        p.index = parsed->sourceIndex.value(p.index, p.index);
        problems.append(p);
    }
    const int added = int(d.examples.size()) - before;
    const QString name = d.name;
    setDataset(d);
    m_name->setText(name);
    report(problems, added);
    return added;
}

bool DatasetPane::reviewImport(eval::CsvPreview& preview)
{
    if (m_reviewImport)
        return m_reviewImport(preview);
    CsvImportDialog dialog(preview, this);
    if (dialog.exec() != QDialog::Accepted)
        return false;
    preview.columns = dialog.columns();
    return true;
}

bool DatasetPane::exportFile(const QString& path, eval::DatasetFormat format)
{
    const QByteArray bytes = eval::exportExamples(m_model->dataset().examples, format);
    QString error;
    if (!writeOutputFile(path, bytes, &error)) {
        m_messages->showMessage(tr("Cannot write %1: %2").arg(path, error));
        return false;
    }
    return true;
}

int DatasetPane::addCalls(const QList<promptlog::CallRecord>& calls, bool replyAsReference)
{
    eval::Dataset d = m_model->dataset();
    if (d.name.isEmpty())
        d.name = m_name->text();
    const int before = int(d.examples.size());
    const QList<eval::ShapeProblem> problems = d.add(eval::fromCalls(calls, replyAsReference));
    const int added = int(d.examples.size()) - before;
    setDataset(d);
    report(problems, added);
    return added;
}

int DatasetPane::save(const QString& message)
{
    if (!m_store) {
        m_messages->showMessage(tr("No evaluation store to save to."));
        return 0;
    }
    eval::Dataset d = m_model->dataset();
    d.name = m_name->text().trimmed();
    d.description = m_description->text();
    if (d.name.isEmpty()) {
        m_messages->showMessage(tr("Give the dataset a name first."));
        return 0;
    }
    Result<int> version = m_store->saveDataset(d, message, true);
    if (!version.ok()) {
        m_messages->showMessage(version.error().message);
        return 0;
    }
    d.version = *version;
    setDataset(d);
    QSettings().setValue(QLatin1String(kLastDatasetKey), d.name);
    reloadStored();
    m_messages->showMessage(tr("Saved %1 version %2.").arg(d.name).arg(*version),
                            MessageBar::Kind::Information);
    return *version;
}

} // namespace hako
