#include "core/playground/playgroundresultmodel.h"

#include <QSet>
#include <QTimer>

#include <utility>

namespace hako::playground {

PlaygroundResultModel::PlaygroundResultModel(QObject* parent)
    : QAbstractTableModel(parent), m_flushTimer(new QTimer(this))
{
    m_flushTimer->setSingleShot(true);
    m_flushTimer->setInterval(50);
    connect(m_flushTimer, &QTimer::timeout, this, &PlaygroundResultModel::flush);
}

void PlaygroundResultModel::reset(int rows, const QStringList& variantLabels, int repeat,
                                  const QStringList& rowLabels)
{
    for (const auto& c : std::as_const(m_connections))
        disconnect(c);
    m_connections.clear();
    m_run = nullptr;
    m_flushTimer->stop();
    m_dirty.clear();
    beginResetModel();
    m_rows = std::max(0, rows);
    m_repeat = std::max(1, repeat);
    m_variantLabels = variantLabels;
    m_rowLabels = rowLabels;
    m_cells.assign(size_t(m_rows) * size_t(variantLabels.size()) * size_t(m_repeat), CellResult());
    endResetModel();
}

void PlaygroundResultModel::attach(PlaygroundRun* run, const QStringList& variantLabels,
                                   const QStringList& rowLabels)
{
    QStringList labels = variantLabels;
    while (labels.size() < run->variantCount())
        labels << tr("Variant %1").arg(labels.size() + 1);
    reset(run->rowCount(), labels.mid(0, run->variantCount()), run->repeat(), rowLabels);
    m_run = run;
    m_connections << connect(run, &PlaygroundRun::cellStarted, this,
                             [this](CellKey key) { markStarted(key); });
    m_connections << connect(run, &PlaygroundRun::cellDelta, this,
                             [this](CellKey key, const QString& d) { appendDelta(key, d); });
    m_connections << connect(run, &PlaygroundRun::cellFinished, this,
                             [this](CellKey key, const CellResult& r) { setCell(key, r); });
}

CellResult* PlaygroundResultModel::find(const CellKey& key)
{
    if (key.row < 0 || key.row >= m_rows || key.variant < 0 ||
        key.variant >= m_variantLabels.size() || key.repeat < 0 || key.repeat >= m_repeat)
        return nullptr;
    return &m_cells[(size_t(key.row) * size_t(m_variantLabels.size()) + size_t(key.variant)) *
                        size_t(m_repeat) +
                    size_t(key.repeat)];
}

void PlaygroundResultModel::changed(const CellKey& key)
{
    const QModelIndex i = index(key.row, key.variant);
    Q_EMIT dataChanged(i, i);
}

void PlaygroundResultModel::changedLater(const CellKey& key)
{
    m_dirty.insert({key.row, key.variant});
    if (!m_flushTimer->isActive())
        m_flushTimer->start();
}

void PlaygroundResultModel::flush()
{
    const QSet<QPair<int, int>> dirty = std::exchange(m_dirty, {});
    for (const auto& [row, variant] : dirty) {
        const QModelIndex i = index(row, variant);
        Q_EMIT dataChanged(i, i);
    }
}

void PlaygroundResultModel::setCell(const CellKey& key, const CellResult& result)
{
    if (CellResult* c = find(key)) {
        *c = result;
        changed(key);
    }
}

void PlaygroundResultModel::appendDelta(const CellKey& key, const QString& delta)
{
    if (CellResult* c = find(key); c && !c->isFinal()) {
        c->state = CellResult::State::Running;
        c->reply += delta;
        changedLater(key);
    }
}

void PlaygroundResultModel::markStarted(const CellKey& key)
{
    if (CellResult* c = find(key); c && !c->isFinal()) {
        c->state = CellResult::State::Running;
        changedLater(key);
    }
}

CellResult PlaygroundResultModel::cell(const CellKey& key) const
{
    CellResult* c = const_cast<PlaygroundResultModel*>(this)->find(key);
    return c ? *c : CellResult();
}

int PlaygroundResultModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : m_rows;
}

int PlaygroundResultModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_variantLabels.size());
}

