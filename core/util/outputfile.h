#pragma once

#include <QByteArray>
#include <QString>

#include <memory>

class QIODevice;

namespace hako {

/// What a path given as an output (`--trace FILE`, a file aggregator, `memory export FILE`)
/// names, which decides how it is written.
enum class OutputKind {
    Regular, ///< a regular file, or nothing yet: saved atomically (QSaveFile)
    Stream,  ///< a character device or FIFO (/dev/null, /dev/stdout, a pipe): written in place
    Refused  ///< a folder, block device or socket: never written
};

/// Who may read a file or folder the rule creates. A file that exists already keeps its
/// permissions either way.
enum class NewFileAccess {
    /// Files 0600, folders made for them 0700: logs, traces, reports, exports, recovery copies,
    /// settings — anything that may hold prompts, replies or keys.
    Private,
    /// 0666 and 0777 less the umask: programs and examples the user edits and shares.
    Shared
};

/// Classifies `path`, following symbolic links. For Refused, `reason` says why ("it is a
/// folder").
OutputKind outputKind(const QString& path, QString* reason = nullptr);

/// A file written the output-file way piece by piece, for exports too big to build in memory:
/// writeOutputFile() and appendOutputFile() are this class with one write. Replace writes a
/// regular file atomically (QSaveFile: the old content stays until commit(); through a symbolic
/// link the target is replaced, never the link), Append appends to it in place; a character
/// device or FIFO is written in place (a FIFO nobody reads is an error, not a wait; a reader
/// that goes away is a write error, not SIGPIPE); a folder, socket or block device is refused.
/// A new regular file gets the permissions of `access` before any byte is written.
/// Use from one thread. Destroyed without commit(), a regular file keeps its old content.
class OutputFile {
public:
    enum class Mode { Replace, Append };
    explicit OutputFile(const QString& path, Mode mode = Mode::Replace,
                        NewFileAccess access = NewFileAccess::Private);
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    /// Opens the file; false with `error` saying why ("it is a folder").
    bool open(QString* error);
    /// Where to write between open() and commit(); owned by this object.
    QIODevice* device() const;
    /// Finishes: a replaced file takes its new content now. False with `error` when any write
    /// failed ("No space left on device").
    bool commit(QString* error);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

/// Writes `data` to `path`: a regular file atomically (the old content stays until the new one
/// is complete; a device node is never replaced by a regular file), a character device or FIFO
/// in place (`--trace /dev/null` discards), anything else refused. A FIFO nobody reads is an
/// error, not a wait. On failure returns false with `error` saying why ("No space left on
/// device").
bool writeOutputFile(const QString& path, const QByteArray& data, QString* error,
                     NewFileAccess access = NewFileAccess::Private);

/// Appends `data` to `path` (created when missing): for file aggregators with `mode: append`
/// and for streams. Same refusals as writeOutputFile().
bool appendOutputFile(const QString& path, const QByteArray& data, QString* error,
                      NewFileAccess access = NewFileAccess::Private);

/// Creates the folder `path` and its missing parents, each new one 0700 for Private (folders
/// that exist keep their permissions). False with `error` when a part cannot be created or is
/// not a folder.
bool makeOutputFolder(const QString& path, QString* error,
                      NewFileAccess access = NewFileAccess::Private);

/// Creates `path` empty with 0600 (and, with `makeFolders`, its missing folders with 0700) when
/// it does not exist, so that a database opened on it next is private from its first byte:
/// SQLite gives its -wal and -shm files the database file's permissions. An existing file is
/// left as it is. Databases are the one kind of file written in place rather than replaced.
bool createPrivateFile(const QString& path, QString* error, bool makeFolders = true);

} // namespace hako
