#pragma once

#include <string_view>

namespace hako {

/// fnmatch-style glob (`*`, `?`, `[abc]`, `[!a-z]`) over the whole string, as PDL matches model
/// names (`defaults:` of a program, the model map). Pure; safe on any thread.
bool globMatch(std::string_view pattern, std::string_view text);

} // namespace hako
