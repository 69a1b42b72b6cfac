// Hostile and broken program files: alias bombs, absurd nesting, binary and non-UTF-8 bytes,
// deeply nested expressions and JSON. Each must end in a clear error with a location, without
// crashing, overflowing the stack or eating the machine's memory.
#include "core/pdl/expr/expression.h"
#include "core/pdl/parser/programparser.h"
#include "core/pdl/parser/yamlvalue.h"
#include "core/pdl/programcheck.h"
#include "core/pdl/value.h"

#include <QtTest>

#include <nlohmann/json.hpp>

using namespace hako;
using namespace hako::pdl;

namespace {

// The first error of checking `text` as a program named t.pdl, or an empty diagnostic.
Diagnostic firstError(const QByteArray& text)
{
    ParseResult r = checkProgramText(text, QStringLiteral("t.pdl"));
    for (const Diagnostic& d : r.diagnostics)
        if (d.severity == Severity::Error)
            return d;
    return {};
}

// The classic "billion laughs": each anchor aliases the previous one ten times, so the last
// alias would expand to 10^levels strings.
QByteArray aliasBomb(int levels)
{
    QByteArray y = "defs:\n  l0: &l0 [lol]\n";
    for (int i = 1; i <= levels; ++i) {
        y += "  l" + QByteArray::number(i) + ": &l" + QByteArray::number(i) + " [";
        for (int k = 0; k < 10; ++k)
            y += (k ? ", *l" : "*l") + QByteArray::number(i - 1);
        y += "]\n";
    }
    y += "text: done\n";
    return y;
}

} // namespace

