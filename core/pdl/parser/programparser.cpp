#include "core/pdl/parser/programparser.h"

#include "core/pdl/parser/fieldtables.h"
#include "core/pdl/parser/yamlvalue.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <array>

namespace hako::pdl {

bool ParseResult::ok() const
{
    return std::none_of(diagnostics.begin(), diagnostics.end(),
                        [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

int fieldNameDistance(std::string_view a, std::string_view b)
{
    auto norm = [](std::string_view s) {
        std::string out;
        for (char c : s) {
            if (c != '_')
                out += char(std::tolower(static_cast<unsigned char>(c)));
        }
        return out;
    };
    const std::string x = norm(a), y = norm(b);
    std::vector<int> prev(y.size() + 1), cur(y.size() + 1);
    for (size_t j = 0; j <= y.size(); ++j)
        prev[j] = int(j);
    for (size_t i = 1; i <= x.size(); ++i) {
        cur[0] = int(i);
        for (size_t j = 1; j <= y.size(); ++j) {
            cur[j] = std::min(
                {prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1)});
        }
        std::swap(prev, cur);
    }
    return prev[y.size()];
}

namespace {

QString q(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

SourceSpan joinSpans(const SourceSpan& a, const SourceSpan& b)
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
const YamlValue& unwrapTrace(const YamlValue& v)
{
    if (v.isMapping()) {
        if (const YamlValue* src = v.value("pdl__expr"))
            return *src;
    }
    return v;
}

bool isExpressionString(const YamlValue& v)
{
    return v.isString() && v.scalar().asString().find("${") != std::string::npos;
}

class Checker {
public:
    Checker(const ParseOptions& options, std::shared_ptr<const YamlValue> document)
        : m_options(options), m_document(std::move(document))
    {}

    std::vector<Diagnostic> diagnostics;

    BlockPtr parseBlock(const YamlValue& node, std::shared_ptr<const YamlValue> holder = {})
    {
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
        return parseMapping(node, std::move(holder));
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

    BlockPtr parseMapping(const YamlValue& node, std::shared_ptr<const YamlValue> holder);
    void commonField(Block& b, const YamlValue::Entry& e, const char* kind);
    bool kindField(Block& b, const YamlValue::Entry& e, const YamlValue& node);
    void parseContribute(Block& b, const YamlValue& v);
    void parseParser(Block& b, const YamlValue& v);
    void parseRetry(Block& b, const YamlValue& v);
    void parseJoin(JoinSpec& join, const YamlValue& v);
    void parseFor(LoopBlockBase& b, const YamlValue& v);
    Pattern parsePattern(const YamlValue& v);
    void parseCases(MatchBlock& b, const YamlValue& v);
    void parseAggregator(AggregatorBlock& b, const YamlValue& v);
    void reportUnknown(const YamlValue::Entry& e, BlockKind kind, bool guessed);

    const ParseOptions& m_options;
    std::shared_ptr<const YamlValue> m_document;
};

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

BlockPtr Checker::parseMapping(const YamlValue& node, std::shared_ptr<const YamlValue> holder)
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
    Q_UNUSED(holder);
    if (m_document) // aliases the document: no copy of the subtree
        b->node = std::shared_ptr<const YamlValue>(m_document, &node);
    const char* kname = blockKindName(kind);
    const bool vowel = std::string_view("aeiou").find(kname[0]) != std::string_view::npos;
    const QString kindPhrase = QString(vowel ? "an " : "a ") + q(kname);
    const std::string kindText = QString(kindPhrase + QStringLiteral(" block")).toStdString();

    // Required fields.
    for (const char* req : requiredFields(kind)) {
        if (!node.find(req)) {
            error(node.span(),
                  QStringLiteral("%1 block needs a '%2' field").arg(kindPhrase, q(req)));
        }
    }

    for (const auto& e : node.entries()) {
        b->fieldSpans.emplace_back(e.name, joinSpans(e.key.span(), e.value.span()));
        if (!e.key.isString()) {
            error(e.key.span(),
                  QStringLiteral("a field name must be a string, not %1").arg(q(e.key.describe())));
            continue;
        }
        if (isIgnoredField(e.name))
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
    if (bestDistance <= limit)
        message += QStringLiteral(" (did you mean '%1'?)").arg(q(best));
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
            if (x.isString()) {
                r.exceptions.push_back(x.scalar().asString());
            } else if (x.isSequence()) {
                for (const YamlValue& item : x.items()) {
                    if (item.isString())
                        r.exceptions.push_back(item.scalar().asString());
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

} // namespace

namespace {

bool Checker::kindField(Block& blk, const YamlValue::Entry& e, const YamlValue& node)
{
    Q_UNUSED(node);
    const YamlValue& v = e.value;
    const std::string& n = e.name;
    const char* kname = blockKindName(blk.kind);
    const bool vowel = std::string_view("aeiou").find(kname[0]) != std::string_view::npos;
    const std::string kindText = std::string(vowel ? "an " : "a ") + kname + " block";
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
    case BlockKind::Model: {
        auto& b = static_cast<ModelBlock&>(blk);
        if (n == "model")
            b.model = expr(v);
        else if (n == "input")
            b.input = parseBlock(v);
        else if (n == "parameters") {
            if (v.isMapping() || v.isString() || v.isNull())
                b.parameters = expr(v);
            else
                error(v.span(), QStringLiteral("field 'parameters' of a model block must be a "
                                               "mapping or an expression, not %1")
                                    .arg(q(v.describe())));
        } else if (n == "platform")
            b.platform = expr(v);
        else if (n == "modelResponse")
            b.modelResponse = stringField(v, n, kt, true);
        else if (n == "backend")
            b.backend = expr(v);
        else if (n == "processor")
            b.processor = expr(v);
        else if (n == "structuredDecoding")
            b.structuredDecoding = condExpr(v, n, kt);
        break;
    }
    case BlockKind::Read: {
        auto& b = static_cast<ReadBlock&>(blk);
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
        break;
    }
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
    case BlockKind::Object: {
        auto& b = static_cast<ObjectBlock&>(blk);
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
        break;
    }
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
    case BlockKind::Map: {
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
        else if (n == "maxWorkers")
            static_cast<MapBlock&>(blk).maxWorkers = intExpr(v, n, kt);
        break;
    }
    case BlockKind::Function: {
        auto& b = static_cast<FunctionBlock&>(blk);
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
        break;
    }
    case BlockKind::Call: {
        auto& b = static_cast<CallBlock&>(blk);
        if (n == "call")
            b.call = expr(v);
        else if (n == "args") {
            if (v.isMapping() || v.isString() || v.isNull())
                b.args = expr(v);
            else
                error(v.span(), QStringLiteral("field 'args' of a call block must be a mapping "
                                               "of arguments or an expression, not %1")
                                    .arg(q(v.describe())));
        }
        break;
    }
    case BlockKind::Code:
    case BlockKind::Args: {
        if (n == "lang") {
            std::string l = v.isString() ? v.scalar().asString() : std::string();
            std::transform(l.begin(), l.end(), l.begin(),
                           [](char c) { return char(std::tolower(c)); });
            CodeBlock::Lang lang = CodeBlock::Lang::Python;
            if (l == "python")
                lang = CodeBlock::Lang::Python;
            else if (l == "command")
                lang = CodeBlock::Lang::Command;
            else if (l == "jinja")
                lang = CodeBlock::Lang::Jinja;
            else if (l == "pdl")
                lang = CodeBlock::Lang::Pdl;
            else {
                error(v.span(), QStringLiteral("field 'lang' must be python, command, jinja or "
                                               "pdl, not %1")
                                    .arg(v.isString() ? "'" + q(v.scalar().asString()) + "'"
                                                      : q(v.describe())));
                break;
            }
            if (blk.kind == BlockKind::Args) {
                if (lang != CodeBlock::Lang::Command)
                    error(v.span(), QStringLiteral("the args form of a code block only runs "
                                                   "commands (lang: command)"));
            } else {
                static_cast<CodeBlock&>(blk).lang = lang;
            }
        } else if (blk.kind == BlockKind::Code && n == "code") {
            static_cast<CodeBlock&>(blk).code = parseBlock(v);
        } else if (blk.kind == BlockKind::Code && n == "parameters") {
            static_cast<CodeBlock&>(blk).parameters = expr(v);
        } else if (blk.kind == BlockKind::Args && n == "args") {
            if (!v.isSequence()) {
                error(v.span(), QStringLiteral("field 'args' of a code block must be a list of "
                                               "command-line arguments, not %1")
                                    .arg(q(v.describe())));
                break;
            }
            for (const YamlValue& a : v.items())
                static_cast<ArgsBlock&>(blk).args.push_back(expr(a));
        }
        break;
    }
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
        break;
    }
    return true;
}

} // namespace

ParseResult parseProgramText(const QByteArray& text, const QString& fileName,
                             const ParseOptions& options)
{
    ParseResult result;
    Result<YamlValue> doc = loadYaml(text, fileName);
    if (!doc) {
        result.diagnostics.push_back(doc.error());
        return result;
    }
    auto document = std::make_shared<const YamlValue>(std::move(doc).value());
    Checker checker(options, document);
    auto program = std::make_shared<Program>();
    program->file = fileName;
    program->document = document;
    program->root = checker.parseBlock(*document, document);
    result.program = std::move(program);
    result.diagnostics = std::move(checker.diagnostics);
    std::stable_sort(result.diagnostics.begin(), result.diagnostics.end(),
                     [](const Diagnostic& a, const Diagnostic& b) {
                         return std::pair(a.span.line, a.span.column) <
                                std::pair(b.span.line, b.span.column);
                     });
    return result;
}

ParseResult parseProgram(const QString& path, const ParseOptions& options)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        ParseResult result;
        SourceSpan span;
        span.file = path;
        result.diagnostics.push_back(
            makeError(QStringLiteral("cannot read %1: %2").arg(path, file.errorString()), span));
        return result;
    }
    return parseProgramText(file.readAll(), path, options);
}

} // namespace hako::pdl
