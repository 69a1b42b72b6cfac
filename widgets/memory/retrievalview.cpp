#include "widgets/memory/retrievalview.h"

#include "core/memory/candidatemodel.h"
#include "core/util/whenready.h"
#include "widgets/common/accessibleparts.h"
#include "widgets/memory/componentbardelegate.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace hako {

using namespace memory;

namespace {

// Texts of the candidates worth reading: the selected ones and the best-ranked cut ones.
QHash<int64_t, QString> textsFor(MemoryStore& store, const RetrievalResult& r)
{
    QHash<int64_t, QString> texts;
    for (size_t i = 0; i < r.candidates.size() && i < 500; ++i) {
        if (auto rec = store.get(r.candidates[i].input.id))
            texts.insert(rec->id, rec->text);
    }
    return texts;
}

} // namespace

RetrievalView::RetrievalView(QWidget* parent) : QWidget(parent)
{
    m_list = new QListWidget(this);
    m_list->setAccessibleName(tr("Retrievals"));
    m_model = new CandidateModel(this);
    m_table = new QTableView(this);
    m_table->setAccessibleName(tr("Retrieval candidates"));
    m_table->setModel(m_model);
    m_bars = new ComponentBarDelegate(this);
    m_table->setItemDelegateForColumn(CandidateModel::Components, m_bars);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);

    m_mode = new QComboBox(this);
    m_mode->setAccessibleName(tr("Retrieval mode"));
    for (const char* m : {"seed", "ga", "recent"})
        m_mode->addItem(QLatin1String(m));
    m_k = new QSpinBox(this);
    m_k->setAccessibleName(tr("Number of memories (k)"));
    m_k->setRange(0, 1000);
    m_decay = new QDoubleSpinBox(this);
    m_decay->setAccessibleName(tr("Recency decay"));
    m_decay->setDecimals(4);
    m_decay->setRange(0.0001, 1.0);
    m_decay->setSingleStep(0.001);
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Mode"), this));
    controls->addWidget(m_mode);
    controls->addWidget(new QLabel(tr("k"), this));
    controls->addWidget(m_k);
    controls->addWidget(new QLabel(tr("Decay"), this));
    controls->addWidget(m_decay);
    const char* names[] = {QT_TR_NOOP("Recency"), QT_TR_NOOP("Importance"),
                           QT_TR_NOOP("Relevance")};
    for (int i = 0; i < 3; ++i) {
        m_weights[i] = new QDoubleSpinBox(this);
        m_weights[i]->setAccessibleName(tr("%1 weight").arg(tr(names[i])));
        m_weights[i]->setRange(0, 100);
        m_weights[i]->setSingleStep(0.25);
        auto* label = new QLabel(tr(names[i]), this);
        label->setStyleSheet(QStringLiteral("color: %1; font-weight: bold")
                                 .arg(ComponentBarDelegate::colorOf(i).name()));
        controls->addWidget(label);
        controls->addWidget(m_weights[i]);
    }
    auto* whatIf = new QPushButton(tr("What if…"), this);
    whatIf->setToolTip(
        tr("Re-run this retrieval with these parameters without touching the store"));
    auto* reset = new QPushButton(tr("Original"), this);
    controls->addWidget(whatIf);
    controls->addWidget(reset);
    controls->addStretch();
    m_summary = new QLabel(this);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* right = new QWidget(this);
    auto* rl = new QVBoxLayout(right);
    rl->setContentsMargins(0, 0, 0, 0);
    rl->addLayout(controls);
    rl->addWidget(m_summary);
    rl->addWidget(m_table, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_list);
    split->addWidget(right);
    split->setStretchFactor(1, 4);
    split->setSizes({120, 600});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row < 0)
            return;
        const QListWidgetItem* item = m_list->item(row);
        const qint64 seq = item->data(SeqRole).toLongLong();
        showRetrieval(seq);
        if (!m_selectingQuietly)
            Q_EMIT retrievalSelected(seq, item->data(NodeIdRole).toString(),
                                     item->data(RunIdRole).toString());
    });
    connect(whatIf, &QPushButton::clicked, this, &RetrievalView::runWhatIf);
    connect(reset, &QPushButton::clicked, this, [this] {
        if (m_seq)
            showRetrieval(m_seq);
    });
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& i) {
        Q_EMIT memoryActivated(i.data(CandidateModel::IdRole).toLongLong());
    });
    // Qt's own parts (clear and corner buttons, combo box text) get names too.
    AccessibleParts::name(this);
}

RetrievalView::~RetrievalView() = default;

void RetrievalView::setStore(std::shared_ptr<MemoryStore> store)
{
    m_store = std::move(store);
    m_seq = 0;
    m_original.reset();
    m_model->setResult({}, {});
    refresh();
}

