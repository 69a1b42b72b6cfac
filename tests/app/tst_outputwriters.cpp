// Every file Hako writes follows the one output-file rule (core/util/outputfile.h): a regular
// file is replaced atomically and, when new, is private (0600); a character device or FIFO is
// written in place and stays what it was, also through a symbolic link; a folder is refused.
// (a) runs every command-line writer against each kind of target; (b) checks that the files
// Hako keeps for itself (prompt log, evaluation store and its traces, memory store) are private
// from the start; (c) scans the sources so that a new writer cannot bypass the rule unnoticed.
#include "hakoprocess.h"
#include "openaitestserver.h"

#include "core/eval/evalstore.h"
#include "core/memory/memorystore.h"
#include "core/promptlog/promptlog.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <fcntl.h>
#include <functional>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace hako;
using hako::testing::OpenAiTestServer;

namespace {

mode_t modeOf(const QString& path, bool followLinks = true)
{
    struct stat st {};
    const QByteArray native = QFile::encodeName(path);
    if ((followLinks ? ::stat(native.constData(), &st) : ::lstat(native.constData(), &st)) != 0)
        return 0;
    return st.st_mode;
}

QString octal(mode_t mode)
{
    return QString::number(mode & 07777, 8);
}

QByteArray contents(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeFile(const QString& path, const QByteArray& data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}

// Reads a FIFO on its own thread while a `hako` process writes to it (a pipe holds only 64 KiB:
// reading afterwards could block the writer). Opened before the writer starts, so the writer
// finds a reader.
class FifoReader {
public:
    explicit FifoReader(const QString& path)
    {
        m_fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (m_fd >= 0)
            m_thread = std::thread([this] { loop(); });
    }
    ~FifoReader() { finish(); }
    bool isOpen() const { return m_fd >= 0; }
    // Stops reading once everything written so far is read; returns it.
    QByteArray finish()
    {
        if (m_thread.joinable()) {
            m_stop = true;
            m_thread.join();
        }
        if (m_fd >= 0) {
            ::close(m_fd);
            m_fd = -1;
        }
        return m_data;
    }

private:
    void loop()
    {
        char buffer[8192];
        for (;;) {
            const ssize_t n = ::read(m_fd, buffer, sizeof buffer);
            if (n > 0) {
                m_data.append(buffer, int(n));
                continue;
            }
            // 0: no writer at the moment; EAGAIN: a writer, no data yet.
            if (m_stop)
                return;
            ::usleep(2000);
        }
    }

    int m_fd = -1;
    std::thread m_thread;
    std::atomic<bool> m_stop = false;
    QByteArray m_data;
};

// One command-line writer: the arguments that make `hako` write to `out`.
using Writer = std::function<QStringList(const QString& out)>;

} // namespace

Q_DECLARE_METATYPE(Writer)

class TestOutputWriters : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<OpenAiTestServer> m_server;
    int m_n = 0;

    QString path(const QString& name) const { return m_dir.filePath(name); }
    QString fresh(const QString& stem)
    {
        return path(QStringLiteral("%1-%2").arg(stem).arg(++m_n));
    }

    // Runs the writer to `out`; the run must succeed.
    void runWriter(const Writer& writer, const QString& out, const char* what)
    {
        const HakoOutcome o = runHako(writer(out));
        QVERIFY2(o.exitCode == 0 && o.status == QProcess::NormalExit,
                 qPrintable(QStringLiteral("%1: exit %2\n%3%4")
                                .arg(QLatin1String(what))
                                .arg(o.exitCode)
                                .arg(o.out, o.err)));
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!QFileInfo(hakoBinary()).isExecutable())
            QSKIP("bin/hako is not built");
        QVERIFY(m_dir.isValid());
        // The user's own settings, prompt log and stores stay out of it.
        qputenv("XDG_CONFIG_HOME", path(QStringLiteral("config")).toUtf8());
        qputenv("XDG_DATA_HOME", path(QStringLiteral("data")).toUtf8());
        m_server = std::make_unique<OpenAiTestServer>();
        QVERIFY(m_server->start());
        qputenv("OPENAI_BASE_URL", m_server->baseUrl().toUtf8());
        qputenv("OPENAI_API_KEY", "sk-test-SECRET-4242");
        qputenv("OLLAMA_API_BASE", "http://127.0.0.1:1");

