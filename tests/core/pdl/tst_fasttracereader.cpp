// The fast trace reader (simdjson, no DOM) gives exactly the tolerant reader's tree, for every
// shared trace and for the odd shapes a trace file may hold (old field names, repeated
// fields, escapes, numbers at the edges); damaged or unusual input is left to the tolerant
// reader, so that what a user sees for it (the partial tree, the located message) is
// unchanged; progress and cancel.
#include "core/pdl/trace/fasttracereader.h"
#include "core/pdl/trace/jsonstring_p.h"
#include "core/pdl/trace/traceloader.h"
#include "core/pdl/trace/tracewriter.h"

#include <QDirIterator>
#include <QRandomGenerator>
#include <QtTest>

using namespace hako;
using namespace hako::pdl;

namespace {

// The first difference between two trees, or empty when they are the same (values compared
// by their JSON text, so that 0 and 0.0 differ).
QString difference(const TraceNode* a, const TraceNode* b, const QString& at)
{
    if (!a || !b)
        return a == b ? QString() : at + QStringLiteral(": one node is missing");
    auto text = [](const std::string& s) {
        return QString::fromStdString(s);
    };
    auto same = [](const Value& x, const Value& y) {
        return x.json() == y.json();
    };
    const QString where = at + QStringLiteral(" (") + text(a->id) + QStringLiteral(")");
    if (a->kind != b->kind || a->id != b->id)
        return where + QStringLiteral(": kind or id");
    if (a->span.file != b->span.file || a->span.line != b->span.line ||
        a->span.column != b->span.column || a->span.endLine != b->span.endLine ||
        a->span.endColumn != b->span.endColumn)
        return where + QStringLiteral(": location");
    if (a->def != b->def || a->description != b->description || a->contribute != b->contribute)
        return where + QStringLiteral(": def, description or contribute");
    if (a->hasResult != b->hasResult || !same(a->result, b->result))
        return where + QStringLiteral(": result ") + text(a->result.json()) +
               QStringLiteral(" vs ") + text(b->result.json());
    if (a->startNanos != b->startNanos || a->endNanos != b->endNanos || a->isLeaf != b->isLeaf)
        return where + QStringLiteral(": timing or leaf");
    if (!same(a->context, b->context) || !same(a->modelInput, b->modelInput) ||
        !same(a->usage, b->usage))
        return where + QStringLiteral(": context, input or usage");
    if (a->out != b->out || a->err != b->err || a->replayed != b->replayed ||
        a->answeredByHand != b->answeredByHand || a->error != b->error)
        return where + QStringLiteral(": output, flags or error ") + text(a->error) +
               QStringLiteral(" vs ") + text(b->error);
    if (a->exprs.size() != b->exprs.size())
        return where + QStringLiteral(": expression count");
    for (size_t i = 0; i < a->exprs.size(); ++i)
        if (a->exprs[i].first != b->exprs[i].first || !same(a->exprs[i].second, b->exprs[i].second))
            return where + QStringLiteral(": expression ") + text(a->exprs[i].first);
    if (a->defs.size() != b->defs.size())
        return where + QStringLiteral(": defs count");
    for (size_t i = 0; i < a->defs.size(); ++i) {
        if (a->defs[i].first != b->defs[i].first)
            return where + QStringLiteral(": def name");
        const QString d = difference(a->defs[i].second.get(), b->defs[i].second.get(),
                                     at + QStringLiteral("/defs/") + text(a->defs[i].first));
        if (!d.isEmpty())
            return d;
    }
    if (a->children.size() != b->children.size())
        return where + QStringLiteral(": child groups");
    for (size_t g = 0; g < a->children.size(); ++g) {
        const auto& ca = a->children[g];
        const auto& cb = b->children[g];
        if (ca.field != cb.field || ca.single != cb.single || ca.nodes.size() != cb.nodes.size())
            return where + QStringLiteral(": children of ") + text(ca.field);
        for (size_t i = 0; i < ca.nodes.size(); ++i) {
            const QString d = difference(ca.nodes[i].get(), cb.nodes[i].get(),
                                         at + QLatin1Char('/') + text(ca.field) + QLatin1Char('/') +
                                             QString::number(i));
            if (!d.isEmpty())
                return d;
        }
    }
    return {};
}

// JSON written with ' for " (readable in C++ source, and moc-friendly).
QByteArray j(const char* text)
{
    return QByteArray(text).replace('\'', '"');
}

FastTraceRead fastRead(const QByteArray& json)
{
    QByteArray padded = json;
    padded.reserve(json.size() + qsizetype(fastTraceReaderPadding()));
    return fastTraceFromJson(padded.constData(), size_t(json.size()), size_t(padded.capacity()));
}

// Holds the fast reader to the tolerant one on `json`; returns whether the fast one read it.
bool sameAsTolerant(const QByteArray& json, const QString& name)
{
    const FastTraceRead fast = fastRead(json);
    const Result<TraceLoadResult> tolerant = parseTraceDataTolerant(json, name);
    if (fast.status != FastTraceRead::Status::Done)
        return false;
    if (!tolerant.ok() || tolerant->partial) {
        qWarning("%s: the fast reader took what the tolerant one refuses", qPrintable(name));
        return false;
    }
    const QString d = difference(fast.root.get(), tolerant->root.get(), name);
    if (!d.isEmpty())
        qWarning("%s", qPrintable(d));
    return d.isEmpty();
}

QStringList sharedTraces()
{
    QStringList files;
    const QString shared = QString::fromUtf8(HAKO_SHARED_DIR);
    for (const QString& dir : QStringList{shared + QStringLiteral("/data/traces"),
                                          shared + QStringLiteral("/conformance/pdl/traces")}) {
        QDirIterator it(dir, {QStringLiteral("*.json")}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            files.append(it.next());
    }
    files.sort();
    return files;
}

} // namespace

class TestFastTraceReader : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sharedTracesReadAsTheTolerantReaderReadsThem()
    {
        const QStringList files = sharedTraces();
        if (files.isEmpty())
            QSKIP("no shared traces (../shared/data/traces, ../shared/conformance/pdl/traces)");
        int fast = 0;
        for (const QString& file : files) {
            QFile f(file);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray json = f.readAll();
            const Result<TraceLoadResult> tolerant = parseTraceDataTolerant(json, file);
            if (!tolerant.ok() || tolerant->partial)
                continue; // not a trace, or a damaged one: the tolerant reader's alone
            QVERIFY2(sameAsTolerant(json, file), qPrintable(file));
            ++fast;
        }
        qInfo("%d shared traces read by the fast reader", fast);
        QVERIFY(fast > 0);
    }

