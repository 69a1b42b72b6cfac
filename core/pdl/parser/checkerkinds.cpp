#include "core/pdl/parser/checker_p.h"

#include <algorithm>
#include <array>

namespace hako::pdl::detail {

void Checker::parseJoin(JoinSpec& join, const YamlValue& v)
{
    join.span = v.span();
    if (v.isNull())
        return;
    if (!v.isMapping()) {
        error(v.span(), QStringLiteral("field 'join' must be a mapping such as {as: text, "
                                       "with: \", \"}, not %1")
                            .arg(q(v.describe())));
        return;
    }
    const YamlValue* as = v.value("as");
    if (as) {
        const std::string s = as->isString() ? as->scalar().asString() : std::string();
        if (s == "text")
            join.as = JoinSpec::As::Text;
        else if (s == "array")
            join.as = JoinSpec::As::Array;
        else if (s == "object")
            join.as = JoinSpec::As::Object;
        else if (s == "lastOf")
            join.as = JoinSpec::As::LastOf;
        else if (s == "reduce")
            join.as = JoinSpec::As::Reduce;
        else
            error(as->span(), QStringLiteral("join 'as' must be text, array, object, lastOf or "
                                             "reduce"));
    } else if (v.find("reduce")) {
        join.as = JoinSpec::As::Reduce;
    }
    for (const auto& e : v.entries()) {
        if (e.name == "as" || isIgnoredField(e.name))
            continue;
        if (e.name == "with" && join.as == JoinSpec::As::Text) {
            if (e.value.isString())
                join.with = expr(e.value, false);
            else
                error(e.value.span(), QStringLiteral("join 'with' must be a string, not %1")
                                          .arg(q(e.value.describe())));
        } else if (e.name == "reduce" && join.as == JoinSpec::As::Reduce) {
            join.reduce = expr(e.value);
        } else {
            error(e.key.span(),
                  QStringLiteral("field '%1' is not allowed in a join as %2")
                      .arg(q(e.name), as && as->isString() ? q(as->scalar().asString())
                                                           : QStringLiteral("text")));
        }
    }
    if (join.as == JoinSpec::As::Reduce && !join.reduce)
        error(v.span(), QStringLiteral("a join as reduce needs a 'reduce' function"));
}

void Checker::parseFor(LoopBlockBase& b, const YamlValue& traced)
{
    const YamlValue& v = unwrapTrace(traced);
    b.forSpan = v.span();
    if (v.isNull())
        return;
    if (!v.isMapping()) {
        error(v.span(), QStringLiteral("field 'for' must be a mapping from loop variables to "
                                       "lists, not %1")
                            .arg(q(v.describe())));
        return;
    }
    for (const auto& e : v.entries()) {
        const YamlValue& x = e.value;
        if (x.isSequence() || x.isString() || (x.isMapping() && x.value("pdl__expr"))) {
            b.forVars.emplace_back(e.name, expr(x));
        } else {
            error(x.span(), QStringLiteral("loop variable '%1' must iterate over a list or an "
                                           "expression, not %2")
                                .arg(q(e.name), q(x.describe())));
        }
    }
}

Pattern Checker::parsePattern(const YamlValue& v)
{
    Pattern p;
    p.span = v.span();
    if (!v.isMapping()) {
        if (v.isSequence())
            error(v.span(), QStringLiteral("a list pattern is written {array: [...]}"));
        p.literal = v.toValue();
        return p;
    }
    bool shaped = false;
    for (const auto& e : v.entries()) {
        if (e.name == "def") {
            p.def = stringField(e.value, "def", "a pattern");
        } else if (!shaped && e.name == "any") {
            p.kind = Pattern::Kind::Any;
            shaped = true;
            if (!e.value.isNull())
                error(e.value.span(), QStringLiteral("pattern 'any' takes no value (any: null)"));
        } else if (!shaped && (e.name == "array" || e.name == "anyOf")) {
            p.kind = e.name == "array" ? Pattern::Kind::Array : Pattern::Kind::AnyOf;
            shaped = true;
            if (!e.value.isSequence()) {
                error(e.value.span(),
                      QStringLiteral("pattern '%1' takes a list of patterns").arg(q(e.name)));
                continue;
            }
            for (const YamlValue& item : e.value.items())
                p.items.push_back(parsePattern(item));
        } else if (!shaped && e.name == "object") {
            p.kind = Pattern::Kind::Object;
            shaped = true;
            if (!e.value.isMapping()) {
                error(e.value.span(), QStringLiteral("pattern 'object' takes a mapping"));
                continue;
            }
            for (const auto& f : e.value.entries())
                p.fields.emplace_back(f.name, parsePattern(f.value));
        } else {
            error(e.key.span(), QStringLiteral("field '%1' is not allowed in a pattern (use any, "
                                               "array, object, anyOf and def)")
                                    .arg(q(e.name)));
        }
    }
    if (!shaped)
        error(v.span(), QStringLiteral("a mapping pattern needs one of any, array, object or "
                                       "anyOf"));
    return p;
}

void Checker::parseCases(MatchBlock& b, const YamlValue& v)
{
    if (!v.isSequence()) {
        error(v.span(), QStringLiteral("field 'with' of a match block must be a list of cases, "
                                       "not %1")
                            .arg(q(v.describe())));
        return;
    }
    for (const YamlValue& c : v.items()) {
        MatchCase mc;
        mc.span = c.span();
        if (!c.isMapping()) {
            error(c.span(), QStringLiteral("a match case must be a mapping with 'case', 'if' and "
                                           "'then'"));
            continue;
        }
        for (const auto& e : c.entries()) {
            if (e.name == "case")
                mc.pattern = parsePattern(e.value);
            else if (e.name == "if")
                mc.guard = condExpr(e.value, "if", "a match case", true);
            else if (e.name == "then")
                mc.then = parseBlock(e.value);
            else if (!isIgnoredField(e.name))
                error(e.key.span(),
                      QStringLiteral("field '%1' is not allowed in a match case").arg(q(e.name)));
        }
        if (!c.find("then"))
            error(c.span(), QStringLiteral("a match case needs a 'then' field"));
        b.cases.push_back(std::move(mc));
    }
}

void Checker::parseAggregator(AggregatorBlock& b, const YamlValue& v)
{
    if (v.isString() && v.scalar().asString() == "context") {
        b.isContext = true;
        return;
    }
    if (!v.isMapping()) {
        error(v.span(), QStringLiteral("field 'aggregator' must be 'context' or {file, mode, "
                                       "encoding, prefix, suffix, flush}"));
        return;
    }
    for (const auto& e : v.entries()) {
        Expr* target = e.name == "file"       ? &b.file
                       : e.name == "mode"     ? &b.mode
                       : e.name == "encoding" ? &b.encoding
                       : e.name == "prefix"   ? &b.prefix
                       : e.name == "suffix"   ? &b.suffix
                       : e.name == "flush"    ? &b.flush
                                              : nullptr;
        if (target)
            *target = expr(e.value);
        else
            error(e.key.span(),
                  QStringLiteral("field '%1' is not allowed in a file aggregator").arg(q(e.name)));
    }
    if (!v.find("file"))
        error(v.span(), QStringLiteral("a file aggregator needs a 'file' field"));
}

Expr Checker::mappingExpr(const YamlValue& v, const QString& message)
{
    if (v.isMapping() || v.isString() || v.isNull())
        return expr(v);
    error(v.span(), message.arg(q(v.describe())));
    return {};
}

void Checker::modelField(ModelBlock& b, const std::string& n, const YamlValue& v, const char* kt)
{
    if (n == "model")
        b.model = expr(v);
    else if (n == "input")
        b.input = parseBlock(v);
    else if (n == "parameters")
        b.parameters = mappingExpr(v, QStringLiteral("field 'parameters' of a model block must "
                                                     "be a mapping or an expression, not %1"));
    else if (n == "platform")
        b.platform = expr(v);
    else if (n == "modelResponse")
        b.modelResponse = stringField(v, n, kt, true);
    else if (n == "backend")
        b.backend = expr(v);
    else if (n == "processor")
        b.processor = expr(v);
    else if (n == "structuredDecoding")
        b.structuredDecoding = condExpr(v, n, kt);
}

void Checker::readField(ReadBlock& b, const std::string& n, const YamlValue& v, const char* kt)
{
    if (n == "read") {
        if (v.isNull() || v.isString() || (v.isMapping() && v.value("pdl__expr")))
            b.read = expr(v);
        else
            error(v.span(), QStringLiteral("field 'read' must be a file name or null (standard "
                                           "input), not %1")
                                .arg(q(v.describe())));
    } else if (n == "message") {
        b.message = stringField(v, n, kt, true);
    } else if (n == "multiline") {
        b.multiline = boolField(v, n, kt);
    }
}

void Checker::objectField(ObjectBlock& b, const YamlValue& v)
{
    if (v.isSequence()) {
        b.listForm = true;
        for (const YamlValue& item : v.items())
            b.items.push_back(parseBlock(item));
    } else if (v.isMapping()) {
        for (const auto& f : v.entries()) {
            if (f.value.isSequence()) {
                // A list as a field's value runs as lastOf.
                auto seq = std::make_shared<LastOfBlock>();
                seq->span = f.value.span();
                for (const YamlValue& item : f.value.items())
                    seq->children.push_back(parseBlock(item));
                b.fields.emplace_back(f.name, seq);
            } else {
                b.fields.emplace_back(f.name, parseBlock(f.value));
            }
        }
    } else {
        error(v.span(), QStringLiteral("field 'object' must be a mapping of fields to blocks "
                                       "or a list of blocks, not %1")
                            .arg(q(v.describe())));
    }
}

void Checker::loopField(Block& blk, const std::string& n, const YamlValue& v, const char* kt)
{
    auto& b = static_cast<LoopBlockBase&>(blk);
    if (n == "repeat" || n == "map")
        b.body = parseBlock(v);
    else if (n == "for")
        parseFor(b, v);
    else if (n == "index")
        b.index = stringField(v, n, kt, true);
    else if (n == "maxIterations")
        b.maxIterations = intExpr(v, n, kt);
    else if (n == "join")
        parseJoin(b.join, v);
    else if (n == "while")
        static_cast<RepeatBlock&>(blk).whileCond = condExpr(v, n, kt);
    else if (n == "until")
        static_cast<RepeatBlock&>(blk).until = condExpr(v, n, kt);
    else if (n == "maxWorkers" && !v.isNull()) // null: as many as the machine has
        static_cast<MapBlock&>(blk).maxWorkers = intExpr(v, n, kt);
}

void Checker::functionField(FunctionBlock& b, const std::string& n, const YamlValue& v)
{
    if (n == "function") {
        if (v.isMapping()) {
            for (const auto& p : v.entries())
                b.params.emplace_back(p.name, p.value.toValue());
        } else if (!v.isNull()) {
            error(v.span(), QStringLiteral("field 'function' must map parameter names to "
                                           "types (or be empty), not %1")
                                .arg(q(v.describe())));
        }
    } else if (n == "return") {
        b.returns = parseBlock(v);
    }
}

void Checker::callField(CallBlock& b, const std::string& n, const YamlValue& v)
{
    if (n == "call")
        b.call = expr(v);
    else if (n == "args")
        b.args = mappingExpr(v, QStringLiteral("field 'args' of a call block must be a mapping "
                                               "of arguments or an expression, not %1"));
}

void Checker::codeLang(Block& blk, const YamlValue& v)
{
    std::string l = v.isString() ? v.scalar().asString() : std::string();
    std::transform(l.begin(), l.end(), l.begin(), [](char c) { return char(std::tolower(c)); });
    static constexpr std::array<std::pair<std::string_view, CodeBlock::Lang>, 5> langs{{
        {"python", CodeBlock::Lang::Python},
        {"ipython", CodeBlock::Lang::IPython},
        {"command", CodeBlock::Lang::Command},
        {"jinja", CodeBlock::Lang::Jinja},
        {"pdl", CodeBlock::Lang::Pdl},
    }};
    const auto it = std::find_if(langs.begin(), langs.end(),
                                 [&](const auto& entry) { return entry.first == l; });
    if (it == langs.end()) {
        error(v.span(),
              QStringLiteral("field 'lang' must be python, ipython, command, "
                             "jinja or pdl, not %1")
                  .arg(v.isString() ? "'" + q(v.scalar().asString()) + "'" : q(v.describe())));
        return;
    }
    if (blk.kind == BlockKind::Args) {
        if (it->second != CodeBlock::Lang::Command)
            error(v.span(), QStringLiteral("the args form of a code block only runs "
                                           "commands (lang: command)"));
    } else {
        static_cast<CodeBlock&>(blk).lang = it->second;
    }
}

void Checker::codeField(Block& blk, const std::string& n, const YamlValue& v)
{
    if (n == "lang") {
        codeLang(blk, v);
    } else if (blk.kind == BlockKind::Code && n == "code") {
        static_cast<CodeBlock&>(blk).code = parseBlock(v);
    } else if (blk.kind == BlockKind::Code && n == "parameters") {
        static_cast<CodeBlock&>(blk).parameters = expr(v);
    } else if (blk.kind == BlockKind::Code && n == "scope") {
        static_cast<CodeBlock&>(blk).scope =
            mappingExpr(v, QStringLiteral("field 'scope' of a code block must be a mapping of "
                                          "variables or an expression, not %1"));
    } else if (blk.kind == BlockKind::Args && n == "args") {
        if (!v.isSequence()) {
            error(v.span(), QStringLiteral("field 'args' of a code block must be a list of "
                                           "command-line arguments, not %1")
                                .arg(q(v.describe())));
            return;
        }
        for (const YamlValue& a : v.items())
            static_cast<ArgsBlock&>(blk).args.push_back(expr(a));
    }
}

namespace {

// "a data block", "an if block": how messages name a block of a kind.
std::string kindPhrase(BlockKind kind)
{
    const char* kname = blockKindName(kind);
    const bool vowel = std::string_view("aeiou").find(kname[0]) != std::string_view::npos;
    return std::string(vowel ? "an " : "a ") + kname + " block";
}

} // namespace

bool Checker::kindField(Block& blk, const YamlValue::Entry& e, const YamlValue& node)
{
    const YamlValue& v = e.value;
    const std::string& n = e.name;
    const std::string kindText = kindPhrase(blk.kind);
    const char* kt = kindText.c_str();
    switch (blk.kind) {
    case BlockKind::Data: {
        auto& b = static_cast<DataBlock&>(blk);
        if (n == "data") {
            const YamlValue* raw = node.value("raw");
            b.data = expr(v, !(raw && raw->scalar().isBool() && raw->scalar().asBool()));
        } else if (n == "raw") {
            b.raw = boolField(v, n, kt);
        }
        break;
    }
    case BlockKind::Model:
        modelField(static_cast<ModelBlock&>(blk), n, v, kt);
        break;
    case BlockKind::Read:
        readField(static_cast<ReadBlock&>(blk), n, v, kt);
        break;
    case BlockKind::Text:
        children(v, static_cast<TextBlock&>(blk).children, true, "text");
        break;
    case BlockKind::LastOf:
        children(v, static_cast<LastOfBlock&>(blk).children, false, "lastOf");
        break;
    case BlockKind::Array:
        children(v, static_cast<ArrayBlock&>(blk).children, false, "array");
        break;
    case BlockKind::Sequence: {
        auto& b = static_cast<SequenceBlock&>(blk);
        if (n == "sequence")
            children(v, b.children, false, "sequence");
        else if (n == "join")
            parseJoin(b.join, v);
        break;
    }
    case BlockKind::Object:
        objectField(static_cast<ObjectBlock&>(blk), v);
        break;
    case BlockKind::Get:
        if (auto s = stringField(v, n, kt))
            static_cast<GetBlock&>(blk).get = *s;
        break;
    case BlockKind::Message: {
        auto& b = static_cast<MessageBlock&>(blk);
        if (n == "content")
            b.content = parseBlock(v);
        else if (n == "name")
            b.name = expr(v);
        else if (n == "tool_call_id")
            b.toolCallId = expr(v);
        else if (n == "tool_calls")
            b.toolCalls = expr(v);
        break;
    }
    case BlockKind::If: {
        auto& b = static_cast<IfBlock&>(blk);
        if (n == "if")
            b.condition = condExpr(v, n, "an if block");
        else if (n == "then")
            b.then = parseBlock(v);
        else if (n == "else")
            b.elseBlock = parseBlock(v);
        break;
    }
    case BlockKind::Match: {
        auto& b = static_cast<MatchBlock&>(blk);
        if (n == "match")
            b.match = expr(v);
        else if (n == "with")
            parseCases(b, v);
        break;
    }
    case BlockKind::Repeat:
    case BlockKind::Map:
        loopField(blk, n, v, kt);
        break;
    case BlockKind::Function:
        functionField(static_cast<FunctionBlock&>(blk), n, v);
        break;
    case BlockKind::Call:
        callField(static_cast<CallBlock&>(blk), n, v);
        break;
    case BlockKind::Code:
    case BlockKind::Args:
        codeField(blk, n, v);
        break;
    case BlockKind::Include:
        if (auto s = stringField(v, n, "an include block"))
            static_cast<IncludeBlock&>(blk).include = *s;
        break;
    case BlockKind::Import:
        if (auto s = stringField(v, n, "an import block"))
            static_cast<ImportBlock&>(blk).import = *s;
        break;
    case BlockKind::Aggregator:
        parseAggregator(static_cast<AggregatorBlock&>(blk), v);
        break;
    case BlockKind::Error: {
        auto& b = static_cast<ErrorBlock&>(blk);
        if (n == "msg")
            b.msg = v.isString() ? v.scalar().asString() : v.toValue().str();
        else if (n == "program")
            b.program = parseBlock(v);
        break;
    }
    case BlockKind::Empty:
        if (n == "factor")
            static_cast<EmptyBlock&>(blk).factor = expr(v);
        else if (n == "resample")
            static_cast<EmptyBlock&>(blk).resample = expr(v);
        break;
    }
    return true;
}

void Checker::parseExpectations(Block& b, const YamlValue& v)
{
    if (v.isNull())
        return;
    if (!v.isSequence()) {
        error(v.span(), QStringLiteral("field 'expectations' must be a list of {expect, "
                                       "feedback}, not %1")
                            .arg(q(v.describe())));
        return;
    }
    for (const YamlValue& item : v.items()) {
        if (!item.isMapping()) {
            error(item.span(), QStringLiteral("an expectation must be a mapping {expect, "
                                              "feedback}, not %1")
                                   .arg(q(item.describe())));
            continue;
        }
        Expectation e;
        e.span = item.span();
        for (const auto& f : item.entries()) {
            if (f.name == "expect")
                e.expect = expr(f.value);
            else if (f.name == "feedback")
                e.feedback = expr(f.value);
            else
                error(f.key.span(), QStringLiteral("unknown field '%1' in an expectation "
                                                   "(expect, feedback)")
                                        .arg(q(f.name)));
        }
        if (!e.expect)
            error(item.span(), QStringLiteral("an expectation needs 'expect'"));
        b.expectations.push_back(std::move(e));
    }
}

} // namespace hako::pdl::detail
