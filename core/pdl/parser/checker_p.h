#pragma once

// The structural checker behind parseProgram: turns YAML nodes into typed blocks and collects
// every problem it finds. Internal to the parser.

#include "core/pdl/ast/block.h"
#include "core/pdl/parser/fieldtables.h"
#include "core/pdl/parser/programparser.h"
#include "core/pdl/parser/yamlvalue.h"

#include <QString>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hako::pdl::detail {

inline QString q(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

inline SourceSpan joinSpans(const SourceSpan& a, const SourceSpan& b)
{
    SourceSpan s = a;
    if (b.isValid() &&
        (b.endLine > s.endLine || (b.endLine == s.endLine && b.endColumn > s.endColumn))) {
        s.endLine = b.endLine;
        s.endColumn = b.endColumn;
    }
    return s;
}

// Traces record an evaluated expression as {pdl__expr: source, pdl__result: value}; checks
// apply to the source.
inline const YamlValue& unwrapTrace(const YamlValue& v)
{
    if (v.isMapping()) {
        if (const YamlValue* src = v.value("pdl__expr"))
            return *src;
    }
    return v;
}

inline bool isExpressionString(const YamlValue& v)
{
    return v.isString() && v.scalar().asString().find("${") != std::string::npos;
}

class Checker {
public:
    Checker(const ParseOptions& options, std::shared_ptr<const YamlValue> document)
        : m_options(options), m_document(std::move(document))
    {}

    std::vector<Diagnostic> diagnostics;
    /// The document nodes blocks were read from, in parse order (see Program::blockNodes).
    std::vector<const YamlValue*> blockNodes;

    BlockPtr parseBlock(const YamlValue& node)
    {
        blockNodes.push_back(&node);
        if (node.isSequence()) {
            error(node.span(),
                  QStringLiteral("a list is not a block here; wrap it in 'text:', 'lastOf:' or "
                                 "'array:'"));
            auto b = std::make_shared<EmptyBlock>();
            b->span = node.span();
            return b;
        }
        if (node.isScalar()) {
            auto b = std::make_shared<DataBlock>();
            b->span = node.span();
            b->data = expr(node);
            return b;
        }
        return parseMapping(node);
    }

private:
    void error(const SourceSpan& span, QString message)
    {
        diagnostics.push_back(makeError(std::move(message), span));
    }

    // Visits the strings of an expression-valued node for the expression hook.
    void checkStrings(const YamlValue& node)
    {
        if (!m_options.checkExpression)
            return;
        if (node.isString()) {
            m_options.checkExpression(node.scalar().asString(), node.span(), diagnostics);
        } else if (node.isSequence()) {
            for (const YamlValue& item : node.items())
                checkStrings(item);
        } else if (node.isMapping()) {
            for (const auto& e : node.entries()) {
                checkStrings(e.key);
                checkStrings(e.value);
            }
        }
    }

    Expr expr(const YamlValue& node, bool check = true)
    {
        Expr e;
        e.present = true;
        e.span = node.span();
        // Traces record expressions as {pdl__expr: source, pdl__result: value}.
        if (node.isMapping()) {
            if (const YamlValue* src = node.value("pdl__expr")) {
                e.value = src->toValue();
                if (check)
                    checkStrings(*src);
                return e;
            }
        }
        e.value = node.toValue();
        if (check)
            checkStrings(node);
        return e;
    }

    std::optional<std::string> stringField(const YamlValue& v, std::string_view field,
                                           const char* kind, bool nullable = false)
    {
        if (nullable && v.isNull())
            return std::nullopt;
        if (!v.isString()) {
            error(v.span(), QStringLiteral("field '%1' of %2 must be a string, not %3")
                                .arg(q(field), q(kind), q(v.describe())));
            return std::nullopt;
        }
        return v.scalar().asString();
    }

    bool boolField(const YamlValue& v, std::string_view field, const char* kind)
    {
        if (v.scalar().isBool() && v.isScalar())
            return v.scalar().asBool();
        error(v.span(), QStringLiteral("field '%1' of %2 must be true or false, not %3")
                            .arg(q(field), q(kind), q(v.describe())));
        return false;
    }

    // An int, or an expression string that evaluates to one.
    Expr intExpr(const YamlValue& traced, std::string_view field, const char* kind)
    {
        const YamlValue& v = unwrapTrace(traced);
        if ((v.isScalar() && v.scalar().isInt()) || isExpressionString(v) ||
            (v.isMapping() && v.value("pdl__expr")))
            return expr(v);
        QString what = v.isString()
                           ? QStringLiteral("the string \"%1\"").arg(q(v.scalar().asString()))
                           : q(v.describe());
        error(v.span(), QStringLiteral("field '%1' of %2 must be an integer or a ${ } "
                                       "expression, not %3")
                            .arg(q(field), q(kind), what));
        return {};
    }

    // A bool, or an expression string.
    Expr condExpr(const YamlValue& traced, std::string_view field, const char* kind,
                  bool nullable = false)
    {
        const YamlValue& v = unwrapTrace(traced);
        if ((v.isScalar() && (v.scalar().isBool() || v.isString() || (nullable && v.isNull()))) ||
            (v.isMapping() && v.value("pdl__expr")))
            return expr(v);
        error(v.span(), QStringLiteral("field '%1' of %2 must be a boolean or an expression, "
                                       "not %3")
                            .arg(q(field), q(kind), q(v.describe())));
        return {};
    }

    // Body fields that may hold a list of blocks (text, lastOf, array, sequence).
    void children(const YamlValue& v, std::vector<BlockPtr>& out, bool singleAllowed,
                  const char* field)
    {
        if (v.isSequence()) {
            out.reserve(v.items().size());
            for (const YamlValue& item : v.items())
                out.push_back(parseBlock(item));
        } else if (singleAllowed) {
            out.push_back(parseBlock(v));
        } else {
            error(v.span(), QStringLiteral("field '%1' must be a list of blocks, not %2")
                                .arg(q(field), q(v.describe())));
        }
    }

    BlockPtr parseMapping(const YamlValue& node);
    void commonField(Block& b, const YamlValue::Entry& e, const char* kind);
    bool kindField(Block& b, const YamlValue::Entry& e, const YamlValue& node);
    // kindField's per-kind parts: each reads one field of its kind of block.
    /// A field taking a mapping (parameters, arguments) or an expression; `message` (with %1
    /// for what was written) when it is neither.
    Expr mappingExpr(const YamlValue& v, const QString& message);
    void modelField(ModelBlock& b, const std::string& n, const YamlValue& v, const char* kt);
    void readField(ReadBlock& b, const std::string& n, const YamlValue& v, const char* kt);
    void objectField(ObjectBlock& b, const YamlValue& v);
    void loopField(Block& blk, const std::string& n, const YamlValue& v, const char* kt);
    void functionField(FunctionBlock& b, const std::string& n, const YamlValue& v);
    void callField(CallBlock& b, const std::string& n, const YamlValue& v);
    void codeField(Block& blk, const std::string& n, const YamlValue& v);
    void codeLang(Block& blk, const YamlValue& v);
    void parseContribute(Block& b, const YamlValue& v);
    void parseParser(Block& b, const YamlValue& v);
    void parseRetry(Block& b, const YamlValue& v);
    void parseExpectations(Block& b, const YamlValue& v);
    void parseJoin(JoinSpec& join, const YamlValue& v);
    void parseFor(LoopBlockBase& b, const YamlValue& v);
    Pattern parsePattern(const YamlValue& v);
    void parseCases(MatchBlock& b, const YamlValue& v);
    void parseAggregator(AggregatorBlock& b, const YamlValue& v);
    void reportUnknown(const YamlValue::Entry& e, BlockKind kind, bool guessed);

    const ParseOptions& m_options;
    std::shared_ptr<const YamlValue> m_document;
};

std::shared_ptr<Block> makeBlock(BlockKind kind);

} // namespace hako::pdl::detail
