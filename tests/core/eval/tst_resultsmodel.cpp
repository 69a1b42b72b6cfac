// The results grid and dataset table models: rows pending until their result comes, scores
// with reasoning, pass and baseline deltas, the failures filter, dataset edits checked against
// the schema. Every model under QAbstractItemModelTester.

#include "core/eval/resultsmodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace hako;
using namespace hako::eval;

namespace {

QList<Example> examples(int n)
{
    QList<Example> out;
    for (int i = 0; i < n; ++i) {
        Example e;
        e.inputs = {{QStringLiteral("q"), QStringLiteral("質問%1").arg(i)}};
        e.reference = QStringLiteral("a%1").arg(i);
        e.ensureId();
        out.append(e);
    }
    return out;
}

ExampleResult result(const Example& e, int index, double score, const QString& reasoning = {})
{
    ExampleResult r;
    r.index = index;
    r.exampleId = e.id;
    r.run.output = QStringLiteral("out%1").arg(index);
    r.run.promptTokens = 10;
    r.run.completionTokens = 2;
    r.run.latencyMs = 12;
    Score s;
    s.evaluator = QStringLiteral("exact");
    s.score = score;
    s.pass = score >= 1;
    s.reasoning = reasoning;
    r.scores.append(s);
    return r;
}

} // namespace

class TestResultsModel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void resultsArriveAndFilter()
    {
        ExperimentResultsModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QList<Example> ex = examples(4);
        model.setExperiment(ex, {QStringLiteral("exact")});
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.columnCount(), 4 + 1 + 3);
        const int exact = model.columnOf(QStringLiteral("exact"));
        QCOMPARE(exact, 4);
        QCOMPARE(model.headerData(exact, Qt::Horizontal).toString(), QStringLiteral("exact"));
        QCOMPARE(model.index(2, exact).data().toString(), QStringLiteral("…"));

        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.addResults({result(ex[2], 2, 0, QStringLiteral("differs from a2")),
                          result(ex[0], 0, 1), result(ex[1], 1, 1)});
        QCOMPARE(changed.size(), 1); // rows 0–2: one contiguous run, one signal
        QCOMPARE(model.completed(), 3);
        QCOMPARE(model.index(2, exact).data().toString(), QStringLiteral("✗ 0.00"));
        QCOMPARE(model.index(2, exact).data(ExperimentResultsModel::ReasoningRole).toString(),
                 QStringLiteral("differs from a2"));
        QCOMPARE(model.index(2, exact).data(ExperimentResultsModel::PassRole).toBool(), false);
        QCOMPARE(model.index(0, exact).data(ExperimentResultsModel::PassRole).toBool(), true);
        QCOMPARE(model.index(1, ExperimentResultsModel::Output).data().toString(),
                 QStringLiteral("out1"));
        // Inputs as a person reads them, not JSON.
        QCOMPARE(model.index(1, ExperimentResultsModel::Inputs).data().toString(),
                 QStringLiteral("q: 質問1"));

        FailingResultsFilter filter;
        QAbstractItemModelTester filterTester(
            &filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
        filter.setSourceModel(&model);
        QCOMPARE(filter.rowCount(), 4);
        filter.setOnlyFailures(true);
        QCOMPARE(filter.rowCount(), 1);
        QCOMPARE(filter.index(0, 0).data().toInt(), 3); // numbered from 1
        // A target error is a failure too.
        ExampleResult broken = result(ex[3], 3, 0);
        broken.error = QStringLiteral("program failed");
        broken.scores.first().error = true;
        model.addResults({broken});
        QCOMPARE(filter.rowCount(), 2);
        QCOMPARE(model.index(3, ExperimentResultsModel::Output)
                     .data(ExperimentResultsModel::ReasoningRole)
                     .toString(),
                 QStringLiteral("program failed"));

        // Against a baseline: the change of each score.
        model.setBaseline({result(ex[0], 0, 0), result(ex[2], 2, 1)});
        QCOMPARE(model.index(0, exact).data(ExperimentResultsModel::DeltaRole).toDouble(), 1.0);
        QCOMPARE(model.index(2, exact).data(ExperimentResultsModel::DeltaRole).toDouble(), -1.0);
        QVERIFY(!model.index(1, exact).data(ExperimentResultsModel::DeltaRole).isValid());
        QCOMPARE(model.index(2, exact).data().toString(), QStringLiteral("✗ 0.00 (-1.00)"));
        QCOMPARE(model.index(2, ExperimentResultsModel::Output)
                     .data(ExperimentResultsModel::BaselineOutputRole)
                     .toString(),
                 QStringLiteral("out2"));
        // Sorting by score puts the failures first.
        filter.setOnlyFailures(false);
        filter.sort(exact, Qt::AscendingOrder);
        QCOMPARE(filter.index(0, exact).data(ExperimentResultsModel::PassRole).toBool(), false);
    }

    void datasetEditsAreChecked()
    {
        DatasetTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        Dataset d;
        d.name = QStringLiteral("numbers");
        Example a;
        a.inputs = {{QStringLiteral("text"), QStringLiteral("一")}, {QStringLiteral("n"), 1}};
        a.reference = QStringLiteral("one");
        Example b;
        b.inputs = {{QStringLiteral("text"), QStringLiteral("二")}, {QStringLiteral("n"), 2}};
        b.reference = QStringLiteral("two");
        QVERIFY(d.add({a, b}).isEmpty());
        model.setDataset(d);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), 3);
        const int n = int(model.fields().indexOf(QStringLiteral("n")));
        const int text = int(model.fields().indexOf(QStringLiteral("text")));
        QVERIFY(n >= 0 && text >= 0);
        QCOMPARE(model.index(1, n).data().toString(), QStringLiteral("2"));

        // A number where a number belongs; text where a number belongs is refused.
        QVERIFY(model.setData(model.index(0, n), QStringLiteral("10")));
        QCOMPARE(model.dataset().examples[0].inputs.value(QStringLiteral("n")).toInt(), 10);
        QSignalSpy refused(&model, &DatasetTableModel::shapeProblem);
        QVERIFY(!model.setData(model.index(0, n), QStringLiteral("ten")));
        QCOMPARE(refused.size(), 1);
        const ShapeProblem p = refused.first().first().value<ShapeProblem>();
        QCOMPARE(p.index, 0);
        QCOMPARE(p.field, QStringLiteral("inputs.n"));
        // Strings stay strings even when they look like numbers.
        QVERIFY(model.setData(model.index(1, text), QStringLiteral("3")));
        QCOMPARE(model.dataset().examples[1].inputs.value(QStringLiteral("text")).toString(),
                 QStringLiteral("3"));
        QVERIFY(model.setData(model.index(1, 2), QStringLiteral("deux")));
        QCOMPARE(model.dataset().examples[1].reference.toString(), QStringLiteral("deux"));
        QVERIFY(model.isModified());

        QVERIFY(model.insertRows(2, 1));
        QCOMPARE(model.rowCount(), 3);
        QVERIFY(model.dataset().examples[2].id != model.dataset().examples[1].id);
        QVERIFY(model.removeRows(0, 1));
        QCOMPARE(model.rowCount(), 2);
        model.markSaved(2);
        QVERIFY(!model.isModified());
        QCOMPARE(model.dataset().version, 2);
    }
};

QTEST_GUILESS_MAIN(TestResultsModel)
#include "tst_resultsmodel.moc"
