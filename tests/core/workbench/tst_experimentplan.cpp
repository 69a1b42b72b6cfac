// The one composition point of an experiment: what it records about the prompt version it ran
// (so experiments of two versions can be told apart and compared), when an earlier experiment
// can stand in for a new one (never for an unsaved edit), and that a program overwriting the
// dataset's inputs is refused before anything runs.

#include "core/eval/evalstore.h"
#include "core/library/promptlibrary.h"
#include "core/workbench/experimentplan.h"

#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <mutex>

using namespace hako;

namespace {

// Answers every chat with "Y" (a passing verdict) and records the model each call asked for.
class Recorder : public models::IModelProvider {
public:
    QString id() const override { return QStringLiteral("recorder"); }
    Result<models::ChatResponse> chat(const models::ChatRequest& request,
                                      const models::DeltaCallback&, const CancelToken&) override
    {
        std::lock_guard lock(m_mutex);
        asked << QString::fromStdString(request.model);
        models::ChatResponse r;
        r.content = "Y";
        return r;
    }
    Result<std::vector<std::vector<float>>>
    embed(const std::string&, const std::vector<std::string>&, const CancelToken&) override
    {
        return std::vector<std::vector<float>>{};
    }
    Result<QStringList> listModels(const CancelToken&) override { return QStringList(); }
    QStringList models() const
    {
        std::lock_guard lock(m_mutex);
        return asked;
    }

private:
    mutable std::mutex m_mutex;
    QStringList asked;
};

} // namespace

