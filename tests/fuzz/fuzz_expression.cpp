// libFuzzer entry point: any bytes as a `${ }` template, through the lexer and parser (syntax
// check, free variables and compilation; nothing is evaluated, so no input can run forever).
#include "core/pdl/expr/expression.h"
#include "core/pdl/expr/template.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    (void)hako::pdl::checkTemplate(text);
    (void)hako::pdl::templateVariables(text);
    (void)hako::pdl::expr::compileTemplate(text);
    (void)hako::pdl::expr::compileExpression(text);
    return 0;
}
