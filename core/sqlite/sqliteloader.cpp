// SQLite's functions for the floors that keep a SQLite file (the prompt log, agent memory, the
// evaluation store), loaded on the first call rather than when Hako starts: libsqlite3 is
// bound at load (Debian builds it with BIND_NOW) and a command that opens no store (`hako run`
// of a program calling no model, `hako check`) should not pay for it. Each forwarder below has
// the name of SQLite's own function, is private to the library that links this file (hidden
// visibility), and resolves the real one on its first call.
#include <sqlite3.h>

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace {

void* sqliteLibrary()
{
    static void* handle = nullptr;
    static std::once_flag once;
    std::call_once(once, [] {
        handle = dlopen("libsqlite3.so.0", RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            // SQLite is a dependency of the package: without it no store can work at all.
            const char* why = dlerror();
            std::fprintf(stderr,
                         "hako: cannot load SQLite (%s); install the libsqlite3-0 package\n",
                         why ? why : "libsqlite3.so.0");
            std::abort();
        }
        // No memory statistics (Hako reads none): with them every allocation SQLite makes
        // takes a global mutex, 3% of `hako serve --otlp`'s time. Only possible before SQLite
        // is initialised; a second library loading it finds it done (SQLITE_MISUSE, harmless).
        if (auto config = reinterpret_cast<int (*)(int, ...)>(dlsym(handle, "sqlite3_config")))
            config(SQLITE_CONFIG_MEMSTATUS, 0);
    });
    return handle;
}

void* sqliteSymbol(const char* name)
{
    void* f = dlsym(sqliteLibrary(), name);
    if (!f) {
        std::fprintf(stderr, "hako: SQLite has no %s; install a newer libsqlite3-0\n", name);
        std::abort();
    }
    return f;
}

} // namespace

#define HAKO_SQLITE(ret, name, params, args)                                                       \
    extern "C" ret name params                                                                     \
    {                                                                                              \
        static const auto real = reinterpret_cast<ret(*) params>(sqliteSymbol(#name));             \
        return real args;                                                                          \
    }

using Destructor = void (*)(void*);
using ExecCallback = int (*)(void*, int, char**, char**);

HAKO_SQLITE(int, sqlite3_open, (const char* filename, sqlite3** db), (filename, db))
HAKO_SQLITE(int, sqlite3_open_v2, (const char* filename, sqlite3** db, int flags, const char* vfs),
            (filename, db, flags, vfs))
HAKO_SQLITE(int, sqlite3_close, (sqlite3 * db), (db))
HAKO_SQLITE(int, sqlite3_close_v2, (sqlite3 * db), (db))
HAKO_SQLITE(int, sqlite3_busy_timeout, (sqlite3 * db, int ms), (db, ms))
HAKO_SQLITE(int, sqlite3_extended_result_codes, (sqlite3 * db, int onoff), (db, onoff))
HAKO_SQLITE(int, sqlite3_exec,
            (sqlite3 * db, const char* sql, ExecCallback callback, void* arg, char** errmsg),
            (db, sql, callback, arg, errmsg))
HAKO_SQLITE(void, sqlite3_free, (void* p), (p))
HAKO_SQLITE(const char*, sqlite3_errmsg, (sqlite3 * db), (db))
HAKO_SQLITE(int, sqlite3_errcode, (sqlite3 * db), (db))
HAKO_SQLITE(int, sqlite3_changes, (sqlite3 * db), (db))
HAKO_SQLITE(sqlite3_int64, sqlite3_last_insert_rowid, (sqlite3 * db), (db))
HAKO_SQLITE(int, sqlite3_prepare_v2,
            (sqlite3 * db, const char* sql, int bytes, sqlite3_stmt** stmt, const char** tail),
            (db, sql, bytes, stmt, tail))
HAKO_SQLITE(int, sqlite3_prepare_v3,
            (sqlite3 * db, const char* sql, int bytes, unsigned int flags, sqlite3_stmt** stmt,
             const char** tail),
            (db, sql, bytes, flags, stmt, tail))
HAKO_SQLITE(int, sqlite3_step, (sqlite3_stmt * stmt), (stmt))
using WalHook = int (*)(void*, sqlite3*, const char*, int);
HAKO_SQLITE(void*, sqlite3_wal_hook, (sqlite3 * db, WalHook hook, void* arg), (db, hook, arg))
HAKO_SQLITE(int, sqlite3_wal_checkpoint_v2,
            (sqlite3 * db, const char* schema, int mode, int* frames, int* done),
            (db, schema, mode, frames, done))
HAKO_SQLITE(int, sqlite3_reset, (sqlite3_stmt * stmt), (stmt))
HAKO_SQLITE(int, sqlite3_finalize, (sqlite3_stmt * stmt), (stmt))
HAKO_SQLITE(int, sqlite3_clear_bindings, (sqlite3_stmt * stmt), (stmt))
HAKO_SQLITE(int, sqlite3_bind_null, (sqlite3_stmt * stmt, int i), (stmt, i))
HAKO_SQLITE(int, sqlite3_bind_int64, (sqlite3_stmt * stmt, int i, sqlite3_int64 v), (stmt, i, v))
HAKO_SQLITE(int, sqlite3_bind_double, (sqlite3_stmt * stmt, int i, double v), (stmt, i, v))
HAKO_SQLITE(int, sqlite3_bind_text,
            (sqlite3_stmt * stmt, int i, const char* text, int bytes, Destructor destroy),
            (stmt, i, text, bytes, destroy))
HAKO_SQLITE(int, sqlite3_bind_blob,
            (sqlite3_stmt * stmt, int i, const void* data, int bytes, Destructor destroy),
            (stmt, i, data, bytes, destroy))
HAKO_SQLITE(int, sqlite3_bind_pointer,
            (sqlite3_stmt * stmt, int i, void* pointer, const char* type, Destructor destroy),
            (stmt, i, pointer, type, destroy))
HAKO_SQLITE(int, sqlite3_column_count, (sqlite3_stmt * stmt), (stmt))
HAKO_SQLITE(int, sqlite3_column_type, (sqlite3_stmt * stmt, int i), (stmt, i))
HAKO_SQLITE(int, sqlite3_column_int, (sqlite3_stmt * stmt, int i), (stmt, i))
HAKO_SQLITE(sqlite3_int64, sqlite3_column_int64, (sqlite3_stmt * stmt, int i), (stmt, i))
HAKO_SQLITE(double, sqlite3_column_double, (sqlite3_stmt * stmt, int i), (stmt, i))
HAKO_SQLITE(const unsigned char*, sqlite3_column_text, (sqlite3_stmt * stmt, int i), (stmt, i))
HAKO_SQLITE(const void*, sqlite3_column_blob, (sqlite3_stmt * stmt, int i), (stmt, i))
HAKO_SQLITE(int, sqlite3_column_bytes, (sqlite3_stmt * stmt, int i), (stmt, i))
