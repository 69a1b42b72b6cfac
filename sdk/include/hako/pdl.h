#pragma once
// Hako's PDL interpreter for host programs: run a PDL program (a file or YAML text) with
// variables, and get its result, its variables, its background context and its trace. Model
// blocks go to the endpoints the user configured for Hako (as `hako run` does), and every model
// call is recorded in the user's prompt log unless RunOptions::logCalls is off.
//
// Only the standard library and nlohmann::json appear here: a host program needs neither Qt nor
// Hako's internal headers. Link `Hako::pdl` (CMake: `find_package(Hako)`).

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <string>

namespace hako::sdk {

/// Values as they go in and out of a program: JSON with its keys in the program's order.
using Json = nlohmann::ordered_json;

/// Something that happened during a run, delivered on the thread that runs it (from several
/// threads inside a parallel `map`): keep the callback short and thread-safe.
struct Event {
    enum class Kind {
        BlockStarted,  ///< a block began
        BlockFinished, ///< a block ended; `text` holds its error message when it failed
        ModelText,     ///< a piece of a model reply as it streams in (`text`)
    };
    Kind kind = Kind::BlockStarted;
    std::string block; ///< the block's kind as PDL names it: `model`, `code`, `text`, …
    std::string id;    ///< the block's `pdl__id`, the reference's dotted path (`text.1.model`)
    std::string text;
};

/// Stops a run from any thread: the run ends at the next block boundary, running code is
/// killed and a model call waiting for its reply gives up. Share one between the run and
/// whoever may stop it.
class Cancellation {
public:
    Cancellation();
    ~Cancellation();
    void cancel();
    bool cancelled() const;

private:
    friend struct CancellationAccess;
    struct Flag;
    std::unique_ptr<Flag> m_flag;
};

/// How to run a program.
struct RunOptions {
    /// The variables the program starts with (the reference's `-d`/`--data`): a JSON object.
    Json scope = Json::object();
    /// Where relative `read:`/`include:` paths and `hako-models.yaml` resolve. Empty: the
    /// program's folder (runFile) or the current folder (runString).
    std::string folder;
    /// Build the trace (RunOutcome::trace, in the reference's `-t` format).
    bool trace = false;
    /// Run code blocks in the sandbox (bubblewrap), as `hako run --sandbox`.
    bool sandbox = false;
    /// Run although the folder is not one the user trusts and the program runs code or sends
    /// requests to servers other than the configured ones (`hako run --trust`). Off, such a
    /// program is refused with the list of what needs consent, exactly as `hako run` refuses it.
    bool trusted = false;
    /// Write the run to standard output as it happens: the result as it is produced (`hako run
    /// --stream result`), or every message added to the background context (`--stream context`).
    enum class Stream { None, Result, Context };
    Stream stream = Stream::None;
    /// Record every model call in the user's prompt log, as `hako run` does.
    bool logCalls = true;
    /// Hears about the run as it happens (see Event). May be empty.
    std::function<void(const Event&)> onEvent;
    /// Stops the run when cancelled. May be null.
    std::shared_ptr<Cancellation> cancellation;
};

/// What a run gave.
struct RunOutcome {
    bool ok = false;
    Json result;           ///< the program's result (null when the run failed)
    std::string text;      ///< the result as `hako run` prints it (without the final newline)
    Json scope;            ///< the variables when the run ended (functions and objects as null)
    Json context;          ///< the background context: a list of `{role, content, …}` messages
    Json trace;            ///< with RunOptions::trace: the trace (partial after an error)
    std::string error;     ///< when !ok: what went wrong, in plain words
    std::string errorFile; ///< when !ok and known: the file and line the error points at
    int errorLine = 0;
};

/// Runs the PDL program in `path`. Blocks the calling thread until the program ends; runs on
/// any thread, several runs at once on different threads.
RunOutcome runFile(const std::string& path, const RunOptions& options = {});

/// Runs a PDL program given as YAML text (`name` is what errors call it).
RunOutcome runString(const std::string& yaml, const RunOptions& options = {},
                     const std::string& name = "<string>");

/// Hako's version, as `hako --version` prints it.
std::string version();

} // namespace hako::sdk
