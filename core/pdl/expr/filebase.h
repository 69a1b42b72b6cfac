#pragma once

#include "core/pdl/value.h"

#include <QString>

namespace hako::pdl::expr {

/// The folder that relative paths given to file-reading built-ins (`image_url`) resolve
/// against on this thread: the folder of the program whose expression is being evaluated, or
/// empty (then the process's working folder). Set by the interpreter around each evaluation.
const QString& currentBaseDirectory();

/// Makes `dir` this thread's base directory for its lifetime and restores the previous one.
class BaseDirectoryScope {
public:
    explicit BaseDirectoryScope(const QString& dir);
    ~BaseDirectoryScope();
    BaseDirectoryScope(const BaseDirectoryScope&) = delete;
    BaseDirectoryScope& operator=(const BaseDirectoryScope&) = delete;

private:
    const QString* m_saved;
};

/// The `image_url(path)` built-in: the data URL of an image file (see imageDataUrl in
/// core/pdl/imagecontent.h), relative to currentBaseDirectory(). Throws EvalError with a plain
/// message for a missing, oversized or non-image file.
Value imageUrlBuiltin(const CallArgs& args);

} // namespace hako::pdl::expr
