#include "widgets/notebook/notebookpane.h"

#include "core/pdl/programcheck.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/run/runtrust.h"

#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonObject>
#include <QKeyEvent>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace hako {

namespace {

// What a cell's outputs (as Jupyter keeps them) say: its text, and whether it is an error.
std::pair<QString, bool> outputText(const QJsonArray& outputs)
{
    QString text;
    bool error = false;
    for (const QJsonValue& value : outputs) {
        const QJsonObject o = value.toObject();
        if (o.value(QLatin1String("output_type")).toString() == QLatin1String("error")) {
            error = true;
            text += o.value(QLatin1String("evalue")).toString();
            continue;
        }
        const QJsonValue t = o.value(QLatin1String("text"));
        if (t.isString())
            text += t.toString();
        for (const QJsonValue& line : t.toArray())
            text += line.toString();
    }
    if (text.endsWith(QLatin1Char('\n')))
        text.chop(1);
    return {text, error};
}

QToolButton* toolButton(const QString& text, const QString& tip, QWidget* parent)
{
    auto* button = new QToolButton(parent);
    button->setText(text);
    button->setToolTip(tip);
    button->setAccessibleName(text);
    button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    return button;
}

} // namespace

NotebookPane::NotebookPane(QWidget* parent) : QWidget(parent)
{
    setAccessibleName(tr("Notebook"));
    // Tabbed with the console while hidden: a small minimum, or it would make the bottom strip
    // tall on a first start; the cells scroll.
    setMinimumSize(320, 100);
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    m_title = new QLabel(this);
    m_title->setAccessibleName(tr("Notebook file"));
    m_runAll =
        toolButton(tr("Run All"), tr("Run every PDL cell in order (Ctrl+Shift+Enter)"), this);
    m_runAll->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Return));
    m_restart = toolButton(tr("Restart"),
                           tr("Forget every variable and the context the cells have built"), this);
    m_add = toolButton(tr("Add Cell"), tr("Add a PDL cell at the end"), this);
    m_save =
        toolButton(tr("Save"), tr("Write the cells and their outputs to the notebook file"), this);
    bar->addWidget(m_title, 1);
    for (QToolButton* b : {m_runAll, m_restart, m_add, m_save})
        bar->addWidget(b);
    layout->addLayout(bar);

    m_empty = new QLabel(tr("Open a Jupyter notebook (.ipynb) with File › Open: its %%pdl cells "
                            "run here one after another, each seeing what the earlier ones "
                            "defined. Create one with `hako notebook new`."),
                         this);
    m_empty->setWordWrap(true);
    m_empty->setAccessibleName(tr("Notebook status"));
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setAccessibleName(tr("Notebook cells"));
    auto* holder = new QWidget(scroll);
    m_cellLayout = new QVBoxLayout(holder);
    m_cellLayout->addWidget(m_empty);
    m_cellLayout->addStretch(1);
    scroll->setWidget(holder);
    layout->addWidget(scroll, 1);

    connect(m_runAll, &QToolButton::clicked, this, &NotebookPane::runAll);
    connect(m_restart, &QToolButton::clicked, this, &NotebookPane::restartKernel);
    connect(m_add, &QToolButton::clicked, this, &NotebookPane::addCell);
    connect(m_save, &QToolButton::clicked, this, [this] {
        QString error;
        if (save(&error))
            Q_EMIT statusMessage(tr("Saved %1").arg(QFileInfo(m_path).fileName()), 4000);
        else
            Q_EMIT statusMessage(tr("Cannot save the notebook: %1").arg(error), 0);
    });
    connect(&m_watcher, &QFutureWatcher<Finished>::finished, this, &NotebookPane::finished);
    updateButtons();
}

NotebookPane::~NotebookPane()
{
    m_queue.clear();
    m_watcher.waitForFinished();
}

void NotebookPane::setEnvironmentFactory(std::function<RunEnvironment(const QString&)> factory)
{
    m_environment = std::move(factory);
}

void NotebookPane::setTrustQuestion(std::function<bool(const QString&, const RunTrustCheck&)> ask)
{
    m_askTrust = std::move(ask);
}

bool NotebookPane::openNotebook(const QString& path)
{
    if (isRunning())
        return false;
    Result<Notebook> read = Notebook::read(path);
    if (!read) {
        m_empty->setText(
            tr("Cannot open %1: %2").arg(QFileInfo(path).fileName(), read.error().message));
        m_empty->show();
        return false;
    }
    m_notebook = std::move(read).value();
    m_path = QFileInfo(path).absoluteFilePath();
    const RunEnvironment environment = m_environment ? m_environment(m_path) : RunEnvironment();
    // The trust check judges the runs as they will be composed (code in the sandbox or not).
    m_sandbox = environment.sandbox;
    m_kernel = std::make_shared<NotebookKernel>(environment, m_path);
    m_trustedThisSession = false;
    m_title->setText(QFileInfo(m_path).fileName());
    rebuild();
    return true;
}

