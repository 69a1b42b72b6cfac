// The word-at-a-time test for bytes a JSON string must escape (jsonEscapeBits, used by the trace
// and OTLP readers and the OTLP writer) against looking at each byte: over generated words made
// of the edges (control characters, quotes, backslashes, 0x20, 0x7f, bytes with the top bit
// set), the lowest byte it flags is the first such byte, and it flags none when there is none.
#include "core/util/chars.h"

#include <QRandomGenerator>
#include <QTest>

#include <cstring>

using namespace hako;

class TestChars : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void jsonEscapeBitsFindTheFirstByteToEscape()
    {
        const unsigned char edges[] = {0x00, 0x01, 0x1f, 0x20, 0x21, '"',  '#',  '[',
                                       '\\', ']',  'a',  0x7f, 0x80, 0x9c, 0xa2, 0xff};
        QRandomGenerator rng(20261130);
        int flaggedWords = 0;
        for (int n = 0; n < 200000; ++n) {
            unsigned char bytes[8];
            for (unsigned char& b : bytes)
                b = rng.bounded(3) == 0 ? edges[rng.bounded(int(sizeof edges))]
                                        : static_cast<unsigned char>(rng.bounded(256));
            uint64_t w;
            std::memcpy(&w, bytes, 8);
            for (bool quotes : {false, true}) {
                int first = -1;
                for (int i = 0; i < 8 && first < 0; ++i) {
                    const unsigned char c = bytes[i];
                    if (c < 0x20 || c == '\\' || (quotes && c == '"'))
                        first = i;
                }
                const uint64_t bits = jsonEscapeBits(w, quotes);
                if (first < 0) {
                    QCOMPARE(bits, uint64_t(0));
                } else {
                    QVERIFY(bits != 0);
                    QCOMPARE(__builtin_ctzll(bits) / 8, first);
                    ++flaggedWords;
                }
            }
        }
        QVERIFY(flaggedWords > 1000);
    }
};

QTEST_GUILESS_MAIN(TestChars)
#include "tst_chars.moc"
