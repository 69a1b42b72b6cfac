#pragma once

namespace hako::pdl::code {

/// The Python program PythonSession runs with `python3 -u -c`: it reads length-prefixed JSON
/// requests from fd 3 and answers on the same socket, so user output on stdout/stderr never
/// mixes with the protocol. Requests: `{"op": "exec", "code", "globals"}`, `{"op": "call",
/// "id", "args", "kwargs"}`, each with an optional `"release": [ids]` list of object handles
/// the C++ side no longer holds. Replies: `{"ok": true, "result", "notes"}` or `{"ok": false,
/// "type", "types", "message", "traceback", "line"}`. Values that JSON cannot carry travel as
/// objects tagged with the key "\u0000hako" (see pythonwire.h).
const char* pythonDriverSource();

} // namespace hako::pdl::code
