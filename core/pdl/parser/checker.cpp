#include "core/pdl/parser/checker_p.h"

#include <QStringList>

#include <algorithm>
#include <array>

namespace hako::pdl::detail {

namespace {

// The names `retry.exceptions` accepts, as the reference resolves them: Python's built-in
// exception classes (Python 3.11) and the reference's own PDL error classes.
bool isKnownExceptionName(const std::string& name)
{
    static const std::array<std::string_view, 74> kNames = {
        "ArithmeticError",
        "AssertionError",
        "AttributeError",
        "BaseException",
        "BaseExceptionGroup",
        "BlockingIOError",
        "BrokenPipeError",
        "BufferError",
        "BytesWarning",
        "ChildProcessError",
        "ConnectionAbortedError",
        "ConnectionError",
        "ConnectionRefusedError",
        "ConnectionResetError",
        "DeprecationWarning",
        "EOFError",
        "EncodingWarning",
        "EnvironmentError",
        "Exception",
        "ExceptionGroup",
        "FileExistsError",
        "FileNotFoundError",
        "FloatingPointError",
        "FutureWarning",
        "GeneratorExit",
        "IOError",
        "ImportError",
        "ImportWarning",
        "IndentationError",
        "IndexError",
        "InterruptedError",
        "IsADirectoryError",
        "KeyError",
        "KeyboardInterrupt",
        "LookupError",
        "MemoryError",
        "ModuleNotFoundError",
        "NameError",
        "NotADirectoryError",
        "NotImplementedError",
        "OSError",
        "OverflowError",
        "PDLException",
        "PDLRuntimeError",
        "PDLRuntimeExpressionError",
        "PDLRuntimeParserError",
        "PDLRuntimeProcessBlocksError",
        "PendingDeprecationWarning",
        "PermissionError",
        "ProcessLookupError",
        "RecursionError",
        "ReferenceError",
        "ResourceWarning",
        "RuntimeError",
        "RuntimeWarning",
        "StopAsyncIteration",
        "StopIteration",
        "SyntaxError",
        "SyntaxWarning",
        "SystemError",
        "SystemExit",
        "TabError",
        "TimeoutError",
        "TypeError",
        "UnboundLocalError",
        "UnicodeDecodeError",
        "UnicodeEncodeError",
        "UnicodeError",
        "UnicodeTranslateError",
        "UnicodeWarning",
        "UserWarning",
        "ValueError",
        "Warning",
        "ZeroDivisionError",
    };
    return std::binary_search(kNames.begin(), kNames.end(), std::string_view(name));
}

} // namespace

std::shared_ptr<Block> makeBlock(BlockKind kind)
{
    switch (kind) {
    case BlockKind::Data:
        return std::make_shared<DataBlock>();
    case BlockKind::Model:
        return std::make_shared<ModelBlock>();
    case BlockKind::Read:
        return std::make_shared<ReadBlock>();
    case BlockKind::Text:
        return std::make_shared<TextBlock>();
    case BlockKind::LastOf:
        return std::make_shared<LastOfBlock>();
    case BlockKind::Array:
        return std::make_shared<ArrayBlock>();
    case BlockKind::Object:
        return std::make_shared<ObjectBlock>();
    case BlockKind::Sequence:
        return std::make_shared<SequenceBlock>();
    case BlockKind::Get:
        return std::make_shared<GetBlock>();
    case BlockKind::Message:
        return std::make_shared<MessageBlock>();
    case BlockKind::If:
        return std::make_shared<IfBlock>();
    case BlockKind::Match:
        return std::make_shared<MatchBlock>();
    case BlockKind::Repeat:
        return std::make_shared<RepeatBlock>();
    case BlockKind::Map:
        return std::make_shared<MapBlock>();
    case BlockKind::Function:
        return std::make_shared<FunctionBlock>();
    case BlockKind::Call:
        return std::make_shared<CallBlock>();
    case BlockKind::Code:
        return std::make_shared<CodeBlock>();
    case BlockKind::Args:
        return std::make_shared<ArgsBlock>();
    case BlockKind::Include:
        return std::make_shared<IncludeBlock>();
    case BlockKind::Import:
        return std::make_shared<ImportBlock>();
    case BlockKind::Aggregator:
        return std::make_shared<AggregatorBlock>();
    case BlockKind::Empty:
        return std::make_shared<EmptyBlock>();
    case BlockKind::Error:
        return std::make_shared<ErrorBlock>();
    }
    return std::make_shared<EmptyBlock>();
}

BlockPtr Checker::parseMapping(const YamlValue& node)
{
    bool guessed = false;
    BlockKind kind = BlockKind::Empty;
    const YamlValue* kindValue = node.value("kind");
    bool explicitKind = false;
    if (kindValue) {
        if (auto k =
                kindFromName(kindValue->isString() ? kindValue->scalar().asString() : "", node)) {
            kind = *k;
            explicitKind = true;
        } else {
            error(kindValue->span(),
                  QStringLiteral("unknown block kind %1")
                      .arg(kindValue->isString() ? "'" + q(kindValue->scalar().asString()) + "'"
                                                 : q(kindValue->describe())));
        }
    }
    if (!explicitKind) {
        kind = detectKind(node);
        if (kind == BlockKind::Empty) {
            if (auto g = guessKind(node)) {
                kind = *g;
                guessed = true;
            }
        }
    }
    std::shared_ptr<Block> b = makeBlock(kind);
    b->span = node.span();
    if (m_document) // aliases the document: no copy of the subtree
        b->node = std::shared_ptr<const YamlValue>(m_document, &node);
    const char* kname = blockKindName(kind);
    const bool vowel = std::string_view("aeiou").find(kname[0]) != std::string_view::npos;
    const QString kindPhrase = QString(vowel ? "an " : "a ") + q(kname);
    const std::string kindText = QString(kindPhrase + QStringLiteral(" block")).toStdString();

    // Required fields. A misspelt one (`modle:`) is named, so the two errors read as one.
    for (const char* req : requiredFields(kind)) {
        if (node.find(req))
            continue;
        QString near;
        for (const auto& e : node.entries())
            if (e.key.isString() &&
                fieldNameDistance(e.name, req) <= std::max<int>(1, int(e.name.size()) / 3))
                near = QString::fromStdString(e.name);
        error(node.span(),
              near.isEmpty() ? QStringLiteral("%1 block needs a '%2' field").arg(kindPhrase, q(req))
                             : QStringLiteral("%1 block needs a '%2' field (is '%3' meant to be "
                                              "'%2'?)")
                                   .arg(kindPhrase, q(req), near));
    }

    for (const auto& e : node.entries()) {
        b->fieldSpans.emplace_back(e.name, joinSpans(e.key.span(), e.value.span()));
        if (!e.key.isString()) {
            error(e.key.span(),
                  QStringLiteral("a field name must be a string, not %1").arg(q(e.key.describe())));
            continue;
        }
        // A code block's `scope` is its own field; elsewhere it is a trace field.
        if (isIgnoredField(e.name) && !isKindField(kind, e.name))
            continue;
        if (isCommonField(e.name)) {
            commonField(*b, e, kindText.c_str());
            continue;
        }
        if (isKindField(kind, e.name)) {
            if (!guessed || e.name != blockKindName(kind))
                kindField(*b, e, node);
            continue;
        }
        reportUnknown(e, kind, guessed);
    }
    return b;
}

void Checker::reportUnknown(const YamlValue::Entry& e, BlockKind kind, bool guessed)
{
    Q_UNUSED(guessed);
    std::vector<std::string_view> candidates = kindFields(kind);
    for (std::string_view c : commonFieldNames())
        candidates.push_back(c);
    if (kind == BlockKind::Empty) {
        for (std::string_view c : kindKeywords())
            candidates.push_back(c);
    }
    std::string_view best;
    int bestDistance = 1 << 30;
    for (std::string_view c : candidates) {
        const int d = fieldNameDistance(e.name, c);
        if (d < bestDistance) {
            best = c;
            bestDistance = d;
        }
    }
    const int limit = std::max<int>(1, int(e.name.size()) / 3);
    const char* kname = blockKindName(kind);
    const bool vowel = std::string_view("aeiou").find(kname[0]) != std::string_view::npos;
    QString message = QStringLiteral("field '%1' is not allowed in %2 %3 block")
                          .arg(q(e.name), vowel ? "an" : "a", q(kname));
    if (bestDistance <= limit) {
        message += QStringLiteral(" (did you mean '%1'?)").arg(q(best));
    } else {
        // A field of another kind of block: most often it lost its indentation and landed
        // in the enclosing block.
        QStringList owners;
        for (int k = 0; k < int(BlockKind::Empty); ++k)
            if (BlockKind(k) != kind && isKindField(BlockKind(k), e.name))
                owners << QString::fromLatin1(blockKindName(BlockKind(k)));
        owners.removeDuplicates();
        if (!owners.isEmpty())
            message += QStringLiteral("; '%1' is a field of %2 blocks: if it belongs to the "
                                      "block above, indent it to line up with that block's "
                                      "other fields")
                           .arg(q(e.name), owners.join(QStringLiteral(" and ")));
        else
            message += QStringLiteral("; to give the program a value named '%1', put it under "
                                      "'defs:'")
                           .arg(q(e.name));
    }
    error(e.key.span(), message);
}

void Checker::commonField(Block& b, const YamlValue::Entry& e, const char* kind)
{
    const YamlValue& v = e.value;
    const std::string& n = e.name;
    if (n == "description") {
        // Descriptions are documentation; the reference accepts any scalar text here.
        if (v.isScalar() && !v.isNull())
            b.description = v.isString() ? v.scalar().asString() : v.scalar().str();
        else if (!v.isNull())
            error(v.span(), QStringLiteral("field 'description' of %1 must be a string, not %2")
                                .arg(q(kind), q(v.describe())));
    } else if (n == "def") {
        b.def = stringField(v, n, kind, true);
        b.defSpan = v.span();
    } else if (n == "defs") {
        if (v.isNull())
            return;
        if (!v.isMapping()) {
            error(v.span(), QStringLiteral("field 'defs' must be a mapping from variable names "
                                           "to blocks, not %1")
                                .arg(q(v.describe())));
            return;
        }
        for (const auto& d : v.entries())
            b.defs.emplace_back(d.name, parseBlock(d.value));
    } else if (n == "contribute") {
        parseContribute(b, v);
    } else if (n == "role") {
        b.role = stringField(v, n, kind, true);
    } else if (n == "spec") {
        b.spec = v.toValue();
        b.specSpan = v.span();
    } else if (n == "parser") {
        parseParser(b, v);
    } else if (n == "fallback") {
        b.fallback = parseBlock(v);
    } else if (n == "retry") {
        parseRetry(b, v);
    } else if (n == "trace_error_on_retry") {
        b.traceErrorOnRetry = condExpr(v, n, kind);
    } else if (n == "expectations") {
        parseExpectations(b, v);
    } else if (n == "context") {
        if (v.isSequence() || v.isNull())
            return; // a trace's recorded context
        const std::string s = v.isString() ? v.scalar().asString() : std::string();
        if (s == "dependent")
            b.context = ContextMode::Dependent;
        else if (s == "independent")
            b.context = ContextMode::Independent;
        else
            error(v.span(), QStringLiteral("field 'context' must be 'dependent' or "
                                           "'independent', not %1")
                                .arg(v.isString() ? "'" + q(s) + "'" : q(v.describe())));
    }
}

void Checker::parseContribute(Block& b, const YamlValue& v)
{
    if (!v.isSequence()) {
        error(v.span(), QStringLiteral("field 'contribute' must be a list of targets (result, "
                                       "context, stdout, stderr or an aggregator), not %1")
                            .arg(q(v.describe())));
        return;
    }
    std::vector<ContributeTarget> targets;
    for (const YamlValue& item : v.items()) {
        ContributeTarget t;
        t.span = item.span();
        if (item.isString() && !item.scalar().asString().empty()) {
            t.name = item.scalar().asString();
        } else if (item.isMapping() && item.entries().size() == 1) {
            const auto& entry = item.entries().front();
            t.name = entry.name;
            const YamlValue& spec = entry.value;
            const YamlValue* value = spec.isMapping() ? spec.value("value") : nullptr;
            if (!value || spec.entries().size() != 1) {
                error(spec.span(), QStringLiteral("a contribute target '%1' takes "
                                                  "{value: …}, not %2")
                                       .arg(q(t.name), q(spec.describe())));
                continue;
            }
            t.value = expr(*value);
        } else {
            error(item.span(), QStringLiteral("invalid contribute target: expected result, "
                                              "context, stdout, stderr, an aggregator name or "
                                              "{target: {value: …}}, not %1")
                                   .arg(q(item.describe())));
            continue;
        }
        targets.push_back(std::move(t));
    }
    b.contribute = std::move(targets);
}

void Checker::parseParser(Block& b, const YamlValue& v)
{
    ParserSpec& p = b.parser;
    p.span = v.span();
    if (v.isNull())
        return;
    if (v.isString()) {
        std::string s = v.scalar().asString();
        std::transform(s.begin(), s.end(), s.begin(), [](char c) { return char(std::tolower(c)); });
        if (s == "json")
            p.kind = ParserSpec::Kind::Json;
        else if (s == "jsonl")
            p.kind = ParserSpec::Kind::Jsonl;
        else if (s == "yaml")
            p.kind = ParserSpec::Kind::Yaml;
        else if (s == "csv")
            p.kind = ParserSpec::Kind::Csv;
        else
            error(v.span(), QStringLiteral("unknown parser '%1': use json, jsonl, yaml, csv, "
                                           "{regex: …} or {pdl: …}")
                                .arg(q(v.scalar().asString())));
        return;
    }
    if (!v.isMapping()) {
        error(v.span(), QStringLiteral("field 'parser' must be json, jsonl, yaml, csv, "
                                       "{regex: …} or {pdl: …}, not %1")
                            .arg(q(v.describe())));
        return;
    }
    const bool isRegex = v.find("regex") != nullptr;
    const bool isPdl = v.find("pdl") != nullptr;
    if (!isRegex && !isPdl) {
        error(v.span(), QStringLiteral("a parser mapping needs a 'regex' or a 'pdl' field"));
        return;
    }
    p.kind = isRegex ? ParserSpec::Kind::Regex : ParserSpec::Kind::Pdl;
    for (const auto& e : v.entries()) {
        if (e.name == "description" || isIgnoredField(e.name))
            continue;
        if (e.name == "spec") {
            p.spec = e.value.toValue();
        } else if (isRegex && e.name == "regex") {
            if (auto s = stringField(e.value, "regex", "a parser"))
                p.regex = *s;
        } else if (isRegex && e.name == "mode") {
            std::string m = e.value.isString() ? e.value.scalar().asString() : std::string();
            std::transform(m.begin(), m.end(), m.begin(),
                           [](char c) { return char(std::tolower(c)); });
            static const std::array<const char*, 5> modes = {"search", "match", "fullmatch",
                                                             "split", "findall"};
            if (std::find_if(modes.begin(), modes.end(), [&](const char* x) { return m == x; }) ==
                modes.end()) {
                error(e.value.span(), QStringLiteral("parser mode must be search, match, "
                                                     "fullmatch, split or findall"));
            } else {
                p.mode = m;
            }
        } else if (isPdl && e.name == "pdl") {
            p.pdl = parseBlock(e.value);
        } else {
            error(e.key.span(),
                  QStringLiteral("field '%1' is not allowed in a %2 parser")
                      .arg(q(e.name), isRegex ? QStringLiteral("regex") : QStringLiteral("pdl")));
        }
    }
}

void Checker::parseRetry(Block& b, const YamlValue& v)
{
    RetrySpec& r = b.retry;
    r.span = v.span();
    r.present = true;
    if ((v.isScalar() && v.scalar().isInt()) || isExpressionString(v)) {
        if (v.scalar().isInt() && v.scalar().asInt() < 0)
            error(v.span(), QStringLiteral("field 'retry' must not be negative"));
        r.tries = expr(v);
        return;
    }
    if (!v.isMapping()) {
        error(v.span(), QStringLiteral("field 'retry' must be a number of tries or {tries, "
                                       "exceptions, delay, backoff, max_delay, jitter}, not %1")
                            .arg(q(v.describe())));
        return;
    }
    for (const auto& e : v.entries()) {
        const YamlValue& x = unwrapTrace(e.value);
        if (e.name == "tries") {
            r.tries = intExpr(x, "tries", "retry");
        } else if (e.name == "exceptions") {
            auto name = [&](const YamlValue& item) {
                const std::string& n = item.scalar().asString();
                if (!isKnownExceptionName(n))
                    error(item.span(),
                          QStringLiteral("invalid exception in the retry configuration: '%1' is "
                                         "neither a Python built-in exception nor a PDL error")
                              .arg(q(n)));
                r.exceptions.push_back(n);
            };
            if (x.isString()) {
                name(x);
            } else if (x.isSequence()) {
                for (const YamlValue& item : x.items()) {
                    if (item.isString())
                        name(item);
                    else
                        error(item.span(), QStringLiteral("an exception name must be a string"));
                }
            } else {
                error(x.span(), QStringLiteral("'exceptions' must be a name or a list of names"));
            }
        } else if (e.name == "delay" || e.name == "backoff" || e.name == "max_delay" ||
                   e.name == "jitter") {
            Expr* target = e.name == "delay"       ? &r.delay
                           : e.name == "backoff"   ? &r.backoff
                           : e.name == "max_delay" ? &r.maxDelay
                                                   : &r.jitter;
            const bool range = e.name == "jitter" && x.isSequence() && x.items().size() == 2 &&
                               x.items()[0].scalar().isNumber() && x.items()[1].scalar().isNumber();
            if ((x.isScalar() && x.scalar().isNumber()) || range || isExpressionString(x))
                *target = expr(x);
            else
                error(x.span(),
                      QStringLiteral("retry '%1' must be a number%3, not %2")
                          .arg(q(e.name), q(x.describe()),
                               e.name == "jitter" ? QStringLiteral(" or [min, max]") : QString()));
        } else {
            error(e.key.span(), QStringLiteral("field '%1' is not allowed in 'retry' (allowed: "
                                               "tries, exceptions, delay, backoff, max_delay, "
                                               "jitter)")
                                    .arg(q(e.name)));
        }
    }
}

} // namespace hako::pdl::detail
