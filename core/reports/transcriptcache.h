#pragma once

#include "core/util/diagnostic.h"

#include <QString>

#include <optional>

namespace hako::reports {

/// Page transcripts (Markdown a vision model wrote for one page image) kept on disk, so a
/// second run sends nothing: one file per (PDF content, page, model) under `folder`, as
/// `<sha256 of the PDF bytes>/<model>/page-<N>.md`. A changed PDF has another hash and is
/// transcribed again; a renamed one is not. Files are written the output-file way (atomic).
/// Reads and writes of different pages may happen from several threads.
class TranscriptCache {
public:
    explicit TranscriptCache(QString folder);

    const QString& folder() const { return m_folder; }

    /// The hex SHA-256 of the file's bytes, or why it cannot be read.
    static Result<QString> fileHash(const QString& path);

    /// The file a transcript of `page` (1-based) by `model` of the PDF whose hash is `sha`
    /// is kept in.
    QString pathFor(const QString& sha, int page, const QString& model) const;
    /// The transcript kept for that key, or nothing.
    std::optional<QString> find(const QString& sha, int page, const QString& model) const;
    /// Keeps `markdown` for that key (replacing an older one).
    Result<bool> store(const QString& sha, int page, const QString& model,
                       const QString& markdown) const;

private:
    QString m_folder;
};

} // namespace hako::reports
