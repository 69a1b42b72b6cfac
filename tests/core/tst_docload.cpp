// Opening documents: encodings, binary refusal, undecodable bytes, Aozora header and footer.
#include "core/docs/document.h"

#include <QStringEncoder>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;
using namespace hako::docs;

class TestDocLoad : public QObject {
    Q_OBJECT

    static QString sample()
    {
        return QStringLiteral("銀河鉄道の夜\r\nジョバンニは走りました。カムパネルラも。\r\n"
                              "「もうじき白鳥の停車場だねえ。」\r\nＡＢＣ　ｱｲｳ\r\n");
    }

private Q_SLOTS:
    void encodings_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("encoding");
        const QString text = sample().repeated(20); // enough text for detection
        QTest::newRow("utf8") << text.toUtf8() << "UTF-8";
        QTest::newRow("utf8-bom") << QByteArray("\xEF\xBB\xBF") + text.toUtf8() << "UTF-8";
        auto encode = [&](const char* name) {
            QStringEncoder e(name);
            return QByteArray(e.encode(text));
        };
        QTest::newRow("sjis") << encode("Shift_JIS") << "Shift_JIS (CP932)";
        QTest::newRow("eucjp") << encode("EUC-JP") << "EUC-JP";
        QTest::newRow("utf16le-bom") << QByteArray("\xFF\xFE") + encode("UTF-16LE") << "UTF-16LE";
        QTest::newRow("utf16be-bom") << QByteArray("\xFE\xFF") + encode("UTF-16BE") << "UTF-16BE";
        QTest::newRow("utf16le") << encode("UTF-16LE") << "UTF-16LE";
        QTest::newRow("ascii-letters")
            << QByteArray("abcdefghijklmnopqrstuvwxyz").repeated(40) << "UTF-8";
    }
    void encodings()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, encoding);
        const Result<Document> doc = decodeDocument(bytes, QStringLiteral("x.txt"));
        QVERIFY2(doc.ok(), doc.ok() ? "" : qPrintable(doc.error().message));
        QCOMPARE(doc->encoding().toUpper(), encoding.toUpper());
        if (QString::fromLatin1(QTest::currentDataTag()) == QLatin1String("ascii-letters"))
            return;
        QCOMPARE(doc->text(), sample().repeated(20));
        QCOMPARE(doc->lineCount(), 80);
        QCOMPARE(doc->lineText(3).toString(), QStringLiteral("「もうじき白鳥の停車場だねえ。」"));
        QVERIFY(doc->warnings().isEmpty());
    }

    void binaryRefused()
    {
        QByteArray bytes("\x7F"
                         "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0",
                         16);
        bytes += QByteArray(2000, '\0');
        const Result<Document> doc = decodeDocument(bytes, QStringLiteral("a.out"));
        QVERIFY(!doc.ok());
        QVERIFY(doc.error().message.contains(QStringLiteral("binary")));
    }

    void undecodableBytesWarn()
    {
        QByteArray bytes = QStringLiteral("ジョバンニ\n").repeated(40).toUtf8();
        bytes += "bad \xFF\xFE here\n";
        const Result<Document> doc =
            decodeDocument(bytes, QStringLiteral("b.txt"), LoadOptions{QStringLiteral("UTF-8")});
        QVERIFY(doc.ok());
        QCOMPARE(doc->warnings().size(), 1);
        QCOMPARE(doc->warnings()[0].severity, Severity::Warning);
        QCOMPARE(doc->warnings()[0].span.line, 41);
        QCOMPARE(doc->warnings()[0].span.column, 5);
        QVERIFY(doc->lineText(41).contains(QChar(0xFFFD)));
    }

    void aozoraHeaderAndFooter()
    {
        const QString text =
            QStringLiteral("題名\n作者\n\n-------------------------------------------------------\n"
                           "【テキスト中に現れる記号について】\n\n《》：ルビ\n"
                           "-------------------------------------------------------"
                           "\n\n本文の一行目\n本文の二行目\n\n\n"
                           "底本：「何か」出版社\n入力：だれか\n");
        const Document doc(text);
        QVERIFY(doc.isAozora());
        QCOMPARE(doc.bodyFirstLine(), 9);
        QCOMPARE(doc.bodyLastLine(), 13);
        const Document plain(QStringLiteral("ただの文章\n二行目"));
        QVERIFY(!plain.isAozora());
        QCOMPARE(plain.bodyFirstLine(), 1);
        QCOMPARE(plain.bodyLastLine(), 2);
    }

    void fileTooLargeAndMissing()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.txt"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(4096, 'a'));
        f.close();
        LoadOptions o;
        o.maxBytes = 1024;
        const auto big = loadDocument(path, o);
        QVERIFY(!big.ok());
        QVERIFY(big.error().message.contains(QStringLiteral("too large")));
        QVERIFY(loadDocument(path).ok());
        QVERIFY(!loadDocument(dir.filePath(QStringLiteral("none.txt"))).ok());
    }
};

QTEST_GUILESS_MAIN(TestDocLoad)
#include "tst_docload.moc"
