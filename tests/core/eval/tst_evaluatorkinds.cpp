// The table of evaluator kinds is the one list: every kind builds from its smallest spec, every
// alias reaches its kind, and an unknown type's error lists the table.
#include "core/eval/evaluatorkind.h"
#include "core/eval/resultsmodel.h"
#include "core/pdl/model/modelprovider.h"

#include <QJsonDocument>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;
using namespace hako::eval;

namespace {

// Never called: building an evaluator only needs a provider to be there.
class IdleProvider : public models::IModelProvider {
public:
    QString id() const override { return QStringLiteral("idle"); }
    Result<models::ChatResponse> chat(const models::ChatRequest&, const models::DeltaCallback&,
                                      const CancelToken&) override
    {
        return makeError(QStringLiteral("not here"));
    }
    Result<std::vector<std::vector<float>>>
    embed(const std::string&, const std::vector<std::string>&, const CancelToken&) override
    {
        return makeError(QStringLiteral("not here"));
    }
    Result<QStringList> listModels(const CancelToken&) override { return QStringList(); }
};

} // namespace

class TestEvaluatorKinds : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyKindBuildsFromItsSmallestSpec()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString program = dir.filePath(QStringLiteral("judge.pdl"));
        QFile f(program);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("text: Y\n");
        f.close();
        QVERIFY(!evaluatorKinds().empty());
        for (const EvaluatorKind& kind : evaluatorKinds()) {
            EvaluatorSpec spec;
            spec.type = kind.name;
            spec.options = QJsonDocument::fromJson(kind.example).object();
            if (kind.needs.testFlag(EvaluatorNeed::Program))
                spec.options.insert(QStringLiteral("program"), program);
            EvaluatorContext context;
            if (kind.needs & (EvaluatorNeed::JudgeModel | EvaluatorNeed::EmbeddingModel)) {
                context.models = std::make_shared<IdleProvider>();
                context.judgeModel = QStringLiteral("judge");
                context.embeddingModel = QStringLiteral("embed");
            }
            const EvaluatorResult made = createEvaluator(spec, context);
            QVERIFY2(made.ok(), qPrintable(kind.name + QStringLiteral(": ") +
                                           (made.ok() ? QString() : made.error().message)));
            QCOMPARE((*made)->name(), kind.name);
        }
    }

    void namesAndAliasesAreUniqueAndResolve()
    {
        QSet<QString> seen;
        for (const EvaluatorKind& kind : evaluatorKinds()) {
            for (const QString& name : QStringList{kind.name} + kind.aliases) {
                QVERIFY2(!seen.contains(name), qPrintable(name));
                seen.insert(name);
                const EvaluatorKind* found = findEvaluatorKind(name);
                QVERIFY2(found, qPrintable(name));
                QCOMPARE(found->name, kind.name);
                // As a suite may spell it.
                QCOMPARE(
                    findEvaluatorKind(name.toUpper().replace(QLatin1Char('_'), QLatin1Char('-')))
                        ->name,
                    kind.name);
            }
        }
        QCOMPARE(evaluatorTypes().size(), qsizetype(evaluatorKinds().size()));
    }

    void unknownTypeListsTheTable()
    {
        EvaluatorSpec spec;
        spec.type = QStringLiteral("exactly_like");
        const EvaluatorResult made = createEvaluator(spec);
        QVERIFY(!made.ok());
        for (const EvaluatorKind& kind : evaluatorKinds())
            QVERIFY2(made.error().message.contains(kind.name), qPrintable(kind.name));
        QVERIFY(!findEvaluatorKind(QStringLiteral("exactly_like")));
    }

    void titlesComeFromTheTable()
    {
        QCOMPARE(ExperimentResultsModel::evaluatorTitle(QStringLiteral("exact_match")),
                 QStringLiteral("Same as the reference"));
        // A suite's own name is shown as written.
        QCOMPARE(ExperimentResultsModel::evaluatorTitle(QStringLiteral("tone")),
                 QStringLiteral("tone"));
        for (const EvaluatorKind& kind : evaluatorKinds())
            if (kind.offeredInForm)
                QVERIFY2(kind.title, qPrintable(kind.name));
    }

    void programsOfPdlKindsAreFoundByAlias()
    {
        EvaluatorSpec spec;
        spec.type = QStringLiteral("Custom");
        spec.options = {{QStringLiteral("program"), QStringLiteral("/tmp/judge.pdl")}};
        QCOMPARE(evaluatorPrograms({spec}), QStringList{QStringLiteral("/tmp/judge.pdl")});
    }
};

QTEST_GUILESS_MAIN(TestEvaluatorKinds)
#include "tst_evaluatorkinds.moc"
