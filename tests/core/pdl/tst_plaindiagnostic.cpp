// The common mistakes of someone new to PDL, as the live check reports them, said in plain words
// with what to do — in English and, through the interface's translator, in Japanese — and fixed
// by a quick fix whose result parses and reads as intended.
#include "core/pdl/analysis/plaindiagnostic.h"
#include "core/pdl/analysis/quickfix.h"
#include "core/pdl/analysis/textfixes.h"
#include "core/pdl/check/textmistakes.h"
#include "core/pdl/parser/yamlvalue.h"
#include "core/pdl/programcheck.h"
#include "core/pdl/valuejson.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonDocument>
#include <QTest>
#include <QTranslator>

using namespace hako;
using namespace hako::pdl;

namespace {

// Japanese for the sentences, as resources/translations/hako_ja.ts has them: the test checks
// that the code asks the translator with these contexts and sources and fills the placeholders.
class TableTranslator : public QTranslator {
public:
    QHash<QString, QString> table; // "context\nsource" → translation
    QString translate(const char* context, const char* source, const char*, int) const override
    {
        return table.value(QString::fromUtf8(context) + QLatin1Char('\n') +
                           QString::fromUtf8(source));
    }
    bool isEmpty() const override { return false; }
    void add(const char* context, const char* source, const char* translation)
    {
        table.insert(QString::fromUtf8(context) + QLatin1Char('\n') + QString::fromUtf8(source),
                     QString::fromUtf8(translation));
    }
};

void addJapanese(TableTranslator& t)
{
    const char* c = "hako::pdl::PlainError";
    t.add(c, "A `${` is not closed: end it with `}`, as in `${ name }`",
          "`${` が閉じていません。`${ name }` のように `}` で閉じてください");
    t.add(c, "A `${` is not closed before “%1”: end the expression with `}`, as in `${ name }`",
          "`${` が「%1」の前で閉じていません。`${ name }` のように、式の終わりを `}` "
          "で閉じてください");
    t.add(c,
          "A colon followed by a space inside a text makes YAML read a new field: put the whole "
          "text in double quotes, as in \"お問い合わせ: 返品したい\"",
          "文章の中に「コロンと空白」があると、YAML はそこから新しい項目だと読みます。\"お問い合わ"
          "せ: 返品したい\" のように、文章全体をダブルクォートで囲んでください");
    t.add(c,
          "A `#` after a space starts a comment in YAML, so “%1” is left out of the text: put "
          "the whole text in double quotes (the quick fix does)",
          "YAML では空白のあとの `#` からがコメントになるため、「%1」が文章から抜け落ちます。"
          "文章全体をダブルクォートで囲んでください(クイック修正で囲めます)");
    t.add(c,
          "There is one `}` too many after `%1`: it would be written out in the text. Remove it "
          "(the quick fix does)",
          "`%1` のあとに `}` が 1 つ多くあり、そのまま文章に出力されます。削除してください"
          "(クイック修正で削除できます)");
    t.add(c,
          "The name in `${ }` has full-width spaces around or inside it: write it with ordinary "
          "spaces, as in `${ %1 }` (the quick fix replaces them)",
          "`${ }` の中の名前の前後または途中に全角スペースがあります。`${ %1 }` "
          "のように半角スペースで書いてください(クイック修正で置き換えられます)");
    t.add(c, " It is written `${%1}` (□ marks a full-width space).",
          " 書かれている形は `${%1}` です(□ が全角スペース)。");
    t.add(c, "`%1` is not an input or a defined name",
          "`%1` は入力でも、定義された名前でもありません");
    t.add(c, " — did you mean `%1`?", " — `%1` のことですか？");
    t.add(c,
          "`%1` is not defined in the program, so it is an input: fill it in under Inputs before "
          "a run, or give it a value in `defs:` (a quick fix adds it)",
          "`%1` はプログラムの中で定義されていないため、入力になります。実行の前に「入力」欄に値を"
          "入れるか、`defs:` で値を決めてください(クイック修正で追加できます)");
}

ProgramReport analyze(const QString& program)
{
    return analyzeProgramText(program.toUtf8(), QStringLiteral("p.pdl"));
}

const Diagnostic* firstOnLine(const ProgramReport& report, int line)
{
    for (const Diagnostic& d : report.diagnostics)
        if (d.span.line == line)
            return &d;
    return nullptr;
}

} // namespace

