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
#include <QRegularExpression>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

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
        QTRY_VERIFY(pane.detailView()->toPlainText().contains(QLatin1String("Example 2")));
        // In colour, as the playground shows it: the baseline's word struck through on red, the
        // new one on green; the inputs as `name: value`, not JSON.
        const QString html = pane.detailView()->toHtml();
        QVERIFY2(html.contains(QRegularExpression(QStringLiteral("line-through[^>]*>Paris<"))),
                 qPrintable(html));
        QVERIFY(html.contains(QRegularExpression(QStringLiteral("#ccffd8[^>]*>Lyon<"))));
        QVERIFY(pane.detailView()->toPlainText().contains(QLatin1String("n:\n1")));

        // Failures only.
        pane.failuresOnly()->setChecked(true);
        QCOMPARE(view->model()->rowCount(), 1);
        // Numbered from 1, as a person counts: the second example is #2.
        QCOMPARE(view->model()->index(0, 0).data().toInt(), 2);
    }

    // Headers and summaries use the names the experiment form uses, the technical name on
    // hover; inputs read as `name: value`.
    void plainNames()
    {
        ExperimentResultsModel model;
        Example e;
        e.inputs = {{QStringLiteral("question"), QStringLiteral("返品\nしたい")},
                    {QStringLiteral("tags"), QJsonArray{QStringLiteral("a")}}};
        e.reference = QStringLiteral("x");
        model.setExperiment({e}, {QStringLiteral("exact_match"), QStringLiteral("mine")}, {});
        const int exact = ExperimentResultsModel::FixedColumns;
        QCOMPARE(model.headerData(exact, Qt::Horizontal).toString(),
                 QStringLiteral("Same as the reference"));
        QVERIFY(model.headerData(exact, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QLatin1String("exact_match")));
        QCOMPARE(model.headerData(exact + 1, Qt::Horizontal).toString(), QStringLiteral("mine"));
        QCOMPARE(model.index(0, ExperimentResultsModel::Inputs).data().toString(),
                 QStringLiteral("question: 返品 ⏎ したい · tags: [\"a\"]"));
        QCOMPARE(model.index(0, ExperimentResultsModel::Index).data().toInt(), 1);
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
