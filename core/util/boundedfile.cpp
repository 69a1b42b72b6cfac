#include "core/util/boundedfile.h"

#include <QFile>
#include <QFileInfo>

namespace hako {

Result<QByteArray> readBoundedFile(const QString& path, qint64 maxBytes)
{
    const QFileInfo info(path);
    const QString shown = info.absoluteFilePath();
    if (!info.exists())
        return makeError(QStringLiteral("cannot read %1: no such file").arg(shown), {path});
    if (info.isDir())
        return makeError(QStringLiteral("%1 is a folder, not a file").arg(shown), {path});
    // Checked before opening: opening a FIFO blocks until a writer appears.
    if (!info.isFile())
        return makeError(QStringLiteral("%1 is not a regular file (a device, pipe or socket); "
                                        "only regular files are read")
                             .arg(shown),
                         {path});
    const auto tooLarge = [&] {
        return makeError(
            QStringLiteral("%1 is larger than the limit of %2 MiB").arg(shown).arg(maxBytes >> 20),
            {path});
    };
    if (info.size() > maxBytes)
        return tooLarge();
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return makeError(QStringLiteral("cannot read %1: %2").arg(shown, file.errorString()),
                         {path});
    QByteArray data;
    data.reserve(qsizetype(info.size()));
    constexpr qint64 kChunk = qint64(1) << 20;
    while (true) {
        // Never trust the size: /proc files report 0 and a file may grow while it is read.
        const QByteArray part = file.read(std::min(kChunk, maxBytes + 1 - data.size()));
        if (part.isEmpty())
            break;
        data.append(part);
        if (data.size() > maxBytes)
            return tooLarge();
    }
    if (file.error() != QFileDevice::NoError)
        return makeError(QStringLiteral("cannot read %1: %2").arg(shown, file.errorString()),
                         {path});
    return data;
}

} // namespace hako
