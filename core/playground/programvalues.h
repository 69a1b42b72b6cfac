#pragma once

#include <QJsonObject>

namespace hako::pdl {
class YamlValue;
}

namespace hako::playground {

/// The program's own values: the entries of its top-level `defs:` written as plain values, as
/// the Prompt view shows them at its top and a run binds them: a scalar, a list or a mapping
/// (`labels: [a, b]`), or a `data:` block holding one (`labels: {data: [a, b]}`, `raw` or not).
/// Entries computed when the program runs (a `${ }` expression, a model call, a `read:`, any
/// other block) are left out. `document` is the program's YAML (null: none). Pure.
QJsonObject programOwnValues(const pdl::YamlValue* document);

} // namespace hako::playground
