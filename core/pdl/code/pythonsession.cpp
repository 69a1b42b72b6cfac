#include "core/pdl/code/pythonsession.h"

#include "core/pdl/code/childprocess.h"
#include "core/pdl/code/pythondriver.h"
#include "core/pdl/code/pythonwire.h"
#include "core/pdl/code/sandbox.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

namespace hako::pdl::code {

using Clock = std::chrono::steady_clock;
using Json = nlohmann::ordered_json;

/// Shared by a PythonSession and the PythonObjects it handed out (which hold it weakly).
struct PythonSessionState : std::enable_shared_from_this<PythonSessionState> {
    explicit PythonSessionState(PythonSessionOptions o) : options(std::move(o)) {}

    PythonSessionOptions options;
    std::timed_mutex mutex; // serialises requests; guards everything below but `released`
    ChildProcess process;
    // Bumped whenever a subprocess is stopped: objects (handles) of older ones are gone, and
    // handle numbers restart in the next subprocess, so a stale handle must never be sent.
    uint64_t generation = 1;
    int starts = 0;
    std::string version;

    std::mutex releasedMutex;
    std::vector<std::pair<uint64_t, int64_t>> released; // (generation, handle)

    /// `callables`: the PDL functions the request's values name by "fid"; the code may call
    /// them back while the request runs.
    CodeOutcome request(Json req, const CancelToken& cancel, std::chrono::milliseconds timeout,
                        std::vector<std::shared_ptr<const Callable>>* callables = nullptr);
    /// Runs a PDL function Python called (a `callback` frame) and returns the reply frame.
    Json answerCallback(const Json& frame, std::vector<std::shared_ptr<const Callable>>* callables);
    // The thread running a callback holds `mutex`: Python code the called function runs in turn
    // would wait for it forever, so such a request fails at once instead.
    std::atomic<std::thread::id> callbackThread{};
    std::optional<std::string> startLocked(const CancelToken& cancel, Clock::time_point deadline);
    void stopLocked();
    bool lock(const CancelToken& cancel, Clock::time_point deadline);