class TestBadInput : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aliasBombIsRefused()
    {
        const Diagnostic d = firstError(aliasBomb(9)); // 10^9 nodes if expanded
        QVERIFY2(d.message.contains(QLatin1String("alias")), qPrintable(d.message));
        QCOMPARE(d.span.file, QStringLiteral("t.pdl"));
        // The alias that crosses the limit: l6 expands to 10^6 nodes, past 1,000,000 in total.
        QVERIFY2(d.span.line >= 6 && d.span.line <= 11, qPrintable(d.toString()));
        QVERIFY(d.span.column > 1);
    }

    void modestAliasesStillWork()
    {
        // Aliases are legitimate YAML: a few small ones must load, expanded.
        Result<YamlValue> y =
            loadYaml("base: &b {model: m, parameters: {t: 0}}\nother: *b\nlist: [*b, *b]\n",
                     QStringLiteral("a.yaml"));
        QVERIFY(y.ok());
        QCOMPARE(y->value("list")->items().size(), size_t(2));
        QCOMPARE(y->value("other")->value("model")->scalar().asString(), std::string("m"));
    }

    void deepNesting_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("line");
        const int n = 100000;
        QTest::newRow("100,000 flow sequences") << QByteArray(n, '[') + QByteArray(n, ']') + "\n"
                                                << 1;
        QByteArray maps;
        for (int i = 0; i < n; ++i)
            maps += "{text: ";
        maps += "x" + QByteArray(n, '}') + "\n";
        QTest::newRow("100,000 nested text blocks (flow)") << maps << 1;
        QByteArray dashes = "# a comment first\n";
        for (int i = 0; i < n; ++i)
            dashes += "- ";
        dashes += "x\n";
        QTest::newRow("100,000 nested block sequences on one line") << dashes << 2;
        QTest::newRow("unclosed brackets") << QByteArray(n, '[') + "\n" << 1;
    }

    void deepNesting()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        const Diagnostic d = firstError(text);
        QVERIFY2(d.message.contains(QLatin1String("nest")) ||
                     d.message.contains(QLatin1String("deep")),
                 qPrintable(d.message));
        QCOMPARE(d.span.file, QStringLiteral("t.pdl"));
        QCOMPARE(d.span.line, line);
        QVERIFY(d.span.column >= 1);
    }

    void reasonableNestingParses()
    {
        // 190 nested text blocks (380 YAML levels): deep for a person, inside the limit.
        QByteArray text;
        for (int i = 0; i < 190; ++i)
            text += "{text: [";
        text += "x";
        for (int i = 0; i < 190; ++i)
            text += "]}";
        ParseResult r = checkProgramText(text + "\n", QStringLiteral("t.pdl"));
        QVERIFY(r.ok());
        QVERIFY(r.program);
    }

    void encoding_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<int>("offset");
        QTest::addColumn<QString>("what");
        QTest::newRow("Latin-1 byte on line 3")
            << QByteArray("text:\n- hello\n- caf\xE9\n") << 3 << 6 << 19 << "0xE9";
        QTest::newRow("NUL byte: binary") << QByteArray("text: a\x00"
                                                        "b\n",
                                                        10)
                                          << 1 << 8 << 7 << "NUL";
        QTest::newRow("overlong encoding of '/'")
            << QByteArray("a: \xC0\xAF\n") << 1 << 4 << 3 << "0xC0";
        QTest::newRow("UTF-16 surrogate encoded in UTF-8")
            << QByteArray("a: \xED\xA0\x80\n") << 1 << 4 << 3 << "0xED";
        QTest::newRow("sequence cut at the end of the file")
            << QByteArray("a: \xE3\x81") << 1 << 4 << 3 << "0xE3";
        QTest::newRow("after multi-byte text, columns count characters")
            << QByteArray("a: 日本\xFF\n") << 1 << 6 << 9 << "0xFF";
        QTest::newRow("a PNG header") << QByteArray("\x89PNG\r\n\x1A\n") << 1 << 1 << 0 << "0x89";
    }

    void encoding()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(int, offset);
        QFETCH(QString, what);
        QCOMPARE(firstInvalidUtf8(text), qsizetype(offset));
        ParseResult r = parseProgramText(text, QStringLiteral("prog.pdl"));
        QVERIFY(!r.ok());
        QCOMPARE(r.diagnostics.size(), size_t(1));
        const Diagnostic& d = r.diagnostics.front();
        QVERIFY2(d.message.contains(QLatin1String("prog.pdl is not a UTF-8 text file")),
                 qPrintable(d.message));
        QVERIFY2(d.message.contains(what), qPrintable(d.message));
        QVERIFY2(d.message.contains(QStringLiteral("byte offset %1").arg(offset)),
                 qPrintable(d.message));
        QCOMPARE(d.span.line, line);
        QCOMPARE(d.span.column, column);
    }

    void validUtf8IsAccepted_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("byte order mark") << QByteArray("\xEF\xBB\xBFtext: hello\n");
        QTest::newRow("Japanese, emoji, the last code point")
            << QByteArray("text: 白鳥の停車場 🚂 \xF4\x8F\xBF\xBF\n");
        QTest::newRow("empty file") << QByteArray();
    }

    void validUtf8IsAccepted()
    {
        QFETCH(QByteArray, text);
        QCOMPARE(firstInvalidUtf8(text), qsizetype(-1));
        ParseResult r = parseProgramText(text, QStringLiteral("ok.pdl"));
        QVERIFY(r.ok());
    }

    void fileOnDiskIsNamed()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("latin1.pdl"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("description: r\xE9sum\xE9\ntext: x\n");
        f.close();
        ParseResult r = checkProgram(path);
        QVERIFY(!r.ok());
        QVERIFY(r.diagnostics.front().message.contains(path));
        QVERIFY(r.diagnostics.front().toString().startsWith(path + QStringLiteral(":1:15:")));
    }

    void deepExpressions_data()
    {
        QTest::addColumn<QByteArray>("expr");
        const int n = 100000;
        QTest::newRow("parentheses") << QByteArray(n, '(') + "1" + QByteArray(n, ')');
        QTest::newRow("list brackets") << QByteArray(n, '[') + QByteArray(n, ']');
        QTest::newRow("dict braces")
            << QByteArray("{\"a\": ").repeated(n) + "1" + QByteArray(n, '}');
        QTest::newRow("unary minus") << QByteArray(n, '-') + "1";
        QTest::newRow("not chain") << QByteArray("not ").repeated(n) + "x";
        QTest::newRow("long sum") << QByteArray("1 + ").repeated(n) + "1";
        QTest::newRow("power chain") << QByteArray("2 ** ").repeated(n) + "1";
        QTest::newRow("attribute chain") << "x" + QByteArray(".a").repeated(n);
        QTest::newRow("filter chain") << "x" + QByteArray("|trim").repeated(n);
        QTest::newRow("conditional chain") << QByteArray("1 if x else ").repeated(n) + "2";
        QTest::newRow("nested calls") << QByteArray("f(").repeated(n) + QByteArray(n, ')');
    }

    void deepExpressions()
    {
        QFETCH(QByteArray, expr);
        const std::string tpl = "${ " + expr.toStdString() + " }";
        std::optional<Diagnostic> d = checkTemplate(tpl);
        // Either refused with a position, or (short chains) accepted: never a crash.
        if (d) {
            QVERIFY2(d->message.contains(QLatin1String("deep")) ||
                         d->message.contains(QLatin1String("nest")),
                     qPrintable(d->message));
            QCOMPARE(d->span.line, 1);
            QVERIFY(d->span.column > 1);
        }
        // The same through a program, as `hako check` sees it.
        const Diagnostic pd = firstError("text: '" + QByteArray::fromStdString(tpl) + "'\n");
        QCOMPARE(pd.message.isEmpty(), !d.has_value());
        if (d)
            QCOMPARE(pd.span.line, 1);
    }

    void deepJsonIsAnError()
    {
        const std::string deep = std::string(100000, '[') + std::string(100000, ']');
        const auto j = nlohmann::json::parse(deep, nullptr, false);
        QVERIFY(!j.is_discarded());
        QVERIFY_THROWS_EXCEPTION(EvalError, Value::fromJson(j));
        const std::string ok = std::string(500, '[') + std::string(500, ']');
        Value v = Value::fromJson(nlohmann::json::parse(ok));
        QVERIFY(v.isList());
    }

    // --- sizes a template asks for: bounded like repetition (2^27), never gigabytes ---------

    void hugeWidthsAreRefused_data()
    {
        QTest::addColumn<QString>("tpl");
        QTest::newRow("%d width") << QStringLiteral("${ '%999999999d' % 1 }");
        QTest::newRow("%s width") << QStringLiteral("${ '%999999999s' % 'x' }");
        QTest::newRow("%f precision") << QStringLiteral("${ '%.999999999f' % 1.5 }");
        QTest::newRow("%*d width") << QStringLiteral("${ '%*d' % (999999999, 1) }");
        QTest::newRow("%d width past int64")
            << QStringLiteral("${ '%99999999999999999999999d' % 1 }");
        QTest::newRow("format width") << QStringLiteral("${ '{:>999999999}'.format(1) }");
        QTest::newRow("format precision") << QStringLiteral("${ '{:.999999999f}'.format(1.5) }");
        QTest::newRow("format filter") << QStringLiteral("${ '%999999999d'|format(1) }");
        QTest::newRow("center method") << QStringLiteral("${ 'x'.center(999999999) }");
        QTest::newRow("center filter") << QStringLiteral("${ 'x'|center(999999999) }");
        QTest::newRow("ljust") << QStringLiteral("${ 'x'.ljust(999999999) }");
        QTest::newRow("rjust") << QStringLiteral("${ 'x'.rjust(999999999, '*') }");
        QTest::newRow("zfill") << QStringLiteral("${ '1'.zfill(999999999) }");
        QTest::newRow("lipsum paragraphs") << QStringLiteral("${ lipsum(999999999) }");
        QTest::newRow("lipsum words") << QStringLiteral("${ lipsum(1, max=999999999) }");
    }

    void hugeWidthsAreRefused()
    {
        QFETCH(QString, tpl);
        MapScope scope;
        const auto r = evaluateTemplate(tpl.toStdString(), scope);
        QVERIFY2(!r.ok(), "a result of gigabytes was built");
        QVERIFY2(r.error().message.contains(QLatin1String("too large")),
                 qPrintable(r.error().message));
    }

    void modestWidthsStillWork_data()
    {
        QTest::addColumn<QString>("tpl");
        QTest::addColumn<QString>("expected");
        QTest::newRow("%5d") << QStringLiteral("${ '%5d' % 1 }") << QStringLiteral("    1");
        QTest::newRow("%-3s|") << QStringLiteral("${ '%-3s|' % 'x' }") << QStringLiteral("x  |");
        QTest::newRow("format") << QStringLiteral("${ '{:>4}'.format(1) }")
                                << QStringLiteral("   1");
        QTest::newRow("center") << QStringLiteral("${ 'x'.center(5, '*') }")
                                << QStringLiteral("**x**");
        QTest::newRow("zfill") << QStringLiteral("${ '-1'.zfill(4) }") << QStringLiteral("-001");
        QTest::newRow("lipsum") << QStringLiteral(
                                       "${ lipsum(1, html=False, min=3, max=3).split() | length }")
                                << QStringLiteral("3");
    }

    void modestWidthsStillWork()
    {
        QFETCH(QString, tpl);
        QFETCH(QString, expected);
        MapScope scope;
        const auto r = evaluateTemplate(tpl.toStdString(), scope);
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
        QCOMPARE(QString::fromStdString(r->str()), expected);
    }

    // --- YAML ------------------------------------------------------------------------------

    void unterminatedQuoteIsAnError_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::newRow("single, at the end") << QByteArray("text: 'Hello\n") << 1 << 7;
        QTest::newRow("double, at the end") << QByteArray("text: \"Hello") << 1 << -1;
        QTest::newRow("single, before other keys")
            << QByteArray("defs:\n  x: 1\ntext: 'Hello\nmodel: m\n") << 3 << 7;
        QTest::newRow("escaped closing quote") << QByteArray("text: \"a\\\"\n") << 1 << 7;
    }

    void unterminatedQuoteIsAnError()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, line);
        QFETCH(int, column);
        Result<YamlValue> r = loadYaml(text, QStringLiteral("t.pdl"));
        QVERIFY2(!r.ok(), "an unterminated quoted scalar was taken as a value");
        QVERIFY2(r.error().message.contains(QLatin1String("never closed")) ||
                     r.error().message.contains(QLatin1String("closing quote is missing")),
                 qPrintable(r.error().message));
        QCOMPARE(r.error().span.line, line);
        if (column > 0) // else at the end of the file, where the quote is found missing
            QCOMPARE(r.error().span.column, column);
    }

    void quotedScalarsFoldAsPyYaml()
    {
        // PyYAML: a line break folds to a space, n empty lines to n newlines, and a scalar of
        // only breaks keeps them ('\n\n  ' is "\n").
        const auto value = [](const QByteArray& text) {
            Result<YamlValue> r = loadYaml("a: " + text + "\n", QStringLiteral("t.pdl"));
            return r.ok() ? QString::fromStdString(r->value("a")->scalar().asString())
                          : QStringLiteral("ERROR ") + r.error().message;
        };
        QCOMPARE(value("'\n\n  '"), QStringLiteral("\n"));
        QCOMPARE(value("'x\n  y'"), QStringLiteral("x y"));
        QCOMPARE(value("'x\n\n  y'"), QStringLiteral("x\ny"));
        QCOMPARE(value("\"x \\\n  y\""), QStringLiteral("x y"));
        QCOMPARE(value("\"a\\x41\\u00e9\\t\""), QStringLiteral("aA\u00e9\t"));
    }

    void mappingWithManyKeys()
    {
        // The duplicate-key check compared every key with every other one.
        constexpr int kKeys = 300000;
        QByteArray text;
        text.reserve(kKeys * 16);
        for (int i = 0; i < kKeys; ++i)
            text += "k" + QByteArray::number(i) + ": " + QByteArray::number(i) + "\n";
        Result<YamlValue> r = loadYaml(text, QStringLiteral("t.pdl"));
        QVERIFY(r.ok());
        QCOMPARE(int(r->entries().size()), kKeys);
        QCOMPARE(r->entries().back().name, "k" + std::to_string(kKeys - 1));
        Result<YamlValue> dup = loadYaml(text + "k7: again\n", QStringLiteral("t.pdl"));
        QVERIFY(!dup.ok());
        QVERIFY(dup.error().message.contains(QLatin1String("duplicate key 'k7'")));
        QCOMPARE(dup.error().span.line, kKeys + 1);
        // Keys Python tells apart are not duplicates.
        QVERIFY(loadYaml("1: a\n'1': b\n", QStringLiteral("t.pdl")).ok());
    }

    void templateWithManyExpressions()
    {
        // The template splitter searched for the next comment from every `${ }`.
        constexpr int kTemplates = 200000;
        std::string tpl;
        for (int i = 0; i < kTemplates; ++i)
            tpl += "${ 1 }";
        MapScope scope;
        const auto r = evaluateTemplate(tpl, scope);
        QVERIFY(r.ok());
        QCOMPARE(r->asString(), std::string(kTemplates, '1'));
    }
};

QTEST_GUILESS_MAIN(TestBadInput)
#include "tst_badinput.moc"
