#include "widgets/eval/evalresultspane.h"

#include "widgets/common/diffhtml.h"

#include "core/eval/evalstore.h"
#include "core/eval/resultsmodel.h"
#include "core/util/whenready.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPointer>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace hako {

namespace {

// Score cells tinted by pass/fail (and errors), so failures stand out while scrolling.
class ScoreDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        const QVariant pass = index.data(eval::ExperimentResultsModel::PassRole);
        if (!pass.isValid())
            return;
        const bool error = index.data(eval::ExperimentResultsModel::ErrorRole).toBool();
        const QColor tint = error           ? QColor(255, 200, 120)
                            : pass.toBool() ? QColor(170, 230, 170)
                                            : QColor(250, 170, 170);
        option->backgroundBrush = QBrush(tint);
    }
};

struct Loaded {
    QList<eval::ExperimentInfo> experiments;
    QList<eval::Example> examples;
    QStringList evaluators;
    QList<eval::ExampleResult> results, baseline;
    QString id, error;
};

} // namespace

EvalResultsPane::EvalResultsPane(QWidget* parent)
    : QWidget(parent), m_model(new eval::ExperimentResultsModel(this)),
      m_filter(new eval::FailingResultsFilter(this)), m_view(new QTableView),
      m_detail(new QTextBrowser), m_failuresOnly(new QCheckBox(tr("Failures only"))),
      m_experiments(new QComboBox), m_baseline(new QComboBox), m_summary(new QLabel)
{
    setObjectName(QStringLiteral("evalResultsPane"));
    m_filter->setSourceModel(m_model);
    m_view->setModel(m_filter);
    m_view->setSortingEnabled(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setItemDelegate(new ScoreDelegate(m_view));
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(false);
    m_view->setWordWrap(false);
    m_view->setAccessibleName(tr("Evaluation results"));
    m_detail->setReadOnly(true);
    m_detail->setAccessibleName(tr("Reasoning"));
    m_detail->setPlaceholderText(tr("Click a score to read why."));
    m_experiments->setAccessibleName(tr("Experiment"));
    m_baseline->setAccessibleName(tr("Compare with"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Experiment:")));
    bar->addWidget(m_experiments, 2);
    auto* rename = new QPushButton(tr("Rename…"));
    rename->setAccessibleName(tr("Rename experiment"));
    rename->setToolTip(tr("Give the experiment shown a name of your own"));
    bar->addWidget(rename);
    bar->addWidget(new QLabel(tr("Compare with:")));
    bar->addWidget(m_baseline, 2);
    bar->addWidget(m_failuresOnly);
    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(m_view);
    splitter->addWidget(m_detail);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    auto* resultsPart = new QWidget(this);
    auto* resultsLayout = new QVBoxLayout(resultsPart);
    resultsLayout->setContentsMargins(0, 0, 0, 0);
    resultsLayout->addLayout(bar);
    resultsLayout->addWidget(m_summary);
    resultsLayout->addWidget(splitter, 1);
    // The experiment form (setSetupWidget) goes above the results; the user drags between.
    m_outer = new QSplitter(Qt::Vertical, this);
    m_outer->addWidget(resultsPart);
    m_outer->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_outer, 1);

    connect(m_failuresOnly, &QCheckBox::toggled, m_filter,
            &eval::FailingResultsFilter::setOnlyFailures);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { showDetail(current); });
    connect(m_view, &QTableView::clicked, this, [this](const QModelIndex& i) { showDetail(i); });
    connect(m_view, &QTableView::doubleClicked, this, [this](const QModelIndex& i) {
        const QModelIndex source = m_filter->mapToSource(i);
        if (const eval::ExampleResult* r = m_model->resultAt(source.row()))
            if (!r->run.tracePath.isEmpty())
                Q_EMIT traceRequested(r->run.tracePath);
    });
    auto pick = [this] {
        const QString id = m_experiments->currentData().toString();
        if (!id.isEmpty())
            showExperiment(id, m_baseline->currentData().toString());
    };
    connect(m_experiments, &QComboBox::activated, this, pick);
    connect(rename, &QPushButton::clicked, this, &EvalResultsPane::renameExperiment);
    connect(m_baseline, &QComboBox::activated, this, pick);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &EvalResultsPane::updateSummary);
    connect(m_model, &QAbstractItemModel::modelReset, this, &EvalResultsPane::updateSummary);
}

EvalResultsPane::~EvalResultsPane() = default;

void EvalResultsPane::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // The form whole while there is room for it: it is what a user needs before any result.
    if (m_formHeight > 0 && m_outer->count() == 2) {
        const int total = m_outer->height();
        const int form = std::min(m_formHeight, total / 2 + total / 6);
        if (m_outer->sizes().value(0) < form)
            m_outer->setSizes({form, std::max(1, total - form)});
    }
}

