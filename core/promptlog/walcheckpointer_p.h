#pragma once

// Moves a SQLite log's write-ahead log back into its database on a thread of its own, so that
// the writer's commits do not wait for it.
#include <QString>

#include <sqlite3.h>

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

namespace hako::promptlog {

/// Takes over the checkpoints of the connection that writes a SQLite log (its `wal_hook`, which
/// is SQLite's own automatic checkpoint): once a commit leaves kBackgroundBytes of pages in the
/// write-ahead log, a second connection on a thread of its own copies them into the database
/// (a passive checkpoint: it never blocks the writer nor a reader), while the writer goes on
/// with its next batch. The log still cannot grow without bound: a commit that leaves
/// kWriterBytes (the checkpointer cannot keep up, or a reader holds old pages) is
/// checkpointed by the writer itself, as before; so is every commit when the second connection
/// cannot be opened. What a killed process leaves is what SQLite's WAL always leaves: committed
/// batches, whether or not they were copied yet.
///
/// Create and destroy it on the writer's thread; it must not outlive the writer's connection.
class WalCheckpointer {
public:
    // In bytes, whatever the log's page size (SQLite's own automatic checkpoint is at 1,000
    // pages: 4 MB of 4 KB pages).
    static constexpr int64_t kBackgroundBytes = 4 << 20;
    static constexpr int64_t kWriterBytes = 64 << 20;

    WalCheckpointer(sqlite3* writer, QString path);
    ~WalCheckpointer();
    WalCheckpointer(const WalCheckpointer&) = delete;
    WalCheckpointer& operator=(const WalCheckpointer&) = delete;

    /// Checkpoints the background thread has run (tests).
    int backgroundCheckpoints() const;

private:
    static int onCommit(void* self, sqlite3* db, const char* schema, int frames);
    void run();

    sqlite3* m_writer;
    const QString m_path;
    int m_backgroundFrames = 1000; // the thresholds in pages of the log's size
    int m_writerFrames = 16384;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_wanted = false;
    bool m_stopping = false;
    bool m_unavailable = false; // the second connection could not be opened
    int m_done = 0;
    std::thread m_thread; // started by the first commit that wants a checkpoint
};

} // namespace hako::promptlog
