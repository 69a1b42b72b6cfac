#include "core/promptlog/promptlog.h"

#include "core/promptlog/logbackend_p.h"

#include <QDateTime>
#include <QDir>
#include <QLoggingCategory>
#include <QStandardPaths>
#include <QUrl>
#include <QUuid>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

Q_LOGGING_CATEGORY(lcPromptLog, "hako.promptlog")

namespace hako::promptlog {

using Clock = std::chrono::steady_clock;

struct Pending {
    CallRecord call;
    bool prepared = false; // privacy and prices applied (once, even when written again)
    EncodedCall encoded;   // SQLite: its columns, made when prepared
};

struct PromptLogPrivate {
    PromptLog::Kind kind = PromptLog::Kind::Sqlite;
    QString location;
    PromptLogOptions options;
    std::unique_ptr<LogBackend> writer; // the writer thread's own connection
    std::unique_ptr<LogBackend> reader; // queries, under queryMutex
    std::mutex queryMutex;

    mutable std::mutex mutex;
    std::condition_variable wake; // the writer: work, flush, stop
    std::condition_variable idle; // flush(): the queue drained
    std::deque<Pending> queue;
    size_t inFlight = 0;
    Clock::time_point firstQueued;
    int flushing = 0;
    bool stopping = false;
    bool closed = false;
    bool writerDone = false;    // the writer thread has left its loop
    bool failingAtStop = false; // close() found the store failing: one last attempt only
    Clock::time_point stopDeadline;
    // Signals go out under emitMutex and only while the PromptLog exists: close() sets
    // `abandoned` (under emitMutex) before leaving a stuck writer behind.
    std::mutex emitMutex;
    std::atomic<bool> abandoned{false};
    PromptLog::WriterState state;
    bool warned = false;     // problem() said for the current outage
    bool dropWarned = false; // problem() said for dropping
    bool outage = false;     // an attempt failed since everything was last written
    std::thread thread;
};

namespace {

int64_t nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

void prepareCall(const PromptLogOptions& options, CallRecord& call)
{
    options.privacy.apply(call);
    if (!call.cost) {
        // Priced by the model that answered; a price set for the program's name (an alias)
        // still applies when the answering model has none.
        call.cost = options.prices.cost(call.answeredModel(), call.promptTokens,
                                        call.completionTokens, call.cachedTokens);
        if (!call.cost && call.answeredModel() != call.model)
            call.cost = options.prices.cost(call.model, call.promptTokens, call.completionTokens,
                                            call.cachedTokens);
    }
}

// Moves the first `n` calls of `queue` out, in order.
std::vector<Pending> takeFront(std::deque<Pending>& queue, size_t n)
{
    std::vector<Pending> out;
    out.reserve(n);
    for (size_t i = 0; i < n; ++i) {
        out.push_back(std::move(queue.front()));
        queue.pop_front();
    }
    return out;
}

// Privacy and prices, once per call (a call written again after a failure keeps its result),
// and for SQLite the columns it is written as.
void prepareAll(const PromptLogOptions& options, PromptLog::Kind kind, std::vector<Pending>& calls)
{
    for (Pending& p : calls) {
        if (!p.prepared) {
            prepareCall(options, p.call);
            if (kind == PromptLog::Kind::Sqlite)
                p.encoded = encodeCall(p.call);
            p.prepared = true;
        }
    }
}

QString displayLocation(const QString& spec, PromptLog::Kind kind)
{
    if (kind == PromptLog::Kind::Sqlite)
        return spec;
    const QUrl u(spec);
    return u.isValid() ? u.toString(QUrl::RemovePassword) : spec;
}

// Writes `batch` (taken from the queue, `lock` held on entry and on return). Calls waiting
// beyond it are prepared (privacy rules, prices, their columns) on another thread meanwhile and
// go back to the queue's front for the next batch: the writer's own thread does little but SQL.
Result<int64_t> writeBatch(PromptLogPrivate& d, std::unique_lock<std::mutex>& lock,
                           std::vector<Pending>& batch)
{
    const size_t limit = size_t(d.options.batchSize) * 4;
    std::vector<Pending> ahead = takeFront(d.queue, std::min(d.queue.size(), limit));
    d.inFlight = batch.size() + ahead.size();
    lock.unlock();

    std::thread preparer;
    if (!ahead.empty())
        preparer = std::thread([&ahead, &d] { prepareAll(d.options, d.kind, ahead); });
    prepareAll(d.options, d.kind, batch);
    const bool sqlite = d.kind == PromptLog::Kind::Sqlite;
    std::vector<CallRecord> calls;
    std::vector<EncodedCall> encoded;
    calls.reserve(batch.size());
    encoded.reserve(sqlite ? batch.size() : 0);
    for (Pending& p : batch) {
        calls.push_back(p.call);
        if (sqlite)
            encoded.push_back(p.encoded);
    }
    Result<int64_t> written = d.writer->insert(calls, encoded);
    if (preparer.joinable())
        preparer.join();

    lock.lock();
    d.inFlight = 0;
    // Back in front, in order (a close() that gave up on this thread counted them lost).
    if (!d.abandoned) {
        for (auto it = ahead.rbegin(); it != ahead.rend(); ++it)
            d.queue.push_front(std::move(*it));
    }
    return written;
}

} // namespace

PromptLogOptions PromptLogOptions::fromUserSettings(QString* error)
{
    PromptLogOptions o;
    QStringList problems;
    auto settings = PromptLogSettings::load(PromptLogSettings::defaultPath());
    if (settings) {
        o.privacy = settings->privacy;
        o.retentionDays = settings->retentionDays;
    } else {
        problems.append(settings.error().message);
    }
    auto prices = PriceTable::load(PriceTable::defaultPath());
    if (prices)
        o.prices = *prices;
    else
        problems.append(prices.error().message);
    if (error)
        *error = problems.join(QLatin1Char('\n'));
    return o;
}

QString PromptLog::defaultPath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(QStringLiteral("promptlog.sqlite"));
}

