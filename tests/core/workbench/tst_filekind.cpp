// What `hako FILE`, File › Open and a drop onto the window open a file as: decided by content
// first (a trace is JSON with a trace node's fields whatever its name), then by name.
#include "core/workbench/filekind.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

using namespace hako;

Q_DECLARE_METATYPE(hako::FileKind)

class TestFileKind : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    QString write(const QString& name, const QByteArray& bytes)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
            qFatal("cannot write %s", qPrintable(path));
        return path;
    }

private Q_SLOTS:
    void detects_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<FileKind>("kind");
        const QByteArray hakoTrace =
            R"({"kind": "text", "pdl__id": "text", "pdl__location": {"file": "a.pdl"}, )"
            R"("text": [], "pdl__result": "hi"})";
        QTest::newRow("hako trace named .json") << "run.json" << hakoTrace << FileKind::Trace;
        QTest::newRow("trace with a .pdl name") << "odd.pdl" << hakoTrace << FileKind::Trace;
        QTest::newRow("older reference trace")
            << "old.json"
            << QByteArray(R"({"kind": "text", "id": "text", "result": "x", "text": []})")
            << FileKind::Trace;
        QTest::newRow("*_trace.json by name")
            << "x_trace.json" << QByteArray("\n\n  {") << FileKind::Trace;
        QTest::newRow("*.trace.json by name")
            << "x.trace.json" << QByteArray("[]") << FileKind::Trace;
        QTest::newRow("JSON program")
            << "prog.json" << QByteArray(R"({"text": ["Hello", {"kind": "model"}]})")
            << FileKind::Program;
        QTest::newRow("JSON program mentioning pdl__id as text")
            << "prog2.json" << QByteArray(R"({"kind": "text", "text": ["pdl__id"]})")
            << FileKind::Program;
        QTest::newRow("yaml program")
            << "p.yaml" << QByteArray("text:\n- hi\n") << FileKind::Program;
        QTest::newRow("program without suffix")
            << "prog" << QByteArray("description: x\nlastOf:\n- 1\n") << FileKind::Program;
        QTest::newRow("text document")
            << "notes.txt" << QByteArray("Some notes.\n") << FileKind::Document;
        QTest::newRow("markdown") << "README.md" << QByteArray("# Title\n\ntext: not yaml\n")
                                  << FileKind::Document;
        QTest::newRow("PDF") << "paper.bin" << QByteArray("%PDF-1.7\n%\xE2\xE3\xCF\xD3\n")
                             << FileKind::Document;
        QTest::newRow("SQLite store")
            << "agent.db" << QByteArray("SQLite format 3\0rest", 20) << FileKind::MemoryStore;
        QTest::newRow("empty .hakomem") << "new.hakomem" << QByteArray() << FileKind::MemoryStore;
        QTest::newRow("UTF-8 BOM trace")
            << "bom.json" << QByteArray("\xEF\xBB\xBF") + hakoTrace << FileKind::Trace;
    }

    void detects()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, bytes);
        QFETCH(FileKind, kind);
        QCOMPARE(detectFileKind(write(name, bytes)), kind);
    }

    // What cannot be read goes to the editor, which says why; a FIFO is never read (it would
    // block until a writer comes).
    void unreadableIsAProgram()
    {
        QCOMPARE(detectFileKind(m_dir.filePath(QStringLiteral("missing.json"))), FileKind::Program);
        QCOMPARE(detectFileKind(m_dir.path()), FileKind::Program);
        const QByteArray fifo = QFile::encodeName(m_dir.filePath(QStringLiteral("fifo")));
        if (::mkfifo(fifo.constData(), 0600) == 0)
            QCOMPARE(detectFileKind(QFile::decodeName(fifo)), FileKind::Program);
    }

    // The shared corpus: every reference trace is a trace, every conformance program a program.
    void sharedCorpus()
    {
        const QDir traces(QStringLiteral(HAKO_SHARED_DIR "/data/traces"));
        const QDir programs(QStringLiteral(HAKO_SHARED_DIR "/conformance/pdl/programs"));
        if (!traces.exists() || !programs.exists())
            QSKIP("../shared is not present");
        for (const QString& f : traces.entryList({QStringLiteral("*.json")}))
            QVERIFY2(detectFileKind(traces.filePath(f)) == FileKind::Trace, qPrintable(f));
        const QDir refTraces(QStringLiteral(HAKO_SHARED_DIR "/conformance/pdl/traces"));
        int n = 0;
        QDirIterator t(refTraces.path(), {QStringLiteral("*.json")}, QDir::Files,
                       QDirIterator::Subdirectories);
        while (t.hasNext()) {
            const QString f = t.next();
            QVERIFY2(detectFileKind(f) == FileKind::Trace, qPrintable(f));
            ++n;
        }
        QDirIterator it(programs.path(), {QStringLiteral("*.pdl")}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString p = it.next();
            QVERIFY2(detectFileKind(p) == FileKind::Program, qPrintable(p));
            ++n;
        }
        QVERIFY(n > 20);
    }
};

QTEST_GUILESS_MAIN(TestFileKind)
#include "tst_filekind.moc"