    void oddShapesReadTheSame_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<bool>("fast"); // the fast reader is expected to take it
        QTest::newRow("old names")
            << j("{'kind': 'text', 'id': 't', 'result': 'ab', 'is_leaf': false, 'timing': "
                 "{'start_nanos': 1, 'end_nanos': 2.5e3}, 'trace': {'kind': 'data', 'result': 1}, "
                 "'text': [{'kind': 'data', 'result': 'a'}, {'kind': 'for'}], 'context': [{'role': "
                 "'user', 'content': 'x'}]}")
            << true;
        QTest::newRow("modern before old")
            << j("{'kind': 'data', 'result': 1, 'id': 'old', 'pdl__result': 2, 'pdl__id': 'new', "
                 "'timing': {'start_nanos': 5}, 'pdl__timing': 7}")
            << true;
        QTest::newRow("model")
            << QByteArray(
                   j("{'kind': 'model', 'pdl__id': 'm', 'model': 'granite', 'pdl__context': "
                     "[{'role': 'user', 'content': 'hi', 'pdl__defsite': 'a'}], "
                     "'pdl__model_input': [{'role': 'user', 'content': 'hi'}], 'pdl__usage': "
                     "{'prompt_tokens': 3, 'completion_tokens': 4}, 'parameters': {'pdl__expr': "
                     "'${ p }', 'pdl__result': {'temperature': 0.5}}, 'input': {'kind': 'data', "
                     "'pdl__result': 'hi'}, 'pdl__result': 'hello'}"))
            << true;
        QTest::newRow("error block")
            << j("{'kind': 'error', 'msg': 'boom', 'pdl__id': 'e', 'program': {'kind': 'code', "
                 "'pdl__stdout': 'o', 'pdl__stderr': 'e', 'pdl__location': {'file': 'p.pdl', "
                 "'line': 3, 'column': 2, 'end_line': -1}}}")
            << true;
        QTest::newRow("error without program")
            << j("{'kind': 'text', 'text': [{'kind': 'error', 'pdl__id': 'x'}]}") << true;
        QTest::newRow("defs contribute object")
            << j("{'kind': 'object', 'defs': {'f': {'kind': 'function'}, 'n': 1}, 'contribute': "
                 "['result', {'context': {'role': 'user'}}, {}, 3], 'def': 'd', 'description': "
                 "'what', 'pdl__replayed': true, 'pdl__answered_by_hand': false, 'object': {'a': "
                 "{'kind': 'data', 'pdl__result': 1}, 'b': 2}, 'x': null}")
            << true;
        QTest::newRow("children need a block first")
            << j("{'kind': 'text', 'text': [1, {'kind': 'data'}], 'then': [{'kind': 'data'}, 2, "
                 "{'kind': 'data', 'pdl__id': 'x'}], 'y': true}")
            << true;
        QTest::newRow("repeated fields")
            << j("{'kind': 'data', 'pdl__id': 'a', 'pdl__id': 'b', 'pdl__result': 1, "
                 "'pdl__result': 2, 'text': {'kind': 'data'}, 'text': [{'kind': 'code'}], 'def': "
                 "5, 'def': 'x'}")
            << true;
        QTest::newRow("escapes")
            << j("{'kind': 'data', 'pdl\\u005fid': '\\u00e9\\ud83d\\ude00\\n\\'\\/', "
                 "'pdl__result': {'k\\u00e9y': '\\t\\\\', '\\u65e5\\u672c': '日本'}}")
            << true;
        QTest::newRow("numbers")
            << j("{'kind': 'data', 'pdl__result': [-0, 0, -1, 1.5e3, 1E2, 0.1, "
                 "18446744073709551615, 9223372036854775808, -9223372036854775808, "
                 "9223372036854775807, 2.2250738585072014e-308]}")
            << true;
        QTest::newRow("many fields") << []() -> QByteArray {
            QByteArray d = j("{'kind': 'text'");
            for (int i = 0; i < 40; ++i)
                d += ", \"f" + QByteArray::number(i % 13) +
                     "\": {\"kind\": \"data\", \"pdl__result\": " + QByteArray::number(i) + "}";
            return d + "}";
        }() << true;
        // Left to the tolerant reader (which may still read them whole).
        QTest::newRow("damage in an unused field")
            << j("{'kind': 'text', 'spec': {'a': 1 2}, 'text': [{'kind': 'data'}]}") << false;
        QTest::newRow("trailing comma")
            << j("{'kind': 'text', 'text': [{'kind': 'data'},]}") << false;
        QTest::newRow("after the trace") << j("{'kind': 'data'} x") << false;
        QTest::newRow("truncated") << j("{'kind': 'text', 'text': [{'kind': 'da") << false;
        QTest::newRow("control character")
            << QByteArray("{\"kind\": \"data\", \"pdl__result\": \"a\x01\"}") << false;
        QTest::newRow("invalid utf-8")
            << QByteArray("{\"kind\": \"data\", \"pdl__result\": \"a\xff\"}") << false;
        QTest::newRow("lone surrogate") << j("{'kind': 'data', 'pdl__result': '\\ud800'}") << false;
        QTest::newRow("huge number") << j("{'kind': 'data', 'pdl__result': 1e400}") << false;
        QTest::newRow("not a block") << j("{'a': 1}") << false;
        QTest::newRow("deep value") << []() -> QByteArray {
            return j("{'kind': 'data', 'pdl__result': ") + QByteArray(1100, '[') +
                   QByteArray(1100, ']') + "}";
        }() << false;
        QTest::newRow("deep blocks") << []() -> QByteArray {
            QByteArray d;
            for (int i = 0; i < 2100; ++i)
                d += j("{'kind': 'text', 'text': [");
            d += j("{'kind': 'data'}");
            for (int i = 0; i < 2100; ++i)
                d += "]}";
            return d;
        }() << false;
    }

    void oddShapesReadTheSame()
    {
        QFETCH(QByteArray, json);
        QFETCH(bool, fast);
        const FastTraceRead read = fastRead(json);
        QCOMPARE(read.status == FastTraceRead::Status::Done, fast);
        if (fast)
            QVERIFY(sameAsTolerant(json, QString::fromUtf8(QTest::currentDataTag())));
        // Whichever reader reads it, the public entry point gives the tolerant reader's
        // outcome: the same tree, or the same message with its location.
        const Result<TraceLoadResult> viaEntry = parseTraceData(json, QStringLiteral("t.json"));
        const Result<TraceLoadResult> tolerant =
            parseTraceDataTolerant(json, QStringLiteral("t.json"));
        QCOMPARE(viaEntry.ok(), tolerant.ok());
        if (!tolerant.ok()) {
            QCOMPARE(viaEntry.error().message, tolerant.error().message);
            QCOMPARE(viaEntry.error().span.line, tolerant.error().span.line);
            QCOMPARE(viaEntry.error().span.column, tolerant.error().span.column);
            return;
        }
        QCOMPARE(viaEntry->partial, tolerant->partial);
        QCOMPARE(viaEntry->problem.message, tolerant->problem.message);
        QCOMPARE(viaEntry->blocks, tolerant->blocks);
        const QString d = difference(viaEntry->root.get(), tolerant->root.get(), QString());
        QVERIFY2(d.isEmpty(), qPrintable(d));
    }

    void mutatedTracesReadTheSame()
    {
        // Deterministic damage to shared traces (bytes changed, removed, repeated; the file
        // cut short): whichever reader reads each, the outcome is the tolerant reader's.
        QStringList files = sharedTraces();
        if (files.isEmpty())
            QSKIP("no shared traces (../shared/data/traces, ../shared/conformance/pdl/traces)");
        QRandomGenerator random(31);
        const char pieces[][8] = {"{",     "}",   "[",  "]",    ",", ":",    "\"",   "\\",
                                  "\\u12", "1e9", "-0", "null", " ", "\x01", "\xc3", "kind"};
        int compared = 0;
        for (int round = 0; round < 400; ++round) {
            QFile f(files[int(random.bounded(qsizetype(files.size())))]);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QByteArray json = f.readAll();
            if (json.isEmpty())
                continue;
            const qsizetype at = random.bounded(json.size());
            switch (random.bounded(4)) {
            case 0:
                json.truncate(at);
                break;
            case 1:
                json.remove(at, 1 + random.bounded(8));
                break;
            case 2:
                json.insert(at, pieces[random.bounded(int(std::size(pieces)))]);
                break;
            default:
                json[at] = pieces[random.bounded(int(std::size(pieces)))][0];
                break;
            }
            const Result<TraceLoadResult> viaEntry = parseTraceData(json, QStringLiteral("t"));
            const Result<TraceLoadResult> tolerant =
                parseTraceDataTolerant(json, QStringLiteral("t"));
            const QString what = f.fileName() + QStringLiteral(" round ") + QString::number(round);
            QVERIFY2(viaEntry.ok() == tolerant.ok(), qPrintable(what));
            if (!tolerant.ok()) {
                QCOMPARE(viaEntry.error().message, tolerant.error().message);
                continue;
            }
            QCOMPARE(viaEntry->partial, tolerant->partial);
            QCOMPARE(viaEntry->problem.message, tolerant->problem.message);
            const QString d = difference(viaEntry->root.get(), tolerant->root.get(), what);
            QVERIFY2(d.isEmpty(), qPrintable(d));
            ++compared;
        }
        QVERIFY(compared > 0);
    }

    void progressAndCancelWhileReadingFast()
    {
        // About 3 MB of blocks: progress in bytes of the data, in order, about every megabyte.
        QByteArray json = j("{'kind': 'text', 'text': [");
        for (int i = 0; i < 30000; ++i)
            json += (i ? ", " : "") + j("{'kind': 'data', 'pdl__id': 'text.") +
                    QByteArray::number(i) + j("', 'pdl__result': 'some text of the block'}");
        json += "]}";
        json.reserve(json.size() + qsizetype(fastTraceReaderPadding()));
        QList<qint64> seen;
        const FastTraceRead read =
            fastTraceFromJson(json.constData(), size_t(json.size()), size_t(json.capacity()),
                              [&](qint64 done, qint64 total) {
                                  QCOMPARE(total, qint64(json.size()));
                                  seen.append(done);
                              });
        QCOMPARE(read.status, FastTraceRead::Status::Done);
        QCOMPARE(read.root->children.front().nodes.size(), size_t(30000));
        QVERIFY(seen.size() >= 2);
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        CancelToken cancel;
        const FastTraceRead stopped = fastTraceFromJson(
            json.constData(), size_t(json.size()), size_t(json.capacity()),
            [&](qint64, qint64) { cancel.cancel(); }, cancel);
        QCOMPARE(stopped.status, FastTraceRead::Status::Cancelled);
    }

    // Whether a string's raw JSON needs unescaping, read a word at a time, says what a byte at a
    // time says: each special byte at each place of strings of every length up to 40, among
    // ordinary, UTF-8 and DEL bytes.
    void needsUnescapeAgreesWithEachByte()
    {
        auto oneByOne = [](std::string_view raw) {
            for (const char c : raw)
                if (c == '\\' || static_cast<unsigned char>(c) < 0x20)
                    return true;
            return false;
        };
        const std::string fills[] = {"a", "\xe3\x81\x82", "\x7f", "\xff", "!", "[", "]", "]\x80"};
        const char specials[] = {'\\',   '\0',   '\n',   '\x1f', ' ',
                                 '\x7f', '\x80', '\xdc', '\x5b', '\x5d'};
        int checked = 0;
        for (const std::string& fill : fills) {
            for (size_t length = 0; length <= 40; ++length) {
                std::string base;
                while (base.size() < length)
                    base += fill;
                base.resize(length);
                QCOMPARE(jsonStringNeedsUnescape(base), oneByOne(base));
                for (size_t at = 0; at < length; ++at) {
                    for (char c : specials) {
                        std::string s = base;
                        s[at] = c;
                        QCOMPARE(jsonStringNeedsUnescape(s), oneByOne(s));
                        ++checked;
                    }
                }
            }
        }
        QVERIFY(checked > 10000);
        QVERIFY(jsonStringNeedsUnescape(std::string(37, 'x') + "\\"));
        QVERIFY(!jsonStringNeedsUnescape(std::string(37, 'x') + "\x20"));
    }

    void repeatedStringsAreShared()
    {
        // A context repeated in every model block (as the reference records it) is held once:
        // a 1 GB reference trace holds mostly such repeats.
        QByteArray json = j("{'kind': 'text', 'text': [");
        const QByteArray context =
            j("[{'role': 'user', 'content': '") + QByteArray(1000, 'x') + j("'}]");
        for (int i = 0; i < 3; ++i)
            json += (i ? ", " : "") + j("{'kind': 'model', 'pdl__context': ") + context + "}";
        json += "]}";
        const FastTraceRead read = fastRead(json);
        QCOMPARE(read.status, FastTraceRead::Status::Done);
        const auto& nodes = read.root->children.front().nodes;
        const std::string& a =
            nodes[0]->context.asList().front().asDict().find("content")->asString();
        const std::string& b =
            nodes[2]->context.asList().front().asDict().find("content")->asString();
        QCOMPARE(a.size(), size_t(1000));
        QCOMPARE(static_cast<const void*>(a.data()), static_cast<const void*>(b.data()));
        // The message itself, too.
        QCOMPARE(&nodes[0]->context.asList().front().asDict(),
                 &nodes[2]->context.asList().front().asDict());
    }
};

QTEST_GUILESS_MAIN(TestFastTraceReader)
#include "tst_fasttracereader.moc"