bool PromptLog::isPostgresUrl(const QString& urlOrPath)
{
    return urlOrPath.startsWith(QLatin1String("postgresql://")) ||
           urlOrPath.startsWith(QLatin1String("postgres://"));
}

std::unique_ptr<PromptLog> PromptLog::open(const QString& urlOrPath, QString* error,
                                           PromptLogOptions options)
{
    auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return nullptr;
    };
    if (error)
        error->clear();
    if (urlOrPath.trimmed().isEmpty())
        return fail(QStringLiteral("no prompt log given (a file or a postgresql:// URL)"));
    if (auto valid = options.privacy.validate(); !valid)
        return fail(valid.error().message);
    auto d = std::make_shared<PromptLogPrivate>();
    if (isPostgresUrl(urlOrPath)) {
        d->kind = Kind::Postgres;
        d->writer = makePostgresBackend(urlOrPath);
        d->reader = makePostgresBackend(urlOrPath);
    } else {
        if (urlOrPath.contains(QLatin1String("://")))
            return fail(
                QStringLiteral("'%1' is neither a file nor a postgresql:// URL").arg(urlOrPath));
        const QString path = QDir::cleanPath(QDir::current().absoluteFilePath(urlOrPath));
        d->writer = makeSqliteBackend(path, options.maxSizeBytes);
        d->reader = makeSqliteBackend(path, 0, options.maxSizeBytes); // may create it
    }
    d->location = displayLocation(urlOrPath, d->kind);
    d->options = std::move(options);
    d->options.batchSize = std::max(1, d->options.batchSize);
    d->options.maxBuffered = std::max(1, d->options.maxBuffered);
    // The first connection creates the schema; when it fails the caller hears it here, once.
    if (!d->options.connectOnOpen) {
        // The writer and the first query connect on their own threads; a failure is reported
        // by problem() (writer) or the query's error.
    } else if (auto connected = d->reader->connect(); !connected) {
        d->state.failing = true;
        d->state.problem = connected.error().message;
        d->warned = true;
        d->outage = true;
        if (error)
            *error = connected.error().message;
    }
    std::unique_ptr<PromptLog> log(new PromptLog(std::move(d)));
    log->d->thread = std::thread([raw = log.get(), keep = log->d] { raw->writerLoop(keep); });
    return log;
}

