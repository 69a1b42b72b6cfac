// The Evaluation results pane: clicking a failing score shows its reasoning, the failures
// filter, the output diffed against the reference and the baseline, experiments read from a
// store off the GUI thread.

#include "core/eval/evalstore.h"
#include "core/eval/resultsmodel.h"
#include "widgets/eval/evalresultspane.h"

#include <QCheckBox>
#include <QComboBox>
#include <QJsonArray>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;
using namespace hako::eval;

namespace {

QList<Example> examples()
{
    QList<Example> out;
    const QStringList answers{QStringLiteral("東京"), QStringLiteral("Paris"),
                              QStringLiteral("Rome")};
    for (int i = 0; i < 3; ++i) {
        Example e;
        e.inputs = {{QStringLiteral("n"), i}};
        e.reference = answers[i];
        e.ensureId();
        out.append(e);
    }
    return out;
}

ExampleResult result(const Example& e, int index, const QString& output)
{
    ExampleResult r;
    r.index = index;
    r.exampleId = e.id;
    r.run.output = output;
    Score s;
    s.evaluator = QStringLiteral("exact");
    s.pass = output == e.referenceText();
    s.score = s.pass ? 1 : 0;
    s.reasoning = s.pass ? QStringLiteral("equal")
                         : QStringLiteral("the output \"%1\" differs from \"%2\"")
                               .arg(output, e.referenceText());
    r.scores.append(s);
    return r;
}

} // namespace

class TestEvalResultsPane : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void clickingAFailingScoreShowsWhy()
    {
        EvalResultsPane pane;
        pane.resize(900, 500);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        const QList<Example> ex = examples();
        pane.setResults(ex, {QStringLiteral("exact")},
                        {result(ex[0], 0, QStringLiteral("東京")),
                         result(ex[1], 1, QStringLiteral("the city of Lyon")),
                         result(ex[2], 2, QStringLiteral("Rome"))},
                        {result(ex[1], 1, QStringLiteral("the city of Paris"))});
        QVERIFY(pane.summaryLabel()->text().contains(QLatin1String("exact: mean 0.67, 2/3 pass")));
        QTableView* view = pane.resultsView();
        const int column = pane.model()->columnOf(QStringLiteral("exact"));
        const QModelIndex failing = view->model()->index(1, column);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(failing).center());
        QTRY_VERIFY(
            pane.detailView()->toPlainText().contains(QLatin1String("differs from \"Paris\"")));
        QVERIFY(pane.detailView()->toPlainText().contains(QLatin1String("fail")));

        // The output: diffed word by word against the reference and the baseline's output.
        const QModelIndex output = view->model()->index(1, ExperimentResultsModel::Output);
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(output).center());
        QTRY_VERIFY(pane.detailView()->toPlainText().contains(
            QLatin1String("the city of [-Paris-]{+Lyon+}")));

        // Failures only.
        pane.failuresOnly()->setChecked(true);
        QCOMPARE(view->model()->rowCount(), 1);
        QCOMPARE(view->model()->index(0, 0).data().toInt(), 1);
    }

    void wordDiffs_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<QString>("diff");
        QTest::newRow("word") << "the cat sat"
                              << "the dog sat"
                              << "the [-cat-]{+dog+} sat";
        QTest::newRow("same") << "同じ"
                              << "同じ"
                              << "同じ";
        QTest::newRow("cjk") << "東京都です"
                             << "京都です"
                             << "[-東-]京都です";
        QTest::newRow("added") << "a"
                               << "a b"
                               << "a{+ b+}";
    }
    void wordDiffs()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(QString, diff);
        QCOMPARE(wordDiff(a, b), diff);
    }

    void experimentsFromTheStore()
    {
        QTemporaryDir dir;
        auto opened = EvalStore::open(dir.filePath(QStringLiteral("eval.sqlite")));
        QVERIFY(opened.ok());
        std::shared_ptr<EvalStore> store = std::move(opened).value();
        Dataset d;
        d.name = QStringLiteral("capitals");
        QVERIFY(d.add(examples()).isEmpty());
        d.version = *store->saveDataset(d);
        QString firstId;
        for (int run = 0; run < 2; ++run) {
            ExperimentRunner runner(store.get());
            EvaluatorSpec spec;
            spec.name = QStringLiteral("exact");
            spec.type = QStringLiteral("exact_match");
            runner.setEvaluators({*createEvaluator(spec)});
            runner.setTarget(
                [run](const QJsonObject& inputs, const CancelToken&) -> Result<TargetOutput> {
                    TargetOutput out;
                    const int n = inputs.value(QStringLiteral("n")).toInt();
                    out.output = run == 0 || n != 2
                                     ? QStringList{QStringLiteral("東京"), QStringLiteral("Paris"),
                                                   QStringLiteral("Rome")}[n]
                                     : QStringLiteral("Milan");
                    return out;
                });
            ExperimentInfo info;
            info.name = QStringLiteral("capitals");
            info.dataset = d.name;
            info.datasetVersion = d.version;
            info.config = QJsonObject{
                {QStringLiteral("evaluators"),
                 QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("exact")}}}}};
            QVERIFY(runner.run(info, d.examples, CancelToken()).ok());
            if (run == 0)
                firstId = info.id;
        }
        EvalResultsPane pane;
        pane.setStore(store);
        pane.refresh();
        QTRY_COMPARE(pane.experimentBox()->count(), 2);
        QTRY_COMPARE(pane.model()->completed(), 3);
        // The newest (with Milan) against the first.
        pane.showExperiment(pane.experimentBox()->currentData().toString(), firstId);
        const int column = pane.model()->columnOf(QStringLiteral("exact"));
        QTRY_VERIFY(
            pane.model()->index(2, column).data(ExperimentResultsModel::DeltaRole).isValid());
        QCOMPARE(pane.model()->index(2, column).data(ExperimentResultsModel::DeltaRole).toDouble(),
                 -1.0);
        QCOMPARE(pane.baselineBox()->currentData().toString(), firstId);
    }
};

QTEST_MAIN(TestEvalResultsPane)
#include "tst_evalresultspane.moc"
