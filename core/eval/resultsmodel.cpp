#include "core/eval/resultsmodel.h"
#include "core/eval/evaluatorkind.h"
#include "core/eval/textmetrics.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>

namespace hako::eval {

namespace {

QString cellText(const QJsonValue& v)
{
    if (v.isUndefined() || v.isNull())
        return QString();
    return v.isString() ? v.toString() : canonicalJson(v);
}

QString oneLine(const QString& s, int max = 200)
{
    QString t = s;
    t.replace(QLatin1Char('\n'), QStringLiteral(" ⏎ "));
    return t.size() > max ? t.left(max - 1) + QStringLiteral("…") : t;
}

} // namespace

QString ExperimentResultsModel::evaluatorTitle(const QString& name)
{
    // The kinds' own titles; a suite's own names (and kinds without a title) as written.
    return evaluatorKindTitle(name);
}

QString ExperimentResultsModel::readableInputs(const QJsonObject& inputs, bool multiLine)
{
    // `name: value` a person reads, not JSON: texts as they are, lists and records as JSON.
    QStringList parts;
    for (auto it = inputs.constBegin(); it != inputs.constEnd(); ++it) {
        const QString value = cellText(it.value());
        parts << (multiLine ? QStringLiteral("%1:\n%2").arg(it.key(), value)
                            : QStringLiteral("%1: %2").arg(it.key(), oneLine(value, 80)));
    }
    return parts.join(multiLine ? QStringLiteral("\n\n") : QStringLiteral(" · "));
}

ExperimentResultsModel::ExperimentResultsModel(QObject* parent) : QAbstractTableModel(parent) {}

void ExperimentResultsModel::setExperiment(const QList<Example>& examples,
                                           const QStringList& evaluators,
                                           const QList<ExampleResult>& results)
{
    beginResetModel();
    m_examples = examples;
    m_evaluators = evaluators;
    m_results.clear();
    for (const ExampleResult& r : results)
        if (r.index >= 0 && r.index < m_examples.size())
            m_results.insert(r.index, r);
    endResetModel();
}

void ExperimentResultsModel::addResults(const QList<ExampleResult>& results)
{
    QList<int> rows;
    for (const ExampleResult& r : results) {
        if (r.index < 0 || r.index >= m_examples.size())
            continue;
        m_results.insert(r.index, r);
        rows << r.index;
    }
    std::sort(rows.begin(), rows.end());
    for (int i = 0; i < rows.size();) {
        int j = i;
        while (j + 1 < rows.size() && rows[j + 1] <= rows[j] + 1)
            ++j;
        Q_EMIT dataChanged(index(rows[i], 0), index(rows[j], columnCount() - 1));
        i = j + 1;
    }
}

void ExperimentResultsModel::setBaseline(const QList<ExampleResult>& baseline)
{
    m_baseline.clear();
    for (const ExampleResult& r : baseline)
        m_baseline.insert(r.exampleId, r);
    if (rowCount() > 0)
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

int ExperimentResultsModel::columnOf(const QString& evaluator) const
{
    const qsizetype i = m_evaluators.indexOf(evaluator);
    return i < 0 ? -1 : FixedColumns + int(i);
}

const ExampleResult* ExperimentResultsModel::resultAt(int row) const
{
    auto it = m_results.constFind(row);
    return it == m_results.constEnd() ? nullptr : &*it;
}

int ExperimentResultsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_examples.size());
}

int ExperimentResultsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : FixedColumns + int(m_evaluators.size()) + 3;
}

bool ExperimentResultsModel::failing(int row) const
{
    const ExampleResult* r = resultAt(row);
    if (!r)
        return false;
    if (!r->error.isEmpty())
        return true;
    return std::any_of(r->scores.begin(), r->scores.end(), [](const Score& s) { return !s.pass; });
}

