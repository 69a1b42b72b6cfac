#include "widgets/library/promptexperiments.h"

#include "core/eval/evalstore.h"

#include <QDateTime>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QLocale>
#include <QPointer>
#include <QtConcurrent>

namespace hako {

namespace {

struct Row {
    eval::ExperimentInfo info;
    int passed = 0;
    int scores = 0;
};

QList<Row> experimentsOf(const std::shared_ptr<eval::EvalStore>& store, const QString& key)
{
    QList<Row> rows;
    Result<QList<eval::ExperimentInfo>> list = store->experimentsOfPrompt(key);
    if (!list)
        return rows;
    for (const eval::ExperimentInfo& e : *list) {
        Row r;
        r.info = e;
        if (Result<QList<eval::ExampleResult>> results = store->results(e.id))
            for (const eval::ExampleResult& x : *results)
                for (const eval::Score& s : x.scores) {
                    ++r.scores;
                    r.passed += s.pass ? 1 : 0;
                }
        rows << r;
    }
    return rows;
}

} // namespace

PromptExperiments::PromptExperiments(QWidget* parent) : QTreeWidget(parent)
{
    setAccessibleName(tr("Experiments of this prompt"));
    setHeaderLabels({tr("Experiment"), tr("Version"), tr("Dataset"), tr("Passed"), tr("Started"),
                     tr("Status")});
    setRootIsDecorated(false);
    setToolTip(tr("Double-click an experiment to see its results"));
    connect(this, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        if (item && !item->data(0, Qt::UserRole).toString().isEmpty())
            Q_EMIT experimentOpenRequested(item->data(0, Qt::UserRole).toString());
    });
}

void PromptExperiments::showEvent(QShowEvent* event)
{
    QTreeWidget::showEvent(event);
    if (m_stale)
        reload();
}

void PromptExperiments::setStoreSource(std::function<std::shared_ptr<eval::EvalStore>()> source)
{
    m_source = std::move(source);
}

void PromptExperiments::showPrompt(const QString& promptKey)
{
    m_promptKey = promptKey;
    const LatestJob::Ticket ticket = m_latest.start();
    clear();
    m_stale = !isVisible();
    if (m_stale)
        return;
    std::shared_ptr<eval::EvalStore> store =
        m_source && !promptKey.isEmpty() ? m_source() : nullptr;
    if (!store)
        return;
    auto* watcher = new QFutureWatcher<QList<Row>>(this);
    connect(watcher, &QFutureWatcher<QList<Row>>::finished, this, [this, watcher, ticket] {
        watcher->deleteLater();
        if (!m_latest.isCurrent(ticket))
            return; // a newer prompt was chosen meanwhile
        const QList<Row> rows = watcher->result();
        for (const Row& r : rows) {
            const eval::ExperimentInfo& e = r.info;
            auto* item = new QTreeWidgetItem(
                this, {e.name, e.promptVersion > 0 ? tr("v%1").arg(e.promptVersion) : tr("unsaved"),
                       tr("%1 v%2").arg(e.dataset).arg(e.datasetVersion),
                       r.scores > 0 ? tr("%1 of %2").arg(r.passed).arg(r.scores) : QString(),
                       QLocale().toString(QDateTime::fromMSecsSinceEpoch(e.startedAt),
                                          QLocale::ShortFormat),
                       e.status == QLatin1String("finished")    ? tr("finished")
                       : e.status == QLatin1String("cancelled") ? tr("stopped")
                                                                : tr("running")});
            item->setData(0, Qt::UserRole, e.id);
        }
        if (rows.isEmpty()) {
            auto* item = new QTreeWidgetItem(
                this, {tr("No experiments yet: choose two versions and click Run on Dataset.")});
            item->setFirstColumnSpanned(true);
        }
        for (int c = 0; c < columnCount(); ++c)
            resizeColumnToContents(c);
    });
    watcher->setFuture(
        QtConcurrent::run([store, promptKey] { return experimentsOf(store, promptKey); }));
}

} // namespace hako
