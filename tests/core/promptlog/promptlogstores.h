#pragma once

// What the prompt log's tests share: calls to record, and a fresh log on either store (a SQLite
// file, or a database of the PostgreSQL server the test starts in a temporary folder; skipped,
// with the reason, when the server binaries are missing).
#include "tests/support/pgtestserver.h"

#include "core/promptlog/promptlog.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace promptlogtest {

using namespace hako::promptlog;

inline const int64_t kNow = QDateTime::currentMSecsSinceEpoch();

inline QJsonArray chat(const QString& system, const QString& user)
{
    return QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("system")},
                                  {QStringLiteral("content"), system}},
                      QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                  {QStringLiteral("content"), user}}};
}

/// A short call of `prompt` on `model`.
inline CallRecord simpleCall(const QString& prompt, const QString& model, int64_t startedAt)
{
    CallRecord c;
    c.promptName = prompt;
    c.model = model;
    c.runId = QStringLiteral("run-x");
    c.startedAt = startedAt;
    c.messages = chat(QStringLiteral("sys"), QStringLiteral("hello"));
    c.reply = QStringLiteral("ok");
    c.promptTokens = 10;
    c.completionTokens = 5;
    c.latencyMs = 100;
    return c;
}

/// A file at `path` where a store's folder should be, so that the store cannot be created.
inline bool makeBlocker(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly);
}

/// A test's stores: a test class derives from QObject and then this.
class PromptLogStores {
protected:
    QTemporaryDir m_dir;
    PgTestServer m_pg;
    bool m_pgUp = false;
    QString m_pgSkip;
    QString m_lastError;
    int m_n = 0;

    std::unique_ptr<PromptLog> freshLog(const QString& backend, PromptLogOptions options = {})
    {
        options.batchIntervalMs = 20;
        options.retryIntervalMs = 100;
        QString spec;
        ++m_n;
        if (backend == QLatin1String("postgresql")) {
            spec = m_pg.createDatabase(QStringLiteral("t%1").arg(m_n));
            if (spec.isEmpty()) {
                m_lastError = QStringLiteral("createdb failed: ") + m_pg.lastOutput();
                return nullptr;
            }
        } else {
            spec = m_dir.filePath(QStringLiteral("log%1.sqlite").arg(m_n));
        }
        QString error;
        auto log = PromptLog::open(spec, &error, std::move(options));
        m_lastError = error;
        if (!error.isEmpty())
            return nullptr;
        return log;
    }

    static void addBackends()
    {
        QTest::addColumn<QString>("backend");
        QTest::newRow("sqlite") << QStringLiteral("sqlite");
        QTest::newRow("postgresql") << QStringLiteral("postgresql");
    }

    /// Starts the PostgreSQL server (initTestCase()).
    void startStores()
    {
        QVERIFY(m_dir.isValid());
        m_pgUp = m_pg.start();
        m_pgSkip = m_pg.skipReason();
        if (!m_pgUp)
            qWarning("PostgreSQL cases skipped: %s", qPrintable(m_pgSkip));
    }
};

} // namespace promptlogtest

#define FRESH_LOG(var, ...)                                                                        \
    QFETCH(QString, backend);                                                                      \
    if (backend == QLatin1String("postgresql") && !m_pgUp)                                         \
        QSKIP(qPrintable(m_pgSkip));                                                               \
    auto var = freshLog(backend, ##__VA_ARGS__);                                                   \
    QVERIFY2(var, qPrintable(m_lastError));
