#pragma once

#include "core/pdl/code/codeoutcome.h"
#include "core/pdl/value.h"
#include "core/util/cancel.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace hako::pdl::code {

class Sandbox;
struct PythonSessionState;

/// How a PythonSession starts its interpreter.
struct PythonSessionOptions {
    /// The interpreter, looked up in PATH.
    std::string python = "python3";
    /// The folder code runs in (the program's folder); empty: the current one.
    std::string workingDirectory;
    /// When set, the interpreter runs inside this bubblewrap sandbox.
    std::shared_ptr<const Sandbox> sandbox;
    /// The run's token: cancelling it stops whatever the session is doing, including calls of
    /// PythonObject values (which have no token of their own).
    CancelToken runCancel;
    /// Limit for calls of PythonObject values (0: none).
    std::chrono::milliseconds callTimeout{0};
    /// stdout or stderr of one request beyond this is an error (the subprocess is killed).
    size_t maxOutputBytes = size_t(256) << 20;
};

/// One persistent `python3 -u` subprocess per interpreter run, started lazily by the first
/// exec(), so that `PDL_SESSION`, imports and objects persist across code blocks.
///
/// The subprocess runs a driver (pythondriver.cpp) that talks length-prefixed JSON over a
/// private socket on fd 3; the code's stdout and stderr are captured per request from the
/// process's own pipes. Values JSON cannot carry (functions, iterators, files, class
/// instances) stay in the subprocess and come back as PythonObject callables; passing one back
/// in the globals of a later exec gives the code the original object.
///
/// Conversions: None/bool/int/float/str/list/dict map to the PDL types (tuples and other
/// sequences come back as lists, dict order is kept, non-string keys are kept, nan/inf are
/// kept). A Python int outside 64 bits comes back as the nearest float and a note in
/// CodeOutcome::notes (PDL integers are 64-bit). PDL functions passed in show their repr; calling
/// one sends a callback frame, and the session runs the function (on the exec() caller's thread)
/// before the code goes on; its error is a RuntimeError in the code. A PDL function called so may
/// not run Python code itself (that request fails at once instead of waiting for the session).
///
/// Thread-safety: every method may be called from any thread; requests are serialised (a
/// waiting caller still notices its cancel token). Blocking: exec() blocks the calling thread
/// (never call it on a GUI thread). A timeout or cancel kills the subprocess's process group;
/// the next request starts a fresh subprocess, whose objects from the old one are gone. The
/// destructor kills the subprocess.
class PythonSession {
public:
    explicit PythonSession(PythonSessionOptions options = {});
    ~PythonSession();
    PythonSession(const PythonSession&) = delete;
    PythonSession& operator=(const PythonSession&) = delete;

    /// Runs `code` with the PDL variables `globals` (plus `PDL_SESSION`) as its globals and
    /// returns the value of `result` (None when unset), or the exception it raised. A zero
    /// `timeout` means none.
    CodeOutcome exec(const std::string& code, const Dict& globals, const CancelToken& cancel = {},
                     std::chrono::milliseconds timeout = std::chrono::milliseconds(0));

    /// Starts the subprocess now (exec() does it when needed). Returns an error message, or
    /// nothing when the session is running.
    std::optional<std::string> start(const CancelToken& cancel = {});
    /// Kills the subprocess; the next exec() starts a new one.
    void stop();
    bool isRunning() const;
    /// How many subprocesses this session has started (1 after the first exec).
    int startCount() const;
    /// The Python version the subprocess reported ("3.11.2"), empty before start.
    std::string pythonVersion() const;

private:
    std::shared_ptr<PythonSessionState> m_state;
};

/// A Python object kept in a session's subprocess under a handle. Calling it calls the object
/// there (positional and keyword arguments converted like exec() globals); its repr() is
/// Python's repr taken when it was returned. It holds its session weakly: once the session is
/// gone or restarted, calls fail with an EvalError. Releasing the last reference lets the
/// subprocess drop the object at its next request.
class PythonObject : public Callable {
public:
    PythonObject(std::weak_ptr<PythonSessionState> session, uint64_t generation, int64_t id,
                 std::string repr, std::string typeName, bool callable);
    ~PythonObject() override;

    std::string name() const override { return m_typeName; }
    std::string repr() const override { return m_repr; }
    /// As the reference prints a Python object it cannot serialise: its str() (taken as repr,
    /// which is what str() gives for functions, classes and most objects).
    std::string text() const override { return m_repr; }
    /// Calls the object in the subprocess; throws EvalError ("TypeError: …") on failure.
    Value call(const CallArgs& args) const override;
    /// The full outcome of a call, with captured output, for callers that want it.
    CodeOutcome invoke(const CallArgs& args, const CancelToken& cancel = {}) const;

    int64_t handle() const { return m_id; }
    uint64_t generation() const { return m_generation; }
    const std::string& typeName() const { return m_typeName; }
    bool isCallable() const { return m_callable; }
    /// Whether this object lives in `state`'s current subprocess.
    bool belongsTo(const PythonSessionState* state) const;

private:
    std::weak_ptr<PythonSessionState> m_session;
    uint64_t m_generation;
    int64_t m_id;
    std::string m_repr;
    std::string m_typeName;
    bool m_callable;
};

} // namespace hako::pdl::code
