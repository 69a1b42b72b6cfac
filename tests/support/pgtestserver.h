#pragma once

// A throw-away PostgreSQL server for tests (of the prompt log and of the evaluation store):
// initdb in a temporary folder, started with pg_ctl on a free TCP port of 127.0.0.1 (its socket in
// the same folder), trust authentication, no fsync. As root the server runs as the `postgres` user,
// which then owns the folder. Without Debian's postgresql package, skipReason() says so.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTcpServer>
#include <QTemporaryDir>

#include <csignal>

#include <unistd.h>

class PgTestServer {
public:
    ~PgTestServer()
    {
        resume();
        stop();
    }

    /// Starts the server; false with skipReason() when it cannot be.
    bool start()
    {
        m_bin = findBinaries();
        if (m_bin.isEmpty()) {
            m_skipReason = QStringLiteral("PostgreSQL server binaries not found "
                                          "(/usr/lib/postgresql/*/bin; Debian package postgresql)");
            return false;
        }
        if (!m_dir.isValid()) {
            m_skipReason = QStringLiteral("no temporary folder");
            return false;
        }
        m_root = ::geteuid() == 0;
        if (m_root) {
            if (!run({QStringLiteral("chown"), QStringLiteral("postgres:postgres"), m_dir.path()},
                     false)) {
                m_skipReason = QStringLiteral("running as root, but there is no postgres user "
                                              "to run the server as: ") +
                               m_lastOutput;
                return false;
            }
        }
        m_port = freePort();
        if (!run({binary("initdb"), QStringLiteral("-D"), dataDir(), QStringLiteral("-A"),
                  QStringLiteral("trust"), QStringLiteral("-U"), QStringLiteral("postgres"),
                  QStringLiteral("-E"), QStringLiteral("UTF8"), QStringLiteral("--no-locale"),
                  QStringLiteral("--no-sync")},
                 true)) {
            m_skipReason = QStringLiteral("initdb failed: ") + m_lastOutput;
            return false;
        }
        if (!startServer()) {
            m_skipReason = QStringLiteral("the server did not start: ") + m_lastOutput;
            return false;
        }
        return true;
    }

    /// Starts a stopped server again on the same port and data.
    bool startServer()
    {
        m_running = run({binary("pg_ctl"), QStringLiteral("-D"), dataDir(), QStringLiteral("-l"),
                         m_dir.filePath(QStringLiteral("server.log")), QStringLiteral("-w"),
                         QStringLiteral("-t"), QStringLiteral("120"), QStringLiteral("-o"),
                         QStringLiteral("-p %1 -k %2 -c listen_addresses=127.0.0.1 -c fsync=off "
                                        "-c full_page_writes=off -c synchronous_commit=off")
                             .arg(m_port)
                             .arg(m_dir.path()),
                         QStringLiteral("start")},
                        true);
        return m_running;
    }

    /// Stops the server (fast shutdown: connections are cut).
    bool stop()
    {
        if (!m_running)
            return true;
        m_running = !run({binary("pg_ctl"), QStringLiteral("-D"), dataDir(), QStringLiteral("-m"),
                          QStringLiteral("fast"), QStringLiteral("-w"), QStringLiteral("stop")},
                         true);
        return !m_running;
    }

    /// Freezes the server (SIGSTOP to the postmaster and every backend): it keeps its
    /// connections and the kernel keeps accepting TCP, but nothing answers, as a swapped-out
    /// or hung server. resume() thaws it; the destructor does too.
    bool pause() { return signalAll(SIGSTOP); }
    bool resume() { return signalAll(SIGCONT); }

    /// Creates an empty database and gives its URL.
    QString createDatabase(const QString& name)
    {
        if (!run({binary("createdb"), QStringLiteral("-h"), QStringLiteral("127.0.0.1"),
                  QStringLiteral("-p"), QString::number(m_port), QStringLiteral("-U"),
                  QStringLiteral("postgres"), name},
                 false))
            return {};
        return url(name);
    }