std::unique_ptr<PromptLog> PromptLog::openDefault(QString* error, bool connectOnOpen)
{
    QString settingsError;
    PromptLogOptions options = PromptLogOptions::fromUserSettings(&settingsError);
    options.connectOnOpen = connectOnOpen;
    auto settings = PromptLogSettings::load(PromptLogSettings::defaultPath());
    const QString spec = settings && !settings->log.isEmpty() ? settings->log : defaultPath();
    QString openError;
    auto log = open(spec, &openError, std::move(options));
    if (error) {
        QStringList all;
        for (const QString& e : {settingsError, openError}) {
            if (!e.isEmpty())
                all.append(e);
        }
        *error = all.join(QLatin1Char('\n'));
    }
    return log;
}

PromptLog::PromptLog(std::shared_ptr<PromptLogPrivate> priv) : d(std::move(priv)) {}

PromptLog::~PromptLog()
{
    close();
}

PromptLog::Kind PromptLog::kind() const
{
    return d->kind;
}

QString PromptLog::location() const
{
    return d->location;
}

const PromptLogOptions& PromptLog::options() const
{
    return d->options;
}

QString PromptLog::record(CallRecord call)
{
    if (call.uid.isEmpty())
        call.uid = QUuid::createUuid().toString(QUuid::WithoutBraces);
    if (call.startedAt == 0)
        call.startedAt = nowMs();
    QString uid = call.uid;
    bool warnDrop = false;
    {
        std::lock_guard lock(d->mutex);
        if (d->closed) {
            ++d->state.dropped;
            return uid;
        }
        if (d->queue.size() + d->inFlight >= size_t(d->options.maxBuffered)) {
            ++d->state.dropped;
            warnDrop = !d->dropWarned;
            d->dropWarned = true;
        } else {
            if (d->queue.empty())
                d->firstQueued = Clock::now();
            d->queue.push_back(Pending{std::move(call), false, {}});
            if (d->queue.size() >= size_t(d->options.batchSize))
                d->wake.notify_one();
            else if (d->queue.size() == 1)
                d->wake.notify_one(); // the writer starts the batch's clock
        }
    }
    if (warnDrop) {
        const QString message =
            QStringLiteral("the prompt log %1 cannot be written and %2 calls are waiting in "
                           "memory: further calls are dropped (counted) until it can")
                .arg(d->location)
                .arg(d->options.maxBuffered);
        qCWarning(lcPromptLog).noquote() << message;
        Q_EMIT problem(message);
    }
    return uid;
}

bool PromptLog::flush(int timeoutMs)
{
    std::unique_lock lock(d->mutex);
    ++d->flushing;
    d->wake.notify_one();
    const bool done = d->idle.wait_for(lock, std::chrono::milliseconds(timeoutMs), [this] {
        return (d->queue.empty() && d->inFlight == 0) || d->writerDone;
    });
    --d->flushing;
    return done && d->queue.empty() && d->inFlight == 0;
}

