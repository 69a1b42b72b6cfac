#include "core/workbench/programfile.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;

class TestProgramFile : public QObject {
    Q_OBJECT

private:
    QString writeBytes(const QString& name, const QByteArray& bytes)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            qFatal("cannot write fixture");
        f.write(bytes);
        return path;
    }
    static QByteArray readBytes(const QString& path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

    QTemporaryDir m_dir;

private Q_SLOTS:
    void load_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("lineEnding");
        QTest::addColumn<bool>("bom");
        QTest::newRow("empty") << QByteArray() << QString() << int(LineEnding::Unix) << false;
        QTest::newRow("unix") << QByteArray("text: hi\n") << QStringLiteral("text: hi\n")
                              << int(LineEnding::Unix) << false;
        QTest::newRow("windows kept")
            << QByteArray("a: 1\r\nb: 2\r\n") << QStringLiteral("a: 1\r\nb: 2\r\n")
            << int(LineEnding::Windows) << false;
        QTest::newRow("old mac") << QByteArray("a: 1\rb: 2") << QStringLiteral("a: 1\rb: 2")
                                 << int(LineEnding::OldMac) << false;
        QTest::newRow("utf-8") << QByteArray("text: \xe7\xae\xb1 \xf0\x9f\x93\xa6\n")
                               << QStringLiteral("text: 箱 📦\n") << int(LineEnding::Unix) << false;
        QTest::newRow("bom stripped")
            << QByteArray("\xEF\xBB\xBFtext: x\n") << QStringLiteral("text: x\n")
            << int(LineEnding::Unix) << true;
    }
    void load()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, text);
        QFETCH(int, lineEnding);
        QFETCH(bool, bom);
        const QString path = writeBytes(QStringLiteral("load.pdl"), bytes);
        const Result<ProgramText> loaded = ProgramFile::load(path);
        QVERIFY2(loaded.ok(), qPrintable(loaded.ok() ? QString() : loaded.error().toString()));
        QCOMPARE(loaded->text, text);
        QCOMPARE(int(loaded->lineEnding), lineEnding);
        QCOMPARE(loaded->hasBom, bom);
    }

    void invalidUtf8_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::newRow("latin-1 byte") << QByteArray("a: 1\nb: caf\xe9\n") << 2 << 7;
        QTest::newRow("truncated sequence") << QByteArray("x: \xe7\xae") << 1 << 4;
        QTest::newRow("overlong slash") << QByteArray("\xc0\xaf") << 1 << 1;
        QTest::newRow("surrogate") << QByteArray("ok\n\xed\xa0\x80") << 2 << 1;
        QTest::newRow("after multibyte") << QByteArray("\xe7\xae\xb1\xff") << 1 << 2;
    }
    void invalidUtf8()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, line);
        QFETCH(int, column);
        const QString path = writeBytes(QStringLiteral("bad.pdl"), bytes);
        const Result<ProgramText> loaded = ProgramFile::load(path);
        QVERIFY(!loaded.ok());
        QCOMPARE(loaded.error().span.file, path);
        QCOMPARE(loaded.error().span.line, line);
        QCOMPARE(loaded.error().span.column, column);
        QVERIFY2(loaded.error().message.contains(QLatin1String("UTF-8")),
                 qPrintable(loaded.error().message));
    }

    void missingFile()
    {
        const QString path = m_dir.filePath(QStringLiteral("nope.pdl"));
        const Result<ProgramText> loaded = ProgramFile::load(path);
        QVERIFY(!loaded.ok());
        QVERIFY(loaded.error().toString().startsWith(path));
        QVERIFY(loaded.error().message.contains(QLatin1String("no such file")));
    }

    void directory()
    {
        const Result<ProgramText> loaded = ProgramFile::load(m_dir.path());
        QVERIFY(!loaded.ok());
        QVERIFY(loaded.error().message.contains(QLatin1String("directory")));
    }

    void saveRoundTrip_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("bom");
        QTest::newRow("unix") << QStringLiteral("text:\n- hi\n") << false;
        QTest::newRow("crlf") << QStringLiteral("text:\r\n- hi\r\n") << false;
        QTest::newRow("unicode with bom") << QStringLiteral("text: 箱\n") << true;
    }
    void saveRoundTrip()
    {
        QFETCH(QString, text);
        QFETCH(bool, bom);
        const QString path = m_dir.filePath(QStringLiteral("saved.pdl"));
        const Result<bool> saved = ProgramFile::save(path, text, bom);
        QVERIFY(saved.ok());
        const QByteArray expected =
            (bom ? QByteArray("\xEF\xBB\xBF") : QByteArray()) + text.toUtf8();
        QCOMPARE(readBytes(path), expected);
        const Result<ProgramText> loaded = ProgramFile::load(path);
        QVERIFY(loaded.ok());
        QCOMPARE(loaded->text, text);
        QCOMPARE(loaded->hasBom, bom);
    }

    void saveReplacesExisting()
    {
        const QString path = writeBytes(QStringLiteral("replace.pdl"), "old contents\n");
        QVERIFY(ProgramFile::save(path, QStringLiteral("new\n")).ok());
        QCOMPARE(readBytes(path), QByteArray("new\n"));
        // QSaveFile leaves no temporary file behind.
        const QStringList leftovers =
            QDir(m_dir.path()).entryList({QStringLiteral("replace.pdl*")}, QDir::Files);
        QCOMPARE(leftovers, QStringList{QStringLiteral("replace.pdl")});
    }

    void saveFailureLeavesNothing()
    {
        const QString path = m_dir.filePath(QStringLiteral("no/such/dir/x.pdl"));
        const Result<bool> saved = ProgramFile::save(path, QStringLiteral("x"));
        QVERIFY(!saved.ok());
        QCOMPARE(saved.error().span.file, path);
        QVERIFY(saved.error().message.startsWith(QLatin1String("cannot")));
        QVERIFY(!QFile::exists(path));
    }

    void saveOverDirectoryFails()
    {
        // A directory in the way: the save must fail and the directory stay a directory.
        const QString path = m_dir.filePath(QStringLiteral("adir"));
        QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("adir")));
        QVERIFY(!ProgramFile::save(path, QStringLiteral("x")).ok());
        QVERIFY(QFileInfo(path).isDir());
    }
};

QTEST_GUILESS_MAIN(TestProgramFile)
#include "tst_programfile.moc"
