// Prompt identity (core/pdl/promptidentity): where ids are written, that writing them never
// changes what the YAML says (PyYAML as the oracle), that it is idempotent, and that the ids
// survive edits, moved lines and blocks inserted before.
#include "core/pdl/ast/block.h"
#include "core/pdl/parser/programparser.h"
#include "core/pdl/promptidentity.h"

#include "../playground/pyyaml.h"

#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTest>

using namespace hako;
using namespace hako::pdl;

namespace {

std::shared_ptr<const Program> parse(const QString& text)
{
    ParseResult r = parseProgramText(text.toUtf8(), QStringLiteral("/tmp/prog.pdl"));
    return r.program;
}

// The ids replaced by `ID`, so that expected texts can be written down.
QString masked(QString text)
{
    static const QRegularExpression id(QStringLiteral("hako-prompt: [0-9a-f]{12}"));
    return text.replace(id, QStringLiteral("hako-prompt: ID"));
}

// Each model block's id keyed by its model name (the generated programs name each uniquely).
QMap<QString, QString> idsByModel(const QString& text)
{
    QMap<QString, QString> out;
    const auto program = parse(text);
    if (!program)
        return out;
    const QStringList lines = text.split(QLatin1Char('\n'));
    const ProgramIdentity identity = readProgramIdentity(lines, *program, program->file);
    const std::vector<const Block*> blocks = modelBlocks(*program);
    for (size_t i = 0; i < blocks.size(); ++i)
        out.insert(
            QString::fromStdString(static_cast<const ModelBlock*>(blocks[i])->model.value.toText()),
            identity.prompts[i].id);
    return out;
}

// A model block named `m<k>` in one of several layouts, as a list item at `indent`.
QString modelItem(QRandomGenerator& rng, int k, const QString& indent)
{
    const QString name = QStringLiteral("m%1").arg(k);
    const QString in = indent + QStringLiteral("  ");
    switch (rng.bounded(7)) {
    case 0:
        return indent + QStringLiteral("- model: %1\n").arg(name);
    case 1:
        return indent +
               QStringLiteral("- def: d%1\n%2model: %3\n%2input: hello\n").arg(k).arg(in, name);
    case 2:
        return indent +
               QStringLiteral("- description: |\n%1  two lines\n%1  of text\n%1model: %2\n")
                   .arg(in, name);
    case 3:
        return indent + QStringLiteral("- {model: %1, input: hi}\n").arg(name);
    case 4:
        return indent +
               QStringLiteral("- description: >+\n%1  kept\n\n%1model: %2\n").arg(in, name);
    case 5:
        return indent + QStringLiteral("- model: %1\n%2parameters:\n%2  temperature: 0\n"
                                       "%2input:\n%2  model: %1x\n%2  input: inner\n")
                            .arg(name, in);
    default:
        return indent + QStringLiteral("- text:\n%1- plain text\n%1- model: %2\n").arg(in, name);
    }
}

QString generatedProgram(quint32 seed)
{
    QRandomGenerator rng(seed);
    QString text;
    if (rng.bounded(2))
        text += QStringLiteral("# A program\n# of tests\n\n");
    if (rng.bounded(2))
        text += QStringLiteral("description: generated %1\n").arg(seed);
    if (rng.bounded(3) == 0)
        text += QStringLiteral("defs:\n  helper:\n    model: h0\n    input: x\n");
    text += QStringLiteral("text:\n");
    const int n = 1 + int(rng.bounded(5));
    for (int k = 1; k <= n; ++k) {
        if (rng.bounded(2))
            text += QStringLiteral("- some text %1\n").arg(k);
        text += modelItem(rng, k, QString());
    }
    if (rng.bounded(4) == 0)
        text.replace(QLatin1Char('\n'), QStringLiteral("\r\n"));
    return text;
}

} // namespace

