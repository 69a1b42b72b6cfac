#include "core/docs/rubyline.h"

#include "core/docs/textnormalizer.h"

namespace hako::docs {

RubyLine layoutRubyLine(QStringView line)
{
    RubyLine out;
    const qsizetype n = line.size();
    out.text.reserve(n);
    out.toDisplay.assign(size_t(n + 1), 0);
    qsizetype mark = -1; // display position after a ｜ marker
    qsizetype i = 0;
    while (i < n) {
        const char16_t c = line[i].unicode();
        if (c == u'｜' && line.indexOf(u'《', i + 1) > i) {
            out.toDisplay[size_t(i)] = out.text.size();
            mark = out.text.size();
            ++i;
            continue;
        }
        if (c == u'《') {
            const qsizetype close = line.indexOf(u'》', i + 1);
            qsizetype base = mark;
            if (base < 0 && !out.text.isEmpty()) {
                // Without a marker the base is the run of same-script characters before 《.
                const Script script = scriptOf(out.text.back().unicode());
                base = out.text.size() - 1;
                while (base > 0 && scriptOf(out.text[base - 1].unicode()) == script)
                    --base;
            }
            if (close > i + 1 && base >= 0 && base < out.text.size()) {
                out.ruby.append(
                    {base, out.text.size() - base, line.sliced(i + 1, close - i - 1).toString()});
                for (qsizetype j = i; j <= close; ++j)
                    out.toDisplay[size_t(j)] = out.text.size();
                mark = -1;
                i = close + 1;
                continue;
            }
        }
        if (c == u'［' && i + 1 < n && line[i + 1] == u'＃') {
            const qsizetype close = line.indexOf(u'］', i + 2);
            if (close > i + 2) { // an empty ［＃］ is the header's example of the notation
                for (qsizetype j = i; j <= close; ++j)
                    out.toDisplay[size_t(j)] = out.text.size();
                i = close + 1;
                continue;
            }
        }
        out.toDisplay[size_t(i)] = out.text.size();
        out.text.append(line[i]);
        ++i;
    }
    out.toDisplay[size_t(n)] = out.text.size();
    return out;
}

} // namespace hako::docs
