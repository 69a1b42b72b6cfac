#pragma once

#include "core/docs/bm25index.h"
#include "core/docs/documentindex.h"

#include <QDateTime>
#include <QList>
#include <QMutex>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <string>

namespace hako::models {
class IModelProvider;
}

namespace hako::docs {

/// How search results are printed.
enum class OutputMode {
    Seed,    ///< the seed's format byte for byte (first 20 characters, hits//10+1 pages)
    Context, ///< a snippet centred on the first hit, every term bold, the true page count
};

/// What each command costs (the seed's defaults).
struct CommandCosts {
    int search = 5;
    int showPerUnit = 1;
    int answer = 1;
    int rank = 5;
    int invalid = 0; ///< `Insufficient args.` / `Unknown command.`
};

struct SessionOptions {
    OutputMode mode = OutputMode::Seed;
    CommandCosts costs;
    int pageSize = 10;
    int seedPrefix = 20;   ///< characters shown per hit in seed mode
    int contextWidth = 40; ///< characters of a context-mode snippet
    /// `rank` over chunks of this size/overlap; over units when unset.
    std::optional<ChunkPreset> rankChunks;
    int rankTop = 10;
    /// The seed's filter for `rank a | b | c`: passages scoring below it are dropped.
    double rankThreshold = 0.3;
    /// When set, `answer` says whether the answer is right.
    QString expectedAnswer;
};

/// One hit as the pane shows it: the unit, its line, a snippet and where the terms are in it.
struct DocHit {
    qsizetype unit = 0;
    qsizetype line = 0;
    qsizetype page = 0; ///< 1-based page for documents from PDFs, else 0
    QString label;      ///< how the output names it: `line12`, `sentence34 (line 3)`, `lines 4-9`
    QString snippet;
    QList<std::pair<qsizetype, qsizetype>> snippetMarks; ///< ranges of `snippet` to highlight
    qsizetype origStart = 0;                             ///< first match in the original text
    qsizetype origEnd = 0;
    double score = 0; ///< rank only
};

/// The result of one command.
struct CommandResult {
    enum class Kind { Search, Show, Answer, Rank, Memo, Invalid };
    Kind kind = Kind::Invalid;
    QString input;
    QString output;
    int cost = 0;
    int totalCost = 0;
    QList<DocHit> hits;
    qsizetype totalHits = 0;
    int page = 0;
    int pages = 0;
    QStringList suggestions; ///< near variants that would match when nothing did
    std::optional<bool> correct;
};

/// One transcript entry: what was asked, what came back, the cost so far and the memo then.
struct TranscriptEntry {
    QString input;
    QString output;
    int cost = 0;
    int totalCost = 0;
    QString memo;
    QDateTime time;
};

/// The "Ctrl+F for a model" game over one document: the command language (`search`, `show`,
/// `answer`, `rank`, `page`, `memo`), costs, and a transcript. One engine for the GUI, the
/// command line and PDL programs.
///
/// Thread-safe: commands are serialised by an internal mutex, so a PDL program on a worker
/// thread and the pane may share one session. `rank` with a model provider blocks on the
/// provider: do not execute commands on the GUI thread when one is set. Every recorded
/// command is announced by commandRecorded() and commandExecuted(), from the thread that ran
/// it: observers on other threads connect with Qt::QueuedConnection.
class DocumentSession : public QObject {
    Q_OBJECT
public:
    /// Search terms beyond this many are refused with a message: every unit that contains
    /// the lead term is checked against each of them.
    static constexpr int kMaxTerms = 32;

    explicit DocumentSession(std::shared_ptr<const DocumentIndex> index,
                             SessionOptions options = {});

    /// Runs one command line (a fenced code block is unwrapped first) and records it.
    CommandResult execute(const QString& input);

    /// `search` without recording or charging: for the pane's live results.
    CommandResult preview(const QString& input) const;

    std::shared_ptr<const DocumentIndex> index() const;
    /// Continues the session on another index of the same text (other units): the
    /// transcript, cost, memo and answer stay; a zero-cost entry records the change, because
    /// the numbers of earlier entries meant the old units.
    void setIndex(std::shared_ptr<const DocumentIndex> index);
    SessionOptions options() const;
    void setOptions(const SessionOptions& options);

    /// Hybrid ranking for `rank`: embeddings from `provider` (not owned; must outlive the
    /// session or be reset to null) with `embeddingModel`.
    void setEmbeddingProvider(models::IModelProvider* provider, std::string embeddingModel);

    int totalCost() const;
    QString memo() const;
    void setMemo(const QString& memo);
    QList<TranscriptEntry> transcript() const;
    /// The submitted answer (empty when none yet).
    QString answer() const;

    /// The transcript as JSON (document, mode, entries, total cost, answer).
    QByteArray transcriptJson() const;
    /// The transcript as Markdown: one section per command with its output in a code block.
    QString transcriptMarkdown() const;

    /// Words of a command line: split on any white space, full-width spaces included.
    static QStringList splitArgs(QStringView text);

    /// The name of a unit kind as commands print it (`line`, `sentence`, `paragraph`).
    static QString unitName(UnitKind units);

Q_SIGNALS:
    /// A command (or a change of units) was added to the transcript; emitted outside the lock.
    void commandRecorded(const hako::docs::TranscriptEntry& entry);
    /// A command ran through execute() (typed in the pane, or run by a program as `doc.*`):
    /// its whole result, hits included, so that whoever shows the session shows them too.
    /// Emitted after commandRecorded, outside the lock, from the thread that ran it.
    void commandExecuted(const hako::docs::CommandResult& result);

private:
    CommandResult run(const QString& input, bool record);
    CommandResult doSearch(const QStringList& args, int page) const;
    CommandResult doShow(const QStringList& args) const;
    CommandResult doRank(const QString& query);
    QStringList suggest(const QStringList& terms) const;
    QString unitLabel(qsizetype unit) const;
    DocHit makeHit(qsizetype unit, const QStringList& terms, bool seed) const;
    std::shared_ptr<const Bm25Index> bm25();

    mutable QMutex m_mutex;
    std::shared_ptr<const DocumentIndex> m_index;
    SessionOptions m_options;
    int m_totalCost = 0;
    QString m_memo;
    QString m_answer;
    QList<TranscriptEntry> m_transcript;
    QStringList m_lastTerms;
    std::shared_ptr<const Bm25Index> m_bm25;
    models::IModelProvider* m_provider = nullptr;
    std::string m_embeddingModel;
};

} // namespace hako::docs
