#include "core/promptlog/walcheckpointer_p.h"

#include <algorithm>

namespace hako::promptlog {

WalCheckpointer::WalCheckpointer(sqlite3* writer, QString path)
    : m_writer(writer), m_path(std::move(path))
{
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(m_writer, "PRAGMA page_size", -1, &s, nullptr) == SQLITE_OK &&
        sqlite3_step(s) == SQLITE_ROW) {
        const int64_t page = std::max<int64_t>(sqlite3_column_int64(s, 0), 512);
        m_backgroundFrames = int(kBackgroundBytes / page);
        m_writerFrames = int(kWriterBytes / page);
    }
    sqlite3_finalize(s);
    sqlite3_wal_hook(m_writer, &WalCheckpointer::onCommit, this);
}

WalCheckpointer::~WalCheckpointer()
{
    // From now on the writer checkpoints as SQLite does by itself.
    sqlite3_wal_hook(m_writer, nullptr, nullptr);
    sqlite3_exec(m_writer, "PRAGMA wal_autocheckpoint=1000", nullptr, nullptr, nullptr);
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_one();
    if (m_thread.joinable())
        m_thread.join();
}

int WalCheckpointer::backgroundCheckpoints() const
{
    std::lock_guard lock(m_mutex);
    return m_done;
}

int WalCheckpointer::onCommit(void* self, sqlite3* db, const char* schema, int frames)
{
    auto* c = static_cast<WalCheckpointer*>(self);
    if (frames < c->m_backgroundFrames)
        return SQLITE_OK;
    bool writerDoesIt = frames >= c->m_writerFrames;
    {
        std::lock_guard lock(c->m_mutex);
        writerDoesIt = writerDoesIt || c->m_unavailable;
        if (!writerDoesIt) {
            c->m_wanted = true;
            if (!c->m_thread.joinable())
                c->m_thread = std::thread([c] { c->run(); });
        }
    }
    if (writerDoesIt)
        sqlite3_wal_checkpoint_v2(db, schema, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
    else
        c->m_wake.notify_one();
    return SQLITE_OK; // a checkpoint that could not finish is no error of the commit
}

void WalCheckpointer::run()
{
    sqlite3* db = nullptr;
    const QByteArray path = m_path.toUtf8();
    // A connection learns that the database is in WAL mode by reading it: until then its
    // checkpoints do nothing.
    if (sqlite3_open_v2(path.constData(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX,
                        nullptr) != SQLITE_OK ||
        sqlite3_exec(db, "PRAGMA schema_version", nullptr, nullptr, nullptr) != SQLITE_OK) {
        sqlite3_close_v2(db);
        std::lock_guard lock(m_mutex);
        m_unavailable = true;
        return;
    }
    std::unique_lock lock(m_mutex);
    while (true) {
        m_wake.wait(lock, [this] { return m_wanted || m_stopping; });
        if (m_stopping)
            break;
        m_wanted = false;
        lock.unlock();
        sqlite3_wal_checkpoint_v2(db, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
        lock.lock();
        ++m_done;
    }
    lock.unlock();
    sqlite3_close_v2(db);
}

} // namespace hako::promptlog
