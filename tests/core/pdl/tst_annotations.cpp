// Annotations of trace nodes: the sidecar file next to a trace (round trip, no file, garbled
// content left as it is), the JSON Lines export with each block's input and output, and the
// Trace Tree's `annotated` / `score:` / `note:` words through the filter proxy.
#include "core/pdl/trace/annotations.h"
#include "core/pdl/trace/tracefilterproxy.h"
#include "core/pdl/trace/tracemodel.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace hako;
using namespace hako::pdl;

namespace {

TracePtr node(BlockKind kind, std::string id, Value result)
{
    auto n = std::make_shared<TraceNode>();
    n->kind = kind;
    n->id = std::move(id);
    n->result = std::move(result);
    n->hasResult = true;
    return n;
}

// text ├─ data "Hello" (text.0) ├─ model "Paris" (text.1.model) └─ code "42" (text.2.code)
TracePtr sampleTrace()
{
    auto root = node(BlockKind::Text, "text", Value("Hello Paris 42"));
    root->addChild("text", node(BlockKind::Data, "text.0", Value("Hello")));
    auto model = node(BlockKind::Model, "text.1.model", Value("Paris"));
    Dict message;
    message.set("role", Value("user"));
    message.set("content", Value("Capital of France?"));
    model->modelInput = Value(List{Value(std::move(message))});
    root->addChild("text", model);
    root->addChild("text", node(BlockKind::Code, "text.2.code", Value("42")));
    return root;
}

Annotation make(const QString& id, ScoreKind kind, QJsonValue value, const QString& note = {})
{
    Annotation a;
    a.nodeId = id;
    a.kind = kind;
    a.value = std::move(value);
    a.note = note;
    a.author = QStringLiteral("aiko");
    a.time = QDateTime(QDate(2026, 11, 28), QTime(9, 30, 0, 123), Qt::UTC);
    return a;
}

QStringList shownIds(const TraceFilterProxy& proxy)
{
    QStringList out;
    std::vector<QModelIndex> stack{QModelIndex()};
    while (!stack.empty()) {
        const QModelIndex p = stack.back();
        stack.pop_back();
        if (p.isValid() && proxy.matches(proxy.itemAt(p)))
            out << QString::fromStdString(proxy.itemAt(p)->node.id);
        for (int r = proxy.rowCount(p) - 1; r >= 0; --r)
            stack.push_back(proxy.index(r, 0, p));
    }
    return out;
}

} // namespace