void RetrievalView::refresh()
{
    m_list->clear();
    if (!m_store)
        return;
    const LatestJob::Ticket ticket = m_latest.start();
    auto store = m_store;
    whenReady(this, QtConcurrent::run([store] { return store->retrievals(500); }),
              [this, ticket](Result<std::vector<RetrievalRecord>> list) {
                  if (!m_latest.isCurrent(ticket))
                      return;
                  if (!list) {
                      Q_EMIT errorOccurred(list.error().message);
                      return;
                  }
                  for (const RetrievalRecord& r : *list) {
                      const QString query = r.query.isEmpty() ? tr("(no query)") : r.query;
                      QString label = QStringLiteral("#%1  %2  %3 k=%4  “%5”  → %6 of %7")
                                          .arg(r.seq)
                                          .arg(formatTime(r.at), modeName(r.result.params.mode))
                                          .arg(r.result.params.k)
                                          .arg(query.simplified().left(80))
                                          .arg(r.result.promptOrder.size())
                                          .arg(r.candidateCount);
                      if (!r.nodeId.isEmpty())
                          label += QStringLiteral("  @ %1").arg(r.nodeId);
                      auto* item = new QListWidgetItem(label);
                      item->setData(SeqRole, qint64(r.seq));
                      item->setData(NodeIdRole, r.nodeId);
                      item->setData(RunIdRole, r.runId);
                      if (!r.nodeId.isEmpty())
                          item->setToolTip(
                              tr("Made by trace node %1 (run %2); click to select it in the "
                                 "trace")
                                  .arg(r.nodeId, r.runId));
                      m_list->addItem(item);
                  }
              });
}

bool RetrievalView::selectRetrievalOfNode(const QString& nodeId)
{
    if (nodeId.isEmpty())
        return false;
    // The list is newest first: the first match is the node's latest retrieval.
    for (int row = 0; row < m_list->count(); ++row) {
        if (m_list->item(row)->data(NodeIdRole).toString() == nodeId) {
            m_selectingQuietly = true;
            m_list->setCurrentRow(row);
            m_selectingQuietly = false;
            return true;
        }
    }
    return false;
}

void RetrievalView::showRetrieval(int64_t seq)
{
    if (!m_store)
        return;
    const LatestJob::Ticket ticket = m_latest.start();
    auto store = m_store;
    whenReady(this, QtConcurrent::run([store, seq] {
                  auto r = store->retrieval(seq);
                  QHash<int64_t, QString> texts;
                  if (r)
                      texts = textsFor(*store, r->result);
                  return std::make_pair(r, texts);
              }),
              [this, ticket, seq](std::pair<Result<RetrievalRecord>, QHash<int64_t, QString>> got) {
                  if (!m_latest.isCurrent(ticket))
                      return;
                  if (!got.first) {
                      Q_EMIT errorOccurred(got.first.error().message);
                      return;
                  }
                  m_seq = seq;
                  m_original = got.first->result;
                  setControls(got.first->result.params);
                  display(got.first->result, std::move(got.second), false);
              });
}

void RetrievalView::runWhatIf()
{
    if (!m_store || !m_seq)
        return;
    const LatestJob::Ticket ticket = m_latest.start();
    auto store = m_store;
    const int64_t seq = m_seq;
    const RetrievalParams p = controls();
    whenReady(this, QtConcurrent::run([store, seq, p] {
                  auto r = store->whatIf(seq, p);
                  QHash<int64_t, QString> texts;
                  if (r)
                      texts = textsFor(*store, r->result);
                  return std::make_pair(r, texts);
              }),
              [this, ticket](std::pair<Result<RetrievalRecord>, QHash<int64_t, QString>> got) {
                  if (!m_latest.isCurrent(ticket))
                      return;
                  if (!got.first) {
                      Q_EMIT errorOccurred(got.first.error().message);
                      return;
                  }
                  display(got.first->result, std::move(got.second), true);
              });
}

void RetrievalView::display(RetrievalResult result, QHash<int64_t, QString> texts, bool whatIf)
{
    const RetrievalParams p = result.params;
    m_bars->setMaxTotal(p.mode == RetrievalMode::Ga ? p.weights[0] + p.weights[1] + p.weights[2]
                                                    : 1.0);
    m_model->setResult(std::move(result), std::move(texts),
                       whatIf && m_original ? m_original : std::nullopt);
    m_table->setColumnHidden(CandidateModel::Change, !whatIf);
    m_table->resizeColumnsToContents();
    m_table->setColumnWidth(CandidateModel::Components, 240);
    m_summary->setText(
        whatIf ? diffSummary()
               : tr("%1 candidates, %2 in the prompt%3")
                     .arg(m_model->result().candidates.size())
                     .arg(m_model->result().promptOrder.size())
                     .arg(m_model->result().approximate ? tr(" (approximate index)") : QString()));
    Q_EMIT resultShown();
}

QString RetrievalView::diffSummary() const
{
    const RetrievalDiff& d = m_model->diff();
    auto list = [](const std::vector<int64_t>& ids) {
        QStringList s;
        for (int64_t id : ids)
            s.append(QString::number(id));
        return s.isEmpty() ? QStringLiteral("none") : s.join(QStringLiteral(", "));
    };
    QStringList moved;
    for (const auto& m : d.moved)
        moved.append(QStringLiteral("%1 (%2→%3)").arg(m.id).arg(m.fromRank).arg(m.toRank));
    return tr("What-if: added %1; removed %2; moved %3")
        .arg(list(d.added), list(d.removed),
             moved.isEmpty() ? QStringLiteral("none") : moved.join(QStringLiteral(", ")));
}

void RetrievalView::setControls(const RetrievalParams& p)
{
    m_mode->setCurrentText(modeName(p.mode));
    m_k->setValue(p.k);
    m_decay->setValue(p.decay);
    for (int i = 0; i < 3; ++i)
        m_weights[i]->setValue(p.weights[size_t(i)]);
}

RetrievalParams RetrievalView::controls() const
{
    RetrievalParams p;
    p.mode = modeFromName(m_mode->currentText()).value_or(RetrievalMode::Seed);
    p.k = m_k->value();
    p.decay = m_decay->value();
    for (int i = 0; i < 3; ++i)
        p.weights[size_t(i)] = m_weights[i]->value();
    return p;
}

} // namespace hako
