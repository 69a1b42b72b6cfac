// The experiment form offers exactly the evaluator kinds the table marks as offered, and each
// check it offers builds an evaluator of that kind.
#include "core/eval/evaluatorkind.h"
#include "widgets/eval/experimentform.h"

#include <QCheckBox>
#include <QLineEdit>
#include <QSet>
#include <QTest>

using namespace hako;

class TestExperimentForm : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void offersExactlyTheTable()
    {
        ExperimentForm form;
        QSet<QString> offered;
        for (QCheckBox* box : form.findChildren<QCheckBox*>())
            if (eval::findEvaluatorKind(box->objectName()))
                offered.insert(box->objectName());
        QSet<QString> table;
        for (const eval::EvaluatorKind& kind : eval::evaluatorKinds())
            if (kind.offeredInForm)
                table.insert(kind.name);
        QCOMPARE(offered, table);
        for (const QString& name : table) {
            QVERIFY2(form.check(name), qPrintable(name));
            form.check(name)->setChecked(true);
        }
        // The judge check needs its criterion to count.
        for (QLineEdit* edit : form.findChildren<QLineEdit*>())
            if (edit->accessibleName() == QLatin1String("What the judge checks"))
                edit->setText(QStringLiteral("丁寧に答えている"));
        QSet<QString> chosen;
        for (const eval::EvaluatorSpec& spec : form.evaluators()) {
            const eval::EvaluatorKind* kind = eval::findEvaluatorKind(spec.type);
            QVERIFY2(kind, qPrintable(spec.type));
            chosen.insert(kind->name);
        }
        QCOMPARE(chosen, table);
    }
};

QTEST_MAIN(TestExperimentForm)
#include "tst_experimentform.moc"
