// The `hako._hako` Python extension: the SDK's runs (hako/pdl.h) for the `hako.pdl` module,
// which offers them with the reference interpreter's Python signatures. Values cross as JSON
// text, through the one JSON reading on each side (nlohmann::json here, Python's json there).

#include "hako/pdl.h"

#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace {

// Runs a program (a file, or YAML text) and gives the outcome as JSON text:
// {ok, result, text, scope, context, trace, error, file, line}; `stream` is "result",
// "context" or "none" (what goes to standard output as the run goes). The GIL is released while the
// program runs, so other Python threads go on (and may cancel through `cancel_token`).
std::string run(const std::string& source, bool isFile, const std::string& scopeJson,
                const std::string& folder, bool trace, bool sandbox, bool trusted, bool log,
                const std::string& name, const std::string& stream)
{
    hako::sdk::RunOptions options;
    options.scope = hako::sdk::Json::parse(scopeJson.empty() ? std::string("{}") : scopeJson);
    options.folder = folder;
    options.trace = trace;
    options.sandbox = sandbox;
    options.trusted = trusted;
    options.logCalls = log;
    options.stream = stream == "result"    ? hako::sdk::RunOptions::Stream::Result
                     : stream == "context" ? hako::sdk::RunOptions::Stream::Context
                                           : hako::sdk::RunOptions::Stream::None;
    hako::sdk::RunOutcome out;
    {
        py::gil_scoped_release release;
        out = isFile ? hako::sdk::runFile(source, options)
                     : hako::sdk::runString(source, options, name);
    }
    hako::sdk::Json json = {
        {"ok", out.ok},       {"result", out.result},   {"text", out.text},
        {"scope", out.scope}, {"context", out.context}, {"trace", out.trace},
        {"error", out.error}, {"file", out.errorFile},  {"line", out.errorLine}};
    return json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace

PYBIND11_MODULE(_hako, m)
{
    m.doc() = "Hako's PDL interpreter (see hako.pdl for the reference's entry points).";
    m.def("run", &run, py::arg("source"), py::arg("is_file"), py::arg("scope_json"),
          py::arg("folder"), py::arg("trace"), py::arg("sandbox"), py::arg("trusted"),
          py::arg("log"), py::arg("name") = "<string>", py::arg("stream") = "none");
    m.def("version", &hako::sdk::version);
}
