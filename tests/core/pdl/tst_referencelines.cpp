// The reference interpreter's error lines (core/pdl/parser/referencelines): its indentation
// table, and the path an error gets in a parsed program. The numbers are the ones IBM's
// reference prints for these programs (../shared/conformance/pdl-unit and ../pdl record them).
#include "core/pdl/parser/programparser.h"
#include "core/pdl/parser/referencelines.h"

#include <QTest>

using namespace hako::pdl;
using hako::SourceSpan;

namespace {

// A code block whose first line is a quoted scalar spanning a blank line (test_retry_*.pdl).
const QByteArray kRetry = "description: Test basic retry delay\n"
                          "text:\n"
                          "- lang: python\n"
                          "  code:\n"
                          "    text:\n"
                          "    - 'raise ValueError(''test exception'')\n"
                          "\n"
                          "      '\n"
                          "    - result = 'success'\n"
                          "retry:\n"
                          "  tries: 3\n";

const QByteArray kFor = "description: hello with bad for loop\n"
                        "defs:\n"
                        "  val:\n"
                        "    data: 42\n"
                        "for:\n"
                        "  k: ${ val }\n"
                        "repeat:\n"
                        "  hello\n";

SourceSpan at(int line, int column)
{
    SourceSpan s;
    s.file = QStringLiteral("p.pdl");
    s.line = line;
    s.column = column;
    s.endLine = line;
    s.endColumn = column + 1;
    return s;
}

} // namespace

class TstReferenceLines : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void tableFollowsIndentation()
    {
        const ReferenceLineTable table(kFor);
        QCOMPARE(table.line({"description"}), 1);
        QCOMPARE(table.line({"defs", "val", "data"}), 4);
        QCOMPARE(table.line({"for"}), 5);
        QCOMPARE(table.line({"for", "k"}), 6);
        QCOMPARE(table.line({"repeat"}), 7);
        // A path the table lacks takes its longest known prefix; none at all gives 0.
        QCOMPARE(table.line({"for", "k", "deeper", "[3]"}), 6);
        QCOMPARE(table.line({"nothing"}), 0);
        QCOMPARE(table.line({}), 0);
    }

    void blankLineInAQuotedScalarRestartsTheNesting()
    {
        // The reference's table re-enters `text:` after the blank line, so its second item is
        // numbered [0] again and overwrites the block's own entry: the block maps to line 9.
        const ReferenceLineTable table(kRetry);
        QCOMPARE(table.line({"text"}), 2);
        QCOMPARE(table.line({"text", "[0]", "lang"}), 3);
        QCOMPARE(table.line({"text", "[0]", "code", "text", "[0]"}), 6);
        QCOMPARE(table.line({"text", "[0]"}), 9);
    }

    void hyphensInKeysAreDropped()
    {
        // `max-tokens` is read as `maxtokens`, so the real key falls back to its parent.
        const ReferenceLineTable table("parameters:\n  max-tokens: 5\n  temperature: 0\n");
        QCOMPARE(table.line({"parameters", "maxtokens"}), 2);
        QCOMPARE(table.line({"parameters", "max-tokens"}), 1);
        QCOMPARE(table.line({"parameters", "temperature"}), 3);
    }

    void errorAtABlockStartIsTheBlock()
    {
        const ParseResult parsed = parseProgramText(kRetry, QStringLiteral("p.pdl"));
        QVERIFY(parsed.program);
        const std::vector<std::string> path = referenceErrorPath(*parsed.program, at(3, 3));
        QCOMPARE(path, (std::vector<std::string>{"text", "[0]"}));
        QCOMPARE(referenceErrorLine(*parsed.program, kRetry, at(3, 3)), 9);
    }

    void errorInsideAFieldIsThatField()
    {
        const ParseResult parsed = parseProgramText(kFor, QStringLiteral("p.pdl"));
        QVERIFY(parsed.program);
        // `${ val }` at line 6, column 6: the loop's variable `k`.
        QCOMPARE(referenceErrorPath(*parsed.program, at(6, 6)),
                 (std::vector<std::string>{"for", "k"}));
        QCOMPARE(referenceErrorLine(*parsed.program, kFor, at(6, 6)), 6);
        // Nothing in the document there: no line.
        QCOMPARE(referenceErrorLine(*parsed.program, kFor, at(40, 1)), 0);
    }
};

QTEST_GUILESS_MAIN(TstReferenceLines)
#include "tst_referencelines.moc"
