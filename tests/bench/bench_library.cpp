// Prompt library benchmarks: `hako prompt get NAME@production` as a process (what a script
// pays), a lookup in-process, and the serving endpoint's requests per second over keep-alive
// connections (cached answers, and answers rendered for new variables each time).
#include "core/library/promptlibrary.h"
#include "core/library/promptserver.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace hako;
using namespace hako::library;

namespace {

constexpr int kPrompts = 50;

bool makeLibrary(const QString& root)
{
    Result<PromptLibrary> lib = PromptLibrary::create(root);
    if (!lib)
        return false;
    for (int v = 1; v <= 3; ++v) {
        for (int i = 0; i < kPrompts; ++i) {
            QFile f(QDir(root).filePath(QStringLiteral("p%1.pdl").arg(i)));
            if (!f.open(QIODevice::WriteOnly))
                return false;
            f.write(QStringLiteral("# hako-prompt: %1\ndescription: prompt %2\ntext:\n- model: m\n"
                                   "  input: \"version %3: ${ q }\"\n")
                        .arg(QStringLiteral("%1").arg(i, 12, 16, QLatin1Char('0')))
                        .arg(i)
                        .arg(v)
                        .toUtf8());
        }
        if (!lib->git().call({QStringLiteral("add"), QStringLiteral(".")}) ||
            !lib->git().call(
                {QStringLiteral("commit"), QStringLiteral("-qm"), QStringLiteral("v%1").arg(v)}))
            return false;
    }
    return lib
        ->setLabel(*lib->find(QStringLiteral("prompt 7")), QStringLiteral("production"),
                   QStringLiteral("2"))
        .ok();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

void cliGet(const QString& root)
{
    const QString hako = QCoreApplication::applicationDirPath() + QStringLiteral("/hako");
    if (!QFileInfo::exists(hako)) {
        std::printf("# bench_library: %s not built, skipping hako prompt get\n", qPrintable(hako));
        return;
    }
    std::vector<double> times;
    for (int i = 0; i < 9; ++i) {
        QProcess p;
        QElapsedTimer t;
        t.start();
        p.start(hako, {QStringLiteral("prompt"), QStringLiteral("get"),
                       QStringLiteral("prompt 7@production"), QStringLiteral("--library"), root});
        if (!p.waitForFinished(30000) || p.exitCode() != 0) {
            std::printf("# bench_library: hako prompt get failed: %s\n",
                        p.readAllStandardError().constData());
            return;
        }
        times.push_back(t.nsecsElapsed() / 1e6);
    }
    std::printf("BENCH library_cli_get_%d_prompts %.1f ms\n", kPrompts, median(times));
}

void inProcessGet(const QString& root)
{
    PromptLibrary lib = *PromptLibrary::open(root);
    std::vector<double> times;
    for (int i = 0; i < 9; ++i) {
        QElapsedTimer t;
        t.start();
        if (!lib.get(QStringLiteral("prompt 7@production")).ok())
            return;
        times.push_back(t.nsecsElapsed() / 1e6);
    }
    std::printf("BENCH library_get_%d_prompts %.1f ms\n", kPrompts, median(times));
}

// Requests per second from `clients` keep-alive connections for `seconds`.
double serve(quint16 port, int clients, int requests, bool vary)
{
    std::vector<QThread*> threads;
    std::atomic<int> done{0};
    QElapsedTimer t;
    t.start();
    for (int c = 0; c < clients; ++c) {
        threads.push_back(QThread::create([&, c] {
            QTcpSocket s;
            s.connectToHost(QStringLiteral("127.0.0.1"), port);
            if (!s.waitForConnected(5000))
                return;
            for (int i = 0; i < requests; ++i) {
                const QByteArray vars = vary ? QByteArray("&variables=%7B%22q%22%3A%22") +
                                                   QByteArray::number(c * requests + i) + "%22%7D"
                                             : QByteArray();
                s.write("GET /v1/prompts/p7?label=production" + vars +
                        " HTTP/1.1\r\nHost: x\r\n\r\n");
                QByteArray reply;
                qsizetype need = -1;
                while (s.waitForReadyRead(10000)) {
                    reply += s.readAll();
                    const qsizetype head = reply.indexOf("\r\n\r\n");
                    if (head < 0)
                        continue;
                    const qsizetype at = reply.indexOf("Content-Length: ");
                    need = head + 4 +
                           reply.mid(at + 16, reply.indexOf('\r', at) - at - 16).toLongLong();
                    if (reply.size() >= need)
                        break;
                }
                if (need < 0 || !reply.startsWith("HTTP/1.1 200"))
                    return;
                ++done;
            }
        }));
        threads.back()->start();
    }
    for (QThread* th : threads) {
        th->wait();
        delete th;
    }
    return done.load() / (t.nsecsElapsed() / 1e9);
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QTemporaryDir dir;
    const QString root = dir.filePath(QStringLiteral("library"));
    if (!makeLibrary(root)) {
        std::printf("# bench_library: could not make a library (is git installed?)\n");
        return 0;
    }
    cliGet(root);
    inProcessGet(root);
    PromptServer server(*PromptLibrary::open(root), {});
    Result<quint16> port = server.start();
    if (!port)
        return 1;
    std::printf("BENCH library_serve_cached %.0f requests/s\n", serve(*port, 4, 500, false));
    std::printf("BENCH library_serve_rendered %.0f requests/s\n", serve(*port, 4, 50, true));
    return 0;
}
