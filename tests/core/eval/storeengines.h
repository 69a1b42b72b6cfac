#pragma once

// The evaluation store's tests run each case against both engines: a SQLite file in a
// temporary folder, and a database of a PostgreSQL server the test starts itself. A data row
// per engine (addEngines()); STORE_SPEC(var) gives a new, empty store's path or URL, or skips
// the PostgreSQL row — only when the server's binaries are not installed.
#include "tests/support/pgtestserver.h"

#include <QString>
#include <QTemporaryDir>
#include <QTest>

class StoreEngines {
public:
    /// Starts the PostgreSQL server (in initTestCase); false with why() when it is installed
    /// but could not be started (the test then fails: skipping is for a machine without it).
    bool start()
    {
        m_pgUp = m_pg.start();
        if (!m_pgUp && m_pg.binariesMissing())
            qWarning("PostgreSQL cases skipped: %s", qPrintable(m_pg.skipReason()));
        return m_pgUp || m_pg.binariesMissing();
    }
    QString why() const { return m_pg.skipReason(); }
    bool postgresUp() const { return m_pgUp; }
    QString skipReason() const { return m_pg.skipReason(); }

    static void addEngines()
    {
        QTest::addColumn<QString>("engine");
        QTest::newRow("sqlite") << QStringLiteral("sqlite");
        QTest::newRow("postgresql") << QStringLiteral("postgresql");
    }

    /// A new, empty store of `engine`: a file path or a database URL ("" when it could not
    /// be made).
    QString freshSpec(const QString& engine)
    {
        ++m_n;
        if (engine == QLatin1String("postgresql"))
            return m_pg.createDatabase(QStringLiteral("eval%1").arg(m_n));
        return m_dir.filePath(QStringLiteral("eval%1.sqlite").arg(m_n));
    }
    QString folder() const { return m_dir.path(); }
    /// Stops the PostgreSQL server (fast: connections are cut) and starts it again.
    bool restartPostgres() { return m_pg.stop() && m_pg.startServer(); }

private:
    QTemporaryDir m_dir;
    PgTestServer m_pg;
    bool m_pgUp = false;
    int m_n = 0;
};

// In a case with addEngines() data: `var` is a new store's spec, or the case skips (PostgreSQL
// not installed) or fails (the database could not be made).
#define STORE_SPEC(engines, var)                                                                   \
    QFETCH(QString, engine);                                                                       \
    if (engine == QLatin1String("postgresql") && !(engines).postgresUp())                          \
        QSKIP(qPrintable((engines).skipReason()));                                                 \
    const QString var = (engines).freshSpec(engine);                                               \
    QVERIFY2(!var.isEmpty(), "could not make a new store");
