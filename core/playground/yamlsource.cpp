#include "core/playground/yamlsource_p.h"

namespace hako::playground::detail {

using pdl::YamlValue;

ScalarStyle styleOf(const Source& src, const YamlValue& node)
{
    if (node.style() == YamlValue::Style::Block)
        return ScalarStyle::Literal;
    if (node.style() == YamlValue::Style::Quoted) {
        const qsizetype s = src.start(node);
        return s < src.text().size() && src.text().at(s) == QLatin1Char('\'')
                   ? ScalarStyle::SingleQuoted
                   : ScalarStyle::DoubleQuoted;
    }
    return ScalarStyle::Plain;
}

int blockIndent(const Source& src, const YamlValue& node, int parentIndent)
{
    if (node.style() == YamlValue::Style::Block) {
        qsizetype i = src.lineEnd(src.start(node)) + 1;
        const QString& t = src.text();
        while (i < t.size()) {
            qsizetype j = i;
            while (j < t.size() && t.at(j) == QLatin1Char(' '))
                ++j;
            if (j < t.size() && t.at(j) != QLatin1Char('\n') && t.at(j) != QLatin1Char('\r'))
                return int(j - i);
            i = j + 1;
        }
    }
    return parentIndent + 2;
}

} // namespace hako::playground::detail
