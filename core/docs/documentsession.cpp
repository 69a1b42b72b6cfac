#include "core/docs/documentsession.h"

#include "core/docs/hybridrank.h"
#include "core/pdl/model/modelprovider.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutexLocker>

#include <algorithm>

namespace hako::docs {

namespace {

const QString kNotFound = QStringLiteral("Not found.");
const QString kInsufficient = QStringLiteral("Insufficient args.");
const QString kUnknown = QStringLiteral("Unknown command.");

// Code points, not UTF-16 units, as the seed (Python) counts characters.
qsizetype advanceCodePoints(QStringView s, qsizetype from, qsizetype count)
{
    qsizetype i = from;
    while (count > 0 && i < s.size()) {
        i += (s[i].isHighSurrogate() && i + 1 < s.size() && s[i + 1].isLowSurrogate()) ? 2 : 1;
        --count;
    }
    return i;
}

qsizetype retreatCodePoints(QStringView s, qsizetype from, qsizetype count)
{
    qsizetype i = from;
    while (count > 0 && i > 0) {
        i -= (i >= 2 && s[i - 1].isLowSurrogate() && s[i - 2].isHighSurrogate()) ? 2 : 1;
        --count;
    }
    return i;
}

QString withMarks(const QString& text, const QList<std::pair<qsizetype, qsizetype>>& marks)
{
    QString out;
    qsizetype pos = 0;
    for (const auto& [s, e] : marks) {
        out += QStringView(text).sliced(pos, s - pos);
        out += QLatin1String("**");
        out += QStringView(text).sliced(s, e - s);
        out += QLatin1String("**");
        pos = e;
    }
    out += QStringView(text).sliced(pos);
    return out;
}

QString unwrapFence(const QString& input)
{
    const qsizetype open = input.indexOf(QLatin1String("```"));
    if (open < 0)
        return input.trimmed();
    qsizetype bodyStart = input.indexOf(QLatin1Char('\n'), open);
    if (bodyStart < 0)
        return input.mid(open + 3).remove(QLatin1String("```")).trimmed();
    const qsizetype close = input.indexOf(QLatin1String("```"), bodyStart);
    return input.mid(bodyStart + 1, close < 0 ? -1 : close - bodyStart - 1).trimmed();
}

bool parseNumber(const QString& word, qsizetype& value)
{
    bool ok = false;
    value = normalizeQuery(word, {}).toLongLong(&ok);
    return ok;
}

} // namespace

DocumentSession::DocumentSession(std::shared_ptr<const DocumentIndex> index, SessionOptions options)
    : m_index(std::move(index)), m_options(std::move(options))
{
    // Observers on other threads receive entries through queued connections.
    qRegisterMetaType<TranscriptEntry>();
}

std::shared_ptr<const DocumentIndex> DocumentSession::index() const
{
    QMutexLocker lock(&m_mutex);
    return m_index;
}

QString DocumentSession::unitName(UnitKind units)
{
    switch (units) {
    case UnitKind::Sentences:
        return QStringLiteral("sentence");
    case UnitKind::Paragraphs:
        return QStringLiteral("paragraph");
    case UnitKind::Lines:
        break;
    }
    return QStringLiteral("line");
}

void DocumentSession::setIndex(std::shared_ptr<const DocumentIndex> index)
{
    TranscriptEntry entry;
    {
        QMutexLocker lock(&m_mutex);
        const UnitKind units = index->options().units;
        m_index = std::move(index);
        m_bm25.reset();
        entry = {QStringLiteral("(units: %1s)").arg(unitName(units)),
                 QStringLiteral("Units are now %1s (%2); numbers from here on refer to them.")
                     .arg(unitName(units))
                     .arg(m_index->unitCount()),
                 0,
                 m_totalCost,
                 m_memo,
                 QDateTime::currentDateTimeUtc()};
        m_transcript.append(entry);
    }
    Q_EMIT commandRecorded(entry);
}

SessionOptions DocumentSession::options() const
{
    QMutexLocker lock(&m_mutex);
    return m_options;
}

void DocumentSession::setOptions(const SessionOptions& options)
{
    QMutexLocker lock(&m_mutex);
    if (options.rankChunks != m_options.rankChunks)
        m_bm25.reset();
    m_options = options;
}

void DocumentSession::setEmbeddingProvider(models::IModelProvider* provider,
                                           std::string embeddingModel)
{
    QMutexLocker lock(&m_mutex);
    m_provider = provider;
    m_embeddingModel = std::move(embeddingModel);
}

int DocumentSession::totalCost() const
{
    QMutexLocker lock(&m_mutex);
    return m_totalCost;
}

QString DocumentSession::memo() const
{
    QMutexLocker lock(&m_mutex);
    return m_memo;
}

void DocumentSession::setMemo(const QString& memo)
{
    QMutexLocker lock(&m_mutex);
    m_memo = memo;
}

QList<TranscriptEntry> DocumentSession::transcript() const
{
    QMutexLocker lock(&m_mutex);
    return m_transcript;
}

QString DocumentSession::answer() const
{
    QMutexLocker lock(&m_mutex);
    return m_answer;
}

QStringList DocumentSession::splitArgs(QStringView text)
{
    QStringList words;
    qsizetype i = 0;
    while (i < text.size()) {
        while (i < text.size() && text[i].isSpace())
            ++i;
        const qsizetype start = i;
        while (i < text.size() && !text[i].isSpace())
            ++i;
        if (i > start)
            words.append(text.sliced(start, i - start).toString());
    }
    return words;
}

CommandResult DocumentSession::execute(const QString& input)
{
    CommandResult r;
    TranscriptEntry entry;
    {
        QMutexLocker lock(&m_mutex);
        r = run(input, true);
        entry = m_transcript.last();
    }
    // Outside the lock: a directly connected observer may read the session.
    Q_EMIT commandRecorded(entry);
    Q_EMIT commandExecuted(r);
    return r;
}

CommandResult DocumentSession::preview(const QString& input) const
{
    QMutexLocker lock(&m_mutex);
    return const_cast<DocumentSession*>(this)->run(input, false);
}

CommandResult DocumentSession::run(const QString& rawInput, bool record)
{
    const QString input = unwrapFence(rawInput);
    const QStringList words = splitArgs(input);
    const QString name = words.value(0);
    const QStringList args = words.mid(1);
    CommandResult r;
    r.kind = CommandResult::Kind::Invalid;
    if (name == QLatin1String("search")) {
        int page = 1;
        QStringList terms = args;
        qsizetype k = 0;
        if (terms.size() >= 3 && terms[terms.size() - 2] == QLatin1String("page") &&
            parseNumber(terms.last(), k)) {
            page = int(k);
            terms = terms.mid(0, terms.size() - 2);
        }
        if (terms.isEmpty()) {
            r.output = kInsufficient;
        } else {
            r = doSearch(terms, page);
            r.cost = m_options.costs.search;
            if (record)
                m_lastTerms = terms;
        }
    } else if (name == QLatin1String("page")) {
        qsizetype k = 0;
        if (args.isEmpty() || m_lastTerms.isEmpty()) {
            r.output = kInsufficient;
        } else if (!parseNumber(args[0], k)) {
            r.output = kUnknown;
        } else {
            r = doSearch(m_lastTerms, int(k));
            r.cost = m_options.costs.search;
        }
    } else if (name == QLatin1String("show")) {
        if (args.isEmpty())
            r.output = kInsufficient;
        else
            r = doShow(args);
    } else if (name == QLatin1String("answer")) {
        const QString text = input.mid(input.indexOf(name) + name.size()).trimmed();
        if (text.isEmpty()) {
            r.output = kInsufficient;
        } else {
            r.kind = CommandResult::Kind::Answer;
            r.cost = m_options.costs.answer;
            if (record)
                m_answer = text;
            if (m_options.expectedAnswer.isEmpty()) {
                r.output = QStringLiteral("Answer recorded.");
            } else {
                const bool right = normalizeQuery(text, {}).trimmed() ==
                                   normalizeQuery(m_options.expectedAnswer, {}).trimmed();
                r.correct = right;
                r.output = right ? QStringLiteral("Correct.") : QStringLiteral("Incorrect.");
            }
        }
    } else if (name == QLatin1String("rank")) {
        const QString query = input.mid(input.indexOf(name) + name.size()).trimmed();
        if (query.isEmpty())
            r.output = kInsufficient;
        else
            r = doRank(query);
    } else if (name == QLatin1String("memo")) {
        r.kind = CommandResult::Kind::Memo;
        if (record)
            m_memo = input.mid(input.indexOf(name) + name.size()).trimmed();
        r.output = QStringLiteral("Memo saved.");
    } else {
        r.output = kUnknown;
    }
    if (r.kind == CommandResult::Kind::Invalid)
        r.cost = m_options.costs.invalid;
    r.input = input;
    if (record) {
        m_totalCost += r.cost;
        r.totalCost = m_totalCost;
        m_transcript.append(
            {input, r.output, r.cost, m_totalCost, m_memo, QDateTime::currentDateTimeUtc()});
    } else {
        r.totalCost = m_totalCost + r.cost;
    }
    return r;
}

QString DocumentSession::unitLabel(qsizetype unit) const
{
    // Documents from PDFs say on which page a unit is: page numbers are how people cite them.
    const qsizetype page = m_index->document().pageAt(m_index->unit(unit).origStart);
    if (m_index->options().units == UnitKind::Lines) {
        if (page > 0)
            return QStringLiteral("line%1 (p.%2)").arg(unit + 1).arg(page);
        return QStringLiteral("line%1").arg(unit + 1);
    }
    return QStringLiteral("%1%2 (line %3%4)")
        .arg(unitName(m_index->options().units))
        .arg(unit + 1)
        .arg(m_index->unit(unit).line)
        .arg(page > 0 ? QStringLiteral(", p.%1").arg(page) : QString());
}

DocHit DocumentSession::makeHit(qsizetype unit, const QStringList& terms, bool seed) const
{
    DocHit hit;
    hit.unit = unit;
    hit.label = unitLabel(unit);
    hit.line = m_index->unit(unit).line;
    const Unit& u = m_index->unit(unit);
    hit.page = m_index->document().pageAt(u.origStart);
    const QStringView text = m_index->unitText(unit);
    // Only the matches a snippet can show are collected: a 100 MB line holding a term
    // millions of times must not cost millions of ranges.
    qsizetype longest = 0;
    for (const QString& t : terms)
        longest = std::max(longest, t.size());
    qsizetype scan = 0;
    if (seed) {
        const qsizetype prefixEnd = advanceCodePoints(text, 0, m_options.seedPrefix);
        scan = m_index->normalized().map.toNormalised(u.origStart + prefixEnd) - u.normStart +
               longest + 16;
    } else {
        const auto first = m_index->matchRanges(unit, terms, -1, 1);
        const qsizetype firstNorm =
            first.isEmpty()
                ? 0
                : m_index->normalized().map.toNormalised(first.first().first) - u.normStart;
        scan = firstNorm + 4 * std::max(8, m_options.contextWidth) + 2 * longest + 64;
    }
    const auto ranges = m_index->matchRanges(unit, terms, std::max<qsizetype>(scan, 1));
    if (!ranges.isEmpty()) {
        hit.origStart = ranges.first().first;
        hit.origEnd = ranges.first().second;
    } else {
        hit.origStart = hit.origEnd = u.origStart;
    }
    qsizetype start = 0;
    qsizetype end = 0;
    if (seed) {
        // The seed shows the first characters and bolds only terms wholly inside them.
        end = advanceCodePoints(text, 0, m_options.seedPrefix);
    } else {
        const qsizetype width = std::max(8, m_options.contextWidth);
        const qsizetype ms = hit.origStart - u.origStart;
        const qsizetype me = hit.origEnd - u.origStart;
        const qsizetype before = std::max<qsizetype>(0, (width - (me - ms)) / 2);
        start = retreatCodePoints(text, ms, before);
        end = advanceCodePoints(text, start, width);
        if (end - start < width && start > 0)
            start = retreatCodePoints(text, start, width - (end - start));
    }
    hit.snippet = text.sliced(start, end - start).toString();
    for (const auto& [s, e] : ranges) {
        qsizetype a = s - u.origStart - start;
        qsizetype b = e - u.origStart - start;
        if (seed ? (a < 0 || b > hit.snippet.size()) : (b <= 0 || a >= hit.snippet.size()))
            continue;
        hit.snippetMarks.append({std::max<qsizetype>(a, 0), std::min(b, hit.snippet.size())});
    }
    if (!seed) {
        // Ellipses show where the snippet was cut; marks move with the leading one.
        if (start > 0) {
            hit.snippet.prepend(QChar(0x2026));
            for (auto& m : hit.snippetMarks) {
                ++m.first;
                ++m.second;
            }
        }
        if (end < text.size())
            hit.snippet.append(QChar(0x2026));
    }
    return hit;
}

CommandResult DocumentSession::doSearch(const QStringList& rawTerms, int page) const
{
    CommandResult r;
    r.kind = CommandResult::Kind::Search;
    QStringList terms;
    // A repeated term changes nothing but the work (suggestions included).
    QStringList uniqueRaw;
    for (const QString& t : rawTerms) {
        const QString n = m_index->normalizeTerm(t);
        if (!n.isEmpty() && !terms.contains(n)) {
            terms.append(n);
            uniqueRaw.append(t);
        }
        if (terms.size() > kMaxTerms)
            break; // enough to refuse; the rest is not looked at
    }
    if (terms.isEmpty()) {
        r.output = kInsufficient;
        r.kind = CommandResult::Kind::Invalid;
        return r;
    }
    if (terms.size() > kMaxTerms) {
        QStringList distinct = rawTerms;
        distinct.removeDuplicates();
        r.output =
            QStringLiteral("Too many terms (%1; at most %2).").arg(distinct.size()).arg(kMaxTerms);
        r.kind = CommandResult::Kind::Invalid;
        return r;
    }
    const bool seed = m_options.mode == OutputMode::Seed;
    const int pageSize = std::max(1, m_options.pageSize);
    page = std::max(1, page);
    const SearchResult found = m_index->search(terms, qsizetype(page - 1) * pageSize, pageSize);
    r.totalHits = found.total;
    r.page = page;
    r.pages = seed ? int(found.total / pageSize + 1) : int((found.total + pageSize - 1) / pageSize);
    if (found.total == 0) {
        r.output = kNotFound;
        r.suggestions = suggest(uniqueRaw);
        if (!seed && !r.suggestions.isEmpty())
            r.output += QStringLiteral("\nTry: ") + r.suggestions.join(QStringLiteral("; "));
        return r;
    }
    if (found.units.isEmpty()) {
        r.output = QStringLiteral("No page %1 (%2 pages).").arg(page).arg(r.pages);
        return r;
    }
    QStringList lines;
    for (qsizetype unit : found.units) {
        DocHit hit = makeHit(unit, terms, seed);
        QString line = hit.label + QLatin1String(": ") + withMarks(hit.snippet, hit.snippetMarks);
        if (seed)
            line += QStringLiteral("……");
        lines.append(line);
        r.hits.append(std::move(hit));
    }
    QString footer = QStringLiteral("[page%1/%2]").arg(page).arg(r.pages);
    if (!seed)
        footer += QStringLiteral(" %1 hit%2").arg(found.total).arg(found.total == 1 ? "" : "s");
    lines.append(footer);
    r.output = lines.join(QLatin1Char('\n'));
    return r;
}

QStringList DocumentSession::suggest(const QStringList& rawTerms) const
{
    struct Candidate {
        QStringList terms;
        qsizetype hits;
    };
    QList<Candidate> found;
    auto tryTerms = [&](const QStringList& raw) {
        QStringList norm;
        for (const QString& t : raw) {
            const QString n = m_index->normalizeTerm(t);
            if (!n.isEmpty())
                norm.append(n);
        }
        norm.removeDuplicates();
        if (norm.isEmpty())
            return;
        for (const Candidate& c : found) {
            if (c.terms == raw)
                return;
        }
        const qsizetype hits = m_index->search(norm, 0, 0, true).total;
        if (hits > 0)
            found.append({raw, hits});
    };
    // Fewer terms first: dropping one term is the seed's own advice.
    if (rawTerms.size() > 1) {
        for (qsizetype i = 0; i < rawTerms.size(); ++i) {
            QStringList fewer = rawTerms;
            fewer.removeAt(i);
            tryTerms(fewer);
        }
    }
    // Spelling variants of each term: the other kana, and one character shorter.
    for (qsizetype i = 0; i < rawTerms.size() && found.size() < 5; ++i) {
        const QString& t = rawTerms[i];
        QStringList variants{foldKatakana(t), toKatakana(t)};
        if (t.size() >= 3) {
            variants.append(t.left(t.size() - 1));
            variants.append(t.mid(1));
        }
        for (const QString& v : variants) {
            if (v == t)
                continue;
            QStringList changed = rawTerms;
            changed[i] = v;
            tryTerms(changed);
        }
    }
    QStringList out;
    for (const Candidate& c : found.mid(0, 5))
        out.append(
            QStringLiteral("search %1 (%2)").arg(c.terms.join(QLatin1Char(' '))).arg(c.hits));
    return out;
}

CommandResult DocumentSession::doShow(const QStringList& args) const
{
    CommandResult r;
    r.kind = CommandResult::Kind::Show;
    QList<qsizetype> numbers;
    for (const QString& a : args) {
        const QString w = normalizeQuery(a, {});
        const qsizetype dash =
            std::max(w.indexOf(QLatin1Char('-'), 1), w.indexOf(QLatin1Char('~'), 1));
        qsizetype from = 0;
        qsizetype to = 0;
        if (dash > 0) {
            if (!parseNumber(w.left(dash), from) || !parseNumber(w.mid(dash + 1), to)) {
                r.kind = CommandResult::Kind::Invalid;
                r.output = kUnknown;
                return r;
            }
            if (to < from || to - from >= 1000 || numbers.size() + (to - from) >= 1000) {
                r.kind = CommandResult::Kind::Invalid;
                r.output = QStringLiteral("Range too large.");
                return r;
            }
            for (qsizetype n = from; n <= to; ++n)
                numbers.append(n);
        } else if (parseNumber(w, from)) {
            numbers.append(from);
        } else {
            r.kind = CommandResult::Kind::Invalid;
            r.output = kUnknown;
            return r;
        }
    }
    QStringList lines;
    for (qsizetype n : numbers) {
        if (n < 1 || n > m_index->unitCount()) {
            const QString label = unitName(m_index->options().units) + QString::number(n);
            lines.append(label + QLatin1String(": ") + kNotFound);
            continue;
        }
        const qsizetype unit = n - 1;
        DocHit hit;
        hit.unit = unit;
        hit.label = unitLabel(unit);
        hit.line = m_index->unit(unit).line;
        hit.page = m_index->document().pageAt(m_index->unit(unit).origStart);
        hit.snippet = m_index->unitText(unit).toString();
        // The whole unit is what was shown, so the viewer highlights all of it.
        hit.origStart = m_index->unit(unit).origStart;
        hit.origEnd = m_index->unit(unit).origEnd;
        lines.append(hit.label + QLatin1String(": ") + hit.snippet);
        r.hits.append(hit);
    }
    r.cost = int(numbers.size()) * m_options.costs.showPerUnit;
    r.output = lines.join(QLatin1Char('\n'));
    return r;
}

std::shared_ptr<const Bm25Index> DocumentSession::bm25()
{
    if (!m_bm25)
        m_bm25 = Bm25Index::build(m_index, m_options.rankChunks);
    return m_bm25;
}

CommandResult DocumentSession::doRank(const QString& query)
{
    CommandResult r;
    r.kind = CommandResult::Kind::Rank;
    r.cost = m_options.costs.rank;
    const auto bm = bm25();
    QStringList queries;
    for (const QString& q : query.split(QLatin1Char('|'))) {
        if (!q.trimmed().isEmpty())
            queries.append(q.trimmed());
    }
    queries.removeDuplicates();
    if (queries.size() > kMaxTerms) {
        r.kind = CommandResult::Kind::Invalid;
        r.output =
            QStringLiteral("Too many queries (%1; at most %2).").arg(queries.size()).arg(kMaxTerms);
        return r;
    }
    std::vector<ScoredPassage> ranked;
    if (queries.size() > 1) {
        ranked = bm->rankExpanded(queries, 30, m_options.rankThreshold);
        if (ranked.size() > size_t(m_options.rankTop))
            ranked.resize(size_t(m_options.rankTop));
    } else if (m_provider) {
        Result<std::vector<ScoredPassage>> hybrid =
            hybridRank(*bm, queries.value(0), *m_provider, m_embeddingModel, m_options.rankTop);
        if (!hybrid) {
            r.output = QStringLiteral("Embedding failed: %1").arg(hybrid.error().message);
            return r;
        }
        ranked = std::move(hybrid).value();
    } else {
        ranked = bm->rank(queries.value(0), m_options.rankTop);
    }
    if (ranked.empty()) {
        r.output = kNotFound;
        return r;
    }
    QStringList lines;
    const QString& norm = m_index->normalized().text;
    int i = 0;
    for (const ScoredPassage& s : ranked) {
        const Passage p = bm->passage(s.passage);
        DocHit hit;
        hit.score = s.score;
        hit.line = p.line;
        hit.unit = p.unit >= 0 ? p.unit : m_index->unitAtNorm(p.normStart);
        hit.origStart = m_index->normalized().map.toOriginal(p.normStart);
        hit.origEnd = m_index->normalized().map.toOriginal(p.normStart, p.normEnd).second;
        QString label;
        if (p.unit >= 0) {
            label = unitLabel(p.unit);
            hit.label = label;
            hit.snippet = m_index->unitText(p.unit).toString();
        } else {
            const qsizetype lastLine =
                m_index->document().lineAt(std::max(hit.origStart, hit.origEnd - 1));
            label = QStringLiteral("lines %1-%2").arg(p.line).arg(lastLine);
            hit.label = label;
            hit.snippet = QStringView(norm).sliced(p.normStart, p.normEnd - p.normStart).toString();
            hit.snippet.remove(QLatin1Char('\r')); // the search copy keeps CRLF line ends
        }
        QString shown = hit.snippet;
        shown.replace(QLatin1Char('\n'), QLatin1Char(' '));
        const qsizetype cut = advanceCodePoints(shown, 0, m_options.contextWidth);
        if (cut < shown.size())
            shown = shown.left(cut) + QChar(0x2026);
        lines.append(QStringLiteral("%1. %2 (%3): %4")
                         .arg(++i)
                         .arg(label)
                         .arg(s.score, 0, 'f', 2)
                         .arg(shown));
        r.hits.append(std::move(hit));
    }
    r.totalHits = qsizetype(ranked.size());
    r.output = lines.join(QLatin1Char('\n'));
    return r;
}

QByteArray DocumentSession::transcriptJson() const
{
    QMutexLocker lock(&m_mutex);
    QJsonArray entries;
    for (const TranscriptEntry& e : m_transcript) {
        entries.append(QJsonObject{{QStringLiteral("input"), e.input},
                                   {QStringLiteral("output"), e.output},
                                   {QStringLiteral("cost"), e.cost},
                                   {QStringLiteral("totalCost"), e.totalCost},
                                   {QStringLiteral("memo"), e.memo},
                                   {QStringLiteral("time"), e.time.toString(Qt::ISODate)}});
    }
    QJsonObject root{{QStringLiteral("document"), m_index->document().path()},
                     {QStringLiteral("mode"), m_options.mode == OutputMode::Seed
                                                  ? QStringLiteral("seed")
                                                  : QStringLiteral("context")},
                     {QStringLiteral("entries"), entries},
                     {QStringLiteral("totalCost"), m_totalCost},
                     {QStringLiteral("answer"), m_answer},
                     {QStringLiteral("memo"), m_memo}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

QString DocumentSession::transcriptMarkdown() const
{
    QMutexLocker lock(&m_mutex);
    QString md = QStringLiteral("# Session: %1\n\nTotal cost: %2\n")
                     .arg(QFileInfo(m_index->document().path()).fileName())
                     .arg(m_totalCost);
    if (!m_answer.isEmpty())
        md += QStringLiteral("Answer: %1\n").arg(m_answer);
    int i = 0;
    for (const TranscriptEntry& e : m_transcript) {
        md += QStringLiteral("\n## %1. `%2` — cost %3 (total %4)\n\n```text\n%5\n```\n")
                  .arg(++i)
                  .arg(e.input, QString::number(e.cost), QString::number(e.totalCost), e.output);
        if (!e.memo.isEmpty())
            md += QStringLiteral("\nMemo: %1\n").arg(e.memo);
    }
    return md;
}

} // namespace hako::docs
