// Hako's built-ins that read files next to the program (images for model messages).
#include "core/pdl/expr/builtins_p.h"
#include "core/pdl/expr/filebase.h"
#include "core/pdl/imagecontent.h"

#include <QDir>
#include <QFileInfo>

namespace hako::pdl::expr {

namespace {

// Points at the directory of the innermost BaseDirectoryScope on this thread (which outlives
// the pointer).
thread_local const QString* t_baseDirectory = nullptr;

} // namespace

const QString& currentBaseDirectory()
{
    static const QString none;
    return t_baseDirectory ? *t_baseDirectory : none;
}

BaseDirectoryScope::BaseDirectoryScope(const QString& dir) : m_saved(t_baseDirectory)
{
    t_baseDirectory = &dir;
}

BaseDirectoryScope::~BaseDirectoryScope()
{
    t_baseDirectory = m_saved;
}

Value imageUrlBuiltin(const CallArgs& args)
{
    auto slots = builtins::detail::bindArgs("image_url", args, {"path"});
    if (!slots[0] || !slots[0]->isString())
        builtins::detail::fail("image_url() needs the path of an image file, e.g. "
                               "image_url('page1.png')");
    const QString path = QString::fromStdString(slots[0]->asString());
    const QString& base = currentBaseDirectory();
    const QString resolved =
        QFileInfo(path).isAbsolute() || base.isEmpty() ? path : QDir(base).filePath(path);
    Result<std::string> url = imageDataUrl(resolved);
    if (!url.ok())
        builtins::detail::fail("image_url: " + url.error().message.toStdString());
    return Value(std::move(url).value());
}

} // namespace hako::pdl::expr