QString PlaygroundResultModel::summaryText(const std::vector<CellResult>& repeats)
{
    if (repeats.empty())
        return {};
    auto textOf = [](const CellResult& r) -> QString {
        switch (r.state) {
        case CellResult::State::Pending:
            return tr("Waiting…");
        case CellResult::State::Running:
            return r.reply.isEmpty() ? tr("Running…") : r.reply;
        case CellResult::State::Done:
            return r.reply;
        case CellResult::State::Failed:
            return tr("Error: %1").arg(r.error);
        case CellResult::State::Cancelled:
            return tr("Cancelled");
        }
        return {};
    };
    if (repeats.size() == 1)
        return textOf(repeats.front());
    QSet<QString> distinct;
    int finished = 0;
    int failed = 0;
    for (const CellResult& r : repeats) {
        if (r.state == CellResult::State::Done) {
            distinct.insert(r.reply);
            ++finished;
        } else if (r.isFinal()) {
            ++failed;
        }
    }
    const int n = int(repeats.size());
    if (finished + failed < n)
        return tr("%1 of %2 done").arg(finished + failed).arg(n);
    QString text = tr("%1 distinct of %2").arg(distinct.size()).arg(n);
    if (failed > 0)
        text += tr(" (%1 failed)").arg(failed);
    return text;
}

QVariant PlaygroundResultModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const size_t base =
        (size_t(index.row()) * size_t(m_variantLabels.size()) + size_t(index.column())) *
        size_t(m_repeat);
    const std::vector<CellResult> repeats(m_cells.begin() + qsizetype(base),
                                          m_cells.begin() + qsizetype(base + size_t(m_repeat)));
    qint64 promptTokens = 0, completionTokens = 0;
    bool anyTokens = false;
    double latency = 0;
    int latencies = 0;
    QString error;
    int worst = 0;
    QStringList replies;
    QSet<QString> distinct;
    for (const CellResult& r : repeats) {
        replies << r.reply;
        if (r.state == CellResult::State::Done)
            distinct.insert(r.reply);
        if (r.promptTokens || r.completionTokens) {
            anyTokens = true;
            promptTokens += r.promptTokens.value_or(0);
            completionTokens += r.completionTokens.value_or(0);
        }
        if (r.latencyMs) {
            latency += *r.latencyMs;
            ++latencies;
        }
        if (error.isEmpty() && !r.error.isEmpty())
            error = r.error;
        worst = std::max(worst, int(r.state));
    }
    switch (role) {
    case Qt::DisplayRole:
        return summaryText(repeats);
    case Qt::ToolTipRole: {
        QStringList lines;
        if (anyTokens)
            lines << tr("Tokens: %1 in, %2 out").arg(promptTokens).arg(completionTokens);
        if (latencies > 0)
            lines << tr("Latency: %1 ms").arg(qRound(latency / latencies));
        if (!error.isEmpty())
            lines << tr("Error: %1").arg(error);
        return lines.join(QLatin1Char('\n'));
    }
    case StateRole:
        return worst;
    case ReplyRole:
        return repeats.front().reply;
    case RepliesRole:
        return replies;
    case DistinctRole:
        return int(distinct.size());
    case PromptTokensRole:
        return anyTokens ? QVariant(promptTokens) : QVariant();
    case CompletionTokensRole:
        return anyTokens ? QVariant(completionTokens) : QVariant();
    case LatencyRole:
        return latencies > 0 ? QVariant(latency / latencies) : QVariant();
    case ErrorRole:
        return error;
    default:
        return {};
    }
}

QString PlaygroundResultModel::columnSummary(int variant) const
{
    qint64 in = 0, out = 0;
    double latency = 0;
    int calls = 0, failed = 0;
    for (int row = 0; row < m_rows; ++row) {
        for (int r = 0; r < m_repeat; ++r) {
            const CellResult c = cell({row, variant, r});
            if (c.state == CellResult::State::Done) {
                in += c.promptTokens.value_or(0);
                out += c.completionTokens.value_or(0);
                latency += c.latencyMs.value_or(0);
                ++calls;
            } else if (c.state == CellResult::State::Failed) {
                ++failed;
            }
        }
    }
    QString text = m_variantLabels.at(variant);
    if (calls > 0)
        text += tr("\n%1 calls: %2 tokens in, %3 out; mean latency %4 ms")
                    .arg(calls)
                    .arg(in)
                    .arg(out)
                    .arg(qRound(latency / calls));
    if (failed > 0)
        text += tr("\n%1 failed").arg(failed);
    return text;
}

QVariant PlaygroundResultModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role == Qt::ToolTipRole && orientation == Qt::Horizontal && section >= 0 &&
        section < m_variantLabels.size())
        return columnSummary(section);
    if (role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (orientation == Qt::Horizontal)
        return section >= 0 && section < m_variantLabels.size() ? m_variantLabels.at(section)
                                                                : QVariant();
    if (section < 0 || section >= m_rows)
        return {};
    return section < m_rowLabels.size() && !m_rowLabels.at(section).isEmpty()
               ? m_rowLabels.at(section)
               : tr("Row %1").arg(section + 1);
}

} // namespace hako::playground
