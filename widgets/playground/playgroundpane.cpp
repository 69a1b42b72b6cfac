#include "widgets/playground/playgroundpane.h"

#include "core/playground/inputtable.h"
#include "widgets/common/diffhtml.h"

#include "core/pdl/model/modelprovider.h"
#include "core/playground/playgroundresultmodel.h"
#include "core/playground/playgroundrun.h"
#include "core/playground/playgroundsession.h"
#include "core/playground/savetoprogram.h"
#include "core/promptlog/callrecord.h"
#include "widgets/common/messagebar.h"
#include "widgets/playground/playgroundsessions.h"
#include "widgets/playground/varianteditor.h"

#include <QApplication>
#include <QClipboard>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QScrollArea>
#include <QShortcut>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStyle>
#include <QTableView>
#include <QTableWidget>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

namespace hako {

using namespace playground;

namespace {

QString escapeText(const QString& text)
{
    return text.toHtmlEscaped();
}

QString pre(const QString& html)
{
    return QStringLiteral("<div style=\"white-space:pre-wrap\">") + html + QStringLiteral("</div>");
}

/// What a new session starts with: one variant with an empty user message to type into.
PlaygroundPrompt blankPrompt()
{
    PlaygroundPrompt p;
    p.messages = {PromptMessage{}};
    return p;
}

} // namespace

PlaygroundPane::PlaygroundPane(QWidget* parent) : QWidget(parent)
{
    setAccessibleName(tr("Playground"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_sessions = new PlaygroundSessions(this);
    layout->addWidget(m_sessions);
    m_messageBar = new MessageBar(this);
    m_messageBar->setAccessibleName(tr("Playground messages"));
    layout->addWidget(m_messageBar);

    m_stack = new QStackedWidget(this);
    layout->addWidget(m_stack, 1);
    m_empty = new QLabel(tr("Open a call from the Prompt Log or a model block from the editor to "
                            "try it here: edit its messages and parameters, compare variants "
                            "side by side and run them over several inputs."),
                         m_stack);
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setMargin(24);
    m_empty->setAccessibleName(tr("Playground is empty"));
    m_stack->addWidget(m_empty);

    auto* page = new QWidget(m_stack);
    auto* pageLayout = new QVBoxLayout(page);
    pageLayout->setContentsMargins(4, 4, 4, 4);

    // The run bar.
    auto* bar = new QHBoxLayout;
    m_addVariant = new QPushButton(tr("Add Variant"), page);
    m_addVariant->setAccessibleName(tr("Add variant"));
    m_addVariant->setToolTip(
        tr("Duplicate the last variant into a new column (up to %1)").arg(kMaxVariants));
    bar->addWidget(m_addVariant);
    bar->addSpacing(12);
    auto* repeatLabel = new QLabel(tr("Repeat"), page);
    m_repeat = new QSpinBox(page);
    m_repeat->setRange(1, 100);
    m_repeat->setAccessibleName(tr("Repeat each cell"));
    m_repeat->setToolTip(tr("Run each cell this many times to see how much the replies vary"));
    repeatLabel->setBuddy(m_repeat);
    bar->addWidget(repeatLabel);
    bar->addWidget(m_repeat);
    auto* concurrencyLabel = new QLabel(tr("Parallel"), page);
    m_concurrency = new QSpinBox(page);
    m_concurrency->setRange(1, 32);
    m_concurrency->setValue(4);
    m_concurrency->setAccessibleName(tr("Calls in parallel"));
    m_concurrency->setToolTip(tr("How many calls run at once"));
    concurrencyLabel->setBuddy(m_concurrency);
    bar->addWidget(concurrencyLabel);
    bar->addWidget(m_concurrency);
    m_run = new QPushButton(tr("Run"), page);
    m_run->setAccessibleName(tr("Run"));
    m_run->setToolTip(tr("Run every variant over every input row (Ctrl+Return)"));
    m_run->setDefault(true);
    bar->addWidget(m_run);
    m_cancel = new QPushButton(tr("Cancel"), page);
    m_cancel->setAccessibleName(tr("Cancel run"));
    bar->addWidget(m_cancel);
    m_progress = new QProgressBar(page);
    m_progress->setAccessibleName(tr("Run progress"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(tr("%v of %m calls"));
    bar->addWidget(m_progress, 1);
    pageLayout->addLayout(bar);
    m_runBar = bar;

    auto* split = new QSplitter(Qt::Vertical, page);
    pageLayout->addWidget(split, 1);

    // The variant columns.
    m_variantScroll = new QScrollArea(split);
    m_variantScroll->setWidgetResizable(true);
    m_variantScroll->setAccessibleName(tr("Variants"));
    // A variant's model row and its first message stay in sight however short the dock is.
    m_variantScroll->setMinimumHeight(11 * fontMetrics().height());
    auto* columns = new QWidget(m_variantScroll);
    m_variantLayout = new QHBoxLayout(columns);
    m_variantLayout->addStretch(1);
    m_variantScroll->setWidget(columns);
    split->addWidget(m_variantScroll);

    split->addWidget(buildInputs(split));

    split->addWidget(buildResults(split));
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setStretchFactor(2, 2);
    // The prompts get most of the room at first; the inputs a few rows.
    split->setSizes({500, 170, 330});

    m_stack->addWidget(page);

    connect(m_addVariant, &QPushButton::clicked, this, [this] { addVariant(); });
    connect(m_run, &QPushButton::clicked, this, &PlaygroundPane::run);
    connect(m_cancel, &QPushButton::clicked, this, &PlaygroundPane::cancel);
    connectSessionChanges();
    connect(m_resultsView->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this] { showSelectedReply(); });
    connect(m_results, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex& from, const QModelIndex& to) {
                const QModelIndex current = m_resultsView->currentIndex();
                if (current.isValid() && current.row() >= from.row() && current.row() <= to.row())
                    showSelectedReply();
            });
    for (const QKeySequence& key :
         {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)}) {
        auto* shortcut = new QShortcut(key, this);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
        connect(shortcut, &QShortcut::activated, this, &PlaygroundPane::run);
    }

    addVariant();
    updateButtons();
}

QWidget* PlaygroundPane::buildInputs(QWidget* parent)
{
    // The inputs: a row per input set, a column per variable.
    auto* inputsBox = new QGroupBox(tr("Inputs"), parent);
    auto* inputsLayout = new QVBoxLayout(inputsBox);
    m_inputs = new QTableWidget(0, 0, inputsBox);
    m_inputs->setAccessibleName(tr("Inputs"));
    m_inputs->setAccessibleDescription(tr("One row per input set, one column per variable; "
                                          "paste rows from a spreadsheet with Ctrl+V"));
    m_inputs->setToolTip(m_inputs->accessibleDescription());
    // Three rows show at least (a few input sets are the usual case).
    m_inputs->verticalHeader()->setDefaultSectionSize(m_inputs->fontMetrics().height() + 10);
    m_inputs->setMinimumHeight(m_inputs->horizontalHeader()->sizeHint().height() +
                               3 * m_inputs->verticalHeader()->defaultSectionSize() + 6);
    m_inputs->horizontalHeader()->setStretchLastSection(true);
    m_inputs->installEventFilter(this);
    // Each cell says on hover how it is read: text, or a list written as ["a", "b"].
    connect(m_inputs, &QTableWidget::itemChanged, this,
            [](QTableWidgetItem* item) { item->setToolTip(describeInputText(item->text())); });
    inputsLayout->addWidget(m_inputs, 1);
    auto* rowButtons = new QHBoxLayout;
    m_addRow = new QPushButton(tr("Add Row"), inputsBox);
    m_addRow->setAccessibleName(tr("Add input row"));
    m_removeRow = new QPushButton(tr("Remove Row"), inputsBox);
    m_removeRow->setAccessibleName(tr("Remove input row"));
    m_addSet = new QToolButton(inputsBox);
    m_addSet->setText(tr("Add Input Set"));
    m_addSet->setAccessibleName(tr("Add input set"));
    m_addSet->setToolTip(tr("Adds a row from an input set saved in the Prompt view"));
    m_addSet->setPopupMode(QToolButton::InstantPopup);
    m_addSet->setToolButtonStyle(Qt::ToolButtonTextOnly);
    // Room for the menu arrow, which the style draws over the text's end otherwise.
    m_addSet->setMinimumWidth(m_addSet->sizeHint().width() +
                              m_addSet->style()->pixelMetric(QStyle::PM_MenuButtonIndicator));
    auto* setsMenu = new QMenu(m_addSet);
    setsMenu->setAccessibleName(tr("Input sets"));
    m_addSet->setMenu(setsMenu);
    connect(setsMenu, &QMenu::aboutToShow, this, [this, setsMenu] {
        setsMenu->clear();
        const QList<QPair<QString, QJsonObject>> sets =
            m_inputSets ? m_inputSets() : QList<QPair<QString, QJsonObject>>();
        if (sets.isEmpty()) {
            setsMenu->addAction(tr("No saved input sets (Prompt view › Save Set…)"))
                ->setEnabled(false);
            return;
        }
        for (const auto& set : sets) {
            const QJsonObject values = set.second;
            setsMenu->addAction(set.first, this, [this, values] { addInputRow(values); });
        }
        if (sets.size() < 2)
            return;
        setsMenu->addSeparator();
        setsMenu->addAction(tr("All %n Sets", nullptr, int(sets.size())), this, [this, sets] {
            for (const auto& set : sets)
                addInputRow(set.second);
        });
    });
    rowButtons->addWidget(m_addRow);
    rowButtons->addWidget(m_removeRow);
    rowButtons->addWidget(m_addSet);
    rowButtons->addStretch(1);
    inputsLayout->addLayout(rowButtons);
    connect(m_addRow, &QPushButton::clicked, this, [this] {
        m_inputs->insertRow(m_inputs->rowCount());
        updateButtons();
    });
    connect(m_removeRow, &QPushButton::clicked, this, [this] {
        const int row =
            m_inputs->currentRow() >= 0 ? m_inputs->currentRow() : m_inputs->rowCount() - 1;
        if (row >= 0)
            m_inputs->removeRow(row);
        updateButtons();
    });
    return inputsBox;
}

QWidget* PlaygroundPane::buildResults(QWidget* parent)
{
    // The results grid and the selected reply.
    auto* resultsSplit = new QSplitter(Qt::Horizontal, parent);
    m_results = new PlaygroundResultModel(this);
    m_resultsView = new QTableView(resultsSplit);
    m_resultsView->setModel(m_results);
    m_resultsView->setAccessibleName(tr("Results"));
    m_resultsView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_resultsView->setWordWrap(true);
    m_resultsView->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_resultsView->verticalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    resultsSplit->addWidget(m_resultsView);
    m_reply = new QTextBrowser(resultsSplit);
    m_reply->setAccessibleName(tr("Selected reply"));
    m_reply->setPlaceholderText(tr("Select a result to read its reply, compared word by word "
                                   "with the first variant's."));
    resultsSplit->addWidget(m_reply);
    return resultsSplit;
}

PlaygroundPane::~PlaygroundPane()
{
    // Closing the window keeps the session: written before the widgets go.
    m_sessions->saveNow(true);
    if (m_current)
        m_current->cancel();
}

void PlaygroundPane::setProviderFactory(
    std::function<std::shared_ptr<models::IModelProvider>()> factory)
{
    m_factory = std::move(factory);
}

void PlaygroundPane::setModels(const QStringList& models)
{
    m_models = models;
    for (VariantEditor* v : std::as_const(m_variants))
        v->setModels(models);
}

int PlaygroundPane::variantCount() const
{
    return int(m_variants.size());
}

VariantEditor* PlaygroundPane::variant(int index) const
{
    return m_variants.value(index);
}

VariantEditor* PlaygroundPane::addVariant()
{
    if (m_variants.size() >= kMaxVariants)
        return nullptr;
    auto* v = new VariantEditor(int(m_variants.size()) + 1, m_variantScroll->widget());
    // Wide enough for its buttons' words; more when the pane has room.
    v->setMinimumWidth(std::max(300, v->minimumSizeHint().width()));
    v->setModels(m_models);
    if (!m_variants.isEmpty())
        v->setPrompt(m_variants.back()->prompt());
    m_variantLayout->insertWidget(m_variantLayout->count() - 1, v, 1);
    m_variants << v;
    connect(v, &VariantEditor::changed, this, [this] {
        updateInputColumns();
        noteChange();
    });
    connect(v, &VariantEditor::removeRequested, this,
            [this, v] { removeVariant(int(m_variants.indexOf(v))); });
    connect(v, &VariantEditor::saveRequested, this,
            [this, v] { saveVariant(int(m_variants.indexOf(v))); });
    connect(v, &VariantEditor::copyRequested, this,
            [this, v] { copyVariant(int(m_variants.indexOf(v))); });
    renumber();
    updateInputColumns();
    updateButtons();
    return v;
}

void PlaygroundPane::removeVariant(int index)
{
    if (index < 0 || index >= m_variants.size() || m_variants.size() <= 1)
        return;
    delete m_variants.takeAt(index);
    renumber();
    updateInputColumns();
    updateButtons();
    noteChange();
}

void PlaygroundPane::renumber()
{
    for (int i = 0; i < m_variants.size(); ++i) {
        m_variants[i]->setNumber(i + 1);
        m_variants[i]->setRemovable(m_variants.size() > 1);
    }
}

void PlaygroundPane::setVariantPrompts(const QList<PlaygroundPrompt>& prompts)
{
    while (m_variants.size() > 1)
        delete m_variants.takeLast();
    m_variants.front()->setPrompt(prompts.value(0));
    for (qsizetype i = 1; i < prompts.size(); ++i) {
        if (VariantEditor* v = addVariant())
            v->setPrompt(prompts.at(i));
    }
    renumber();
    if (m_stack->currentIndex() != 1) {
        // With a prompt shown, the session controls join the run bar: one row less above the
        // variants and inputs in a short dock.
        m_runBar->insertWidget(0, m_sessions, 2);
        m_runBar->insertSpacing(1, 12);
    }
    m_stack->setCurrentIndex(1);
    m_messageBar->clearMessage();
    updateInputColumns();
    updateButtons();
}

void PlaygroundPane::openCall(const promptlog::CallRecord& call)
{
    m_sessions->startNew();
    m_programPath = call.programPath;
    m_unsavedProgram.clear();
    m_span = call.span;
    const PlaygroundPrompt prompt = PlaygroundPrompt::fromCall(call);
    setVariantPrompts({prompt});
    if (!prompt.droppedServer.isEmpty())
        m_messageBar->showMessage(
            tr("This call was sent to %1. The playground sends it to the server configured for "
               "its model instead; to use that server, add it in Model Settings.")
                .arg(prompt.droppedServer),
            MessageBar::Kind::Warning);
    // The run's inputs fill the first row where the prompt reads them.
    m_inputs->setRowCount(m_inputs->columnCount() > 0 ? 1 : 0);
    for (int c = 0; c < m_inputs->columnCount(); ++c) {
        const QString name = m_inputs->horizontalHeaderItem(c)->text();
        const QJsonValue v = call.inputs.value(name);
        if (v.isUndefined())
            continue;
        m_inputs->setItem(0, c, new QTableWidgetItem(inputTextFromValue(v)));
    }
    updateButtons();
}

void PlaygroundPane::addInputRow(const QJsonObject& values)
{
    const int row = m_inputs->rowCount();
    m_inputs->insertRow(row);
    for (int c = 0; c < m_inputs->columnCount(); ++c) {
        const QJsonValue v = values.value(m_inputs->horizontalHeaderItem(c)->text());
        if (v.isUndefined() || v.isNull())
            continue;
        m_inputs->setItem(row, c, new QTableWidgetItem(inputTextFromValue(v)));
    }
    updateButtons();
}

void PlaygroundPane::openPrompt(const PlaygroundPrompt& prompt, const QString& programPath,
                                const SourceSpan& span)
{
    m_sessions->startNew();
    m_programPath = programPath;
    m_unsavedProgram.clear();
    m_span = span;
    setVariantPrompts({prompt});
    updateButtons();
}

bool PlaygroundPane::openProgramBlock(const QString& sourceText, const QString& programPath,
                                      const SourceSpan& span)
{
    Result<PlaygroundPrompt> prompt = promptFromSource(sourceText, span);
    if (!prompt) {
        m_messageBar->showMessage(
            tr("Cannot open this block in the playground: %1").arg(prompt.error().message));
        return false;
    }
    openPrompt(*prompt, programPath, span);
    return true;
}

QList<PlaygroundPrompt> PlaygroundPane::prompts() const
{
    QList<PlaygroundPrompt> out;
    for (const VariantEditor* v : m_variants)
        out << v->prompt();
    return out;
}

QStringList PlaygroundPane::variables() const
{
    QStringList names;
    for (const PlaygroundPrompt& p : prompts()) {
        for (const QString& n : p.variables()) {
            if (!names.contains(n))
                names << n;
        }
    }
    return names;
}

void PlaygroundPane::updateInputColumns()
{
    const QStringList names = variables();
    QStringList current;
    for (int c = 0; c < m_inputs->columnCount(); ++c)
        current << m_inputs->horizontalHeaderItem(c)->text();
    if (names == current)
        return;
    // Keep what was typed under each variable that stays.
    std::vector<std::map<QString, QString>> rows(size_t(m_inputs->rowCount()));
    for (int r = 0; r < m_inputs->rowCount(); ++r) {
        for (int c = 0; c < current.size(); ++c) {
            if (const QTableWidgetItem* item = m_inputs->item(r, c))
                rows[size_t(r)][current.at(c)] = item->text();
        }
    }
    m_inputs->clear();
    m_inputs->setColumnCount(int(names.size()));
    m_inputs->setHorizontalHeaderLabels(names);
    if (!names.isEmpty() && m_inputs->rowCount() == 0)
        m_inputs->setRowCount(1);
    for (int r = 0; r < m_inputs->rowCount() && size_t(r) < rows.size(); ++r) {
        for (int c = 0; c < names.size(); ++c) {
            auto it = rows[size_t(r)].find(names.at(c));
            if (it != rows[size_t(r)].end())
                m_inputs->setItem(r, c, new QTableWidgetItem(it->second));
        }
    }
    updateButtons();
}

QList<QJsonObject> PlaygroundPane::inputRows() const
{
    QList<QJsonObject> rows;
    if (m_inputs->columnCount() == 0)
        return rows;
    for (int r = 0; r < m_inputs->rowCount(); ++r) {
        QJsonObject row;
        bool any = false;
        for (int c = 0; c < m_inputs->columnCount(); ++c) {
            const QTableWidgetItem* item = m_inputs->item(r, c);
            const QString text = item ? item->text() : QString();
            any = any || !text.isEmpty();
            // `["a", "b"]` is a list, as in the Prompt view; other text stays text.
            row.insert(m_inputs->horizontalHeaderItem(c)->text(), inputValueFromText(text));
        }
        if (any)
            rows << row;
    }
    return rows;
}

void PlaygroundPane::pasteRows(const QString& text)
{
    if (m_inputs->columnCount() == 0)
        return;
    // Spreadsheet rows (a cell holding line breaks comes quoted) or plain lines.
    const QList<QStringList> rows = parseSpreadsheetRows(text);
    const int startRow = std::max(0, m_inputs->currentRow());
    const int startColumn = std::max(0, m_inputs->currentColumn());
    const int oldRowCount = m_inputs->rowCount();
    bool copied = false;
    for (int i = 0; i < rows.size(); ++i) {
        const int row = startRow + i;
        if (row >= m_inputs->rowCount())
            m_inputs->setRowCount(row + 1);
        const QStringList& cells = rows.at(i);
        const int endColumn = startColumn + int(cells.size());
        // A new row takes the inputs the paste does not give from the row above (three
        // messages pasted under a row of labels and hints classify with the same labels).
        for (int c = 0; row >= oldRowCount && row > 0 && c < m_inputs->columnCount(); ++c) {
            const QTableWidgetItem* above = m_inputs->item(row - 1, c);
            if ((c < startColumn || c >= endColumn) && above && !above->text().isEmpty()) {
                m_inputs->setItem(row, c, new QTableWidgetItem(above->text()));
                copied = true;
            }
        }
        for (int j = 0; j < cells.size() && startColumn + j < m_inputs->columnCount(); ++j)
            m_inputs->setItem(row, startColumn + j, new QTableWidgetItem(cells.at(j)));
    }
    if (copied)
        m_messageBar->showMessage(tr("Pasted %n row(s); the other inputs of the new rows are "
                                     "copied from the row above.",
                                     nullptr, int(rows.size())),
                                  MessageBar::Kind::Information);
    updateButtons();
}

void PlaygroundPane::paste()
{
    QWidget* focus = QApplication::focusWidget();
    if (focus && (focus == m_inputs || m_inputs->isAncestorOf(focus)))
        pasteRows(QApplication::clipboard()->text());
}

bool PlaygroundPane::eventFilter(QObject* watched, QEvent* event)
{
    // Ctrl+V is the window's Edit › Paste too: the table claims it first (ShortcutOverride),
    // so rows pasted into the inputs land there and not in the editor.
    if (watched == m_inputs && event->type() == QEvent::ShortcutOverride &&
        static_cast<QKeyEvent*>(event)->matches(QKeySequence::Paste)) {
        event->accept();
        return true;
    }
    if (watched == m_inputs && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->matches(QKeySequence::Paste)) {
            pasteRows(QApplication::clipboard()->text());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

bool PlaygroundPane::isRunning() const
{
    return m_current && m_current->isRunning();
}

void PlaygroundPane::updateButtons()
{
    const bool running = isRunning();
    const bool open = m_stack->currentIndex() == 1;
    m_run->setEnabled(open && !running);
    m_cancel->setEnabled(running);
    m_addVariant->setEnabled(open && m_variants.size() < kMaxVariants);
    m_removeRow->setEnabled(m_inputs->rowCount() > 0);
    m_addRow->setEnabled(m_inputs->columnCount() > 0);
    m_addSet->setEnabled(m_inputs->columnCount() > 0);
    const bool canSave = canSaveToProgram();
    const QString where = m_programPath.isEmpty() ? m_unsavedProgram : m_programPath;
    for (VariantEditor* v : std::as_const(m_variants)) {
        v->saveButton()->setEnabled(canSave);
        v->saveButton()->setToolTip(
            canSave ? tr("Write this variant back into the model block at %1:%2")
                          .arg(where)
                          .arg(m_span.line)
                    : tr("This prompt did not come from a program, so there is nowhere to save "
                         "it. To save a variant, open the prompt with Try in Playground on its "
                         "card in the Prompt view."));
    }
}

bool PlaygroundPane::canSaveToProgram() const
{
    return m_span.isValid() && (!m_programPath.isEmpty() || !m_unsavedProgram.isEmpty());
}

void PlaygroundPane::setUnsavedProgram(const QString& name)
{
    m_unsavedProgram = name;
    updateButtons();
}

QStringList PlaygroundPane::variantLabels() const
{
    QStringList labels;
    for (const VariantEditor* v : m_variants) {
        const QString model = v->prompt().model;
        labels << (model.isEmpty() ? tr("Variant %1").arg(v->number())
                                   : tr("%1: %2").arg(v->number()).arg(model));
    }
    return labels;
}

void PlaygroundPane::run()
{
    if (isRunning() || m_stack->currentIndex() != 1)
        return;
    const QList<PlaygroundPrompt> variants = prompts();
    for (int i = 0; i < variants.size(); ++i) {
        if (variants[i].model.isEmpty()) {
            m_messageBar->showMessage(tr("Variant %1 has no model: pick one.").arg(i + 1));
            return;
        }
        if (variants[i].messages.isEmpty()) {
            m_messageBar->showMessage(tr("Variant %1 has no messages: add one.").arg(i + 1));
            return;
        }
    }
    std::shared_ptr<models::IModelProvider> provider = m_factory ? m_factory() : nullptr;
    if (!provider) {
        m_messageBar->showMessage(tr("No model provider is configured: set up a model endpoint "
                                     "in the settings."));
        return;
    }
    const QList<QJsonObject> rows = inputRows();
    if (rows.isEmpty() && m_inputs->columnCount() > 0) {
        m_messageBar->showMessage(
            tr("The prompt uses %1: fill in at least one row of the inputs table (or paste rows "
               "from a spreadsheet).")
                .arg(variables().join(QStringLiteral(", "))),
            MessageBar::Kind::Warning);
        m_inputs->setFocus();
        return;
    }
    m_messageBar->clearMessage();
    if (m_current)
        m_current->deleteLater();
    m_current = new PlaygroundRun(provider, this);
    m_current->setVariants(variants);
    m_current->setInputs(rows);
    m_current->setRepeat(m_repeat->value());
    m_current->setConcurrency(m_concurrency->value());
    // Each row is named by the input that tells the rows apart.
    QStringList columns;
    for (int c = 0; c < m_inputs->columnCount(); ++c)
        columns << m_inputs->horizontalHeaderItem(c)->text();
    m_results->attach(m_current, variantLabels(), inputRowLabels(rows, columns));
    m_progress->setRange(0, m_current->total());
    m_progress->setValue(0);
    PlaygroundRun* started = m_current;
    connect(started, &PlaygroundRun::progress, this, [this, started](int done, int total) {
        if (started != m_current)
            return;
        m_progress->setRange(0, total);
        m_progress->setValue(done);
    });
    connect(started, &PlaygroundRun::finished, this, [this, started] {
        if (started != m_current)
            return;
        updateButtons();
        m_resultsView->resizeRowsToContents();
        showSelectedReply();
        Q_EMIT runFinished();
    });
    m_current->start();
    updateButtons();
    Q_EMIT runStarted();
}

void PlaygroundPane::cancel()
{
    if (m_current)
        m_current->cancel();
}

void PlaygroundPane::saveVariant(int index)
{
    if (index < 0 || index >= m_variants.size())
        return;
    if (!canSaveToProgram()) {
        m_messageBar->showMessage(
            tr("This prompt did not come from a program's model block, so there is nowhere to "
               "save it. Open it with Try in Playground on its card in the Prompt view, or use "
               "Copy as PDL."),
            MessageBar::Kind::Information);
        return;
    }
    Q_EMIT saveToProgramRequested(m_programPath, m_span, m_variants[index]->prompt());
}

void PlaygroundPane::copyVariant(int index)
{
    if (index < 0 || index >= m_variants.size())
        return;
    QApplication::clipboard()->setText(m_variants[index]->prompt().toPdl());
    m_messageBar->showMessage(tr("Variant %1 copied as a PDL model block.").arg(index + 1),
                              MessageBar::Kind::Information);
}

void PlaygroundPane::showSelectedReply()
{
    const QModelIndex index = m_resultsView->currentIndex();
    if (!index.isValid()) {
        m_reply->clear();
        return;
    }
    const int row = index.row();
    const int variant = index.column();
    const int repeat = m_results->repeat();
    const CellResult base = m_results->cell({row, 0, 0});
    QString html = QStringLiteral("<p><b>%1</b> · <b>%2</b></p>")
                       .arg(escapeText(m_results->headerData(row, Qt::Vertical).toString()),
                            escapeText(m_results->headerData(variant, Qt::Horizontal).toString()));
    const QString stats = index.data(Qt::ToolTipRole).toString();
    if (!stats.isEmpty())
        html += QStringLiteral("<p style=\"color:gray\">") +
                escapeText(stats).replace(QLatin1Char('\n'), QStringLiteral(" · ")) +
                QStringLiteral("</p>");
    // Replies grouped: each distinct one once, with how often it came.
    std::vector<std::pair<QString, int>> groups;
    QStringList other;
    for (int r = 0; r < repeat; ++r) {
        const CellResult c = m_results->cell({row, variant, r});
        if (c.state == CellResult::State::Done || c.state == CellResult::State::Running) {
            auto it = std::find_if(groups.begin(), groups.end(),
                                   [&c](const auto& g) { return g.first == c.reply; });
            if (it == groups.end())
                groups.emplace_back(c.reply, 1);
            else
                ++it->second;
        } else {
            other << m_results->summaryText({c});
        }
    }
    std::stable_sort(groups.begin(), groups.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    const bool compare = variant > 0 && base.state == CellResult::State::Done;
    if (compare)
        html += QStringLiteral("<p style=\"color:gray\">%1</p>")
                    .arg(tr("Compared with variant 1: removed words struck through, added words "
                            "highlighted."));
    for (const auto& [reply, count] : groups) {
        if (repeat > 1)
            html += QStringLiteral("<p><b>×%1</b></p>").arg(count);
        html += pre(compare ? diffHtml(base.reply, reply) : escapeText(reply));
    }
    for (const QString& o : std::as_const(other))
        html += pre(escapeText(o));
    m_reply->setHtml(html);
}

void PlaygroundPane::connectSessionChanges()
{
    connect(m_repeat, &QSpinBox::valueChanged, this, &PlaygroundPane::noteChange);
    for (const auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(m_inputs->model(), signal, this, &PlaygroundPane::noteChange);
    connect(m_inputs->model(), &QAbstractItemModel::dataChanged, this, &PlaygroundPane::noteChange);
    connect(this, &PlaygroundPane::runStarted, this, &PlaygroundPane::noteChange);
    // A finished run is saved at once: its results cost time and money to make again.
    connect(this, &PlaygroundPane::runFinished, this, [this] {
        noteChange();
        m_sessions->saveNow();
    });
}

void PlaygroundPane::noteChange()
{
    if (m_applying)
        return;
    m_sessions->markChanged();
    Q_EMIT contentChanged();
}

void PlaygroundPane::stopRun()
{
    if (!m_current)
        return;
    m_current->cancel();
    m_current->deleteLater();
    m_current = nullptr;
}

void PlaygroundPane::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    // The last session is read when the pane is first seen, never while the window starts.
    m_sessions->restoreLast();
}

void PlaygroundPane::setSessionFolder(const QString& folder)
{
    m_sessions->setFolder(folder);
}

bool PlaygroundPane::hasContent() const
{
    return m_stack->currentIndex() == 1;
}

PlaygroundSession PlaygroundPane::sessionContent() const
{
    PlaygroundSession s;
    if (!hasContent())
        return s;
    s.variants = prompts();
    s.programPath = m_programPath;
    s.span = m_span;
    s.inputRows = inputRows();
    s.repeat = m_repeat->value();
    PlaygroundSessionResults& r = s.results;
    r.rows = m_results->rowCount();
    r.repeat = m_results->repeat();
    for (int v = 0; v < m_results->columnCount(); ++v)
        r.variantLabels << m_results->headerData(v, Qt::Horizontal).toString();
    for (int row = 0; row < r.rows; ++row) {
        r.rowLabels << m_results->headerData(row, Qt::Vertical).toString();
        for (int v = 0; v < m_results->columnCount(); ++v) {
            for (int k = 0; k < r.repeat; ++k)
                r.cells.push_back(m_results->cell({row, v, k}));
        }
    }
    return s;
}

void PlaygroundPane::showSessionContent(const PlaygroundSession& session)
{
    const QScopedValueRollback applying(m_applying, true);
    stopRun();
    m_programPath = session.programPath;
    m_unsavedProgram.clear();
    m_span = session.span;
    const QList<PlaygroundPrompt> variants = session.variants.mid(0, kMaxVariants);
    setVariantPrompts(variants.isEmpty() ? QList<PlaygroundPrompt>{blankPrompt()} : variants);
    m_repeat->setValue(std::clamp(session.repeat, m_repeat->minimum(), m_repeat->maximum()));
    m_inputs->setRowCount(0);
    for (const QJsonObject& row : session.inputRows)
        addInputRow(row);
    if (m_inputs->rowCount() == 0 && m_inputs->columnCount() > 0)
        m_inputs->setRowCount(1);
    PlaygroundSessionResults r = session.results;
    if (!r.isConsistent())
        r = {};
    m_results->reset(r.rows, r.variantLabels, r.repeat, r.rowLabels);
    const int variantCount = int(r.variantLabels.size());
    int finished = 0;
    for (size_t i = 0; i < r.cells.size(); ++i) {
        const int k = int(i % size_t(r.repeat));
        const int cell = int(i / size_t(r.repeat));
        m_results->setCell({cell / variantCount, cell % variantCount, k}, r.cells[i]);
        finished += r.cells[i].isFinal() ? 1 : 0;
    }
    m_progress->setRange(0, std::max(1, int(r.cells.size())));
    m_progress->setValue(finished);
    m_resultsView->resizeRowsToContents();
    m_reply->clear();
    updateButtons();
}

void PlaygroundPane::newSession()
{
    m_sessions->startNew();
    showSessionContent(PlaygroundSession());
}

} // namespace hako