    QString url(const QString& database) const
    {
        return QStringLiteral("postgresql://postgres@127.0.0.1:%1/%2").arg(m_port).arg(database);
    }

    QString skipReason() const { return m_skipReason; }
    /// Whether start() failed only because the PostgreSQL binaries are not installed (the one
    /// reason a test may skip its PostgreSQL half; any other failure is a failure).
    bool binariesMissing() const { return m_bin.isEmpty(); }
    QString lastOutput() const { return m_lastOutput; }

private:
    static QString findBinaries()
    {
        const QByteArray env = qgetenv("HAKO_PG_BIN");
        if (!env.isEmpty())
            return QString::fromLocal8Bit(env);
        QDir root(QStringLiteral("/usr/lib/postgresql"));
        QStringList versions = root.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        std::sort(versions.begin(), versions.end(),
                  [](const QString& a, const QString& b) { return a.toInt() > b.toInt(); });
        for (const QString& v : versions) {
            const QString bin = root.filePath(v + QStringLiteral("/bin"));
            if (QFileInfo(bin + QStringLiteral("/initdb")).isExecutable() &&
                QFileInfo(bin + QStringLiteral("/pg_ctl")).isExecutable())
                return bin;
        }
        return {};
    }

    // Sends `signalNumber` to the postmaster (postmaster.pid's first line) and its children.
    bool signalAll(int signalNumber)
    {
        if (!m_running)
            return false;
        QFile pidFile(dataDir() + QStringLiteral("/postmaster.pid"));
        if (!pidFile.open(QIODevice::ReadOnly))
            return false;
        const qint64 postmaster = pidFile.readLine().trimmed().toLongLong();
        if (postmaster <= 0)
            return false;
        QList<qint64> pids{postmaster};
        for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
            QFile stat(QStringLiteral("/proc/%1/stat").arg(entry));
            if (!stat.open(QIODevice::ReadOnly))
                continue;
            const QByteArray line = stat.readAll();
            const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
            // fields[1] is the parent's pid (field 4 of stat).
            if (fields.size() > 1 && fields[1].toLongLong() == postmaster)
                pids.append(entry.toLongLong());
        }
        bool ok = true;
        for (qint64 pid : pids)
            ok = ::kill(pid_t(pid), signalNumber) == 0 && ok;
        return ok;
    }

    static int freePort()
    {
        QTcpServer probe;
        probe.listen(QHostAddress::LocalHost, 0);
        return probe.serverPort();
    }

    QString binary(const char* name) const
    {
        return m_bin + QLatin1Char('/') + QLatin1String(name);
    }
    QString dataDir() const { return m_dir.filePath(QStringLiteral("data")); }

    // Runs a command, as the postgres user when `asServer` and we are root.
    bool run(QStringList command, bool asServer)
    {
        if (asServer && m_root)
            command = QStringList{QStringLiteral("runuser"), QStringLiteral("-u"),
                                  QStringLiteral("postgres"), QStringLiteral("--")} +
                      command;
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.setWorkingDirectory(m_dir.path());
        const QString program = command.takeFirst();
        p.start(program, command);
        if (!p.waitForFinished(180000)) {
            p.kill();
            p.waitForFinished();
            m_lastOutput = QStringLiteral("%1 did not finish").arg(program);
            return false;
        }
        m_lastOutput = QString::fromLocal8Bit(p.readAll()).trimmed();
        if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
            QFile log(m_dir.filePath(QStringLiteral("server.log")));
            if (log.open(QIODevice::ReadOnly))
                m_lastOutput += QStringLiteral("\nserver log: ") +
                                QString::fromLocal8Bit(log.readAll().right(2000));
            return false;
        }
        return true;
    }

    QTemporaryDir m_dir;
    QString m_bin;
    QString m_skipReason;
    QString m_lastOutput;
    bool m_root = false;
    bool m_running = false;
    int m_port = 0;
};
