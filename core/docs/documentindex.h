#pragma once

#include "core/docs/document.h"
#include "core/docs/textnormalizer.h"
#include "core/util/cancel.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace hako::docs {

/// What a search result, a `show` number and a ranked passage refer to.
enum class UnitKind {
    Lines,      ///< lines exactly as in the file (the seed's units)
    Sentences,  ///< split after 。！？.!? (with closing brackets), at most maxUnitLength long
    Paragraphs, ///< runs of non-blank lines, at most maxUnitLength long
};

/// One unit: its 1-based line, and its ranges in the original and the normalised text.
struct Unit {
    qsizetype line = 0;
    qsizetype origStart = 0;
    qsizetype origEnd = 0;
    qsizetype normStart = 0;
    qsizetype normEnd = 0;
    int variant = -1; ///< index of its ruby-reading variant, -1 when it has no ruby
};

struct IndexOptions {
    UnitKind units = UnitKind::Lines;
    /// Longest sentence/paragraph unit in characters; longer ones are cut into pieces.
    int maxUnitLength = 200;
    /// Normalisation of the search copy; `aozora` is switched on for Aozora documents.
    NormalizeOptions normalize;
};

/// One page of search results.
struct SearchResult {
    QList<qsizetype> units; ///< 0-based unit indexes of the requested page, in unit order
    qsizetype total = 0;    ///< matching units (exact when `complete`, else a lower bound)
    bool complete = true;
};

/// A document prepared for searching: the normalised search copy with its offset map, the
/// units, and for every unit with ruby a variant in which the bases are replaced by their
/// readings (so 天《あま》の川 is found by 天の川 and by あまの川).
///
/// Immutable after build(); safe to search from several threads at once.
class DocumentIndex {
public:
    using Progress = std::function<void(int percent)>;

    /// Builds the index (linear in the text). Returns null when cancelled.
    static std::shared_ptr<const DocumentIndex> build(std::shared_ptr<const Document> document,
                                                      const IndexOptions& options = {},
                                                      const CancelToken& cancel = {},
                                                      const Progress& progress = {});

    const Document& document() const { return *m_document; }
    std::shared_ptr<const Document> documentPtr() const { return m_document; }
    const IndexOptions& options() const { return m_options; }
    const NormalizedText& normalized() const { return m_norm; }

    qsizetype unitCount() const { return qsizetype(m_units.size()); }
    Unit unit(qsizetype index) const
    {
        const Packed& p = m_units[size_t(index)];
        return {p.line, p.origStart, p.origEnd, p.normStart, p.normEnd, p.variant};
    }
    /// The units starting on 1-based line `line`: [first, end) of unit indexes (empty when
    /// none does).
    std::pair<qsizetype, qsizetype> unitsOnLine(qsizetype line) const;
    /// The original text of a unit (without line terminators).
    QStringView unitText(qsizetype index) const;
    /// The normalised text of a unit.
    QStringView unitNormText(qsizetype index) const;
    /// The unit containing normalised position `pos` (or the last one before it).
    qsizetype unitAtNorm(qsizetype pos) const;
    /// The first unit on 1-based line `line`, or -1.
    qsizetype unitForLine(qsizetype line) const;

    /// A query term in the search copy's form.
    QString normalizeTerm(QStringView term) const;

    /// Units whose normalised text (or ruby-reading variant) contains every term (already
    /// normalised, non-empty), in unit order; `limit` results from the `offset`-th. With
    /// `countAll` false the scan stops once the page is full and `total` is a lower bound.
    SearchResult search(const QStringList& terms, qsizetype offset, qsizetype limit,
                        bool countAll = true) const;
    /// Where the terms occur in unit `index`, as sorted, merged ranges of the original text.
    /// With `scanLength` >= 0 only matches starting in the unit's first `scanLength`
    /// normalised characters count, with `maxPerTerm` >= 0 at most that many of each term:
    /// the memory stays bounded on a huge unit holding a term millions of times.
    QList<std::pair<qsizetype, qsizetype>> matchRanges(qsizetype index, const QStringList& terms,
                                                       qsizetype scanLength = -1,
                                                       qsizetype maxPerTerm = -1) const;

private:
    // A unit as stored: 24 bytes instead of 48 (text positions fit in 32 bits, files being
    // limited to kMaxDocumentBytes); a line of a novel costs less than the unit that indexes
    // it.
    struct Packed {
        uint32_t line;
        uint32_t origStart;
        uint32_t origEnd;
        uint32_t normStart;
        uint32_t normEnd;
        int32_t variant;
    };
    void addUnit(qsizetype line, qsizetype origStart, qsizetype origEnd, qsizetype normStart,
                 qsizetype normEnd);
    void buildUnits();
    void buildVariants();
    bool unitContains(qsizetype index, const QString& term) const;
    /// The reading variant `v` (without its separator).
    QStringView variantText(int v) const;
    /// The normalised position of position `pos` of variant `v` (of unit `unit`).
    qsizetype variantToNorm(const Unit& unit, int v, qsizetype pos) const;

    std::shared_ptr<const Document> m_document;
    IndexOptions m_options;
    NormalizedText m_norm;
    std::vector<Packed> m_units;
    // Reading variants, stored once: their texts joined (each followed by \n), where each
    // starts, the unit it belongs to, and for every character its normalised position as an
    // offset from the unit's start (32 bits: units are at most a line or a cut paragraph).
    std::vector<qsizetype> m_variantUnits; // units with a variant, ascending
    QString m_variantText;
    std::vector<qsizetype> m_variantStarts;
    std::vector<uint32_t> m_variantToNorm;
};

} // namespace hako::docs