void EvalResultsPane::setSetupWidget(QWidget* widget)
{
    // Scrolls in a short dock, so the window still fits a small screen with every dock open.
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(widget);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setAccessibleName(tr("Experiment settings"));
    scroll->setMaximumHeight(widget->sizeHint().height() + 4);
    scroll->setMinimumHeight(std::min(widget->sizeHint().height() + 4, 60));
    m_outer->insertWidget(0, scroll);
    m_outer->setStretchFactor(0, 0);
    m_outer->setStretchFactor(1, 1);
    m_formHeight = widget->sizeHint().height() + 4;
}

void EvalResultsPane::setStore(std::shared_ptr<eval::EvalStore> store)
{
    m_store = std::move(store);
    // The experiments of earlier sessions are there at once, not only after a new one runs.
    refresh();
}

void EvalResultsPane::renameExperiment()
{
    const QString id = m_experiments->currentData().toString();
    if (id.isEmpty() || !m_store)
        return;
    auto info = m_store->experiment(id);
    if (!info)
        return;
    bool ok = false;
    const QString name =
        QInputDialog::getText(this, tr("Rename Experiment"), tr("Name of the experiment:"),
                              QLineEdit::Normal, info->name, &ok)
            .trimmed();
    if (!ok || name.isEmpty() || name == info->name)
        return;
    if (auto renamed = m_store->renameExperiment(id, name); !renamed) {
        m_summary->setText(renamed.error().message);
        return;
    }
    showExperiment(id, m_baseline->currentData().toString());
}

void EvalResultsPane::refresh()
{
    if (m_store)
        showExperiment(QString());
}

void EvalResultsPane::showExperiment(const QString& id, const QString& baselineId)
{
    if (!m_store)
        return;
    const LatestJob::Ticket ticket = m_latest.start();
    auto store = m_store;
    m_summary->setText(tr("Loading…"));
    QPointer<EvalResultsPane> self(this);
    whenReady(
        this, QtConcurrent::run([store, id, baselineId] {
            Loaded l;
            auto list = store->experiments();
            if (!list.ok()) {
                l.error = list.error().message;
                return l;
            }
            l.experiments = *list;
            l.id = id.isEmpty() && !l.experiments.isEmpty() ? l.experiments.first().id : id;
            if (l.id.isEmpty())
                return l;
            auto info = store->experiment(l.id);
            if (!info.ok()) {
                l.error = info.error().message;
                return l;
            }
            auto dataset = store->dataset(info->dataset, info->datasetVersion);
            if (dataset.ok())
                l.examples = dataset->examples;
            for (const QJsonValue& e : info->config.value(QStringLiteral("evaluators")).toArray())
                l.evaluators << e.toObject()
                                    .value(QStringLiteral("name"))
                                    .toString(
                                        e.toObject().value(QStringLiteral("type")).toString());
            auto results = store->results(l.id);
            if (results.ok())
                l.results = *results;
            if (l.examples.isEmpty()) // a dataset not in this store: rows from the results alone
                for (const eval::ExampleResult& r : l.results) {
                    eval::Example e;
                    e.id = r.exampleId;
                    while (l.examples.size() <= r.index)
                        l.examples.append(eval::Example{});
                    l.examples[r.index] = e;
                }
            if (l.evaluators.isEmpty() && !l.results.isEmpty())
                for (const eval::Score& s : l.results.first().scores)
                    l.evaluators << s.evaluator;
            if (!baselineId.isEmpty())
                if (auto b = store->results(baselineId); b.ok())
                    l.baseline = *b;
            return l;
        }),
        [this, self, ticket, baselineId](Loaded l) {
            if (!self || !m_latest.isCurrent(ticket))
                return; // a newer request superseded this one
            if (!l.error.isEmpty()) {
                m_summary->setText(l.error);
                return;
            }
            auto fill = [&](QComboBox* box, bool withNone, const QString& current) {
                box->clear();
                if (withNone)
                    box->addItem(tr("(nothing)"), QString());
                for (const eval::ExperimentInfo& e : l.experiments)
                    box->addItem(QStringLiteral("%1%2 · %3 v%4 · %5 · %6")
                                     .arg(e.name,
                                          e.promptVersion > 0
                                              ? tr(" (prompt v%1)").arg(e.promptVersion)
                                              : QString(),
                                          e.dataset)
                                     .arg(e.datasetVersion)
                                     .arg(QDateTime::fromMSecsSinceEpoch(e.startedAt)
                                              .toString(QStringLiteral("yyyy-MM-dd HH:mm")),
                                          e.id.left(8)),
                                 e.id);
                box->setCurrentIndex(std::max(0, box->findData(current)));
            };
            fill(m_experiments, false, l.id);
            fill(m_baseline, true, baselineId);
            setResults(l.examples, l.evaluators, l.results, l.baseline);
        });
}