QVariant ExperimentResultsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_examples.size())
        return {};
    const int row = index.row();
    const int col = index.column();
    const Example& example = m_examples[row];
    const ExampleResult* r = resultAt(row);
    if (role == FailingRole)
        return failing(row);
    const bool display = role == Qt::DisplayRole || role == Qt::ToolTipRole;
    switch (col) {
    case Index:
        // Examples are numbered from 1, as a person counts them.
        if (role == SortRole)
            return row;
        return display ? QVariant(row + 1) : QVariant();
    case Inputs:
        if (display || role == SortRole)
            return role == Qt::ToolTipRole ? readableInputs(example.inputs, true)
                                           : oneLine(readableInputs(example.inputs, false));
        return {};
    case Reference:
        if (display || role == SortRole)
            return role == Qt::ToolTipRole ? cellText(example.reference)
                                           : oneLine(cellText(example.reference));
        return {};
    case Output:
        if (role == ReasoningRole)
            return r ? r->error : QString();
        if (role == BaselineOutputRole) {
            auto b = m_baseline.constFind(example.id);
            return b == m_baseline.constEnd() ? QVariant() : QVariant(b->run.output);
        }
        if (display || role == SortRole) {
            if (!r)
                return role == Qt::DisplayRole ? QStringLiteral("…") : QString();
            if (!r->error.isEmpty())
                return role == Qt::DisplayRole ? QStringLiteral("⚠ ") + oneLine(r->error)
                                               : r->error;
            return role == Qt::DisplayRole ? oneLine(r->run.output) : r->run.output;
        }
        return {};
    default:
        break;
    }
    const int e = col - FixedColumns;
    if (e >= 0 && e < m_evaluators.size()) {
        const Score* s = r ? r->score(m_evaluators[e]) : nullptr;
        if (!s)
            return role == Qt::DisplayRole ? QVariant(r ? QStringLiteral("—") : QStringLiteral("…"))
                                           : QVariant();
        switch (role) {
        case Qt::DisplayRole: {
            QString text = s->error ? QStringLiteral("error")
                           : !s->label.isEmpty() && s->label != QLatin1String("Y") &&
                                   s->label != QLatin1String("N")
                               ? s->label
                               : QString::number(s->score, 'f', 2);
            text = (s->pass ? QStringLiteral("✓ ") : QStringLiteral("✗ ")) + text;
            const QVariant delta = data(index, DeltaRole);
            if (delta.isValid() && qAbs(delta.toDouble()) > 1e-9)
                text += QStringLiteral(" (%1%2)")
                            .arg(delta.toDouble() > 0 ? QStringLiteral("+") : QString())
                            .arg(delta.toDouble(), 0, 'f', 2);
            return text;
        }
        case Qt::ToolTipRole:
        case ReasoningRole:
            return s->reasoning;
        case SortRole:
            return s->score;
        case PassRole:
            return s->pass;
        case ErrorRole:
            return s->error;
        case DeltaRole: {
            auto b = m_baseline.constFind(example.id);
            if (b == m_baseline.constEnd())
                return {};
            const Score* old = b->score(s->evaluator);
            return old ? QVariant(s->score - old->score) : QVariant();
        }
        default:
            return {};
        }
    }
    if (!(display || role == SortRole) || !r)
        return {};
    const int extra = col - tokensColumn();
    if (extra == 0)
        return role == SortRole ? QVariant(qlonglong(r->run.promptTokens + r->run.completionTokens))
                                : QVariant(QStringLiteral("%1 + %2")
                                               .arg(r->run.promptTokens)
                                               .arg(r->run.completionTokens));
    if (extra == 1) {
        if (!r->run.cost)
            return role == SortRole ? QVariant(-1.0) : QVariant(QStringLiteral("—"));
        return role == SortRole ? QVariant(*r->run.cost)
                                : QVariant(QString::number(*r->run.cost, 'f', 5));
    }
    if (extra == 2)
        return role == SortRole
                   ? QVariant(r->run.latencyMs)
                   : QVariant(QStringLiteral("%1 ms").arg(r->run.latencyMs, 0, 'f', 0));
    return {};
}

QVariant ExperimentResultsModel::headerData(int section, Qt::Orientation o, int role) const
{
    const int evaluator = section - FixedColumns;
    if (o == Qt::Horizontal && role == Qt::ToolTipRole && evaluator >= 0 &&
        evaluator < m_evaluators.size())
        return tr("Check: %1").arg(m_evaluators[evaluator]);
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, o, role);
    switch (section) {
    case Index:
        return QStringLiteral("#");
    case Inputs:
        return tr("Inputs");
    case Reference:
        return tr("Reference");
    case Output:
        return tr("Output");
    default:
        break;
    }
    if (evaluator >= 0 && evaluator < m_evaluators.size())
        return evaluatorTitle(m_evaluators[evaluator]);
    const int extra = section - tokensColumn();
    if (extra == 0)
        return tr("Tokens");
    if (extra == 1)
        return tr("Cost");
    if (extra == 2)
        return tr("Latency");
    return {};
}

FailingResultsFilter::FailingResultsFilter(QObject* parent) : QSortFilterProxyModel(parent)
{
    setSortRole(ExperimentResultsModel::SortRole);
}

void FailingResultsFilter::setOnlyFailures(bool on)
{
    if (on == m_onlyFailures)
        return;
#if QT_VERSION >= QT_VERSION_CHECK(6, 9, 0)
    beginFilterChange();
    m_onlyFailures = on;
    endFilterChange();
#else
    m_onlyFailures = on;
    invalidateFilter();
#endif
}

bool FailingResultsFilter::filterAcceptsRow(int row, const QModelIndex& parent) const
{
    if (!m_onlyFailures)
        return true;
    return sourceModel()
        ->data(sourceModel()->index(row, 0, parent), ExperimentResultsModel::FailingRole)
        .toBool();
}

// --- DatasetTableModel ---------------------------------------------------------------------------

DatasetTableModel::DatasetTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void DatasetTableModel::computeFields()
{
    m_fields = m_dataset.inputNames();
}

Result<bool> DatasetTableModel::editColumns(const std::function<Result<bool>(Dataset&)>& edit)
{
    Dataset changed = m_dataset;
    Result<bool> done = edit(changed);
    if (!done)
        return done;
    beginResetModel();
    m_dataset = std::move(changed);
    computeFields();
    m_modified = true;
    endResetModel();
    return done;
}