class TestPromptIdentity : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void placement_data();
    void placement();
    void readsWhatItWrites();
    void names_data();
    void names();
    void generatedKeepData();
    void survivesEdits_data();
    void survivesEdits();
    void pastedCopyGetsFreshId();
    void withoutIdsIsDerived();

private:
    bool m_pyYaml = false;
};

void TestPromptIdentity::initTestCase()
{
    m_pyYaml = testing::havePyYaml();
}

void TestPromptIdentity::placement_data()
{
    QTest::addColumn<QString>("before");
    QTest::addColumn<QString>("after");
    QTest::newRow("root model") << "model: m\ninput: hi\n"
                                << "# hako-prompt: ID\n# hako-prompt: ID\nmodel: m\ninput: hi\n";
    QTest::newRow("list item")
        << "description: p\ntext:\n- model: m\n- hello\n"
        << "# hako-prompt: ID\ndescription: p\ntext:\n# hako-prompt: ID\n- model: m\n- hello\n";
    QTest::newRow("model key below def")
        << "text:\n  - def: a\n    model: m\n"
        << "# hako-prompt: ID\ntext:\n  - def: a\n    # hako-prompt: ID\n    model: m\n";
    QTest::newRow("leading comments kept")
        << "# title\n\nmodel: m\n"
        << "# hako-prompt: ID\n# title\n\n# hako-prompt: ID\nmodel: m\n";
    QTest::newRow("nested input")
        << "model: a\ninput:\n  model: b\n"
        << "# hako-prompt: ID\n# hako-prompt: ID\nmodel: a\ninput:\n  # hako-prompt: ID\n  "
           "model: b\n";
    QTest::newRow("flow item") << "text:\n- {model: m, input: hi}\n"
                               << "# hako-prompt: ID\ntext:\n# hako-prompt: ID\n- {model: m, "
                                  "input: hi}\n";
    QTest::newRow("two on one line keep the first")
        << "text:\n- {model: a, input: {model: b}}\n"
        << "# hako-prompt: ID\ntext:\n# hako-prompt: ID\n- {model: a, input: {model: b}}\n";
    QTest::newRow("crlf") << "text:\r\n- model: m\r\n"
                          << "# hako-prompt: ID\r\ntext:\r\n# hako-prompt: ID\r\n- model: m\r\n";
    QTest::newRow("already there")
        << "# hako-prompt: 0123456789ab\ntext:\n# hako-prompt: 00000000000a\n- model: m\n"
        << "# hako-prompt: ID\ntext:\n# hako-prompt: ID\n- model: m\n";
}

void TestPromptIdentity::placement()
{
    QFETCH(QString, before);
    QFETCH(QString, after);
    const auto program = parse(before);
    QVERIFY(program);
    const QString ensured = ensurePromptIds(before, *program);
    QCOMPARE(masked(ensured), after);
    const auto again = parse(ensured);
    QVERIFY(again);
    QCOMPARE(ensurePromptIds(ensured, *again), ensured);
    if (m_pyYaml)
        QCOMPARE(testing::pyYamlLoad(ensured), testing::pyYamlLoad(before));
}

void TestPromptIdentity::readsWhatItWrites()
{
    const QString text = QStringLiteral("# hako-prompt: aaaaaaaaaaaa\n"
                                        "description: Summaries\n"
                                        "text:\n"
                                        "# hako-prompt: bbbbbbbbbbbb\n"
                                        "- model: m\n"
                                        "- def: second\n"
                                        "  # hako-prompt: cccccccccccc\n"
                                        "  model: m\n");
    const auto program = parse(text);
    QVERIFY(program);
    const QStringList lines = text.split(QLatin1Char('\n'));
    QCOMPARE(programPromptId(lines), QStringLiteral("aaaaaaaaaaaa"));
    const ProgramIdentity identity = readProgramIdentity(lines, *program, program->file);
    QCOMPARE(identity.id, QStringLiteral("aaaaaaaaaaaa"));
    QCOMPARE(identity.name, QStringLiteral("Summaries"));
    QCOMPARE(identity.prompts.size(), size_t(2));
    QCOMPARE(identity.prompts[0].id, QStringLiteral("bbbbbbbbbbbb"));
    QCOMPARE(identity.prompts[0].name, QStringLiteral("Summaries #1"));
    QCOMPARE(identity.prompts[1].id, QStringLiteral("cccccccccccc"));
    QCOMPARE(identity.prompts[1].name, QStringLiteral("second"));
    const std::vector<const Block*> blocks = modelBlocks(*program);
    QCOMPARE(blockPromptId(lines, blocks[1]->span, blocks[1]->fieldSpan("model")),
             QStringLiteral("cccccccccccc"));
    QVERIFY(isPromptId(newPromptId()));
    QVERIFY(newPromptId() != newPromptId());
}

