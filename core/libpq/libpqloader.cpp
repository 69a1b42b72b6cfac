#include "core/libpq/libpqloader.h"

#include <libpq-fe.h>

#include <QCoreApplication>

#include <atomic>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

namespace hako {

namespace {

struct Library {
    std::once_flag once;
    void* handle = nullptr;
    QString error;
    std::atomic<bool> loaded{false};
};

Library& library()
{
    static Library lib;
    return lib;
}

void* symbol(const char* name)
{
    // Only reached after loadLibpq() succeeded: every forwarder's symbol exists in libpq 9.x+.
    return dlsym(library().handle, name);
}

} // namespace

bool loadLibpq(QString* error)
{
    Library& lib = library();
    std::call_once(lib.once, [&lib] {
        const char* custom = std::getenv("HAKO_LIBPQ");
        const char* file = custom && *custom ? custom : "libpq.so.5";
        lib.handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
        if (!lib.handle) {
            const char* reason = dlerror();
            lib.error = QCoreApplication::translate(
                            "hako::LibPq",
                            "PostgreSQL needs its client library, which could not be loaded "
                            "(%1). Install the libpq5 package, or keep the log in a SQLite file.")
                            .arg(QString::fromLocal8Bit(reason ? reason : file));
            return;
        }
        lib.loaded.store(true);
    });
    if (!lib.loaded.load() && error)
        *error = lib.error;
    return lib.loaded.load();
}

bool libpqLoaded()
{
    return library().loaded.load();
}

} // namespace hako

// The forwarders: each resolves its function once, on first use.
#define HAKO_PQ(ret, name, params, args)                                                           \
    extern "C" ret name params                                                                     \
    {                                                                                              \
        static const auto real = reinterpret_cast<ret(*) params>(hako::symbol(#name));             \
        return real args;                                                                          \
    }

HAKO_PQ(PGconn*, PQconnectdbParams,
        (const char* const* keywords, const char* const* values, int expand_dbname),
        (keywords, values, expand_dbname))
HAKO_PQ(ConnStatusType, PQstatus, (const PGconn* conn), (conn))
HAKO_PQ(void, PQfinish, (PGconn * conn), (conn))
HAKO_PQ(char*, PQerrorMessage, (const PGconn* conn), (conn))
HAKO_PQ(int, PQsetClientEncoding, (PGconn * conn, const char* encoding), (conn, encoding))
HAKO_PQ(int, PQsetnonblocking, (PGconn * conn, int arg), (conn, arg))
HAKO_PQ(PQnoticeProcessor, PQsetNoticeProcessor, (PGconn * conn, PQnoticeProcessor proc, void* arg),
        (conn, proc, arg))
HAKO_PQ(int, PQsocket, (const PGconn* conn), (conn))
HAKO_PQ(PGresult*, PQexec, (PGconn * conn, const char* query), (conn, query))
HAKO_PQ(PGresult*, PQexecParams,
        (PGconn * conn, const char* command, int nParams, const Oid* paramTypes,
         const char* const* paramValues, const int* paramLengths, const int* paramFormats,
         int resultFormat),
        (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat))
HAKO_PQ(int, PQsendQuery, (PGconn * conn, const char* query), (conn, query))
HAKO_PQ(int, PQsendQueryParams,
        (PGconn * conn, const char* command, int nParams, const Oid* paramTypes,
         const char* const* paramValues, const int* paramLengths, const int* paramFormats,
         int resultFormat),
        (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat))
HAKO_PQ(int, PQconsumeInput, (PGconn * conn), (conn))
HAKO_PQ(int, PQisBusy, (PGconn * conn), (conn))
HAKO_PQ(int, PQflush, (PGconn * conn), (conn))
HAKO_PQ(PGresult*, PQgetResult, (PGconn * conn), (conn))
HAKO_PQ(ExecStatusType, PQresultStatus, (const PGresult* res), (res))
HAKO_PQ(char*, PQresultErrorMessage, (const PGresult* res), (res))
HAKO_PQ(void, PQclear, (PGresult * res), (res))
HAKO_PQ(int, PQntuples, (const PGresult* res), (res))
HAKO_PQ(int, PQnfields, (const PGresult* res), (res))
HAKO_PQ(char*, PQgetvalue, (const PGresult* res, int tup_num, int field_num),
        (res, tup_num, field_num))
HAKO_PQ(int, PQgetlength, (const PGresult* res, int tup_num, int field_num),
        (res, tup_num, field_num))
HAKO_PQ(int, PQgetisnull, (const PGresult* res, int tup_num, int field_num),
        (res, tup_num, field_num))
HAKO_PQ(char*, PQcmdTuples, (PGresult * res), (res))