bool NotebookPane::save(QString* error)
{
    if (m_path.isEmpty()) {
        *error = tr("no notebook is open");
        return false;
    }
    syncSources();
    return m_notebook.write(m_path, error);
}

void NotebookPane::rebuild()
{
    for (CellView& cell : m_cells)
        delete cell.frame;
    m_cells.clear();
    for (size_t i = 0; i < m_notebook.cells.size(); ++i) {
        m_cells.push_back(makeCell(int(i)));
        m_cellLayout->insertWidget(m_cellLayout->count() - 1, m_cells.back().frame);
        showOutput(int(i));
    }
    m_empty->setVisible(m_cells.empty());
    if (m_cells.empty())
        m_empty->setText(tr("This notebook has no cells yet: Add Cell starts one."));
    updateButtons();
}

NotebookPane::CellView NotebookPane::makeCell(int index)
{
    const NotebookCell& cell = m_notebook.cells[size_t(index)];
    CellView view;
    view.frame = new QFrame;
    static_cast<QFrame*>(view.frame)->setFrameShape(QFrame::StyledPanel);
    auto* layout = new QVBoxLayout(view.frame);
    auto* header = new QHBoxLayout;
    view.count = new QLabel(view.frame);
    const QString kind = cell.isPdl()                                ? tr("PDL")
                         : cell.kind == NotebookCell::Kind::Markdown ? tr("Text")
                                                                     : tr("Other code");
    header->addWidget(new QLabel(tr("Cell %1 · %2").arg(index + 1).arg(kind), view.frame));
    header->addWidget(view.count);
    header->addStretch(1);
    if (cell.isPdl()) {
        view.run = new QPushButton(tr("▶ Run"), view.frame);
        view.run->setAccessibleName(tr("Run cell %1").arg(index + 1));
        view.run->setToolTip(tr("Run this cell (Shift+Enter in it)"));
        connect(view.run, &QPushButton::clicked, this, [this, index] { runCell(index); });
        view.boxes = new QPushButton(tr("Boxes"), view.frame);
        view.boxes->setAccessibleName(tr("Boxes of cell %1").arg(index + 1));
        view.boxes->setToolTip(tr("Show this cell's last run as boxes in the trace panes"));
        view.boxes->setEnabled(false);
        connect(view.boxes, &QPushButton::clicked, this, [this, index] {
            if (pdl::TraceModel* model = m_cells[size_t(index)].trace)
                Q_EMIT traceRequested(model);
        });
        header->addWidget(view.run);
        header->addWidget(view.boxes);
    }
    layout->addLayout(header);
    if (cell.kind == NotebookCell::Kind::Markdown) {
        view.markdown = new QLabel(view.frame);
        view.markdown->setTextFormat(Qt::MarkdownText);
        view.markdown->setText(cell.source);
        view.markdown->setWordWrap(true);
        view.markdown->setAccessibleName(tr("Text of cell %1").arg(index + 1));
        layout->addWidget(view.markdown);
    } else {
        view.editor = new QPlainTextEdit(cell.source, view.frame);
        view.editor->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        view.editor->setAccessibleName(tr("Source of cell %1").arg(index + 1));
        const int lines = std::clamp(int(cell.source.count(QLatin1Char('\n'))) + 2, 3, 14);
        view.editor->setFixedHeight(view.editor->fontMetrics().lineSpacing() * lines + 12);
        view.editor->setReadOnly(!cell.isPdl());
        // YAML takes no tabs: Tab moves on to the next control, as in a form.
        view.editor->setTabChangesFocus(true);
        // Shift+Enter runs the cell (the editor would take it as a line break).
        view.editor->setProperty("hakoCell", index);
        view.editor->installEventFilter(this);
        layout->addWidget(view.editor);
    }
    view.output = new QLabel(view.frame);
    view.output->setWordWrap(true);
    view.output->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A label reads as its text; what it is goes in the description.
    view.output->setAccessibleDescription(tr("Output of cell %1").arg(index + 1));
    layout->addWidget(view.output);
    return view;
}

