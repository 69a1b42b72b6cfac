#include "widgets/workbench/evallinks.h"

#include "core/eval/evalstore.h"
#include "core/eval/evaluator.h"
#include "core/pdl/parser/programparser.h"
#include "core/playground/promptdoc.h"
#include "core/promptlog/callrecord.h"
#include "core/run/runtrust.h"
#include "core/workbench/experimentjob.h"
#include "core/workbench/programtarget.h"
#include "widgets/common/messagebar.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/eval/datasetpane.h"
#include "widgets/eval/evalresultspane.h"
#include "widgets/eval/experimentform.h"
#include "widgets/workbench/programtabs.h"
#include "widgets/workbench/runactions.h"
#include "widgets/workbench/tracedocks.h"

#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QMainWindow>
#include <QTimer>

namespace hako {

QStringList EvalLinks::programInputs() const
{
    const QString path = m_form->programPath();
    QString text;
    if (!path.isEmpty() && QFileInfo(path) == QFileInfo(m_tabs->currentEditor()->filePath()))
        text = m_tabs->currentEditor()->editor()->text();
    else if (QFile f(path); !path.isEmpty() && f.open(QIODevice::ReadOnly))
        text = QString::fromUtf8(f.read(4 * 1024 * 1024));
    else if (path.isEmpty())
        text = m_tabs->currentEditor()->editor()->text();
    QStringList names;
    if (const Result<playground::PromptDoc> doc = playground::PromptDoc::build(text, path))
        for (const playground::PromptDocInput& input : doc->inputs)
            names << input.name;
    return names;
}

EvalLinks::EvalLinks(DatasetPane* datasets, QDockWidget* datasetsDock, EvalResultsPane* results,
                     QDockWidget* resultsDock, TraceDocks* traces, RunActions* run,
                     ProgramTabs* tabs, QObject* parent)
    : QObject(parent), m_datasets(datasets), m_datasetsDock(datasetsDock), m_results(results),
      m_resultsDock(resultsDock), m_run(run), m_tabs(tabs), m_form(new ExperimentForm),
      m_job(new ExperimentJob(this))
{
    m_results->setSetupWidget(m_form);
    // The form tests the editor's program unless the user chose another.
    auto followEditor = [this](const QString& previous) {
        if (m_form->programPath().isEmpty() || m_form->programPath() == previous)
            m_form->setProgramPath(m_tabs->currentEditor()->filePath());
    };
    followEditor(QString());
    connect(m_tabs, &ProgramTabs::currentFilePathChanged, this,
            [this, followEditor,
             last = m_tabs->currentEditor()->filePath()](const QString& path) mutable {
                followEditor(last);
                last = path;
            });
    connect(m_datasets->nameField(), &QLineEdit::textChanged, m_form,
            &ExperimentForm::setDatasetName);
    // A new dataset's columns are the inputs of the program under test.
    m_datasets->setInputsSource([this] { return programInputs(); });
    connect(m_form, &ExperimentForm::runRequested, this, &EvalLinks::runExperiment);
    connect(m_form, &ExperimentForm::stopRequested, m_job, &ExperimentJob::cancel);
    connect(
        m_job, &ExperimentJob::started, this,
        [this](const QString&, const QList<eval::Example>& examples,
               const QStringList& evaluators) { m_results->setResults(examples, evaluators, {}); });
    connect(m_job, &ExperimentJob::progress, m_form, &ExperimentForm::setProgress);
    connect(m_job, &ExperimentJob::resultReady, this,
            [this](const eval::ExampleResult& r) { m_results->addResults({r}); });
    connect(m_job, &ExperimentJob::finished, this, &EvalLinks::experimentOver);
    connect(m_job, &ExperimentJob::reused, this, [this](const QString& id) {
        Q_EMIT statusMessage(tr("This version already ran on this dataset: experiment %1 is "
                                "used again")
                                 .arg(id.left(8)),
                             6000);
    });

    // The store opens when a pane first shows (a start-up without them touches no file).
    for (QDockWidget* dock : {m_datasetsDock, m_resultsDock})
        connect(dock, &QDockWidget::visibilityChanged, this, [this, dock](bool visible) {
            if (!visible)
                return;
            ensureStore();
            // The form, the grid and the reasoning need room: most of the window's height
            // (once the dock is laid out, so its first layout does not undo the resize).
            if (dock == m_resultsDock)
                QTimer::singleShot(0, dock, [dock] {
                    auto* window = qobject_cast<QMainWindow*>(dock->parentWidget());
                    if (window && dock->isVisible() && !dock->isFloating() &&
                        dock->height() < window->height() / 2)
                        window->resizeDocks({dock}, {window->height() * 6 / 10}, Qt::Vertical);
                });
        });
    connect(m_results, &EvalResultsPane::traceRequested, traces, &TraceDocks::openTrace);
}

EvalLinks::~EvalLinks() = default;

void EvalLinks::setStore(std::shared_ptr<eval::EvalStore> store)
{
    m_store = std::move(store);
    m_tried = true;
    m_datasets->setStore(m_store);
    m_results->setStore(m_store);
}

bool EvalLinks::ensureStore()
{
    if (m_store || m_tried)
        return bool(m_store);
    m_tried = true;
    Result<std::unique_ptr<eval::EvalStore>> opened =
        eval::EvalStore::open(eval::EvalStore::defaultPath());
    if (!opened) {
        m_datasets->messageBar()->showMessage(
            tr("The evaluation store cannot be opened: %1").arg(opened.error().message));
        return false;
    }
    setStore(std::shared_ptr<eval::EvalStore>(std::move(opened).value()));
    return true;
}

void EvalLinks::addToDataset(const QList<promptlog::CallRecord>& calls)
{
    m_datasetsDock->show();
    m_datasetsDock->raise();
    ensureStore();
    // The pane says which calls did not fit, and why, in its message bar.
    const int added = m_datasets->addCalls(calls, true);
    Q_EMIT statusMessage(tr("Added %1 of %n call(s) to the dataset (Save Version keeps them)",
                            nullptr, int(calls.size()))
                             .arg(added),
                         6000);
}

std::shared_ptr<eval::EvalStore> EvalLinks::store()
{
    ensureStore();
    return m_store;
}

void EvalLinks::showExperiment(const QString& id)
{
    m_resultsDock->show();
    m_resultsDock->raise();
    if (ensureStore())
        m_results->showExperiment(id);
}

void EvalLinks::experimentOver(const QString& id, bool ok, const QString& error)
{
    if (ok && !m_queue.isEmpty()) {
        // The next version, compared with this one.
        m_compareWith = id;
        m_form->setRunning(false);
        if (startExperiment(m_queue.takeFirst(), true))
            return;
        m_queue.clear();
    }
    m_queue.clear();
    m_form->setRunning(false);
    if (!ok)
        m_form->messageBar()->showMessage(tr("The experiment did not finish: %1").arg(error));
    else
        m_form->messageBar()->clearMessage();
    // The new experiment, compared with the one shown (or run) before it.
    m_results->showExperiment(id, m_compareWith);
    Q_EMIT statusMessage(ok ? tr("Experiment finished") : tr("Experiment stopped"), 6000);
}

bool EvalLinks::refuseOverwrittenInputs(const QString& program)
{
    QFile file(program);
    const QByteArray text = file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    const pdl::ParseResult parsed = pdl::parseProgramText(text, program);
    if (!parsed.program)
        return false; // the experiment says what is wrong with the program
    QStringList columns;
    for (const eval::Example& e : m_datasets->dataset().examples)
        for (auto it = e.inputs.begin(); it != e.inputs.end(); ++it)
            if (!columns.contains(it.key()))
                columns << it.key();
    QStringList names;
    const std::vector<Diagnostic> found = overwrittenInputs(*parsed.program, text, columns, &names);
    if (found.empty())
        return false;
    const Diagnostic& first = found.front();
    const QString name = names.value(0);
    MessageBar* bar = m_form->messageBar();
    const QString said = tr("The program sets “%1” itself (line %2), so every example would run "
                            "with the program's value instead of the dataset's. Make it an "
                            "input, or rename the dataset's column.")
                             .arg(name)
                             .arg(first.span.line);
    bar->showMessage(said, MessageBar::Kind::Warning);
    EditorPane* editor = m_tabs->currentEditor();
    const bool open = editor && QFileInfo(editor->filePath()).absoluteFilePath() == program;
    const std::optional<pdl::QuickFix> fix =
        open ? makeInputFix(editor->editor()->text(), name, first.span.line) : std::nullopt;
    if (fix)
        bar->showMessage(
            said, MessageBar::Kind::Warning, tr("Make It an Input"), [this, editor, fix] {
                QList<PdlEditor::TextReplacement> edits;
                for (const pdl::QuickFixEdit& e : fix->edits)
                    edits << PdlEditor::TextReplacement{e.offset, e.length, e.replacement};
                editor->editor()->applyTextEdits(edits);
                m_form->messageBar()->showMessage(
                    tr("The sample value is gone from the program (Ctrl+Z brings "
                       "it back); its examples come from the dataset now. Save "
                       "and run the experiment again."),
                    MessageBar::Kind::Information);
            });
    return true;
}

bool EvalLinks::runExperiment()
{
    m_queue.clear();
    m_compareWith = m_results->experimentBox()->currentData().toString();
    return startExperiment(QFileInfo(m_form->programPath()).absoluteFilePath(), false);
}

bool EvalLinks::runVersions(const QStringList& programs)
{
    if (programs.isEmpty())
        return false;
    m_queue = programs.mid(1);
    m_compareWith.clear();
    return startExperiment(programs.first(), true);
}

bool EvalLinks::startExperiment(const QString& program, bool reuseFinished)

{
    MessageBar* bar = m_form->messageBar();
    m_resultsDock->show();
    m_resultsDock->raise();
    if (!ensureStore()) {
        bar->showMessage(tr("The evaluation store cannot be opened."));
        return false;
    }
    if (program.isEmpty() || !QFileInfo(program).isFile()) {
        bar->showMessage(tr("Choose the program to test: a saved .pdl file."));
        return false;
    }
    // A saved version is the file as it is; the form's program is what the author edits.
    if (!reuseFinished &&
        program == QFileInfo(m_tabs->currentEditor()->filePath()).absoluteFilePath() &&
        m_tabs->currentEditor()->isModified()) {
        bar->showMessage(tr("The program has unsaved changes; the experiment runs the saved "
                            "file."),
                         MessageBar::Kind::Warning, tr("Save and Run"), [this] {
                             if (m_tabs->currentEditor()->save())
                                 runExperiment();
                         });
        return false;
    }
    if (m_datasets->dataset().examples.isEmpty()) {
        bar->showMessage(tr("The dataset has no examples yet: add some in the Datasets pane, "
                            "or select calls in the Prompt Log and click Add to Dataset."));
        m_datasetsDock->show();
        return false;
    }
    if (m_form->evaluators().isEmpty()) {
        bar->showMessage(tr("Tick at least one check to apply to the outputs."));
        return false;
    }
    // Each edit of the dataset is a version; the experiment records the one it ran on.
    const int version = m_datasets->save(tr("before an experiment"));
    if (version <= 0) {
        bar->showMessage(tr("Save the dataset first (its message says why it could not be "
                            "saved)."));
        m_datasetsDock->show();
        return false;
    }
    if (refuseOverwrittenInputs(program))
        return false;
    QString logWarning;
    RunEnvironment environment = m_run->environmentFor(program, &logWarning);
    // The judge programs pass the same rule as the target.
    const QString refusal =
        trustRefusal(QStringList{program} + eval::evaluatorPrograms(m_form->evaluators()),
                     environment.sandbox, false, false, tr("Experiment"));
    if (!refusal.isEmpty()) {
        bar->showMessage(tr("This program runs code or reaches other servers: run it once "
                            "with F5 and trust its folder, or turn on Run › Sandbox."),
                         MessageBar::Kind::Warning);
        bar->setDetail(refusal.trimmed());
        return false;
    }
    ExperimentJob::Request request;
    request.store = m_store;
    ExperimentPlan& plan = request.plan;
    // As stored (example ids filled in): what the experiment records it ran on.
    Result<eval::Dataset> stored = m_store->dataset(m_datasets->dataset().name, version);
    if (!stored.ok()) {
        bar->showMessage(stored.error().message);
        return false;
    }
    plan.dataset = *stored;
    plan.programPath = program;
    plan.evaluators = m_form->evaluators();
    plan.judgeModel = m_form->judgeModel();
    plan.language =
        QLocale().language() == QLocale::Japanese ? QStringLiteral("ja") : QStringLiteral("en");
    plan.concurrency = m_form->concurrency();
    plan.environment = environment;
    plan.startedFrom = QStringLiteral("workbench");
    request.reuseFinished = reuseFinished;
    QString error;
    if (!m_job->start(request, &error)) {
        bar->showMessage(error);
        return false;
    }
    bar->clearMessage();
    m_form->setRunning(true);
    Q_EMIT statusMessage(
        tr("Running %1 over %n example(s)…", nullptr, int(plan.dataset.examples.size()))
            .arg(QFileInfo(program).fileName()),
        0);
    return true;
}

} // namespace hako
