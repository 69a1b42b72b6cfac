// libFuzzer entry point: any bytes as a PDL program file, through the YAML loader, the
// structural checker and the expression syntax checker (what `hako check` runs).
#include "core/pdl/programcheck.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray text(reinterpret_cast<const char*>(data), qsizetype(size));
    hako::pdl::ParseResult result = hako::pdl::checkProgramText(text, QStringLiteral("fuzz.pdl"));
    // Every diagnostic must be printable (spans inside the text, valid UTF-8 messages).
    for (const hako::Diagnostic& d : result.diagnostics)
        (void)d.toString();
    return 0;
}
