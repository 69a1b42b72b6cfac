#include "core/promptlog/trigramtokenizer_p.h"

#include <sqlite3.h>

#include <QChar>
#include <QList>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace hako::promptlog {

namespace {

char32_t fold(char32_t c)
{
    if (c < 0x80)
        return c >= 'A' && c <= 'Z' ? c + 32 : c;
    return QChar::toLower(c);
}

// One character of UTF-8 at `p` (before `end`); `*length` its bytes. A byte that begins no
// valid sequence is a character of its own (the text is SQLite's, normally valid).
char32_t decode(const unsigned char* p, const unsigned char* end, int* length)
{
    const unsigned char b = p[0];
    int n = 1;
    char32_t c = b;
    if (b >= 0xC0 && b < 0xE0) {
        n = 2;
        c = b & 0x1F;
    } else if (b >= 0xE0 && b < 0xF0) {
        n = 3;
        c = b & 0x0F;
    } else if (b >= 0xF0 && b < 0xF8) {
        n = 4;
        c = b & 0x07;
    }
    if (n > 1) {
        if (end - p < n) {
            *length = 1;
            return b;
        }
        for (int i = 1; i < n; ++i) {
            if ((p[i] & 0xC0) != 0x80) {
                *length = 1;
                return b;
            }
            c = (c << 6) | (p[i] & 0x3F);
        }
    }
    *length = n;
    return c;
}

int encode(char32_t c, char* out)
{
    if (c < 0x80) {
        out[0] = char(c);
        return 1;
    }
    if (c < 0x800) {
        out[0] = char(0xC0 | (c >> 6));
        out[1] = char(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        out[0] = char(0xE0 | (c >> 12));
        out[1] = char(0x80 | ((c >> 6) & 0x3F));
        out[2] = char(0x80 | (c & 0x3F));
        return 3;
    }
    out[0] = char(0xF0 | (c >> 18));
    out[1] = char(0x80 | ((c >> 12) & 0x3F));
    out[2] = char(0x80 | ((c >> 6) & 0x3F));
    out[3] = char(0x80 | (c & 0x3F));
    return 4;
}

// The trigrams a document has given so far: open addressing over the three characters packed
// in 63 bits, emptied for the next document by a new generation rather than by clearing.
class SeenSet {
public:
    void start(size_t characters)
    {
        size_t want = 64;
        while (want < characters * 2)
            want *= 2;
        if (want > m_slots.size()) {
            m_slots.assign(want, Slot());
            m_generation = 0;
        }
        if (++m_generation == 0) { // wrapped: old marks would look current
            std::fill(m_slots.begin(), m_slots.end(), Slot());
            m_generation = 1;
        }
    }
    /// True the first time `key` is seen in this document.
    bool insert(uint64_t key)
    {
        const size_t mask = m_slots.size() - 1;
        size_t i = size_t((key * 0x9E3779B97F4A7C15ULL) >> 20) & mask;
        for (;;) {
            Slot& s = m_slots[i];
            if (s.generation != m_generation) {
                s = {key, m_generation};
                return true;
            }
            if (s.key == key)
                return false;
            i = (i + 1) & mask;
        }
    }

private:
    struct Slot {
        uint64_t key = 0;
        uint32_t generation = 0;
    };
    std::vector<Slot> m_slots;
    uint32_t m_generation = 0;
};

using TokenCallback = int (*)(void*, int, const char*, int, int, int);

int tokenize(Fts5Tokenizer*, void* context, int flags, const char* text, int bytes,
             TokenCallback token)
{
    const auto* begin = reinterpret_cast<const unsigned char*>(text);
    const auto* end = begin + std::max(bytes, 0);
    // Only a stored document may drop repeats: a query's phrase keeps its trigrams as given.
    const bool distinct = (flags & FTS5_TOKENIZE_DOCUMENT) != 0;
    thread_local SeenSet seenHere;
    SeenSet& seen = seenHere; // the thread's set looked up once, not per character
    if (distinct)
        seen.start(size_t(end - begin));
    constexpr uint64_t kMask = (uint64_t(1) << 63) - 1;
    uint64_t key = 0; // the last three characters, 21 bits each
    int starts[3] = {0, 0, 0};
    int have = 0;
    for (const unsigned char* p = begin; p < end;) {
        char32_t c = *p;
        int length = 1;
        if (c < 0x80) {
            if (c >= 'A' && c <= 'Z')
                c += 32;
        } else {
            c = decode(p, end, &length);
            // Kana and CJK ideographs have no case: no need to ask Qt.
            if (c < 0x3000 || c >= 0xA000)
                c = fold(c);
        }
        key = ((key << 21) | c) & kMask;
        starts[0] = starts[1];
        starts[1] = starts[2];
        starts[2] = int(p - begin);
        p += length;
        if (++have < 3 || (distinct && !seen.insert(key)))
            continue;
        char utf8[12];
        int n = encode(char32_t(key >> 42), utf8);
        n += encode(char32_t((key >> 21) & 0x1FFFFF), utf8 + n);
        n += encode(char32_t(key & 0x1FFFFF), utf8 + n);
        if (const int rc = token(context, 0, utf8, n, starts[0], int(p - begin)); rc != SQLITE_OK)
            return rc;
    }
    return SQLITE_OK;
}

int create(void*, const char**, int, Fts5Tokenizer** out)
{
    static int instance = 0; // the tokenizer keeps no state of its own
    *out = reinterpret_cast<Fts5Tokenizer*>(&instance);
    return SQLITE_OK;
}

void destroy(Fts5Tokenizer*) {}

} // namespace

bool registerTrigramTokenizer(sqlite3* db)
{
    fts5_api* api = nullptr;
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &s, nullptr) != SQLITE_OK)
        return false;
    sqlite3_bind_pointer(s, 1, static_cast<void*>(&api), "fts5_api_ptr", nullptr);
    sqlite3_step(s);
    sqlite3_finalize(s);
    if (!api || api->iVersion < 2)
        return false;
    fts5_tokenizer tokenizer{create, destroy, tokenize};
    return api->xCreateTokenizer(api, kTrigramTokenizer, nullptr, &tokenizer, nullptr) == SQLITE_OK;
}

QString foldForIndex(const QString& text)
{
    const QList<uint> points = text.toUcs4();
    std::u32string folded;
    folded.reserve(size_t(points.size()));
    for (uint c : points)
        folded.push_back(fold(char32_t(c)));
    return QString::fromUcs4(folded.data(), qsizetype(folded.size()));
}

} // namespace hako::promptlog
