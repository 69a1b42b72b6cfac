#pragma once

#include "core/util/diagnostic.h"

#include <QHash>
#include <QJsonArray>
#include <QString>
#include <QStringList>

#include <vector>

namespace hako::memory {

/// One message of a reply tree. `path` holds the 5-hex-digit ids from the root post down to
/// this message (its own id last), as the seed's ThreadIndexes do.
struct ThreadMessage {
    QString id;
    QStringList path;
    QString author;
    QString text;
    QString createdAt;
};

/// A reply tree that can branch without limit. context(event) gives the chain from the root to
/// the event, never sibling branches. Immutable after loading; safe to read from any thread.
class ThreadIndex {
public:
    /// Loads a JSON file: an array of messages, or `{"messages": [...]}`; each message has
    /// `id`, `path`, `author` (or `user`), `text` (or `content`) and optionally `created_at`.
    static Result<ThreadIndex> load(const QString& file);
    static Result<ThreadIndex> fromJson(const QJsonArray& messages, const QString& origin = {});

    /// True for a 5-digit lower- or upper-case hexadecimal id.
    static bool isValidId(const QString& id);

    const std::vector<ThreadMessage>& messages() const { return m_messages; }
    const ThreadMessage* find(const QString& id) const;
    /// Every message whose path is a prefix of the event's path, root first.
    Result<std::vector<ThreadMessage>> context(const QString& eventId) const;

private:
    std::vector<ThreadMessage> m_messages;
    QHash<QString, int> m_byId;
};

} // namespace hako::memory
