// The program outline (buildOutline) and its item model.
#include "core/pdl/analysis/outline.h"
#include "core/pdl/analysis/outlinemodel.h"
#include "core/pdl/programcheck.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace hako;
using namespace hako::pdl;

namespace {

std::vector<OutlineItem> outlineOf(const QByteArray& text)
{
    const ParseResult parsed = checkProgramText(text, QStringLiteral("p.pdl"));
    if (!parsed.program)
        return {};
    return buildOutline(*parsed.program);
}

// One line per item: indentation by depth, "label [kind] line:column".
void dump(const std::vector<OutlineItem>& items, int depth, QStringList& out)
{
    for (const OutlineItem& i : items) {
        out << QStringLiteral("%1%2 [%3] %4:%5")
                   .arg(QString(depth * 2, QLatin1Char(' ')), i.label,
                        QString::fromLatin1(blockKindName(i.kind)))
                   .arg(i.span.line)
                   .arg(i.span.column);
        dump(i.children, depth + 1, out);
    }
}

QStringList dumpOf(const QByteArray& text)
{
    QStringList out;
    dump(outlineOf(text), 0, out);
    return out;
}

const QByteArray kProgram = "description: demo\n"                         // 1
                            "defs:\n"                                     // 2
                            "  greet:\n"                                  // 3
                            "    function:\n"                             // 4
                            "      name: str\n"                           // 5
                            "      times: int\n"                          // 6
                            "    return: Hello ${ name }\n"               // 7
                            "text:\n"                                     // 8
                            "- Some words to start with, and then more\n" // 9
                            "- def: answer\n"                             // 10
                            "  model: ollama/granite3.2:8b\n"             // 11
                            "- repeat:\n"                                 // 12
                            "    text:\n"                                 // 13
                            "    - ${ x }\n"                              // 14
                            "    - call: ${ greet }\n"                    // 15
                            "      args:\n"                               // 16
                            "        name: ${ x }\n"                      // 17
                            "        times: 1\n"                          // 18
                            "  for:\n"                                    // 19
                            "    x: ${ items }\n"                         // 20
                            "- if: ${ answer }\n"                         // 21
                            "  then: yes\n";                              // 22

} // namespace

class TestOutline : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void labels()
    {
        const QStringList got = dumpOf(kProgram);
        const QStringList want = {
            QStringLiteral("text \u201CSome words to start with, and\u2026\u201D [text] 1:1"),
            QStringLiteral("  greet(name, times) [function] 4:5"),
            QStringLiteral("    data \u201CHello ${ name }\u201D [data] 7:13"),
            QStringLiteral("  answer [model] 10:3"),
            QStringLiteral("  repeat for x in items [repeat] 12:3"),
            QStringLiteral("    text \u201C${ x }\u201D [text] 13:5"),
            QStringLiteral("      call greet [call] 15:7"),
            QStringLiteral("  if answer [if] 21:3"),
            QStringLiteral("    data true [data] 22:9"),
        };
        if (got != want)
            qWarning("got:\n%s", qPrintable(got.join(QLatin1Char('\n'))));
        QCOMPARE(got, want);
    }

    void details()
    {
        const auto items = outlineOf(kProgram);
        QCOMPARE(items.size(), size_t(1));
        const OutlineItem& model = items[0].children[1];
        QCOMPARE(model.name, QStringLiteral("answer"));
        QCOMPARE(model.detail, QStringLiteral("model ollama/granite3.2:8b"));
        QCOMPARE(items[0].children[0].name, QStringLiteral("greet"));
        QCOMPARE(items[0].children[0].detail, QStringLiteral("function(name, times)"));
    }

    void bareLeafAlone()
    {
        // A bare string that is the only content of its parent stays.
        const QStringList got = dumpOf("text:\n- hello\n");
        QCOMPARE(got.size(), 2);
        QVERIFY(got[1].contains(QLatin1String("hello")));
        QVERIFY(dumpOf("text:\n- hello\n- world\n").size() == 1);
    }

    void pathAt()
    {
        const auto items = outlineOf(kProgram);
        QCOMPARE(outlinePathAt(items, 11, 5), (std::vector<int>{0, 1}));
        QCOMPARE(outlinePathAt(items, 17, 15), (std::vector<int>{0, 2, 0, 0}));
        QCOMPARE(outlinePathAt(items, 20, 6), (std::vector<int>{0, 2}));
        QCOMPARE(outlinePathAt(items, 1, 1), (std::vector<int>{0}));
        QCOMPARE(outlinePathAt(items, 99, 1), (std::vector<int>{}));
    }

    void summaries()
    {
        QCOMPARE(outlineSummary(QStringLiteral("  a\n  b  ")), QStringLiteral("a b"));
        QCOMPARE(outlineSummary(QStringLiteral("abcdefgh"), 5), QStringLiteral("abcd\u2026"));
        QCOMPARE(outlineSummary(QStringLiteral("☃☃☃☃☃☃"), 3), QStringLiteral("☃☃\u2026"));
    }

    void model()
    {
        OutlineModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(m.rowCount(), 0);
        m.setOutline(outlineOf(kProgram));
        QCOMPARE(m.rowCount(), 1);
        const QModelIndex root = m.index(0, 0);
        QCOMPARE(m.rowCount(root), 4);
        const QModelIndex call = m.indexAt(15, 10);
        QVERIFY(call.isValid());
        QCOMPARE(call.data().toString(), QStringLiteral("call greet"));
        QCOMPARE(call.data(OutlineModel::LineRole).toInt(), 15);
        QCOMPARE(call.data(OutlineModel::KindRole).toString(), QStringLiteral("call"));
        QCOMPARE(call.parent().parent().data().toString(), QStringLiteral("repeat for x in items"));
        QVERIFY(!call.data(Qt::AccessibleTextRole).toString().isEmpty());
        m.setOutline(outlineOf("text: hi\n"));
        QCOMPARE(m.rowCount(), 1);
        m.clear();
        QCOMPARE(m.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestOutline)
#include "tst_outline.moc"