    enum class Wait { Frame, Cancelled, TimedOut, OutputLimit, Ended };
    Wait readFrame(const CancelToken& cancel, Clock::time_point deadline, Json& frame,
                   std::string* error);
};

namespace {

Clock::time_point deadlineFor(std::chrono::milliseconds timeout)
{
    return timeout.count() > 0 ? Clock::now() + timeout : Clock::time_point::max();
}

std::string frameBytes(const Json& message)
{
    std::string body = message.dump(-1, ' ', false, Json::error_handler_t::replace);
    uint32_t n = uint32_t(body.size());
    std::string frame;
    frame.reserve(body.size() + 4);
    frame.push_back(char((n >> 24) & 0xff));
    frame.push_back(char((n >> 16) & 0xff));
    frame.push_back(char((n >> 8) & 0xff));
    frame.push_back(char(n & 0xff));
    frame += body;
    return frame;
}

// Size of the first complete frame in `buffer` including its prefix, or 0.
size_t completeFrame(const std::string& buffer)
{
    if (buffer.size() < 4)
        return 0;
    auto b = [&](int i) {
        return uint32_t(uint8_t(buffer[size_t(i)]));
    };
    size_t n = (b(0) << 24) | (b(1) << 16) | (b(2) << 8) | b(3);
    return buffer.size() >= n + 4 ? n + 4 : 0;
}

CodeOutcome failure(CodeOutcome::Status status, std::string message)
{
    CodeOutcome o;
    o.status = status;
    o.errorMessage = std::move(message);
    if (status == CodeOutcome::Status::TimedOut) {
        o.errorType = "TimeoutError";
        o.errorTypes = {"TimeoutError", "OSError", "Exception", "BaseException"};
    }
    return o;
}

} // namespace

bool PythonSessionState::lock(const CancelToken& cancel, Clock::time_point deadline)
{
    // Poll, so a caller queued behind a long block still notices cancel and its own timeout.
    while (!mutex.try_lock_for(std::chrono::milliseconds(20))) {
        if (cancel.isCancelled() || options.runCancel.isCancelled() || Clock::now() >= deadline)
            return false;
    }
    return true;
}

PythonSessionState::Wait PythonSessionState::readFrame(const CancelToken& cancel,
                                                       Clock::time_point deadline, Json& frame,
                                                       std::string* error)
{
    std::string& in = process.channelIn();
    CancelToken combined = cancel;
    const CancelToken& run = options.runCancel;
    auto done = [&] {
        return completeFrame(in) > 0 || run.isCancelled();
    };
    PumpStatus st = process.pump(done, &combined, deadline, options.maxOutputBytes);
    if (run.isCancelled())
        return Wait::Cancelled;
    switch (st) {
    case PumpStatus::Done:
        break;
    case PumpStatus::Cancelled:
        return Wait::Cancelled;
    case PumpStatus::TimedOut:
        return Wait::TimedOut;
    case PumpStatus::OutputLimit:
        return Wait::OutputLimit;
    case PumpStatus::Ended:
        return Wait::Ended;
    }
    size_t size = completeFrame(in);
    try {
        frame = Json::parse(in.begin() + 4, in.begin() + std::ptrdiff_t(size));
    } catch (const std::exception& e) {
        *error = std::string("malformed reply from the Python driver: ") + e.what();
        in.erase(0, size);
        return Wait::Ended;
    }
    in.erase(0, size);
    // Output written before the reply is already in the pipes; collect it for this request.
    process.drainAvailable();
    return Wait::Frame;
}

std::optional<std::string> PythonSessionState::startLocked(const CancelToken& cancel,
                                                           Clock::time_point deadline)
{
    if (process.isRunning())
        return std::nullopt;
    ChildSpec spec;
    spec.argv = {options.python, "-u", "-c", pythonDriverSource()};
    spec.workingDirectory = options.workingDirectory;
    spec.channel = true;
    spec.environment = {"PYTHONIOENCODING=utf-8", "PYTHONUNBUFFERED=1"};
    if (options.sandbox) {
        spec.argv = options.sandbox->wrap(spec.argv, options.workingDirectory, spec.environment);
        spec.workingDirectory.clear();
        spec.environment = options.sandbox->environment();
        spec.limits = options.sandbox->limits();
    }
    std::string error;
    if (!process.start(spec, &error))
        return "cannot start Python: " + error;
    ++starts;
    Json hello;
    Wait w = readFrame(cancel, deadline, hello, &error);
    if (w != Wait::Frame || !hello.value("ready", false)) {
        std::string err = std::move(process.err());
        stopLocked();
        if (w == Wait::Cancelled)
            return std::string("cancelled");
        if (w == Wait::TimedOut)
            return std::string("timed out while starting Python");
        std::string message = "the Python interpreter '" + options.python + "' did not start";
        if (!error.empty())
            message += ": " + error;
        if (!err.empty())
            message += ":\n" + err;
        return message;
    }
    version = hello.value("version", std::string());
    process.out().clear();
    process.err().clear();
    return std::nullopt;
}

void PythonSessionState::stopLocked()
{
    if (process.isRunning())
        ++generation;
    process.kill();
    version.clear();
}

Json PythonSessionState::answerCallback(const Json& frame,
                                        std::vector<std::shared_ptr<const Callable>>* callables)
{
    Json reply = Json::object();
    const int64_t fid = frame.value("callback", int64_t(-1));
    if (!callables || fid < 0 || size_t(fid) >= callables->size()) {
        reply["ok"] = false;
        reply["message"] = "this PDL function cannot be called here";
        return reply;
    }
    CallArgs args;
    for (const auto& a : frame.value("args", Json::array()))
        args.positional.push_back(decodeWireValue(a, weak_from_this(), generation));
    const Json kwargs = frame.value("kwargs", Json::object());
    for (auto it = kwargs.begin(); it != kwargs.end(); ++it)
        args.keyword.emplace_back(it.key(),
                                  decodeWireValue(it.value(), weak_from_this(), generation));
    const std::shared_ptr<const Callable> fn = (*callables)[size_t(fid)];
    std::string error;
    try {
        callbackThread = std::this_thread::get_id();
        Value result = fn->call(args);
        callbackThread = std::thread::id();
        Json encoded;
        if (encodeWireValue(result, encoded, this, generation, &error, nullptr, callables)) {
            reply["ok"] = true;
            reply["result"] = std::move(encoded);
            return reply;
        }
    } catch (const std::exception& e) {
        callbackThread = std::thread::id();
        error = e.what();
    } catch (...) {
        // Cancelled: the run is ending; the subprocess waits for a reply it will never get.
        callbackThread = std::thread::id();
        stopLocked();
        throw;
    }
    reply["ok"] = false;
    reply["message"] = error;
    return reply;
}

CodeOutcome PythonSessionState::request(Json req, const CancelToken& cancel,
                                        std::chrono::milliseconds timeout,
                                        std::vector<std::shared_ptr<const Callable>>* callables)
{
    if (callbackThread.load() == std::this_thread::get_id())
        return failure(CodeOutcome::Status::Failed,
                       "a PDL function called from Python code cannot run Python code itself");
    Clock::time_point deadline = deadlineFor(timeout);
    if (!lock(cancel, deadline)) {
        if (cancel.isCancelled() || options.runCancel.isCancelled())
            return failure(CodeOutcome::Status::Cancelled, "cancelled");
        return failure(CodeOutcome::Status::TimedOut, "timed out after " + formatSeconds(timeout) +
                                                          " waiting for the Python session");
    }
    std::unique_lock<std::timed_mutex> guard(mutex, std::adopt_lock);

    if (auto error = startLocked(cancel, deadline)) {
        if (*error == "cancelled")
            return failure(CodeOutcome::Status::Cancelled, *error);
        if (error->rfind("timed out", 0) == 0)
            return failure(CodeOutcome::Status::TimedOut,
                           "timed out after " + formatSeconds(timeout) + " starting Python");
        return failure(CodeOutcome::Status::Failed, *error);
    }

    // The values were encoded before the lock was taken; if the subprocess was replaced in
    // between, their handles would name other objects in the new one.
    std::string error;
    if (req.value("handles", false) && req.value("generation", uint64_t(0)) != generation)
        return failure(CodeOutcome::Status::Failed,
                       "the Python session was restarted (after a timeout, cancel or crash); "
                       "Python objects from before are no longer available");
    {
        std::lock_guard<std::mutex> g(releasedMutex);
        Json ids = Json::array();
        for (const auto& [gen, id] : released)
            if (gen == generation)
                ids.push_back(id);
        released.clear();
        if (!ids.empty())
            req["release"] = std::move(ids);
    }

    process.out().clear();
    process.err().clear();
    process.queueWrite(frameBytes(req));
    Json reply;
    Wait w = readFrame(cancel, deadline, reply, &error);
    // The code calls PDL functions back: answer each before its own reply comes.
    while (w == Wait::Frame && reply.contains("callback")) {
        process.queueWrite(frameBytes(answerCallback(reply, callables)));
        w = readFrame(cancel, deadline, reply, &error);
    }
    CodeOutcome outcome;
    if (w != Wait::Frame) {
        std::string out = std::move(process.out());
        std::string err = std::move(process.err());
        switch (w) {
        case Wait::Cancelled:
            outcome = failure(CodeOutcome::Status::Cancelled, "cancelled");
            stopLocked();
            break;
        case Wait::TimedOut:
            outcome =
                failure(CodeOutcome::Status::TimedOut, "timed out after " + formatSeconds(timeout));
            stopLocked();
            break;
        case Wait::OutputLimit:
            outcome =
                failure(CodeOutcome::Status::Failed,
                        "the code wrote more than " + std::to_string(options.maxOutputBytes >> 20) +
                            " MiB of output; the Python session was stopped");
            stopLocked();
            break;
        default: {
            int status = process.wait();
            std::string message = error.empty() ? "the Python session ended unexpectedly (" +
                                                      ChildProcess::describeStatus(status) + ")"
                                                : error;
            outcome = failure(CodeOutcome::Status::Failed, std::move(message));
            stopLocked();
            break;
        }
        }
        outcome.out = std::move(out);
        outcome.err = std::move(err);
        return outcome;
    }

    outcome.out = std::move(process.out());
    outcome.err = std::move(process.err());
    process.out().clear();
    process.err().clear();
    if (reply.value("ok", false)) {
        outcome.status = CodeOutcome::Status::Ok;
        outcome.result =
            decodeWireValue(reply.value("result", Json()), weak_from_this(), generation);
        for (const auto& note : reply.value("notes", Json::array()))
            if (note.is_string())
                outcome.notes.push_back(note.get<std::string>());
    } else {
        outcome.status = CodeOutcome::Status::Exception;
        outcome.errorType = reply.value("type", std::string("Exception"));
        for (const auto& t : reply.value("types", Json::array()))
            if (t.is_string())
                outcome.errorTypes.push_back(t.get<std::string>());
        outcome.errorMessage = reply.value("message", std::string());
        outcome.traceback = reply.value("traceback", std::string());
        outcome.errorLine = reply.value("line", 0);
    }
    return outcome;
}

PythonSession::PythonSession(PythonSessionOptions options)
    : m_state(std::make_shared<PythonSessionState>(std::move(options)))
{}

PythonSession::~PythonSession()
{
    std::lock_guard<std::timed_mutex> guard(m_state->mutex);
    m_state->stopLocked();
}

CodeOutcome PythonSession::exec(const std::string& code, const Dict& globals,
                                const CancelToken& cancel, std::chrono::milliseconds timeout)
{
    Json req = Json::object();
    req["op"] = "exec";
    req["code"] = code;
    Json g = Json::object();
    // Encoded outside the lock (values can be large); request() re-checks the generation.
    uint64_t generation;
    {
        std::lock_guard<std::timed_mutex> guard(m_state->mutex);
        generation = m_state->generation;
    }
    bool handles = false;
    std::vector<std::shared_ptr<const Callable>> callables;
    for (const auto& [key, value] : globals) {
        if (!key.isString())
            continue;
        std::string error;
        if (!encodeWireValue(value, g[key.asString()], m_state.get(), generation, &error, &handles,
                             &callables)) {
            CodeOutcome o;
            o.status = CodeOutcome::Status::Failed;
            o.errorMessage = "variable '" + key.asString() + "': " + error;
            return o;
        }
    }
    req["globals"] = std::move(g);
    req["generation"] = generation;
    req["handles"] = handles;
    return m_state->request(std::move(req), cancel, timeout, &callables);
}

std::optional<std::string> PythonSession::start(const CancelToken& cancel)
{
    if (!m_state->lock(cancel, Clock::time_point::max()))
        return std::string("cancelled");
    std::unique_lock<std::timed_mutex> guard(m_state->mutex, std::adopt_lock);
    return m_state->startLocked(cancel, Clock::time_point::max());
}

void PythonSession::stop()
{
    std::lock_guard<std::timed_mutex> guard(m_state->mutex);
    m_state->stopLocked();
}

bool PythonSession::isRunning() const
{
    std::lock_guard<std::timed_mutex> guard(m_state->mutex);
    return m_state->process.isRunning();
}

int PythonSession::startCount() const
{
    std::lock_guard<std::timed_mutex> guard(m_state->mutex);
    return m_state->starts;
}

std::string PythonSession::pythonVersion() const
{
    std::lock_guard<std::timed_mutex> guard(m_state->mutex);
    return m_state->version;
}

PythonObject::PythonObject(std::weak_ptr<PythonSessionState> session, uint64_t generation,
                           int64_t id, std::string repr, std::string typeName, bool callable)
    : m_session(std::move(session)), m_generation(generation), m_id(id), m_repr(std::move(repr)),
      m_typeName(std::move(typeName)), m_callable(callable)
{}

PythonObject::~PythonObject()
{
    if (auto state = m_session.lock()) {
        std::lock_guard<std::mutex> g(state->releasedMutex);
        state->released.emplace_back(m_generation, m_id);
    }
}

bool PythonObject::belongsTo(const PythonSessionState* state) const
{
    auto s = m_session.lock();
    return s && s.get() == state;
}

CodeOutcome PythonObject::invoke(const CallArgs& args, const CancelToken& cancel) const
{
    auto state = m_session.lock();
    if (!state)
        return failure(CodeOutcome::Status::Failed,
                       "the Python session of " + m_repr + " has ended");
    Json req = Json::object();
    req["op"] = "call";
    req["id"] = m_id;
    req["repr"] = m_repr;
    Json positional = Json::array();
    Json keyword = Json::object();
    std::string error;
    for (const Value& v : args.positional) {
        positional.emplace_back();
        if (!encodeWireValue(v, positional.back(), state.get(), m_generation, &error))
            return failure(CodeOutcome::Status::Failed, error);
    }
    for (const auto& [name, v] : args.keyword)
        if (!encodeWireValue(v, keyword[name], state.get(), m_generation, &error))
            return failure(CodeOutcome::Status::Failed, error);
    req["args"] = std::move(positional);
    req["kwargs"] = std::move(keyword);
    req["generation"] = m_generation;
    req["handles"] = true;
    return state->request(std::move(req), cancel, state->options.callTimeout);
}

Value PythonObject::call(const CallArgs& args) const
{
    CodeOutcome outcome = invoke(args);
    if (!outcome.ok())
        throw EvalError(outcome.describe());
    return outcome.result;
}

} // namespace hako::pdl::code
