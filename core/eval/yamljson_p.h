#pragma once
// yaml-cpp nodes as Qt JSON (private to core/eval; yaml-cpp is linked privately).

#include <QJsonValue>

namespace YAML {
class Node;
}

namespace hako::eval {

/// A YAML node as JSON: plain scalars that look like numbers, booleans or null become those
/// (YAML 1.2 core schema), quoted scalars stay strings.
QJsonValue yamlToJson(const YAML::Node& node);

} // namespace hako::eval