void PromptLog::close(int timeoutMs)
{
    std::unique_lock lock(d->mutex);
    if (d->closed)
        return;
    d->closed = true;
    d->stopping = true;
    d->failingAtStop = d->outage;
    d->stopDeadline = Clock::now() + std::chrono::milliseconds(std::max(0, timeoutMs));
    d->wake.notify_all();
    // A little beyond the deadline: the writer notices it between two attempts.
    const bool finished = d->idle.wait_until(lock, d->stopDeadline + std::chrono::milliseconds(250),
                                             [this] { return d->writerDone; });
    if (!finished) {
        // The writer is inside a write the store does not answer (a stopped server, a file
        // locked by a hung process): a run's exit must not wait for it. It finishes or fails
        // on its own later, holding its own reference to `d`, and emits nothing any more.
        lock.unlock();
        {
            std::lock_guard emitLock(d->emitMutex);
            d->abandoned = true;
        }
        lock.lock();
        const size_t lost = d->queue.size() + d->inFlight;
        d->state.dropped += int64_t(lost);
        d->queue.clear();
        d->inFlight = 0;
        qCWarning(lcPromptLog).noquote()
            << QStringLiteral("prompt log %1: %2 calls not written within %3 s (%4); they are "
                              "lost")
                   .arg(d->location)
                   .arg(lost)
                   .arg(std::max(1, (timeoutMs + 999) / 1000))
                   .arg(d->kind == Kind::Postgres ? QStringLiteral("server not answering")
                                                  : QStringLiteral("file not answering"));
        d->thread.detach();
    } else {
        lock.unlock();
        d->thread.join();
        lock.lock();
    }
    if (!d->queue.empty()) {
        d->state.dropped += int64_t(d->queue.size());
        qCWarning(lcPromptLog).noquote()
            << QStringLiteral("prompt log %1: %2 calls not written (%3); they are lost")
                   .arg(d->location)
                   .arg(d->queue.size())
                   .arg(d->state.problem);
        d->queue.clear();
    }
    d->state.queued = 0;
    d->idle.notify_all();
    lock.unlock();
    std::lock_guard queryLock(d->queryMutex);
    d->reader->disconnect();
}

PromptLog::WriterState PromptLog::writerState() const
{
    std::lock_guard lock(d->mutex);
    WriterState s = d->state;
    s.queued = int64_t(d->queue.size() + d->inFlight);
    return s;
}

void PromptLog::prepare(CallRecord& call) const
{
    prepareCall(d->options, call);
}

// `d` shadows the member on purpose: once close() has given up on this thread the PromptLog
// may be gone, and only the parameter, and `this` for signals guarded by `abandoned`, remain.
void PromptLog::writerLoop(std::shared_ptr<PromptLogPrivate> d)
{
    auto emitGuarded = [&d](auto&& emitSignal) {
        std::lock_guard emitLock(d->emitMutex);
        if (!d->abandoned)
            emitSignal();
    };
    if (d->options.retentionDays > 0) {
        const int64_t cutoff = nowMs() - int64_t(d->options.retentionDays) * 24 * 3600 * 1000;
        if (auto pruned = d->writer->deleteBefore(cutoff); pruned && *pruned > 0)
            qCInfo(lcPromptLog) << "retention: deleted" << *pruned << "calls";
    }
    const auto interval = std::chrono::milliseconds(d->options.batchIntervalMs);
    const auto retry = std::chrono::milliseconds(d->options.retryIntervalMs);
    std::unique_lock lock(d->mutex);
    for (;;) {
        if (d->queue.empty()) {
            d->idle.notify_all();
            if (d->stopping)
                break;
            d->wake.wait(lock, [&d] { return d->stopping || !d->queue.empty(); });
            continue;
        }
        // Gather a batch: enough calls, the oldest old enough, or someone waiting.
        if (!d->stopping && d->flushing == 0 && d->queue.size() < size_t(d->options.batchSize)) {
            const auto due = d->firstQueued + interval;
            if (Clock::now() < due) {
                d->wake.wait_until(lock, due, [&d] {
                    return d->stopping || d->flushing > 0 ||
                           d->queue.size() >= size_t(d->options.batchSize);
                });
                continue;
            }
        }
        const size_t n = std::min(d->queue.size(), size_t(d->options.batchSize) * 4);
        std::vector<Pending> batch = takeFront(d->queue, n);
        const Result<int64_t> written = writeBatch(*d, lock, batch);
        if (written) {
            d->state.written += int64_t(n);
            d->state.failing = false;
            d->state.problem.clear();
            if (!d->queue.empty())
                d->firstQueued = Clock::now() - interval; // what waited goes at once
            if (d->outage && d->queue.empty()) {
                d->outage = false;
                d->warned = false;
                d->dropWarned = false;
                lock.unlock();
                qCInfo(lcPromptLog).noquote()
                    << QStringLiteral("the prompt log %1 is written again").arg(d->location);
                emitGuarded([this] { Q_EMIT recovered(); });
                lock.lock();
            }
            lock.unlock();
            emitGuarded([this, n] { Q_EMIT committed(qint64(n)); });
            lock.lock();
            continue;
        }
        // Not written: the calls go back to the front, in order, and wait for the next try.
        for (auto it = batch.rbegin(); it != batch.rend(); ++it)
            d->queue.push_front(std::move(*it));
        ++d->state.failedAttempts;
        d->state.failing = true;
        d->outage = true;
        d->state.problem = written.error().message;
        d->writer->disconnect();
        // A damaged file will not heal: what waits is dropped (counted), not kept for a retry.
        const bool damaged = d->writer->damaged();
        if (damaged) {
            d->state.dropped += int64_t(d->queue.size());
            d->queue.clear();
        }
        if (!d->warned) {
            d->warned = true;
            const QString message =
                damaged ? written.error().message
                        : QStringLiteral("%1 — calls are kept in memory and written when it "
                                         "works again")
                              .arg(written.error().message);
            lock.unlock();
            qCWarning(lcPromptLog).noquote() << message;
            emitGuarded([this, &message] { Q_EMIT problem(message); });
            lock.lock();
        }
        // Closing: a store that was failing already gets no second try, and no try is begun
        // that could not finish before the deadline.
        if (d->stopping && (d->failingAtStop || Clock::now() + retry >= d->stopDeadline))
            break;
        const auto until =
            d->stopping ? std::min(Clock::now() + retry, d->stopDeadline) : Clock::now() + retry;
        d->wake.wait_until(lock, until,
                           [&d] { return d->stopping && Clock::now() >= d->stopDeadline; });
    }
    d->writerDone = true;
    d->idle.notify_all();
}

