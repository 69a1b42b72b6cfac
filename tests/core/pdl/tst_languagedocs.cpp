// Hover documentation covers the whole language, and the editor's reading of half-written YAML
// (which block encloses the cursor) is right.
#include "core/pdl/lang/completion.h"
#include "core/pdl/lang/languagedocs.h"
#include "core/pdl/lang/yamlcursor.h"
#include "core/pdl/parser/fieldtables.h"

#include <QTest>

using namespace hako::pdl;

Q_DECLARE_METATYPE(std::optional<hako::pdl::BlockKind>)

class TestLanguageDocs : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyFieldAndKindIsDocumented()
    {
        QStringList missing;
        for (int k = 0; k <= int(BlockKind::Error); ++k) {
            const auto kind = BlockKind(k);
            for (std::string_view f : kindFields(kind)) {
                const QString field = QString::fromLatin1(f.data(), qsizetype(f.size()));
                if (LanguageDocs::field(kind, field).isEmpty())
                    missing << QStringLiteral("%1/%2").arg(blockKindName(kind), field);
            }
        }
        for (std::string_view f : commonFieldNames()) {
            const QString field = QString::fromLatin1(f.data(), qsizetype(f.size()));
            if (LanguageDocs::field(std::nullopt, field).isEmpty())
                missing << field;
        }
        for (std::string_view f : kindKeywords()) {
            const QString kw = QString::fromLatin1(f.data(), qsizetype(f.size()));
            if (LanguageDocs::blockKind(kw).isEmpty())
                missing << QStringLiteral("kind %1").arg(kw);
        }
        QVERIFY2(missing.isEmpty(), qPrintable(missing.join(QLatin1String(", "))));
    }

    void kindSpecificTexts()
    {
        // `parameters` means different things in a model and a jinja code block.
        QVERIFY(LanguageDocs::field(BlockKind::Model, QStringLiteral("parameters"))
                    .contains(QLatin1String("temperature")));
        QVERIFY(LanguageDocs::field(BlockKind::Code, QStringLiteral("parameters"))
                    .contains(QLatin1String("jinja")));
        QVERIFY(LanguageDocs::field(BlockKind::Repeat, QStringLiteral("repeat"))
                    .startsWith(QLatin1String("repeat block")));
        QVERIFY(LanguageDocs::subField(QStringLiteral("join"), QStringLiteral("as"))
                    .contains(QLatin1String("lastOf")));
    }

    // What PDL gained in 2025–26 (issue 29 §2) has hover text of its own.
    void pdl2026Texts()
    {
        QVERIFY(LanguageDocs::blockKind(QStringLiteral("factor")).contains(QLatin1String("score")));
        QVERIFY(LanguageDocs::field(BlockKind::Code, QStringLiteral("scope"))
                    .contains(QLatin1String("variables the code sees")));
        QVERIFY(LanguageDocs::field(BlockKind::Code, QStringLiteral("lang"))
                    .contains(QLatin1String("ipython")));
        QVERIFY(LanguageDocs::field(std::nullopt, QStringLiteral("expectations"))
                    .contains(QLatin1String("judge")));
        QVERIFY(LanguageDocs::subField(QStringLiteral("expectations"), QStringLiteral("feedback"))
                    .contains(QLatin1String("instruction")));
    }

    void cursorContext_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<int>("position");
        QTest::addColumn<QString>("prefix");
        QTest::addColumn<QString>("parent");
        QTest::addColumn<QString>("kind");
        using P = CursorContext::Position;
        QTest::newRow("top-level key of a repeat")
            << "repeat:\n  text: hi\nma" << 3 << 3 << int(P::Key) << "ma"
            << ""
            << "repeat";
        QTest::newRow("key inside the repeat's text body") << "repeat:\n  text: hi\n  ma\n"
                                                           << 3 << 5 << int(P::Key) << "ma"
                                                           << "repeat"
                                                           << "text";
        QTest::newRow("second key of a list item")
            << "text:\n- model: m\n  pa" << 3 << 5 << int(P::Key) << "pa"
            << "text"
            << "model";
        QTest::newRow("new list item") << "text:\n- a\n- " << 3 << 3 << int(P::Key) << ""
                                       << "text"
                                       << "";
        QTest::newRow("value of model") << "model: gr" << 1 << 10 << int(P::Value) << "gr"
                                        << ""
                                        << "model";
        QTest::newRow("inside an expression after Japanese")
            << "text: \"日本 ${ pdl_con" << 1 << 21 << int(P::Expression) << "pdl_con"
            << ""
            << "";
        QTest::newRow("closed expression is a value")
            << "data: ${ x } y" << 1 << 15 << int(P::Value) << "y"
            << ""
            << "data";
        QTest::newRow("comment") << "# tex" << 1 << 6 << int(P::Other) << ""
                                 << ""
                                 << "";
        QTest::newRow("key under a join")
            << "sequence: [a]\njoin:\n  a" << 3 << 4 << int(P::Key) << "a"
            << "join"
            << "";
    }

    void cursorContext()
    {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(int, position);
        QFETCH(QString, prefix);
        QFETCH(QString, parent);
        QFETCH(QString, kind);
        const CursorContext c =
            hako::pdl::cursorContext(text.split(QLatin1Char('\n')), line, column);
        QCOMPARE(int(c.position), position);
        QCOMPARE(c.prefix, prefix);
        if (position == int(CursorContext::Position::Other) ||
            position == int(CursorContext::Position::Expression))
            return;
        QCOMPARE(c.parentKey, parent);
        QCOMPARE(c.blockKind ? QString::fromLatin1(blockKindName(*c.blockKind)) : QString(), kind);
    }

    void joinKeysComplete()
    {
        const QStringList lines = {QStringLiteral("sequence: [a]"), QStringLiteral("join:"),
                                   QStringLiteral("  ")};
        QStringList items;
        for (const CompletionItem& i : completionsAt(lines, 3, 3, nullptr, {}).items)
            items << i.text;
        QCOMPARE(items, (QStringList{QStringLiteral("as"), QStringLiteral("reduce"),
                                     QStringLiteral("with")}));
    }
};

QTEST_GUILESS_MAIN(TestLanguageDocs)
#include "tst_languagedocs.moc"