bool NotebookPane::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        const bool enter = key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter;
        if (enter && key->modifiers() == Qt::ShiftModifier &&
            watched->property("hakoCell").isValid()) {
            runCell(watched->property("hakoCell").toInt());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void NotebookPane::showOutput(int index)
{
    const NotebookCell& cell = m_notebook.cells[size_t(index)];
    CellView& view = m_cells[size_t(index)];
    const auto [text, error] = outputText(cell.outputs);
    view.output->setVisible(!text.isEmpty());
    view.output->setText(text);
    view.output->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
    view.count->setText(cell.executionCount.isDouble()
                            ? QStringLiteral("[%1]").arg(cell.executionCount.toInt())
                            : QString());
}

void NotebookPane::syncSources()
{
    for (size_t i = 0; i < m_cells.size(); ++i) {
        if (m_cells[i].editor && !m_cells[i].editor->isReadOnly())
            m_notebook.cells[i].source = m_cells[i].editor->toPlainText();
    }
}

bool NotebookPane::consentFor(const std::vector<int>& cells)
{
    if (m_trustedThisSession)
        return true;
    QSettings settings;
    RunTrustCheck all;
    for (int index : cells) {
        const pdl::ParseResult parsed =
            pdl::checkProgramText(m_notebook.cells[size_t(index)].program().toUtf8(), m_path);
        if (!parsed.program)
            continue;
        RunTrustCheck check = checkRunTrust(*parsed.program, m_path, m_sandbox, &settings);
        all.folder = check.folder;
        all.sites.insert(all.sites.end(), check.sites.begin(), check.sites.end());
    }
    if (!all.needsConsent())
        return true;
    m_trustedThisSession = m_askTrust && m_askTrust(m_path, all);
    return m_trustedThisSession;
}

void NotebookPane::runCell(int index)
{
    if (index < 0 || size_t(index) >= m_notebook.cells.size() ||
        !m_notebook.cells[size_t(index)].isPdl() || !m_kernel)
        return;
    syncSources();
    if (!consentFor({index}))
        return;
    m_queue.push_back(index);
    startNext();
}

void NotebookPane::runAll()
{
    syncSources();
    std::vector<int> cells;
    for (size_t i = 0; i < m_notebook.cells.size(); ++i) {
        if (m_notebook.cells[i].isPdl())
            cells.push_back(int(i));
    }
    if (cells.empty() || !m_kernel || !consentFor(cells))
        return;
    m_queue.insert(m_queue.end(), cells.begin(), cells.end());
    startNext();
}

void NotebookPane::startNext()
{
    if (isRunning() || m_queue.empty())
        return;
    m_running = m_queue.front();
    m_queue.pop_front();
    m_cells[size_t(m_running)].count->setText(QStringLiteral("[*]"));
    Q_EMIT statusMessage(tr("Running cell %1…").arg(m_running + 1), 0);
    updateButtons();
    // The worker runs on a copy; the kernel is used by one run at a time.
    m_watcher.setFuture(
        QtConcurrent::run([kernel = m_kernel, notebook = m_notebook, index = m_running]() mutable {
            Finished f;
            f.index = index;
            f.run = kernel->run(notebook, index);
            f.cell = notebook.cells[size_t(index)];
            return f;
        }));
}

void NotebookPane::finished()
{
    const Finished f = m_watcher.result();
    m_running = -1;
    if (size_t(f.index) < m_notebook.cells.size()) {
        NotebookCell& cell = m_notebook.cells[size_t(f.index)];
        cell.outputs = f.cell.outputs;
        cell.executionCount = f.cell.executionCount;
        showOutput(f.index);
        CellView& view = m_cells[size_t(f.index)];
        if (f.run.trace) {
            if (!view.trace)
                view.trace = new pdl::TraceModel(this);
            view.trace->setTrace(f.run.trace, m_path);
            view.boxes->setEnabled(true);
        }
    }
    if (!f.run.ok) {
        m_queue.clear();
        Q_EMIT statusMessage(tr("Cell %1 failed: %2").arg(f.index + 1).arg(f.run.error.message), 0);
    } else if (m_queue.empty()) {
        Q_EMIT statusMessage(tr("Cell %1 done").arg(f.index + 1), 4000);
    }
    Q_EMIT cellFinished(f.index, f.run.ok);
    updateButtons();
    startNext();
}

void NotebookPane::restartKernel()
{
    if (!m_kernel || isRunning())
        return;
    m_kernel->restart();
    Q_EMIT statusMessage(tr("Restarted: the cells start again from no variables and no context"),
                         4000);
}

void NotebookPane::addCell()
{
    if (m_path.isEmpty() || isRunning())
        return;
    syncSources();
    m_notebook.cells.push_back(NotebookCell::pdl(QStringLiteral("text: \n")));
    rebuild();
    if (QPlainTextEdit* editor = m_cells.back().editor) {
        editor->setFocus();
        editor->moveCursor(QTextCursor::End);
    }
}

void NotebookPane::updateButtons()
{
    const bool open = !m_path.isEmpty();
    const bool idle = !isRunning();
    m_runAll->setEnabled(open && idle);
    m_restart->setEnabled(open && idle);
    m_add->setEnabled(open && idle);
    m_save->setEnabled(open);
    for (CellView& cell : m_cells) {
        if (cell.run)
            cell.run->setEnabled(idle);
    }
}

} // namespace hako