void TestPromptIdentity::names_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("program");
    QTest::addColumn<QString>("prompt");
    QTest::newRow("descriptions") << "description: |\n  Report\n  more\ntext:\n- description: "
                                     "Sum up\n  def: s\n  model: m\n"
                                  << "/x/r.pdl"
                                  << "Report"
                                  << "Sum up";
    QTest::newRow("def") << "text:\n- def: answer\n  model: m\n"
                         << "/x/qa.pdl"
                         << "qa"
                         << "answer";
    QTest::newRow("ordinal") << "text:\n- model: m\n"
                             << ""
                             << "untitled"
                             << "untitled #1";
}

void TestPromptIdentity::names()
{
    QFETCH(QString, text);
    QFETCH(QString, file);
    QFETCH(QString, program);
    QFETCH(QString, prompt);
    const auto parsed = parse(text);
    QVERIFY(parsed);
    const ProgramIdentity identity =
        readProgramIdentity(text.split(QLatin1Char('\n')), *parsed, file);
    QCOMPARE(identity.name, program);
    QCOMPARE(identity.prompts.size(), size_t(1));
    QCOMPARE(identity.prompts[0].name, prompt);
}

void TestPromptIdentity::generatedKeepData()
{
    if (!m_pyYaml)
        QSKIP("python3 with PyYAML is not available");
    QStringList before, after;
    for (quint32 seed = 1; seed <= 150; ++seed) {
        const QString text = generatedProgram(seed);
        const auto program = parse(text);
        QVERIFY2(program, qPrintable(text));
        const QString ensured = ensurePromptIds(text, *program);
        QVERIFY2(ensured != text, qPrintable(text));
        const auto again = parse(ensured);
        QVERIFY2(again, qPrintable(ensured));
        QCOMPARE(ensurePromptIds(ensured, *again), ensured);
        const ProgramIdentity identity =
            readProgramIdentity(ensured.split(QLatin1Char('\n')), *again, again->file);
        QVERIFY(isPromptId(identity.id));
        QSet<QString> ids;
        for (const PromptIdentity& p : identity.prompts) {
            QVERIFY2(isPromptId(p.id), qPrintable(ensured));
            ids.insert(p.id);
        }
        QCOMPARE(size_t(ids.size()), identity.prompts.size());
        before << text;
        after << ensured;
    }
    QStringList errors;
    const std::optional<QJsonArray> a = testing::pyYamlLoadMany(before, &errors);
    const std::optional<QJsonArray> b = testing::pyYamlLoadMany(after);
    QVERIFY(a && b);
    for (qsizetype i = 0; i < before.size(); ++i) {
        QVERIFY2(errors[i].isEmpty(), qPrintable(errors[i]));
        QVERIFY2(a->at(i) == b->at(i), qPrintable(after[i]));
    }
}

void TestPromptIdentity::survivesEdits_data()
{
    QTest::addColumn<int>("edit");
    QTest::newRow("block inserted before") << 0;
    QTest::newRow("lines inserted before") << 1;
    QTest::newRow("text edited") << 2;
    QTest::newRow("items moved") << 3;
}

