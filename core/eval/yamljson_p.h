#pragma once
// yaml-cpp for core/eval's YAML files (suites, promptfoo datasets): reading one, its errors as
// Diagnostics, its nodes as Qt JSON (private to core/eval; yaml-cpp is linked privately).

#include "core/util/diagnostic.h"

#include <QByteArray>
#include <QJsonValue>
#include <QString>

namespace YAML {
class Node;
class Exception;
} // namespace YAML

namespace hako::eval {

/// A YAML node as JSON: plain scalars that look like numbers, booleans or null become those
/// (YAML 1.2 core schema), quoted scalars stay strings.
QJsonValue yamlToJson(const YAML::Node& node);

/// yaml-cpp's error `e` as a Diagnostic at its place in `origin` (a file or what names the
/// text), line and column counted from 1. Thread-safe (a pure function).
Diagnostic yamlError(const YAML::Exception& e, const QString& origin);

/// `text` as one YAML document, or the parser's error at its place in `origin`. Thread-safe
/// (a pure function).
Result<YAML::Node> loadYaml(const QByteArray& text, const QString& origin);

} // namespace hako::eval
