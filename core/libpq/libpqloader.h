#pragma once

#include <QString>

namespace hako {

/// The PostgreSQL client library is loaded when a PostgreSQL prompt log or evaluation store is
/// first opened, not when Hako starts: linking it pulled some twenty libraries (LDAP, Kerberos,
/// GnuTLS, OpenSSL, …) into every command, a fifth of `hako run`'s start-up, for the few users
/// who keep their log in PostgreSQL.
///
/// The `PQ…` functions the backends call are thin forwarders, private to the library that
/// links this file (hidden visibility), to the real ones of `libpq.so.5`. Call loadLibpq() before
/// the first of them; until it succeeded they must not be called.
///
/// Loads the library (once per process; `HAKO_LIBPQ` names another file, for tests). False, with
/// a sentence that says what to install, when it cannot be loaded. Thread-safe.
bool loadLibpq(QString* error = nullptr);

/// Whether the library has been loaded in this process (for tests).
bool libpqLoaded();

} // namespace hako
