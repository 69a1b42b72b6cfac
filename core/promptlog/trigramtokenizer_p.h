#pragma once

// The prompt log's full-text index tokenizer (`hako_trigram`): the trigrams of a text, like
// SQLite's `trigram`, with letters lower-cased — but each distinct trigram of a call only once.
// The index keeps no positions (detail=none), so a trigram said twice adds nothing but the
// cost of saying it: a 2 KB prompt has about 1,400 trigrams and a few hundred distinct ones,
// and handing each to FTS5 was most of the writer's time.
#include <QString>

struct sqlite3;

namespace hako::promptlog {

/// The tokenizer's name, as `CREATE VIRTUAL TABLE … USING fts5(…, tokenize='hako_trigram')`.
inline constexpr const char* kTrigramTokenizer = "hako_trigram";

/// Makes `hako_trigram` known to `db` (every connection that writes or searches an index made
/// with it needs it); false when SQLite's FTS5 is not there.
bool registerTrigramTokenizer(sqlite3* db);

/// How the tokenizer folds a character: what a search term is lower-cased with before it is
/// looked up among the index's trigrams.
QString foldForIndex(const QString& text);

} // namespace hako::promptlog
