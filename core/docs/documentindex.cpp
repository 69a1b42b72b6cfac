#include "core/docs/documentindex.h"

#include <algorithm>

namespace hako::docs {

namespace {

inline bool isSentenceEnd(QStringView s, qsizetype i)
{
    const char16_t c = s[i].unicode();
    if (c == u'。' || c == u'!' || c == u'?' || c == u'．')
        return true;
    // A full stop ends an English sentence only before a space or the end of the line.
    if (c == u'.')
        return i + 1 >= s.size() || s[i + 1].isSpace();
    return false;
}

inline bool isCloser(char16_t c)
{
    switch (c) {
    case u'」':
    case u'』':
    case u'）':
    case u')':
    case u']':
    case u'"':
    case u'\'':
    case u'”':
    case u'’':
    case u'】':
    case u'〉':
    case u'》':
    case u'!':
    case u'?':
    case u'。':
        return true;
    default:
        return false;
    }
}

inline bool isSoftBreak(char16_t c)
{
    return c == u'、' || c == u',' || c == u' ' || c == u'・';
}

// The position `count` characters after `from` (at most `end`), not counting the \r of CRLF
// line ends, which the search copy keeps: a CRLF document is cut where its LF version is.
qsizetype advance(QStringView s, qsizetype from, qsizetype end, qsizetype count)
{
    qsizetype p = from;
    for (; p < end && count > 0; ++p) {
        if (s[p].unicode() != u'\r')
            --count;
    }
    return p;
}

// Cuts [start, end) of `s` into pieces of at most `maxLen`, preferring to cut after a comma in
// the last third of a piece.
void cutLong(QStringView s, qsizetype start, qsizetype end, qsizetype maxLen,
             std::vector<std::pair<qsizetype, qsizetype>>& out)
{
    while (true) {
        const qsizetype limit = advance(s, start, end, maxLen);
        if (limit >= end)
            break;
        const qsizetype floor = advance(s, start, limit, maxLen * 2 / 3);
        qsizetype cut = limit;
        for (qsizetype j = limit; j > floor; --j) {
            if (isSoftBreak(s[j - 1].unicode())) {
                cut = j;
                break;
            }
        }
        // Never split a surrogate pair.
        if (QChar::isLowSurrogate(s[cut].unicode()))
            --cut;
        out.emplace_back(start, cut);
        start = cut;
    }
    if (end > start)
        out.emplace_back(start, end);
}

} // namespace

std::shared_ptr<const DocumentIndex> DocumentIndex::build(std::shared_ptr<const Document> document,
                                                          const IndexOptions& options,
                                                          const CancelToken& cancel,
                                                          const Progress& progress)
{
    auto index = std::shared_ptr<DocumentIndex>(new DocumentIndex);
    index->m_document = std::move(document);
    index->m_options = options;
    if (index->m_document->isAozora())
        index->m_options.normalize.aozora = true;
    if (progress)
        progress(0);
    index->m_norm = normalizeText(index->m_document->text(), index->m_options.normalize);
    if (cancel.isCancelled())
        return nullptr;
    if (progress)
        progress(70);
    index->buildUnits();
    if (cancel.isCancelled())
        return nullptr;
    if (progress)
        progress(90);
    index->buildVariants();
    if (progress)
        progress(100);
    return index;
}

void DocumentIndex::addUnit(qsizetype line, qsizetype origStart, qsizetype origEnd,
                            qsizetype normStart, qsizetype normEnd)
{
    m_units.push_back({uint32_t(line), uint32_t(origStart), uint32_t(origEnd), uint32_t(normStart),
                       uint32_t(normEnd), -1});
}

std::pair<qsizetype, qsizetype> DocumentIndex::unitsOnLine(qsizetype line) const
{
    auto first = std::lower_bound(m_units.begin(), m_units.end(), line,
                                  [](const Packed& u, qsizetype l) { return u.line < l; });
    auto last = std::upper_bound(first, m_units.end(), line,
                                 [](qsizetype l, const Packed& u) { return l < u.line; });
    return {qsizetype(first - m_units.begin()), qsizetype(last - m_units.begin())};
}

void DocumentIndex::buildUnits()
{
    const Document& doc = *m_document;
    const QStringView norm(m_norm.text);
    const qsizetype lines = doc.lineCount();
    // Normalised line starts: the search copy keeps one \n per line terminator (after the \r
    // of a CRLF, which is not part of the line).
    std::vector<qsizetype> normLineStart;
    normLineStart.reserve(size_t(lines + 1));
    normLineStart.push_back(0);
    for (qsizetype p = norm.indexOf(u'\n'); p >= 0; p = norm.indexOf(u'\n', p + 1))
        normLineStart.push_back(p + 1);
    auto normLineEnd = [&](qsizetype line) {
        const size_t next = size_t(line);
        if (next >= normLineStart.size())
            return norm.size();
        qsizetype end = normLineStart[next] - 1;
        if (end > normLineStart[next - 1] && norm[end - 1] == u'\r')
            --end;
        return end;
    };
    m_units.clear();
    if (m_options.units == UnitKind::Lines) {
        m_units.reserve(size_t(lines));
        for (qsizetype l = 1; l <= lines; ++l) {
            const LineSpan span = doc.lineSpan(l);
            const qsizetype ns = l - 1 < qsizetype(normLineStart.size())
                                     ? normLineStart[size_t(l - 1)]
                                     : norm.size();
            addUnit(l, span.start, span.start + span.length, ns, std::max(ns, normLineEnd(l)));
        }
        return;
    }
    const qsizetype maxLen = std::max(8, m_options.maxUnitLength);
    std::vector<std::pair<qsizetype, qsizetype>> pieces;
    auto emitPieces = [&](qsizetype firstLine) {
        for (size_t k = 0; k < pieces.size(); ++k) {
            const auto [ns, ne] = pieces[k];
            const qsizetype os = m_norm.map.toOriginal(ns);
            qsizetype line = firstLine;
            if (m_options.units == UnitKind::Paragraphs)
                line = doc.lineAt(os);
            // The original range runs to the next piece of the same line, so readings and
            // notes between two pieces stay visible in one of them.
            const LineSpan span = doc.lineSpan(line);
            qsizetype oe = span.start + span.length;
            if (k + 1 < pieces.size()) {
                const qsizetype nextStart = m_norm.map.toOriginal(pieces[k + 1].first);
                if (nextStart <= oe)
                    oe = nextStart;
            }
            if (m_options.units == UnitKind::Paragraphs && k + 1 >= pieces.size())
                oe = m_norm.map.toOriginal(ne - 1) + 1;
            addUnit(line, os, std::max(os, oe), ns, ne);
        }
        pieces.clear();
    };
    if (m_options.units == UnitKind::Sentences) {
        for (qsizetype l = 1; l <= lines; ++l) {
            const qsizetype ls = normLineStart[size_t(l - 1)];
            const qsizetype le = normLineEnd(l);
            qsizetype start = ls;
            qsizetype i = ls;
            while (i < le) {
                if (isSentenceEnd(norm, i)) {
                    qsizetype e = i + 1;
                    while (e < le && isCloser(norm[e].unicode()))
                        ++e;
                    cutLong(norm, start, e, maxLen, pieces);
                    start = e;
                    i = e;
                } else {
                    ++i;
                }
            }
            // Whitespace-only leftovers make no unit.
            if (start < le && !norm.sliced(start, le - start).trimmed().isEmpty())
                cutLong(norm, start, le, maxLen, pieces);
            emitPieces(l);
        }
        return;
    }
    // Paragraphs: runs of non-blank lines.
    qsizetype l = 1;
    while (l <= lines) {
        const qsizetype ls = normLineStart[size_t(l - 1)];
        if (norm.sliced(ls, normLineEnd(l) - ls).trimmed().isEmpty()) {
            ++l;
            continue;
        }
        qsizetype last = l;
        while (last + 1 <= lines) {
            const qsizetype s = normLineStart[size_t(last)];
            if (norm.sliced(s, normLineEnd(last + 1) - s).trimmed().isEmpty())
                break;
            ++last;
        }
        cutLong(norm, ls, normLineEnd(last), maxLen, pieces);
        emitPieces(l);
        l = last + 1;
    }
}

void DocumentIndex::buildVariants()
{
    m_variantUnits.clear();
    m_variantText.clear();
    m_variantStarts.clear();
    m_variantToNorm.clear();
    const auto& ruby = m_norm.ruby;
    size_t r = 0;
    for (size_t u = 0; u < m_units.size() && r < ruby.size(); ++u) {
        Packed& unit = m_units[u];
        while (r < ruby.size() && ruby[r].normStart < unit.normStart)
            ++r;
        if (r >= ruby.size() || ruby[r].normStart >= unit.normEnd)
            continue;
        auto put = [&](QChar c, qsizetype norm) {
            m_variantText.append(c);
            m_variantToNorm.push_back(uint32_t(norm - qsizetype(unit.normStart)));
        };
        unit.variant = int(m_variantStarts.size());
        m_variantStarts.push_back(m_variantText.size());
        qsizetype p = unit.normStart;
        while (r < ruby.size() && ruby[r].normStart < unit.normEnd) {
            const RubySpan& span = ruby[r];
            for (; p < span.normStart; ++p)
                put(m_norm.text[p], p);
            for (QChar c : span.reading)
                put(c, span.normStart);
            p = std::max(p, std::min<qsizetype>(span.normEnd, unit.normEnd));
            ++r;
        }
        for (; p < unit.normEnd; ++p)
            put(m_norm.text[p], p);
        put(QLatin1Char('\n'), unit.normEnd);
        m_variantUnits.push_back(qsizetype(u));
    }
    m_variantText.squeeze();
    m_variantToNorm.shrink_to_fit();
}

QStringView DocumentIndex::variantText(int v) const
{
    const qsizetype start = m_variantStarts[size_t(v)];
    const qsizetype end = size_t(v) + 1 < m_variantStarts.size() ? m_variantStarts[size_t(v) + 1]
                                                                 : m_variantText.size();
    return QStringView(m_variantText).sliced(start, end - start - 1);
}

qsizetype DocumentIndex::variantToNorm(const Unit& unit, int v, qsizetype pos) const
{
    return unit.normStart + m_variantToNorm[size_t(m_variantStarts[size_t(v)] + pos)];
}

QStringView DocumentIndex::unitText(qsizetype index) const
{
    const Unit& u = unit(index);
    return QStringView(m_document->text()).sliced(u.origStart, u.origEnd - u.origStart);
}

QStringView DocumentIndex::unitNormText(qsizetype index) const
{
    const Unit& u = unit(index);
    return QStringView(m_norm.text).sliced(u.normStart, u.normEnd - u.normStart);
}

qsizetype DocumentIndex::unitAtNorm(qsizetype pos) const
{
    auto it = std::upper_bound(m_units.begin(), m_units.end(), pos,
                               [](qsizetype p, const Packed& u) { return p < u.normStart; });
    if (it == m_units.begin())
        return 0;
    return qsizetype(it - m_units.begin()) - 1;
}

qsizetype DocumentIndex::unitForLine(qsizetype line) const
{
    auto it = std::lower_bound(m_units.begin(), m_units.end(), line,
                               [](const Packed& u, qsizetype l) { return u.line < l; });
    if (it == m_units.end() || it->line != line)
        return -1;
    return qsizetype(it - m_units.begin());
}

QString DocumentIndex::normalizeTerm(QStringView term) const
{
    return normalizeQuery(term, m_options.normalize);
}

bool DocumentIndex::unitContains(qsizetype index, const QString& term) const
{
    if (unitNormText(index).contains(term))
        return true;
    const int v = unit(index).variant;
    return v >= 0 && variantText(v).contains(term);
}

SearchResult DocumentIndex::search(const QStringList& terms, qsizetype offset, qsizetype limit,
                                   bool countAll) const
{
    SearchResult result;
    if (terms.isEmpty() || m_units.empty())
        return result;
    // Scan for the longest term (usually the rarest) and check the others in each candidate.
    qsizetype lead = 0;
    for (qsizetype t = 1; t < terms.size(); ++t) {
        if (terms[t].size() > terms[lead].size())
            lead = t;
    }
    const QString& first = terms[lead];
    auto allTerms = [&](qsizetype u) {
        for (const QString& t : terms) {
            if (!unitContains(u, t))
                return false;
        }
        return true;
    };
    // Units with ruby may match only through their readings: scan the joined reading variants
    // the same way as the main text.
    std::vector<qsizetype> rubyHits;
    {
        const QStringView vt(m_variantText);
        qsizetype pos = 0;
        qsizetype p;
        while ((p = vt.indexOf(first, pos)) >= 0) {
            const auto it = std::upper_bound(m_variantStarts.begin(), m_variantStarts.end(), p);
            const size_t k = size_t(it - m_variantStarts.begin()) - 1;
            const qsizetype u = m_variantUnits[k];
            if (allTerms(u))
                rubyHits.push_back(u);
            pos = k + 1 < m_variantStarts.size() ? m_variantStarts[k + 1] : vt.size();
        }
    }
    size_t nextRuby = 0;
    qsizetype count = 0;
    auto take = [&](qsizetype u) {
        if (count >= offset && count < offset + limit)
            result.units.append(u);
        ++count;
    };
    const QStringView text(m_norm.text);
    qsizetype pos = 0;
    qsizetype u = 0;
    const qsizetype units = unitCount();
    while (true) {
        if (!countAll && count >= offset + limit) {
            result.complete = false;
            break;
        }
        const qsizetype p = text.indexOf(first, pos);
        if (p < 0)
            break;
        // Units are sorted: move forward from the previous one instead of searching again.
        while (u + 1 < units && m_units[size_t(u + 1)].normStart <= p)
            ++u;
        const Unit unit = this->unit(u);
        if (p + first.size() > unit.normEnd || p < unit.normStart) {
            pos = p + 1;
            continue;
        }
        bool all = true;
        if (unit.variant >= 0) {
            all = allTerms(u);
        } else if (terms.size() > 1) {
            const QStringView body = text.sliced(unit.normStart, unit.normEnd - unit.normStart);
            for (qsizetype t = 0; t < terms.size() && all; ++t)
                all = t == lead || body.contains(terms[t]);
        }
        while (nextRuby < rubyHits.size() && rubyHits[nextRuby] < u)
            take(rubyHits[nextRuby++]);
        if (nextRuby < rubyHits.size() && rubyHits[nextRuby] == u) {
            take(rubyHits[nextRuby++]);
        } else if (all) {
            take(u);
        }
        pos = std::max(unit.normEnd, p + 1);
    }
    if (result.complete) {
        while (nextRuby < rubyHits.size())
            take(rubyHits[nextRuby++]);
    } else {
        // The page is full; ruby hits beyond the scan point only add to the count.
        count += qsizetype(rubyHits.size() - nextRuby);
    }
    result.total = count;
    return result;
}

QList<std::pair<qsizetype, qsizetype>> DocumentIndex::matchRanges(qsizetype index,
                                                                  const QStringList& terms,
                                                                  qsizetype scanLength,
                                                                  qsizetype maxPerTerm) const
{
    QList<std::pair<qsizetype, qsizetype>> ranges;
    const Unit& u = unit(index);
    const QStringView body = unitNormText(index);
    const qsizetype limit = scanLength < 0 ? body.size() : std::min(scanLength, body.size());
    const qsizetype most = maxPerTerm < 0 ? body.size() + 1 : maxPerTerm;
    for (const QString& t : terms) {
        if (t.isEmpty())
            continue;
        qsizetype found = 0;
        for (qsizetype p = body.indexOf(t); p >= 0 && p < limit && found < most;
             p = body.indexOf(t, p + 1), ++found)
            ranges.append(m_norm.map.toOriginal(u.normStart + p, u.normStart + p + t.size()));
        if (u.variant >= 0) {
            const QStringView vt = variantText(u.variant);
            found = 0;
            for (qsizetype p = vt.indexOf(t); p >= 0 && found < most;
                 p = vt.indexOf(t, p + 1), ++found) {
                const qsizetype ns = variantToNorm(u, u.variant, p);
                if (ns - u.normStart >= limit)
                    break;
                const qsizetype ne = variantToNorm(u, u.variant, p + t.size() - 1) + 1;
                ranges.append(m_norm.map.toOriginal(ns, ne));
            }
        }
    }
    std::sort(ranges.begin(), ranges.end());
    QList<std::pair<qsizetype, qsizetype>> merged;
    for (const auto& r : ranges) {
        const auto clipped = std::make_pair(std::clamp(r.first, u.origStart, u.origEnd),
                                            std::clamp(r.second, u.origStart, u.origEnd));
        if (clipped.second <= clipped.first)
            continue;
        if (!merged.isEmpty() && clipped.first <= merged.last().second)
            merged.last().second = std::max(merged.last().second, clipped.second);
        else
            merged.append(clipped);
    }
    return merged;
}

} // namespace hako::docs