class TestPlainDiagnostic : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void sentences_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("mistake");
        QTest::addColumn<QString>("english");
        QTest::addColumn<QString>("japanese");
        QTest::newRow("unclosed ${")
            << QStringLiteral("defs:\n  name: 太郎\ntext:\n- \"こんにちは ${ name\"\n") << 4
            << int(Mistake::UnclosedExpression)
            << QStringLiteral("A `${` is not closed: end it with `}`, as in `${ name }`")
            << QStringLiteral("`${` が閉じていません。`${ name }` のように `}` で閉じてください");
        QTest::newRow("words after the name")
            << QStringLiteral("text:\n- こんにちは ${ 名前 さん }\n") << 2
            << int(Mistake::UnclosedExpression)
            << QStringLiteral("A `${` is not closed before “さん”: end the expression with `}`, "
                              "as in `${ name }`")
            << QStringLiteral("`${` が「さん」の前で閉じていません。`${ name }` のように、"
                              "式の終わりを `}` で閉じてください");
        QTest::newRow("stray }") << QStringLiteral("defs:\n  name: 太郎\ntext:\n- 様 ${ name }}\n")
                                 << 4 << int(Mistake::StrayBrace)
                                 << QStringLiteral("There is one `}` too many after `${ name }`: "
                                                   "it would be written out in the text. Remove "
                                                   "it (the quick fix does)")
                                 << QStringLiteral("`${ name }` のあとに `}` が 1 つ多くあり、"
                                                   "そのまま文章に出力されます。削除してください"
                                                   "(クイック修正で削除できます)");
        const QString colon = QStringLiteral(
            "A colon followed by a space inside a text makes YAML read a new field: put the "
            "whole text in double quotes, as in \"お問い合わせ: 返品したい\"");
        const QString colonJa =
            QStringLiteral("文章の中に「コロンと空白」があると、YAML はそこから新しい項目だと読み"
                           "ます。\"お問い合わせ: 返品したい\" のように、文章全体をダブルクォート"
                           "で囲んでください");
        QTest::newRow("colon in an input")
            << QStringLiteral("text:\n- model: ollama/x\n  input: 問い合わせ: 返品したい\n") << 3
            << int(Mistake::ColonInText) << colon << colonJa;
        QTest::newRow("colon in a list item")
            << QStringLiteral("text:\n- お問い合わせ: 返品したい\n") << 2
            << int(Mistake::ColonInText) << colon << colonJa;
        QTest::newRow("# in a text")
            << QStringLiteral("text:\n- def: summary\n  model: ollama/x\n  input: 色 #赤 にして\n")
            << 4 << int(Mistake::CommentInText)
            << QStringLiteral("A `#` after a space starts a comment in YAML, so “#赤 にして” is "
                              "left out of the text: put the whole text in double quotes (the "
                              "quick fix does)")
            << QStringLiteral("YAML では空白のあとの `#` からがコメントになるため、「#赤 にして」"
                              "が文章から抜け落ちます。文章全体をダブルクォートで囲んでください("
                              "クイック修正で囲めます)");
        QTest::newRow("full-width spaces")
            << QStringLiteral("defs:\n  name: 太郎\ntext:\n- \"こんにちは ${\u3000name\u3000}\"\n")
            << 4 << int(Mistake::FullWidthSpaces)
            << QStringLiteral("The name in `${ }` has full-width spaces around or inside it: "
                              "write it with ordinary spaces, as in `${ name }` (the quick fix "
                              "replaces them) It is written `${□name□}` (□ marks a full-width "
                              "space).")
            << QStringLiteral("`${ }` の中の名前の前後または途中に全角スペースがあります。`${ name "
                              "}` のように半角スペースで書いてください(クイック修正で置き換えられ"
                              "ます) 書かれている形は `${□name□}` です(□ が全角スペース)。");
        QTest::newRow("misspelt name")
            << QStringLiteral("defs:\n  name: 太郎\ntext:\n- こんにちは ${ nmae }\n") << 4
            << int(Mistake::UndefinedName)
            << QStringLiteral("`nmae` is not an input or a defined name — did you mean `name`?")
            << QStringLiteral("`nmae` は入力でも、定義された名前でもありません — `name` "
                              "のことですか？");
        QTest::newRow("an input")
            << QStringLiteral("text:\n- 質問 ${ question }\n- ok\n") << 2
            << int(Mistake::UndefinedName)
            << QStringLiteral("`question` is not defined in the program, so it is an input: "
                              "fill it in under Inputs before a run, or give it a value in "
                              "`defs:` (a quick fix adds it)")
            << QStringLiteral("`question` はプログラムの中で定義されていないため、入力になります。"
                              "実行の前に「入力」欄に値を入れるか、`defs:` で値を決めてください("
                              "クイック修正で追加できます)");
    }
    void sentences()
    {
        QFETCH(QString, program);
        QFETCH(int, line);
        QFETCH(int, mistake);
        QFETCH(QString, english);
        QFETCH(QString, japanese);
        const ProgramReport report = analyze(program);
        const Diagnostic* d = firstOnLine(report, line);
        QVERIFY2(d, "no diagnostic on the line");
        const PlainDiagnostic plain = plainDiagnostic(*d);
        QCOMPARE(int(plain.mistake), mistake);
        QCOMPARE(plain.text, english);
        QCOMPARE(plain.detail, d->message.trimmed());
        QVERIFY(!plain.text.contains(QLatin1Char('\n')));

        TableTranslator translator;
        addJapanese(translator);
        QVERIFY(QCoreApplication::installTranslator(&translator));
        const PlainDiagnostic ja = plainDiagnostic(*d);
        QCoreApplication::removeTranslator(&translator);
        QCOMPARE(ja.text, japanese);
    }

    void unknownPassesThrough()
    {
        const Diagnostic d = makeError(QStringLiteral("division by zero\n  at line 3"));
        const PlainDiagnostic plain = plainDiagnostic(d);
        QCOMPARE(int(plain.mistake), int(Mistake::None));
        QCOMPARE(plain.text, QStringLiteral("division by zero"));
        QCOMPARE(plain.detail, d.message);
        // A misspelt field name is no text with a colon.
        const ProgramReport report = analyze(QStringLiteral("text:\n- modle: x\n  input: hi\n"));
        QVERIFY(!report.diagnostics.empty());
        QCOMPARE(int(plainDiagnostic(report.diagnostics.front()).mistake), int(Mistake::None));
    }

    // ` #` then a character cuts a text; `# a comment` and quoted texts do not warn.
    void textMistakesAreWarnings_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<int>("warnings");
        QTest::addColumn<int>("column");
        QTest::newRow("hashtag in an input") << QStringLiteral("input: 色 #赤 にして\n") << 1 << 10;
        QTest::newRow("in a defs value")
            << QStringLiteral("defs:\n  x: とても #大事\ntext: ${ x }\n") << 1 << 10;
        QTest::newRow("a real comment") << QStringLiteral("input: 色  # 赤はだめ\n") << 0 << 0;
        QTest::newRow("quoted") << QStringLiteral("input: \"色 #赤\"\n") << 0 << 0;
        QTest::newRow("model field") << QStringLiteral("model: ollama/x #1\ninput: hi\n") << 0 << 0;
        QTest::newRow("stray }") << QStringLiteral("defs:\n  a: 1\ntext: \"${ a }}\"\n") << 1 << 14;
        QTest::newRow("nested braces")
            << QStringLiteral("defs:\n  a: 1\ntext: \"${ {'k': a} }\"\n") << 0 << 0;
    }
    void textMistakesAreWarnings()
    {
        QFETCH(QString, program);
        QFETCH(int, warnings);
        QFETCH(int, column);
        const ProgramReport report = analyze(program);
        QVERIFY(report.parse.program);
        const std::vector<Diagnostic> found = textMistakes(*report.parse.program, program);
        QCOMPARE(int(found.size()), warnings);
        if (warnings) {
            QCOMPARE(found.front().severity, Severity::Warning);
            QCOMPARE(found.front().span.column, column);
            // analyzeProgramText reports them too.
            QVERIFY(std::any_of(
                report.diagnostics.begin(), report.diagnostics.end(),
                [&](const Diagnostic& d) { return d.message == found.front().message; }));
        }
    }

    // Each fix: the fixed text parses without the problem and reads as the author meant.
    void fixes_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("fixed");
        QTest::addColumn<QString>("json"); ///< the fixed program as JSON
        using K = QuickFix::Kind;
        QTest::newRow("close ${ in quotes")
            << QStringLiteral("text:\n- \"こんにちは ${ name\"\n") << 2 << int(K::Close)
            << QStringLiteral("text:\n- \"こんにちは ${ name }\"\n")
            << QStringLiteral("{\"text\":[\"こんにちは ${ name }\"]}");
        QTest::newRow("close ${ at the end")
            << QStringLiteral("text:\n- こんにちは ${ name\n") << 2 << int(K::Close)
            << QStringLiteral("text:\n- こんにちは ${ name }\n")
            << QStringLiteral("{\"text\":[\"こんにちは ${ name }\"]}");
        QTest::newRow("close ${ in a | text")
            << QStringLiteral("model: m\ninput: |\n  こんにちは ${ name\n  次の行\n") << 4
            << int(K::Close)
            << QStringLiteral("model: m\ninput: |\n  こんにちは ${ name }\n  次の行\n")
            << QStringLiteral("{\"model\":\"m\",\"input\":\"こんにちは ${ name }\\n次の行\\n\"}");
        QTest::newRow("quote a colon")
            << QStringLiteral("text:\n- model: ollama/x\n  input: 問い合わせ: 返品したい\n") << 3
            << int(K::Quote)
            << QStringLiteral("text:\n- model: ollama/x\n  input: \"問い合わせ: 返品したい\"\n")
            << QStringLiteral(
                   "{\"text\":[{\"model\":\"ollama/x\",\"input\":\"問い合わせ: 返品したい\"}]}");
        QTest::newRow("quote a list item")
            << QStringLiteral("text:\n- お問い合わせ: 返品したい \"至急\"\n") << 2 << int(K::Quote)
            << QStringLiteral("text:\n- \"お問い合わせ: 返品したい \\\"至急\\\"\"\n")
            << QStringLiteral("{\"text\":[\"お問い合わせ: 返品したい \\\"至急\\\"\"]}");
        QTest::newRow("quote a #")
            << QStringLiteral("text:\n- def: s\n  model: ollama/x\n  input: 色 #赤 にして\n") << 4
            << int(K::Quote)
            << QStringLiteral("text:\n- def: s\n  model: ollama/x\n  input: \"色 #赤 にして\"\n")
            << QStringLiteral("{\"text\":[{\"def\":\"s\",\"model\":\"ollama/x\",\"input\":\"色 #赤 "
                              "にして\"}]}");
        QTest::newRow("remove the extra }")
            << QStringLiteral("defs:\n  a: 1\ntext: 値 ${ a }}\n") << 3 << int(K::RemoveBrace)
            << QStringLiteral("defs:\n  a: 1\ntext: 値 ${ a }\n")
            << QStringLiteral("{\"defs\":{\"a\":1},\"text\":\"値 ${ a }\"}");
    }
    void fixes()
    {
        QFETCH(QString, program);
        QFETCH(int, line);
        QFETCH(int, kind);
        QFETCH(QString, fixed);
        QFETCH(QString, json);
        const ProgramReport report = analyze(program);
        const Diagnostic* d = firstOnLine(report, line);
        QVERIFY2(d, "no diagnostic on the line");
        const std::vector<QuickFix> fixes = quickFixes(report, program, *d);
        QVERIFY2(!fixes.empty(), qPrintable(d->message));
        QCOMPARE(int(fixes.front().kind), kind);
        QVERIFY(!fixes.front().title.isEmpty());
        const QString result = applyQuickFix(program, fixes.front());
        QCOMPARE(result, fixed);
        const ProgramReport after = analyze(result);
        QCOMPARE(after.errorCount(), 0);
        QVERIFY(!std::any_of(after.diagnostics.begin(), after.diagnostics.end(),
                             [&](const Diagnostic& x) { return x.message == d->message; }));
        Result<YamlValue> yaml = loadYaml(result.toUtf8(), QString());
        QVERIFY(yaml.ok());
        QCOMPARE(QJsonDocument::fromVariant(toQJsonValue(yaml->toValue()).toVariant())
                     .toJson(QJsonDocument::Compact),
                 QJsonDocument::fromJson(json.toUtf8()).toJson(QJsonDocument::Compact));
    }

    // Where the author's intent is a guess, no fix is offered.
    void noGuess()
    {
        const QString program = QStringLiteral("text:\n- こんにちは ${ 名前 さん }\n");
        const ProgramReport report = analyze(program);
        QVERIFY(!report.diagnostics.empty());
        QVERIFY(textQuickFixes(report, program, report.diagnostics.front()).empty());
    }

    void doubleQuotedEscapes()
    {
        QCOMPARE(doubleQuoted(QStringLiteral("a \"b\" \\ c")),
                 QStringLiteral("\"a \\\"b\\\" \\\\ c\""));
    }
};

QTEST_GUILESS_MAIN(TestPlainDiagnostic)
#include "tst_plaindiagnostic.moc"
