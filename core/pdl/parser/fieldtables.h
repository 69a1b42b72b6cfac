#pragma once

#include "core/pdl/ast/block.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hako::pdl {

class YamlValue;

// Which fields each block kind accepts, and how a mapping's kind is found. Internal to the
// parser.

/// The kind named by an explicit `kind:` value (`code` with `args` is the args form).
std::optional<BlockKind> kindFromName(std::string_view name, const YamlValue& node);
/// The kind from the first kind keyword present, in the documented order; Empty if none.
BlockKind detectKind(const YamlValue& node);
/// For a mapping without a kind keyword: the kind its other fields belong to (lang → code,
/// maxIterations → repeat, ...), so the error can say which keyword is missing.
std::optional<BlockKind> guessKind(const YamlValue& node);

const std::vector<const char*>& requiredFields(BlockKind kind);
/// Fields specific to a kind (its keyword included).
const std::vector<std::string_view>& kindFields(BlockKind kind);
bool isKindField(BlockKind kind, std::string_view name);
/// Fields any block may carry.
const std::vector<std::string_view>& commonFieldNames();
bool isCommonField(std::string_view name);
/// Trace bookkeeping (`pdl__*`, and older unprefixed names) accepted and ignored.
bool isIgnoredField(std::string_view name);
/// Every kind keyword, for suggestions on blocks with no kind.
const std::vector<std::string_view>& kindKeywords();

} // namespace hako::pdl
