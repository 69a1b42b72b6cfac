#pragma once

#include "core/pdl/value.h"

#include <memory>

namespace hako::docs {

class DocumentSession;

/// The `doc` object PDL programs call: a Dict of Callables sharing `session`:
/// `search(q1, q2, …, page=K)`, `show(n1, n2, …)` (numbers or "176-178" strings),
/// `answer(text)`, `rank(query)`, `memo(text)` return the command's output string, as the
/// seed prints it; `cost()` returns the total cost so far; `run(command)` runs any command line
/// (a fenced code block in it is unwrapped first, so a model's reply can be passed as it is);
/// `submitted()` returns the answer given so far or None; `last()` the latest transcript entry
/// as `{input, output, cost, total_cost}` or None.
/// Each call is recorded in the session's transcript. Thread-safe (the session serialises).
pdl::Value makeDocumentBindings(std::shared_ptr<DocumentSession> session);

} // namespace hako::docs