Result<QList<CallRecord>> PromptLog::list(const CallFilter& filter, bool withContent)
{
    std::lock_guard lock(d->queryMutex);
    return d->reader->list(filter, withContent);
}

Result<int64_t> PromptLog::count(const CallFilter& filter)
{
    std::lock_guard lock(d->queryMutex);
    return d->reader->count(filter);
}

Result<CallRecord> PromptLog::find(const QString& idOrUid)
{
    std::lock_guard lock(d->queryMutex);
    auto found = d->reader->find(idOrUid.trimmed());
    if (!found)
        return found.error();
    if (found->isEmpty())
        return makeError(QStringLiteral("no call '%1' in the prompt log").arg(idOrUid));
    if (found->size() > 1)
        return makeError(
            QStringLiteral("'%1' names more than one call: give more of its id").arg(idOrUid));
    return found->first();
}

Result<QList<StatsRow>> PromptLog::stats(StatsGroup group, const CallFilter& filter)
{
    std::lock_guard lock(d->queryMutex);
    return d->reader->stats(group, filter);
}

Result<QList<TimeSeries>> PromptLog::series(std::optional<StatsGroup> group,
                                            const CallFilter& filter, const SeriesRange& range)
{
    std::lock_guard lock(d->queryMutex);
    return d->reader->series(group, filter, range);
}

Result<QList<QPair<QString, int64_t>>> PromptLog::tags(int limit)
{
    std::lock_guard lock(d->queryMutex);
    return d->reader->tags(limit);
}

Result<int64_t> PromptLog::insertNow(std::vector<CallRecord> calls)
{
    for (CallRecord& c : calls) {
        if (c.uid.isEmpty())
            c.uid = QUuid::createUuid().toString(QUuid::WithoutBraces);
        prepare(c);
    }
    std::lock_guard lock(d->queryMutex);
    return d->reader->insert(calls);
}

CallInsert PromptLog::beginInsert()
{
    return CallInsert(d);
}

struct CallInsert::State {
    std::shared_ptr<PromptLogPrivate> d;
    std::mutex mutex;
    std::condition_variable ready;
    std::deque<std::vector<Pending>> batches; // prepared, not yet asked for by the writer
    std::vector<std::vector<Pending>> spent;  // written: freed by the caller's thread
    bool ended = false;
    std::thread writer; // started by the first add()
    Result<int64_t> written = int64_t(0);

