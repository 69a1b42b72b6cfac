// The program's own values (what Try in Playground puts in the first row): plain `defs:`
// entries as the run binds them — a `data:` block as its data, a list as its items — and
// nothing for an entry the run computes.
#include "core/pdl/parser/programparser.h"
#include "core/playground/programvalues.h"

#include <QJsonArray>
#include <QTest>

using namespace hako;

namespace {

QJsonObject valuesOf(const QByteArray& text)
{
    const pdl::ParseResult parsed = pdl::parseProgramText(text, QStringLiteral("p.pdl"));
    if (!parsed.program)
        return {{QStringLiteral("parse error"), true}};
    return playground::programOwnValues(parsed.program->document.get());
}

} // namespace

class TestProgramValues : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void plainEntries()
    {
        const QJsonObject v = valuesOf("defs:\n"
                                       "  labels:\n"
                                       "    data:\n"
                                       "    - 褒め言葉\n"
                                       "    - 苦情\n"
                                       "  message: 荷物が届きません\n"
                                       "  count: 3\n"
                                       "  tags: [a, b]\n"
                                       "  record:\n"
                                       "    data: {件名: 返品, n: 2}\n"
                                       "  template:\n"
                                       "    data: \"${ not_now }\"\n"
                                       "    raw: true\n"
                                       "text: ${ message }\n");
        QCOMPARE(v.value(QStringLiteral("labels")), QJsonValue(QJsonArray{"褒め言葉", "苦情"}));
        QCOMPARE(v.value(QStringLiteral("message")),
                 QJsonValue(QStringLiteral("荷物が届きません")));
        QCOMPARE(v.value(QStringLiteral("count")), QJsonValue(3));
        QCOMPARE(v.value(QStringLiteral("tags")), QJsonValue(QJsonArray{"a", "b"}));
        QCOMPARE(v.value(QStringLiteral("record")).toObject().value(QStringLiteral("件名")),
                 QJsonValue(QStringLiteral("返品")));
        // raw: the text as written, `${` included.
        QCOMPARE(v.value(QStringLiteral("template")), QJsonValue(QStringLiteral("${ not_now }")));
        QCOMPARE(v.size(), 6);
    }

    void computedEntriesAreLeftOut()
    {
        const QJsonObject v = valuesOf("defs:\n"
                                       "  greeting: Hello ${ name }\n"
                                       "  items:\n"
                                       "    data: [1, \"${ x }\"]\n"
                                       "  reply:\n"
                                       "    model: default\n"
                                       "    input: hi\n"
                                       "  file:\n"
                                       "    read: data.txt\n"
                                       "  shown:\n"
                                       "    data: 1\n"
                                       "    def: other\n"
                                       "text: done\n");
        QVERIFY2(v.isEmpty(), qPrintable(QStringList(v.keys()).join(QLatin1Char(','))));
        QVERIFY(valuesOf("text: no defs\n").isEmpty());
        QVERIFY(playground::programOwnValues(nullptr).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestProgramValues)
#include "tst_programvalues.moc"
