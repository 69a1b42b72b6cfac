#include "cli/output.h"

namespace hako {

void writeText(FILE* stream, const QString& text)
{
    const QByteArray utf8 = text.toUtf8();
    writeText(stream, std::string_view(utf8.constData(), size_t(utf8.size())));
}

void writeText(FILE* stream, std::string_view utf8)
{
    std::fwrite(utf8.data(), 1, utf8.size(), stream);
    std::fflush(stream);
}

} // namespace hako
