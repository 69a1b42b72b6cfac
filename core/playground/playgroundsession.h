#pragma once

#include "core/playground/playgroundprompt.h"
#include "core/playground/playgroundrun.h"
#include "core/util/diagnostic.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <vector>

namespace hako::playground {

/// The last results grid of a session, shaped as PlaygroundResultModel shapes it: `rows` ×
/// `variantLabels.size()` cells of `repeat` calls each, cell (row, variant, r) at
/// `(row × variants + variant) × repeat + r`. A plain value.
struct PlaygroundSessionResults {
    int rows = 0;
    int repeat = 1;
    QStringList variantLabels;
    QStringList rowLabels;
    std::vector<CellResult> cells;

    bool isEmpty() const { return rows == 0 || variantLabels.isEmpty(); }
    /// True when `cells` holds exactly rows × variants × repeat results.
    bool isConsistent() const;
};

/// What a session file's first line tells without reading the rest: enough for the Sessions
/// list. A plain value.
struct PlaygroundSessionHeader {
    QString id;
    QString name;
    QDateTime created;
    QDateTime updated;
    int variants = 0;
    int inputRows = 0;
    QString model; ///< the first variant's model ("" when none)
};

/// One playground session as it is kept between runs of the workbench: its identity and the
/// name the user gives it, the variants, where they came from (a program's model block, when
/// opened from one), the input rows, the repeat count and the last results. A plain value;
/// copy it freely between threads.
struct PlaygroundSession {
    /// The file format written by toJson(); fromJson() refuses newer ones.
    static constexpr int kFormatVersion = 1;

    QString id; ///< a UUID without braces; the file name is `<id>.json`
    QString name;
    QDateTime created;
    QDateTime updated;
    QList<PlaygroundPrompt> variants;
    QString programPath; ///< "" when the prompt did not come from a program
    SourceSpan span;     ///< the model block in programPath (invalid when none)
    QList<QJsonObject> inputRows;
    int repeat = 1;
    PlaygroundSessionResults results;

    /// A new empty session: a fresh id, created and updated now, no name.
    static PlaygroundSession create();

    PlaygroundSessionHeader header() const;

    /// The session as its file holds it (UTF-8 JSON, an object): the first line is
    /// `{"header":{…},` with the header in compact form, so that readHeader() needs only that
    /// line. Parameters that choose a server or carry credentials (isSecretParameter()) are
    /// never written, at any depth, and neither is PlaygroundPrompt::droppedServer.
    QByteArray toJson() const;
    /// Reads a file's bytes; an error says why (not JSON, not UTF-8, a newer format, a field of
    /// the wrong type). Calls still running when the session was saved come back cancelled.
    static Result<PlaygroundSession> fromJson(const QByteArray& bytes);
    /// The header from the first line of a file written by toJson() (`firstLine` without its
    /// newline); an error when that line is not such a header.
    static Result<PlaygroundSessionHeader> readHeader(const QByteArray& firstLine);

    /// True for a parameter name that chooses a server or carries a credential (`api_key`,
    /// `base_url`, `api_base`, `api_version`, `Authorization`, `headers`, `…_secret`,
    /// `…password`, `access_token`, …), compared case-insensitively without `_` and `-`.
    static bool isSecretParameter(const QString& name);
    /// `parameters` without secret ones (isSecretParameter()), nested objects included.
    static QJsonObject withoutSecrets(const QJsonObject& parameters);
};

} // namespace hako::playground