        QVERIFY(writeFile(path(QStringLiteral("hello.pdl")), "description: hello\n"
                                                             "text:\n"
                                                             "- 'Say hello.'\n"
                                                             "- model: openai/gpt-4o-mini\n"));
        QVERIFY(writeFile(path(QStringLiteral("answers.jsonl")),
                          "{\"inputs\": {\"answer\": \"東京\"}, \"reference\": \"東京\"}\n"
                          "{\"inputs\": {\"answer\": \"Paris\"}, \"reference\": \"Paris\"}\n"));
        QVERIFY(writeFile(path(QStringLiteral("good.pdl")),
                          "description: answers\ntext: \"${ answer }\"\n"));
        QVERIFY(writeFile(path(QStringLiteral("answers.yaml")), "name: answers\n"
                                                                "dataset: answers.jsonl\n"
                                                                "target: good.pdl\n"
                                                                "evaluators:\n"
                                                                "  - exact_match\n"));
        // A prompt log with one call, and a memory store with one memory, to export.
        const HakoOutcome logged =
            runHako({QStringLiteral("run"), QStringLiteral("--stream"), QStringLiteral("none"),
                     QStringLiteral("--log"), path(QStringLiteral("log.sqlite")),
                     path(QStringLiteral("hello.pdl"))});
        QVERIFY2(logged.exitCode == 0, qPrintable(logged.err));
        const HakoOutcome added = runHako(
            {QStringLiteral("memory"), QStringLiteral("--store"), path(QStringLiteral("m.hakomem")),
             QStringLiteral("add"), QStringLiteral("--text"), QStringLiteral("Tea at four")});
        QVERIFY2(added.exitCode == 0, qPrintable(added.err));
    }

    void cleanupTestCase() { m_server.reset(); }

    // (a) Every writer, to: a new file, an existing file, a FIFO being read, a link to that
    // FIFO, a link to /dev/null and /dev/null itself. The device cases come last: they only run
    // once the FIFO cases have shown that the writer leaves special files alone.
    void writersFollowTheRule_data()
    {
        QTest::addColumn<Writer>("writer");
        const QString hello = path(QStringLiteral("hello.pdl"));
        const QString suite = path(QStringLiteral("answers.yaml"));
        const QString store = path(QStringLiteral("eval.sqlite"));
        const QString log = path(QStringLiteral("log.sqlite"));
        const QString memory = path(QStringLiteral("m.hakomem"));
        auto run = [hello](const QString& option) {
            return Writer([hello, option](const QString& out) {
                return QStringList{QStringLiteral("run"),
                                   QStringLiteral("--stream"),
                                   QStringLiteral("none"),
                                   QStringLiteral("--no-log"),
                                   option,
                                   out,
                                   hello};
            });
        };
        auto eval = [suite, store, log](const QString& option) {
            return Writer([=](const QString& out) {
                return QStringList{QStringLiteral("eval"),
                                   QStringLiteral("--trust"),
                                   QStringLiteral("--store"),
                                   store,
                                   QStringLiteral("--log"),
                                   log,
                                   suite,
                                   option,
                                   out};
            });
        };
        QTest::newRow("hako run --trace") << run(QStringLiteral("--trace"));
        QTest::newRow("hako run --otel") << run(QStringLiteral("--otel"));
        QTest::newRow("hako log export --out") << Writer([log](const QString& out) {
            return QStringList{QStringLiteral("log"),   QStringLiteral("export"),
                               QStringLiteral("--db"),  log,
                               QStringLiteral("--out"), out};
        });
        QTest::newRow("hako eval --junit") << eval(QStringLiteral("--junit"));
        QTest::newRow("hako eval --json") << eval(QStringLiteral("--json"));
        QTest::newRow("hako memory export") << Writer([memory](const QString& out) {
            return QStringList{QStringLiteral("memory"), QStringLiteral("--store"), memory,
                               QStringLiteral("export"), out};
        });
        // A program's file aggregator: the program names the output.
        QTest::newRow("file aggregator") << Writer([this](const QString& out) {
            const QString program = fresh(QStringLiteral("aggregate")) + QStringLiteral(".pdl");
            writeFile(program, "defs:\n  sink:\n    aggregator: {file: '" + out.toUtf8() +
                                   "'}\ntext:\n- data: kept\n  contribute: [sink]\n");
            return QStringList{QStringLiteral("run"), QStringLiteral("--stream"),
                               QStringLiteral("none"), QStringLiteral("--no-log"), program};
        });
    }

    void writersFollowTheRule()
    {
        QFETCH(Writer, writer);

        // A new file: written whole, private.
        const QString created = fresh(QStringLiteral("new"));
        runWriter(writer, created, "new file");
        QVERIFY(S_ISREG(modeOf(created)));
        QVERIFY(!contents(created).isEmpty());
        QCOMPARE(octal(modeOf(created)), QStringLiteral("600"));

        // An existing file: replaced, its permissions kept.
        const QString existing = fresh(QStringLiteral("existing"));
        QVERIFY(writeFile(existing, "old"));
        QVERIFY(QFile::setPermissions(existing,
                                      QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup));
        runWriter(writer, existing, "existing file");
        QVERIFY(contents(existing) != "old" && !contents(existing).isEmpty());
        QCOMPARE(octal(modeOf(existing)), QStringLiteral("640"));

        // A FIFO being read, named directly and through a link: written in place, still a FIFO.
        const QString fifo = fresh(QStringLiteral("fifo"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        const QString fifoLink = fresh(QStringLiteral("fifo-link"));
        QVERIFY(QFile::link(fifo, fifoLink));
        for (const QString& target : {fifo, fifoLink}) {
            FifoReader reader(fifo);
            QVERIFY(reader.isOpen());
            runWriter(writer, target, target == fifo ? "FIFO" : "link to a FIFO");
            const QByteArray received = reader.finish();
            QVERIFY2(S_ISFIFO(modeOf(fifo, false)), qPrintable(octal(modeOf(fifo, false))));
            QVERIFY(S_ISLNK(modeOf(fifoLink, false)));
            QVERIFY2(!received.isEmpty(), "nothing arrived through the FIFO");
        }

        // A link to a character device, and the device itself: still a character device.
        if (!S_ISCHR(modeOf(QStringLiteral("/dev/null"))))
            QSKIP("needs /dev/null");
        const QString nullLink = fresh(QStringLiteral("null-link"));
        QVERIFY(QFile::link(QStringLiteral("/dev/null"), nullLink));
        runWriter(writer, nullLink, "link to /dev/null");
        QVERIFY(S_ISLNK(modeOf(nullLink, false)));
        QVERIFY(S_ISCHR(modeOf(QStringLiteral("/dev/null"), false)));
        runWriter(writer, QStringLiteral("/dev/null"), "/dev/null");
        QVERIFY(S_ISCHR(modeOf(QStringLiteral("/dev/null"), false)));
    }

    // A folder is refused with a plain error, and stays a folder.
    void foldersAreRefused()
    {
        const QString folder = fresh(QStringLiteral("folder"));
        QVERIFY(QDir().mkdir(folder));
        const HakoOutcome o =
            runHako({QStringLiteral("log"), QStringLiteral("export"), QStringLiteral("--db"),
                     path(QStringLiteral("log.sqlite")), QStringLiteral("--out"), folder});
        QCOMPARE(o.exitCode, 1);
        QVERIFY2(o.err.contains(QLatin1String("it is a folder")), qPrintable(o.err));
        QVERIFY(QFileInfo(folder).isDir());
    }

    // (b) The prompt log, the evaluation store, its traces and the memory store: 0600 files
    // (SQLite's -wal and -shm too) in 0700 folders Hako creates for them.
    void storesArePrivate()
    {
        const QString folder = fresh(QStringLiteral("private"));
        const QString logFile = folder + QStringLiteral("/logs/log.sqlite");
        QString error;
        auto log = promptlog::PromptLog::open(logFile, &error);
        QVERIFY2(log, qPrintable(error));
        promptlog::CallRecord call;
        call.uid = QStringLiteral("call-private-0123456789");
        call.promptName = QStringLiteral("secret");
        call.model = QStringLiteral("m");
        call.reply = QStringLiteral("a private reply");
        log->record(call);
        QVERIFY(log->flush());
        QCOMPARE(octal(modeOf(folder)), QStringLiteral("700"));
        QCOMPARE(octal(modeOf(folder + QStringLiteral("/logs"))), QStringLiteral("700"));
        for (const QString& suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")}) {
            QVERIFY2(QFileInfo::exists(logFile + suffix), qPrintable(logFile + suffix));
            QCOMPARE(octal(modeOf(logFile + suffix)), QStringLiteral("600"));
        }
        log.reset();

        // The memory store does not create folders (a missing one is an error).
        const QString memoryFile = folder + QStringLiteral("/m.hakomem");
        auto memory = memory::MemoryStore::open(memoryFile);
        QVERIFY(memory.ok());
        QCOMPARE(octal(modeOf(memoryFile)), QStringLiteral("600"));

        // `hako eval` with a new store: the store, the folder of its traces and the traces.
        const QString evalFolder = folder + QStringLiteral("/eval");
        const HakoOutcome o = runHako(
            {QStringLiteral("eval"), QStringLiteral("--trust"), QStringLiteral("--store"),
             evalFolder + QStringLiteral("/eval.sqlite"), QStringLiteral("--log"),
             evalFolder + QStringLiteral("/log.sqlite"), path(QStringLiteral("answers.yaml"))});
        QVERIFY2(o.exitCode == 0, qPrintable(o.out + o.err));
        QCOMPARE(octal(modeOf(evalFolder)), QStringLiteral("700"));
        QCOMPARE(octal(modeOf(evalFolder + QStringLiteral("/eval.sqlite"))), QStringLiteral("600"));
        QCOMPARE(octal(modeOf(evalFolder + QStringLiteral("/eval-traces"))), QStringLiteral("700"));
        int traces = 0;
        QDirIterator it(evalFolder + QStringLiteral("/eval-traces"),
                        QDir::AllEntries | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString entry = it.next();
            const bool isFolder = QFileInfo(entry).isDir();
            traces += isFolder ? 0 : 1;
            QCOMPARE(octal(modeOf(entry)),
                     isFolder ? QStringLiteral("700") : QStringLiteral("600"));
        }
        QVERIFY(traces > 0);
    }

    // (c) The sources: a file in core/, app/, widgets/ or plugins/ that opens a file for
    // writing must be on this list, with the reason. Everything else writes through
    // core/util/outputfile.h. (QSettings' own file is kept to the rule by SettingsFileGuard,
    // created in main() and CommandRegistry::run(); its tests are tst_settingsfileguard.)
    void noWriterBypassesTheRule()
    {
        struct Pattern {
            const char* name;
            QRegularExpression re;
        };
        const QList<Pattern> patterns = {
            {"QSaveFile", QRegularExpression(QStringLiteral("\\bQSaveFile\\b"))},
            {"open for writing",
             QRegularExpression(QStringLiteral("\\b(QIODevice|QFile|QFileDevice)::(WriteOnly|"
                                               "ReadWrite|Append|Truncate|NewOnly)"))},
            {"POSIX open for writing",
             QRegularExpression(QStringLiteral("\\bO_(WRONLY|RDWR|CREAT|TRUNC|APPEND)\\b"))},
            {"C/C++ streams",
             QRegularExpression(QStringLiteral(
                 "\\bstd::(o|)fstream\\b|\\bfreopen\\s*\\(|\\bfopen\\s*\\([^;]*\"[^\"]*[wa+]"))},
            // ::write( and fwrite(, not a method named write (Runner::write).
            {"raw write", QRegularExpression(
                              QStringLiteral("(^|[^\\w>:])::f?write\\s*\\(|\\bstd::f?write\\s*\\(|"
                                             "(^|[^\\w:.>])fwrite\\s*\\("))},
            {"file copy or temporary file",
             QRegularExpression(
                 QStringLiteral("\\bQFile::(copy|link|rename)\\s*\\(|\\bQTemporaryFile\\b"))},
            {"folder creation",
             QRegularExpression(QStringLiteral("\\bmkpath\\s*\\(|::mkdir\\s*\\(|\\.mkdir\\s*\\("))},
            {"settings file at a chosen path",
             QRegularExpression(QStringLiteral("QSettings::(IniFormat|NativeFormat)"))},
            {"database", QRegularExpression(QStringLiteral("\\bsqlite3_open"))},
        };
        // file → patterns it may use, and why.
        const QHash<QString, QStringList> allowed = {
            // The rule itself.
            {QStringLiteral("core/util/outputfile.cpp"),
             {"QSaveFile", "open for writing", "POSIX open for writing", "raw write",
              "folder creation"}},
            // Redirects QSettings away from a settings file that is not a regular file.
            {QStringLiteral("core/util/settingsfileguard.cpp"), {"settings file at a chosen path"}},
            // Standard output and standard error, opened by the caller's shell.
            {QStringLiteral("core/pdl/interp/runner.cpp"), {"raw write"}},
            {QStringLiteral("app/cli/output.cpp"), {"raw write"}},
            {QStringLiteral("app/cli/logcommand.cpp"), {"open for writing"}},
            // Pipes to and from a child process (code blocks), not files.
            {QStringLiteral("core/pdl/code/childprocess.cpp"), {"raw write"}},
            // Databases: written in place by SQLite, created private first (createPrivateFile,
            // checked below).
            {QStringLiteral("core/promptlog/sqlitebackend.cpp"), {"database"}},
            {QStringLiteral("core/eval/sqlitestorebackend.cpp"), {"database"}},
            {QStringLiteral("core/memory/sqlitedb.cpp"), {"database"}},
            // A second connection to the prompt log the backend made, for its checkpoints.
            {QStringLiteral("core/promptlog/walcheckpointer.cpp"), {"database"}},
            // Forwards the SQLite functions to the library loaded on first use: opens nothing.
            {QStringLiteral("core/sqlite/sqliteloader.cpp"), {"database"}},
            // In-memory buffers (a vector store's bytes, a rendered page's PNG), not files.
            {QStringLiteral("core/reports/reportindex.cpp"), {"open for writing"}},
            {QStringLiteral("plugins/pdf/pdfrender.cpp"), {"open for writing"}},
        };
        // Files that name the database functions without opening a database themselves.
        const QStringList forwarders = {QStringLiteral("core/sqlite/sqliteloader.cpp")};
        // Files that open a database another file made, never creating one (checked below:
        // no SQLITE_OPEN_CREATE).
        const QStringList openersOfExisting = {
            QStringLiteral("core/promptlog/walcheckpointer.cpp")};
        const QDir source(QStringLiteral(HAKO_SOURCE_DIR));
        QStringList offences;
        int scanned = 0;
        for (const char* floor : {"core", "app", "widgets", "plugins"}) {
            QDirIterator it(source.filePath(QLatin1String(floor)), {"*.cpp", "*.h"}, QDir::Files,
                            QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString file = it.next();
                const QString relative = source.relativeFilePath(file);
                const QStringList lines =
                    QString::fromUtf8(contents(file)).split(QLatin1Char('\n'));
                ++scanned;
                QSet<QString> used;
                for (int i = 0; i < lines.size(); ++i) {
                    QString line = lines.at(i);
                    const qsizetype comment = line.indexOf(QLatin1String("//"));
                    if (comment >= 0 && !line.left(comment).contains(QLatin1Char('"')))
                        line.truncate(comment);
                    if (line.trimmed().startsWith(QLatin1Char('*')))
                        continue;
                    for (const Pattern& p : patterns) {
                        if (!p.re.match(line).hasMatch())
                            continue;
                        used.insert(QLatin1String(p.name));
                        if (!allowed.value(relative).contains(QLatin1String(p.name)))
                            offences << QStringLiteral("%1:%2: %3: %4")
                                            .arg(relative)
                                            .arg(i + 1)
                                            .arg(QLatin1String(p.name), lines.at(i).trimmed());
                    }
                }
                const QString all = lines.join(QLatin1Char('\n'));
                if (used.contains(QStringLiteral("database")) && !forwarders.contains(relative)) {
                    if (openersOfExisting.contains(relative)
                            ? all.contains(QLatin1String("SQLITE_OPEN_CREATE"))
                            : !all.contains(QLatin1String("createPrivateFile(")))
                        offences << QStringLiteral("%1: opens a database without "
                                                   "createPrivateFile()")
                                        .arg(relative);
                }
            }
        }
        QVERIFY(scanned > 100);
        QVERIFY2(offences.isEmpty(),
                 qPrintable(QStringLiteral("writers outside the output-file rule "
                                           "(core/util/outputfile.h) or its allow-list:\n") +
                            offences.join(QLatin1Char('\n'))));
    }
};

QTEST_GUILESS_MAIN(TestOutputWriters)
#include "tst_outputwriters.moc"