void EvalResultsPane::setResults(const QList<eval::Example>& examples,
                                 const QStringList& evaluators,
                                 const QList<eval::ExampleResult>& results,
                                 const QList<eval::ExampleResult>& baseline)
{
    m_examples = examples;
    m_model->setExperiment(examples, evaluators, results);
    m_model->setBaseline(baseline);
    m_detail->clear();
    m_view->resizeColumnsToContents();
    for (int c = 0; c < m_model->columnCount(); ++c)
        m_view->setColumnWidth(c, std::min(m_view->columnWidth(c), 320));
}

void EvalResultsPane::addResults(const QList<eval::ExampleResult>& results)
{
    m_model->addResults(results);
}

void EvalResultsPane::showDetail(const QModelIndex& proxyIndex)
{
    if (!proxyIndex.isValid())
        return;
    const QModelIndex index = m_filter->mapToSource(proxyIndex);
    const int row = index.row();
    const int evaluator = index.column() - eval::ExperimentResultsModel::FixedColumns;
    auto para = [](const QString& text) {
        return QStringLiteral("<p style=\"white-space:pre-wrap\">%1</p>").arg(text);
    };
    QString html;
    if (evaluator >= 0 && evaluator < m_model->evaluators().size()) {
        const QVariant pass = index.data(eval::ExperimentResultsModel::PassRole);
        const QString verdict = !pass.isValid() ? tr("not judged yet")
                                : index.data(eval::ExperimentResultsModel::ErrorRole).toBool()
                                    ? tr("could not judge")
                                : pass.toBool() ? tr("pass")
                                                : tr("fail");
        html =
            QStringLiteral("<p><b>%1</b></p>")
                .arg(tr("%1 on example %2: %3")
                         .arg(eval::ExperimentResultsModel::evaluatorTitle(
                             m_model->evaluators().at(evaluator)))
                         .arg(row + 1)
                         .arg(verdict)
                         .toHtmlEscaped()) +
            para(
                index.data(eval::ExperimentResultsModel::ReasoningRole).toString().toHtmlEscaped());
    } else {
        html = exampleHtml(row);
    }
    m_detail->setHtml(html);
}

QString EvalResultsPane::exampleHtml(int row) const
{
    const eval::ExampleResult* r = m_model->resultAt(row);
    const eval::Example* e = row < m_examples.size() ? &m_examples[row] : nullptr;
    auto heading = [](const QString& text) {
        return QStringLiteral("<p><b>%1</b></p>").arg(text.toHtmlEscaped());
    };
    auto para = [](const QString& html) {
        return QStringLiteral("<p style=\"white-space:pre-wrap\">%1</p>").arg(html);
    };
    const QString output = r ? r->run.output : QString();
    QString html = heading(tr("Example %1").arg(row + 1));
    if (e && !e->inputs.isEmpty())
        html += heading(tr("Inputs")) +
                para(eval::ExperimentResultsModel::readableInputs(e->inputs, true).toHtmlEscaped());
    if (r && !r->error.isEmpty())
        html += heading(tr("The program failed")) + para(r->error.toHtmlEscaped());
    html += heading(tr("Output")) + para(output.toHtmlEscaped());
    // Differences in colour, as the playground shows them: struck through on red is only in
    // the first text, on green only in the second.
    if (e && e->hasReference())
        html += heading(tr("Output against the reference (red: only in the output, green: only "
                           "in the reference)")) +
                para(diffHtml(output, e->referenceText()));
    const QVariant baseline = m_model->index(row, eval::ExperimentResultsModel::Output)
                                  .data(eval::ExperimentResultsModel::BaselineOutputRole);
    if (baseline.isValid())
        html += heading(tr("Against the baseline's output (red: the baseline's, green: now)")) +
                para(diffHtml(baseline.toString(), output));
    return html;
}

void EvalResultsPane::updateSummary()
{
    const QList<eval::ExampleResult> results = [this] {
        QList<eval::ExampleResult> out;
        for (int row = 0; row < m_model->rowCount(); ++row)
            if (const eval::ExampleResult* r = m_model->resultAt(row))
                out.append(*r);
        return out;
    }();
    QStringList parts;
    parts << tr("%1 of %2 examples").arg(results.size()).arg(m_model->rowCount());
    for (const eval::EvaluatorAggregate& a : eval::aggregate(results, m_model->evaluators()))
        parts << tr("%1: mean %2, %3/%4 pass (%5–%6%)")
                     .arg(eval::ExperimentResultsModel::evaluatorTitle(a.evaluator))
                     .arg(a.mean, 0, 'f', 2)
                     .arg(a.passed)
                     .arg(a.count)
                     .arg(a.passLow * 100, 0, 'f', 0)
                     .arg(a.passHigh * 100, 0, 'f', 0);
    m_summary->setText(parts.join(QStringLiteral(" · ")));
    // What the range in brackets means, for a reader who has not met intervals.
    m_summary->setToolTip(
        tr("The range in brackets is where the pass rate would likely fall with many more "
           "examples like these (a 95% interval): the fewer the examples, the wider it is."));
}

} // namespace hako