Result<bool> DatasetTableModel::addInput(const QString& name)
{
    return editColumns([&](Dataset& d) { return d.addInput(name); });
}

Result<bool> DatasetTableModel::renameInput(const QString& from, const QString& to)
{
    return editColumns([&](Dataset& d) { return d.renameInput(from, to); });
}

Result<bool> DatasetTableModel::removeInput(const QString& name)
{
    return editColumns([&](Dataset& d) { return d.removeInput(name); });
}

bool DatasetTableModel::suggestInputs(const QStringList& names)
{
    if (!m_dataset.examples.isEmpty() || !m_fields.isEmpty() || names.isEmpty())
        return false;
    const bool modified = m_modified;
    for (const QString& n : names)
        (void)editColumns([&](Dataset& d) { return d.addInput(n); });
    // Columns proposed for an empty dataset are no edit of the person's to save.
    m_modified = modified;
    return true;
}

void DatasetTableModel::setDataset(const Dataset& dataset)
{
    beginResetModel();
    m_dataset = dataset;
    if (m_dataset.schema.isEmpty())
        m_dataset.schema = Dataset::inferSchema(m_dataset.examples);
    computeFields();
    m_modified = false;
    endResetModel();
}

void DatasetTableModel::markSaved(int version)
{
    m_dataset.version = version;
    m_modified = false;
}

int DatasetTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_dataset.examples.size());
}

int DatasetTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_fields.size()) + 1;
}

QVariant DatasetTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() ||
        (role != Qt::DisplayRole && role != Qt::EditRole && role != Qt::ToolTipRole))
        return {};
    const Example& e = m_dataset.examples.at(index.row());
    if (index.column() < m_fields.size())
        return cellText(e.inputs.value(m_fields[index.column()]));
    return cellText(e.reference);
}

bool DatasetTableModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!index.isValid() || role != Qt::EditRole)
        return false;
    const QString text = value.toString();
    Example edited = m_dataset.examples.at(index.row());
    const bool isReference = index.column() >= m_fields.size();
    const QString field = isReference ? QStringLiteral("reference")
                                      : QStringLiteral("inputs.") + m_fields[index.column()];
    // Text is text unless the schema wants another type and the text is that JSON.
    QString wanted;
    if (isReference) {
        wanted = m_dataset.schema.value(QStringLiteral("properties"))
                     .toObject()
                     .value(QStringLiteral("reference"))
                     .toObject()
                     .value(QStringLiteral("type"))
                     .toString();
    } else {
        wanted = m_dataset.schema.value(QStringLiteral("properties"))
                     .toObject()
                     .value(QStringLiteral("inputs"))
                     .toObject()
                     .value(QStringLiteral("properties"))
                     .toObject()
                     .value(m_fields[index.column()])
                     .toObject()
                     .value(QStringLiteral("type"))
                     .toString();
    }
    QJsonValue v = text;
    if (!wanted.isEmpty() && wanted != QLatin1String("string")) {
        const QJsonDocument doc = QJsonDocument::fromJson("[" + text.toUtf8() + "]");
        if (doc.isArray() && doc.array().size() == 1)
            v = doc.array().at(0);
    }
    if (isReference)
        edited.reference = v;
    else
        edited.inputs.insert(m_fields[index.column()], v);
    const QList<ShapeProblem> problems = m_dataset.check({edited}, index.row());
    if (!problems.isEmpty()) {
        Q_EMIT shapeProblem(problems.first());
        return false;
    }
    m_dataset.examples[index.row()] = edited;
    m_modified = true;
    Q_EMIT dataChanged(index, index);
    return true;
}

Qt::ItemFlags DatasetTableModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    return Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable;
}

QVariant DatasetTableModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, o, role);
    if (section < m_fields.size())
        return m_fields[section];
    return tr("reference");
}

bool DatasetTableModel::insertRows(int row, int count, const QModelIndex& parent)
{
    if (parent.isValid() || row < 0 || row > m_dataset.examples.size() || count < 1)
        return false;
    beginInsertRows(parent, row, row + count - 1);
    for (int i = 0; i < count; ++i) {
        Example e;
        if (row > 0)
            e = m_dataset.examples.at(row - 1);
        else if (!m_dataset.examples.isEmpty())
            e = m_dataset.examples.first();
        e.id.clear();
        e.metadata = {};
        e.ensureId();
        e.id += QStringLiteral("-new%1").arg(m_dataset.examples.size());
        m_dataset.examples.insert(row + i, e);
    }
    m_modified = true;
    endInsertRows();
    return true;
}

bool DatasetTableModel::removeRows(int row, int count, const QModelIndex& parent)
{
    if (parent.isValid() || row < 0 || count < 1 || row + count > m_dataset.examples.size())
        return false;
    beginRemoveRows(parent, row, row + count - 1);
    m_dataset.examples.remove(row, count);
    m_modified = true;
    endRemoveRows();
    return true;
}

} // namespace hako::eval
