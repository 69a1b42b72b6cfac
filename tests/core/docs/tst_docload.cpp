// Opening documents: encodings, binary refusal, undecodable bytes, Aozora header and footer.
#include "core/docs/document.h"
#include "core/docs/rubyline.h"

#include <QFile>
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

    // ICU decoders (CP932, EUC-JP) substitute SUB (U+001A) for undecodable bytes and drop an
    // incomplete last character: the user must see U+FFFD, where, and how many.
    void undecodableShiftJisBytesBecomeReplacementCharacters()
    {
        QStringEncoder sjis("Shift_JIS");
        QByteArray bytes = sjis.encode(QStringLiteral("ジョバンニは走りました。\n").repeated(30));
        bytes += sjis.encode(QStringLiteral("壊れた"));
        bytes += "\x81\x0a"; // a lead byte followed by a line break
        bytes += sjis.encode(QStringLiteral("次の行"));
        bytes += "\xA0\xFD\n"; // bytes CP932 leaves unassigned
        const Result<Document> doc = decodeDocument(bytes, QStringLiteral("s.txt"),
                                                    LoadOptions{QStringLiteral("windows-31j")});
        QVERIFY(doc.ok());
        QVERIFY(!doc->text().contains(QChar(0x1A)));
        QCOMPARE(doc->lineText(31).toString(), QStringLiteral("壊れた\uFFFD"));
        QCOMPARE(doc->warnings().size(), 1);
        const Diagnostic& w = doc->warnings()[0];
        QCOMPARE(w.span.line, 31);
        QCOMPARE(w.span.column, 4);
        const qsizetype count = doc->text().count(QChar(0xFFFD));
        QVERIFY(count >= 3);
        QVERIFY2(w.message.startsWith(QString::number(count) + QStringLiteral(" undecodable")),
                 qPrintable(w.message));
    }

    void fileEndingInLoneLeadByteKeepsItsLastLine()
    {
        QStringEncoder sjis("Shift_JIS");
        QByteArray bytes = sjis.encode(QStringLiteral("ジョバンニは走りました。\n").repeated(30));
        bytes += sjis.encode(QStringLiteral("最後の行"));
        bytes += "\x82"; // the first byte of a two-byte character, and then the end
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("cut.txt"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
        f.close();
        for (const QString& enc : {QString(), QStringLiteral("windows-31j")}) {
            const Result<Document> doc = loadDocument(path, LoadOptions{enc});
            QVERIFY(doc.ok());
            QCOMPARE(doc->lineCount(), 31);
            QCOMPARE(doc->lineText(31).toString(), QStringLiteral("最後の行\uFFFD"));
            QCOMPARE(doc->warnings().size(), 1);
            QCOMPARE(doc->warnings()[0].span.line, 31);
        }
        // EUC-JP goes through the same decoder family.
        QStringEncoder euc("EUC-JP");
        QByteArray eucBytes = euc.encode(QStringLiteral("銀河\n").repeated(20));
        eucBytes += "\xA4";
        const Result<Document> e = decodeDocument(eucBytes, QStringLiteral("e.txt"),
                                                  LoadOptions{QStringLiteral("EUC-JP")});
        QVERIFY(e.ok());
        QCOMPARE(e->lineText(21).toString(), QStringLiteral("\uFFFD"));
    }

    void realSubCharactersStay()
    {
        // A 0x1A byte in the file is a character of the text, not a decoding failure.
        QStringEncoder sjis("Shift_JIS");
        QByteArray bytes = sjis.encode(QStringLiteral("ジョバンニ\n").repeated(30));
        bytes += "a\x1a"
                 "b\n";
        const Result<Document> doc = decodeDocument(bytes, QStringLiteral("s.txt"),
                                                    LoadOptions{QStringLiteral("windows-31j")});
        QVERIFY(doc.ok());
        QCOMPARE(doc->lineText(31).toString(), QStringLiteral("a\x1a"
                                                              "b"));
        QVERIFY(doc->warnings().isEmpty());
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

    void filesBeyond32BitPositionsAreRefused()
    {
        // Text positions are 32-bit: a file of 4 GB or more is refused when opened, whatever
        // the size limit of the options. A sparse file has that size without the disk space,
        // and the size is checked before anything is read or mapped.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("huge.txt"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        if (!f.resize(kMaxDocumentBytes + 1))
            QSKIP("this file system cannot make a sparse 4 GB file");
        f.close();
        LoadOptions o;
        o.maxBytes = qint64(1) << 40;
        for (const auto& doc : {loadDocument(path, o), loadDocumentHead(path, 4096, o)}) {
            QVERIFY(!doc.ok());
            QVERIFY2(doc.error().message.contains(QStringLiteral("too large")) &&
                         doc.error().message.contains(QStringLiteral("32-bit")),
                     qPrintable(doc.error().message));
        }
        // Just under the bound only the options' limit applies (the default refuses it too).
        QVERIFY(f.resize(kMaxDocumentBytes));
        const auto under = loadDocument(path);
        QVERIFY(!under.ok());
        QVERIFY2(!under.error().message.contains(QStringLiteral("32-bit")),
                 qPrintable(under.error().message));
    }

    void headIsTheFirstScreen_data()
    {
        QTest::addColumn<QByteArray>("encoding");
        QTest::newRow("utf8") << QByteArray("UTF-8");
        QTest::newRow("sjis") << QByteArray("Shift_JIS");
        QTest::newRow("utf16le") << QByteArray("UTF-16LE");
    }
    void headIsTheFirstScreen()
    {
        // ~1.3 MB of numbered lines: the head decodes only the first 64 KB, up to the last
        // whole line, the same text as the full load starts with.
        QFETCH(QByteArray, encoding);
        QString text;
        for (int i = 1; i <= 20000; ++i)
            text += QStringLiteral("%1行目：ジョバンニは走りました。\r\n").arg(i);
        QStringEncoder e(encoding.constData());
        QByteArray bytes = e.encode(text);
        if (encoding == "UTF-16LE")
            bytes.prepend("\xFF\xFE");
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("long.txt"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
        f.close();
        const Result<Document> head = loadDocumentHead(path, 64 * 1024);
        QVERIFY2(head.ok(), head.ok() ? "" : qPrintable(head.error().message));
        QVERIFY(head->isPartial());
        QCOMPARE(head->fileSize(), qint64(bytes.size()));
        QVERIFY(head->warnings().isEmpty()); // a character cut at the end is no error
        QVERIFY(head->lineCount() > 100);
        QVERIFY(head->lineCount() < 20000);
        const Result<Document> full = loadDocument(path);
        QVERIFY(full.ok());
        QVERIFY(!full->isPartial());
        QCOMPARE(full->lineCount(), 20000);
        QCOMPARE(head->encoding(), full->encoding());
        QVERIFY(full->text().startsWith(head->text()));
        QVERIFY(head->text().endsWith(QStringLiteral("\r\n")));
        const qsizetype last = head->lineCount();
        QCOMPARE(head->lineText(last), full->lineText(last));
        // A small file fits whole: not partial.
        const QString small = dir.filePath(QStringLiteral("small.txt"));
        QFile s(small);
        QVERIFY(s.open(QIODevice::WriteOnly));
        s.write(sample().toUtf8());
        s.close();
        const Result<Document> whole = loadDocumentHead(small, 64 * 1024);
        QVERIFY(whole.ok());
        QVERIFY(!whole->isPartial());
        QCOMPARE(whole->text(), sample());
    }

    void rubyLines_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("bases");
        QTest::addColumn<QStringList>("readings");
        QTest::newRow("kanji run") << QStringLiteral("ぼくは天《あま》の川《がわ》を見た")
                                   << QStringLiteral("ぼくは天の川を見た")
                                   << QStringList{QStringLiteral("天"), QStringLiteral("川")}
                                   << QStringList{QStringLiteral("あま"), QStringLiteral("がわ")};
        QTest::newRow("marker") << QStringLiteral("｜勢《いきおい》よく走った")
                                << QStringLiteral("勢よく走った")
                                << QStringList{QStringLiteral("勢")}
                                << QStringList{QStringLiteral("いきおい")};
        QTest::newRow("marker over kana")
            << QStringLiteral("その｜ほんとう《本当》の話") << QStringLiteral("そのほんとうの話")
            << QStringList{QStringLiteral("ほんとう")} << QStringList{QStringLiteral("本当")};
        QTest::newRow("note dropped")
            << QStringLiteral("終わり［＃「終わり」に傍点］。") << QStringLiteral("終わり。")
            << QStringList{} << QStringList{};
        QTest::newRow("unclosed stays") << QStringLiteral("字《よみ") << QStringLiteral("字《よみ")
                                        << QStringList{} << QStringList{};
    }
    void rubyLines()
    {
        QFETCH(QString, line);
        QFETCH(QString, text);
        QFETCH(QStringList, bases);
        QFETCH(QStringList, readings);
        const RubyLine r = layoutRubyLine(line);
        QCOMPARE(r.text, text);
        QCOMPARE(r.ruby.size(), bases.size());
        for (qsizetype i = 0; i < bases.size(); ++i) {
            QCOMPARE(r.text.mid(r.ruby[i].start, r.ruby[i].length), bases[i]);
            QCOMPARE(r.ruby[i].reading, readings[i]);
        }
        // Every original character that is shown maps onto itself in the display text.
        for (qsizetype i = 0; i < line.size(); ++i) {
            const qsizetype d = r.displayPos(i);
            QVERIFY(d >= 0 && d <= r.text.size());
            if (d < r.text.size() && r.text[d] == line[i] && line[i] != u'《')
                continue;
            // Markup: maps to where it was removed, never past a later character.
            QVERIFY(i + 1 > line.size() || d <= r.displayPos(i + 1));
        }
        QCOMPARE(r.displayPos(line.size()), r.text.size());
    }
};

QTEST_GUILESS_MAIN(TestDocLoad)
#include "tst_docload.moc"
