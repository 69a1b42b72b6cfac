#pragma once

#include <QStringList>

namespace hako {

/// Where every kind of Hako plugin (model providers, the PDF extractor) is looked for, in order:
/// HAKO_PLUGIN_PATH (colon-separated), then `<app dir>/../lib/hako/plugins` (the build tree) and
/// `<app dir>/../<libdir>/hako/plugins` (an installation). Safe on any thread once the
/// application object exists.
QStringList pluginSearchPaths();

} // namespace hako