class TestExperimentPlan : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_program;
    std::shared_ptr<eval::EvalStore> m_store;
    std::optional<library::PromptLibrary> m_lib;
    eval::Dataset m_dataset;

    static void write(const QString& path, const QByteArray& text)
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text);
    }

    ExperimentPlan plan(const QString& program) const
    {
        ExperimentPlan p;
        p.programPath = program;
        p.dataset = m_dataset;
        p.evaluators = {
            eval::EvaluatorSpec{QString(), QStringLiteral("exact_match"), {}, {}, {}, {}}};
        p.keepTraces = false;
        p.concurrency = 2;
        return p;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(QStringLiteral("git")).isEmpty())
            QSKIP("git is not installed");
        QVERIFY(m_dir.isValid());
        const QString folder = m_dir.filePath(QStringLiteral("library"));
        QVERIFY(QDir().mkpath(folder));
        Result<library::PromptLibrary> lib = library::PromptLibrary::create(folder);
        QVERIFY2(lib.ok(), qPrintable(lib ? QString() : lib.error().message));
        m_lib = *lib;
        m_program = folder + QStringLiteral("/answer.pdl");
        write(m_program, "# hako-prompt: 5a5a5a5a5a5a\ndescription: 答え\n"
                         "text: \"${ answer if n != 2 else 'Lyon' }\"\n");
        QVERIFY(m_lib->saveVersion(m_program, QStringLiteral("一つ目")).ok());
        write(m_program, "# hako-prompt: 5a5a5a5a5a5a\ndescription: 答え\ntext: \"${ answer }\"\n");
        QVERIFY(m_lib->saveVersion(m_program, QStringLiteral("二つ目")).ok());

        Result<std::unique_ptr<eval::EvalStore>> store =
            eval::EvalStore::open(m_dir.filePath(QStringLiteral("eval.sqlite")));
        QVERIFY(store.ok());
        m_store = std::shared_ptr<eval::EvalStore>(std::move(store).value());
        eval::Dataset d;
        d.name = QStringLiteral("都市");
        for (int i = 1; i <= 3; ++i) {
            eval::Example e;
            const QString city = QStringList{QStringLiteral("東京"), QStringLiteral("Paris"),
                                             QStringLiteral("Rome")}[i - 1];
            e.inputs = QJsonObject{{QStringLiteral("n"), i}, {QStringLiteral("answer"), city}};
            e.reference = city;
            d.examples << e;
        }
        Result<int> version = m_store->saveDataset(d);
        QVERIFY(version.ok());
        Result<eval::Dataset> stored = m_store->dataset(d.name, *version);
        QVERIFY(stored.ok());
        m_dataset = *stored;
    }

    void recordsTheVersionItRan()
    {
        // The library's own file, saved: the newest version.
        eval::ExperimentInfo own;
        describePromptVersion(m_program, own);
        QCOMPARE(own.promptId, QStringLiteral("5a5a5a5a5a5a"));
        QCOMPARE(own.promptName, QStringLiteral("答え"));
        QCOMPARE(own.promptVersion, 2);
        // A copy of version 1.
        Result<library::ResolvedPrompt> first = m_lib->get(QStringLiteral("答え@1"));
        QVERIFY(first.ok());
        Result<QString> copy = m_lib->materialize(*first);
        QVERIFY(copy.ok());
        QVERIFY(*copy != m_program);
        eval::ExperimentInfo old;
        describePromptVersion(*copy, old);
        QCOMPARE(old.promptId, own.promptId);
        QCOMPARE(old.promptVersion, 1);
        QCOMPARE(old.promptCommit, first->version.commit);

        // Composed and run: the record names the version, the results are the version's.
        Result<std::unique_ptr<ComposedExperiment>> composed = plan(*copy).compose(m_store);
        QVERIFY2(composed.ok(), qPrintable(composed ? QString() : composed.error().message));
        QCOMPARE((*composed)->info().promptVersion, 1);
        Result<QList<eval::ExampleResult>> results = (*composed)->run(CancelToken());
        QVERIFY(results.ok());
        QCOMPARE(results->size(), 3);
        int passed = 0;
        for (const eval::ExampleResult& r : *results)
            passed += r.scores.value(0).pass ? 1 : 0;
        QCOMPARE(passed, 2); // version 1 answers Lyon for Paris
        Result<eval::ExperimentInfo> stored = m_store->experiment((*composed)->info().id);
        QVERIFY(stored.ok());
        QCOMPARE(stored->promptVersion, 1);
        QCOMPARE(stored->promptCommit, first->version.commit);

        // The same version, dataset and evaluators: the finished experiment stands in.
        QCOMPARE(plan(*copy).finishedTwin(*m_store), (*composed)->info().id);
        // Other evaluators, or another version: no.
        ExperimentPlan other = plan(*copy);
        other.evaluators.first().threshold = 0.5;
        QVERIFY(other.finishedTwin(*m_store).isEmpty());
        QVERIFY(plan(m_program).finishedTwin(*m_store).isEmpty());
    }

    // The experiment form's judge model left blank means the default model (its tooltip
    // says so): the judge asks `default`, which the folder's model settings resolve as for a
    // program's `model: default`; before, composing failed with "no judge model".
    void aBlankJudgeModelIsTheDefaultModel()
    {
        auto recorder = std::make_shared<Recorder>();
        ExperimentPlan p = plan(m_program);
        p.evaluators = {eval::EvaluatorSpec{
            QString(),
            QStringLiteral("criteria"),
            QJsonObject{{QStringLiteral("criteria"), QStringLiteral("丁寧に答えている")}},
            {},
            {},
            {}}};
        p.judgeModel = QStringLiteral("  ");
        p.environment.modelProvider = recorder;
        Result<std::unique_ptr<ComposedExperiment>> composed = p.compose(m_store);
        QVERIFY2(composed.ok(), qPrintable(composed ? QString() : composed.error().message));
        Result<QList<eval::ExampleResult>> results = (*composed)->run(CancelToken());
        QVERIFY2(results.ok(), qPrintable(results ? QString() : results.error().message));
        QCOMPARE(results->size(), 3);
        const QStringList asked = recorder->models();
        QCOMPARE(asked.size(), 3);
        for (const QString& model : asked)
            QCOMPARE(model, QStringLiteral("default"));
    }

    void anUnsavedEditIsNoVersion()
    {
        const QByteArray saved = [&] {
            QFile f(m_program);
            return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
        }();
        Result<std::unique_ptr<ComposedExperiment>> composed = plan(m_program).compose(m_store);
        QVERIFY(composed.ok());
        QVERIFY((*composed)->run(CancelToken()).ok());
        QVERIFY(!plan(m_program).finishedTwin(*m_store).isEmpty());

        write(m_program, saved + "# an edit not saved as a version\n");
        eval::ExperimentInfo info;
        describePromptVersion(m_program, info);
        QCOMPARE(info.promptId, QStringLiteral("5a5a5a5a5a5a")); // still the same prompt
        QVERIFY(info.promptCommit.isEmpty());
        QCOMPARE(info.promptVersion, 0);
        QVERIFY(plan(m_program).finishedTwin(*m_store).isEmpty());
        write(m_program, saved);
    }

    void refusesAProgramThatOverwritesTheInputs()
    {
        const QString file = m_dir.filePath(QStringLiteral("sample.pdl"));
        write(file, "defs:\n  answer: サンプル\ntext: \"${ answer }\"\n");
        Result<std::unique_ptr<ComposedExperiment>> composed = plan(file).compose(m_store);
        QVERIFY(!composed.ok());
        QVERIFY2(composed.error().message.contains(QLatin1String("answer")),
                 qPrintable(composed.error().message));
        QCOMPARE(composed.error().span.line, 2);
    }
};

QTEST_GUILESS_MAIN(TestExperimentPlan)
#include "tst_experimentplan.moc"