class TestAnnotations : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void storeRoundTrip()
    {
        QTemporaryDir dir;
        const QString trace = dir.filePath(QStringLiteral("run.json"));
        Annotations notes;
        notes.insert("text.1.model", make("text.1.model", ScoreKind::Thumbs, false,
                                          QStringLiteral("Should say the capital is Paris.")));
        notes.insert("text.2.code", make("text.2.code", ScoreKind::Number, 0.75));
        notes.insert("text.0", make("text.0", ScoreKind::Label, QStringLiteral("wrong tool")));
        QVERIFY(writeAnnotations(trace, notes).ok());
        QVERIFY(QFile::exists(trace + QStringLiteral(".annotations.json")));

        Result<Annotations> read = readAnnotations(trace);
        QVERIFY2(read.ok(), qPrintable(read ? QString() : read.error().message));
        QCOMPARE(read->size(), 3);
        for (const Annotation& a : notes)
            QVERIFY2(read->value(a.nodeId) == a, qPrintable(a.nodeId));
        QCOMPARE(read->value("text.1.model").marker(), QStringLiteral("✗"));
        QCOMPARE(read->value("text.2.code").marker(), QStringLiteral("0.75"));
        QCOMPARE(read->value("text.0").marker(), QStringLiteral("wrong tool"));

        // Removing the last annotation removes the file.
        QVERIFY(writeAnnotations(trace, {}).ok());
        QVERIFY(!QFile::exists(annotationsPath(trace)));
        QVERIFY(readAnnotations(trace).ok());
        QVERIFY(readAnnotations(trace)->isEmpty());
    }

    void garbledSidecarIsAnErrorAndKept()
    {
        QTemporaryDir dir;
        const QString trace = dir.filePath(QStringLiteral("run.json"));
        const QList<QByteArray> bad = {
            "{not json", R"({"format": "something-else", "annotations": []})",
            R"({"format": "hako-annotations", "annotations": [{"node": "x", "kind": "thumbs", "value": "maybe"}]})"};
        for (const QByteArray& content : bad) {
            QFile f(annotationsPath(trace));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(content);
            f.close();
            Result<Annotations> read = readAnnotations(trace);
            QVERIFY2(!read.ok(), content.constData());
            QVERIFY(read.error().message.contains(QStringLiteral("annotations.json")));
            QVERIFY(f.open(QIODevice::ReadOnly));
            QCOMPARE(f.readAll(), content); // nothing lost
        }
    }

    void exportHasInputAndOutput()
    {
        TraceModel model;
        model.setTrace(sampleTrace(), QStringLiteral("run.json"));
        Annotations notes;
        notes.insert("text.1.model", make("text.1.model", ScoreKind::Thumbs, true, "fine"));
        notes.insert("text.2.code", make("text.2.code", ScoreKind::Number, 3));
        const QList<QByteArray> lines = exportAnnotationsJsonl(notes, model).split('\n');
        QCOMPARE(lines.size(), 3); // two lines and the final newline
        QVERIFY(lines.last().isEmpty());
        const QJsonObject first = QJsonDocument::fromJson(lines[0]).object();
        QCOMPARE(first.value("node").toString(), QStringLiteral("text.1.model"));
        QCOMPARE(first.value("output").toString(), QStringLiteral("Paris"));
        QCOMPARE(first.value("note").toString(), QStringLiteral("fine"));
        QCOMPARE(first.value("input").toArray().at(0).toObject().value("content").toString(),
                 QStringLiteral("Capital of France?"));
        const QJsonObject second = QJsonDocument::fromJson(lines[1]).object();
        QCOMPARE(second.value("node").toString(), QStringLiteral("text.2.code"));
        QVERIFY(second.value("input").isNull());
        QCOMPARE(second.value("value").toDouble(), 3.0);
    }

    void filterWords_data()
    {
        QTest::addColumn<QString>("search");
        QTest::addColumn<QStringList>("hits");
        QTest::addColumn<QStringList>("rest");
        const QStringList none;
        QTest::newRow("annotated")
            << "annotated" << QStringList{"text.0", "text.1.model", "text.2.code"} << none;
        QTest::newRow("thumbs down") << "score:down" << QStringList{"text.1.model"} << none;
        QTest::newRow("thumbs emoji") << "score:👎" << QStringList{"text.1.model"} << none;
        QTest::newRow("thumbs mark") << "score:✗" << QStringList{"text.1.model"} << none;
        QTest::newRow("number") << "score:0.75" << QStringList{"text.2.code"} << none;
        QTest::newRow("above") << "score:>0.5" << QStringList{"text.2.code"} << none;
        QTest::newRow("below") << "score:<0.5" << QStringList{} << none;
        QTest::newRow("label") << "score:Wrong" << QStringList{"text.0"} << none;
        QTest::newRow("note") << "note:PARIS" << QStringList{"text.1.model"} << none;
        QTest::newRow("with text")
            << "annotated Paris" << QStringList{"text.1.model"} << QStringList{"Paris"};
    }

    void filterWords()
    {
        QFETCH(QString, search);
        QFETCH(QStringList, hits);
        QFETCH(QStringList, rest);
        Annotations notes;
        notes.insert("text.1.model", make("text.1.model", ScoreKind::Thumbs, false,
                                          QStringLiteral("should say Paris")));
        notes.insert("text.2.code", make("text.2.code", ScoreKind::Number, 0.75));
        notes.insert("text.0", make("text.0", ScoreKind::Label, QStringLiteral("wrong")));
        QStringList words = search.split(QLatin1Char(' '));
        const AnnotationQuery query = AnnotationQuery::take(words);
        QCOMPARE(words, rest);

        TraceModel model;
        model.setTrace(sampleTrace(), QStringLiteral("run.json"));
        TraceFilterProxy proxy;
        proxy.setSourceModel(&model);
        proxy.setCriterion([&](const TraceItem* item) {
            const auto it = notes.constFind(QString::fromStdString(item->node.id));
            return query.matches(it == notes.cend() ? nullptr : &*it);
        });
        // The words left are free text, which narrows further as without annotations.
        proxy.setText(words.join(QLatin1Char(' ')));
        QCOMPARE(shownIds(proxy), hits);
        proxy.setCriterion(nullptr);
        proxy.setText(QString());
        QVERIFY(!proxy.isFiltering());
    }
};

QTEST_GUILESS_MAIN(TestAnnotations)
#include "tst_annotations.moc"