    // The writer's thread: one insert of the batches as they come, holding the query lock
    // as insertNow() does. A batch written goes back to the caller's thread to be freed: this
    // thread is the busier one.
    void write()
    {
        std::vector<Pending> current;
        size_t at = 0;
        const bool encoded = d->kind == PromptLog::Kind::Sqlite;
        std::lock_guard query(d->queryMutex);
        written = d->reader->insertFrom([&]() -> CallToStore {
            while (at == current.size()) {
                std::unique_lock lock(mutex);
                ready.wait(lock, [&] { return !batches.empty() || ended; });
                if (batches.empty())
                    return {};
                if (!current.empty())
                    spent.push_back(std::move(current));
                current = std::move(batches.front());
                batches.pop_front();
                at = 0;
            }
            const Pending& p = current[at++];
            return {&p.call, encoded ? &p.encoded : nullptr};
        });
    }
};

CallInsert::CallInsert(std::shared_ptr<PromptLogPrivate> d) : m(std::make_unique<State>())
{
    m->d = std::move(d);
}

CallInsert::CallInsert(CallInsert&&) noexcept = default;

CallInsert::~CallInsert()
{
    if (m)
        finish();
}

void CallInsert::add(std::vector<CallRecord> calls)
{
    if (calls.empty() || m->ended)
        return;
    std::vector<Pending> batch(calls.size());
    for (size_t i = 0; i < calls.size(); ++i) {
        if (calls[i].uid.isEmpty())
            calls[i].uid = QUuid::createUuid().toString(QUuid::WithoutBraces);
        batch[i].call = std::move(calls[i]);
    }
    prepareAll(m->d->options, m->d->kind, batch);
    if (!m->writer.joinable())
        m->writer = std::thread([s = m.get()] { s->write(); });
    std::vector<std::vector<Pending>> spent;
    {
        std::lock_guard lock(m->mutex);
        m->batches.push_back(std::move(batch));
        spent.swap(m->spent);
    }
    m->ready.notify_one();
} // the batches already written are freed here, beside the writer

Result<int64_t> CallInsert::finish()
{
    {
        std::lock_guard lock(m->mutex);
        m->ended = true;
    }
    m->ready.notify_one();
    if (m->writer.joinable())
        m->writer.join();
    return m->written;
}

Result<int64_t> PromptLog::deleteRun(const QString& runId)
{
    std::lock_guard lock(d->queryMutex);
    return d->reader->deleteRun(runId);
}

Result<int64_t> PromptLog::deleteOlderThan(int64_t utcMs)
{
    std::lock_guard lock(d->queryMutex);
    return d->reader->deleteBefore(utcMs);
}

Result<QString> PromptLog::integrityCheck()
{
    std::lock_guard lock(d->queryMutex);
    return d->reader->integrityCheck();
}

Result<bool> PromptLog::setScore(CallScore score)
{
    if (score.callUid.isEmpty() || score.name.isEmpty())
        return makeError(QStringLiteral("a score needs its call and a name"));
    if (score.createdAt == 0)
        score.createdAt = nowMs();
    std::lock_guard lock(d->queryMutex);
    return storeScore(*d->reader, score);
}

Result<bool> PromptLog::removeScore(const QString& callUid, const QString& name, ScoreSource source)
{
    std::lock_guard lock(d->queryMutex);
    Result<int64_t> erased = eraseScore(*d->reader, callUid, name, source);
    if (!erased)
        return erased.error();
    return *erased > 0;
}

Result<QList<CallScore>> PromptLog::scores(const ScoreFilter& filter)
{
    std::lock_guard lock(d->queryMutex);
    return readScores(*d->reader, filter);
}

Result<QList<ScoreStats>> PromptLog::scoreStats(const ScoreFilter& filter)
{
    std::lock_guard lock(d->queryMutex);
    return readScoreStats(*d->reader, filter);
}

Result<QList<ScoreSeries>> PromptLog::scoreSeries(const SeriesRange& range,
                                                  const ScoreFilter& filter)
{
    std::lock_guard lock(d->queryMutex);
    return readScoreSeries(*d->reader, filter, range);
}

} // namespace hako::promptlog