void TestPromptIdentity::survivesEdits()
{
    QFETCH(int, edit);
    for (quint32 seed = 1; seed <= 40; ++seed) {
        const QString original = generatedProgram(seed).remove(QLatin1Char('\r'));
        const QString saved = ensurePromptIds(original, *parse(original));
        const QMap<QString, QString> ids = idsByModel(saved);
        QString edited = saved;
        const qsizetype textAt = edited.indexOf(QStringLiteral("text:\n")) + 6;
        if (edit == 0)
            edited.insert(textAt, QStringLiteral("- model: new1\n- def: n\n  model: new2\n"));
        else if (edit == 1)
            edited.insert(textAt, QStringLiteral("- one\n- two\n- three\n"));
        else if (edit == 2)
            edited.replace(QStringLiteral("input: hi"), QStringLiteral("input: hello there"));
        else {
            // The last item (from its id comment, or its dash) moves to the top of the list.
            const QStringList parts = edited.mid(textAt).split(QStringLiteral("\n# hako-prompt"));
            if (parts.size() < 3)
                continue;
            const QString last = QStringLiteral("# hako-prompt") + parts.last();
            edited = edited.left(textAt) + last +
                     (last.endsWith(QLatin1Char('\n')) ? QString() : QStringLiteral("\n")) +
                     edited.mid(textAt, edited.size() - textAt - last.size() - 1) + "\n";
        }
        const auto program = parse(edited);
        QVERIFY2(program, qPrintable(edited));
        const QMap<QString, QString> now = idsByModel(edited);
        for (auto it = ids.begin(); it != ids.end(); ++it)
            QVERIFY2(now.value(it.key()) == it.value(),
                     qPrintable(it.key() + QStringLiteral(" in\n") + edited));
        const QStringList lines = edited.split(QLatin1Char('\n'));
        QCOMPARE(programPromptId(lines), programPromptId(saved.split(QLatin1Char('\n'))));
    }
}

void TestPromptIdentity::pastedCopyGetsFreshId()
{
    const QString block = QStringLiteral("# hako-prompt: 111111111111\n- def: a\n  model: m\n");
    const QString text = QStringLiteral("# hako-prompt: 000000000000\ntext:\n") + block + block;
    const auto program = parse(text);
    QVERIFY(program);
    const QStringList lines = text.split(QLatin1Char('\n'));
    const ProgramIdentity before = readProgramIdentity(lines, *program, program->file);
    QCOMPARE(before.prompts[0].id, QStringLiteral("111111111111"));
    QVERIFY(isDerivedPromptId(before.prompts[1].id));
    const QString ensured = ensurePromptIds(text, *program);
    const ProgramIdentity after =
        readProgramIdentity(ensured.split(QLatin1Char('\n')), *parse(ensured), program->file);
    QCOMPARE(after.prompts[0].id, QStringLiteral("111111111111"));
    QVERIFY(isPromptId(after.prompts[1].id));
    QVERIFY(after.prompts[1].id != after.prompts[0].id);
}

void TestPromptIdentity::withoutIdsIsDerived()
{
    const QString text = QStringLiteral("text:\n- model: a\n- model: b\n");
    const auto program = parse(text);
    const QStringList lines = text.split(QLatin1Char('\n'));
    const ProgramIdentity one = readProgramIdentity(lines, *program, QStringLiteral("/a/p.pdl"));
    const ProgramIdentity two = readProgramIdentity(lines, *program, QStringLiteral("/b/p.pdl"));
    QVERIFY(isDerivedPromptId(one.id));
    QVERIFY(isDerivedPromptId(one.prompts[1].id));
    QVERIFY(one.prompts[0].id != one.prompts[1].id);
    QVERIFY(one.id != two.id);
    QCOMPARE(one.prompts[1].id, one.id + QStringLiteral(".2"));
}

QTEST_GUILESS_MAIN(TestPromptIdentity)
#include "tst_promptidentity.moc"
