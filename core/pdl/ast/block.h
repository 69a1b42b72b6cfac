#pragma once

#include "core/pdl/value.h"
#include "core/util/diagnostic.h"

#include <QByteArray>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hako::pdl {

class YamlValue;

/// Every PDL block kind (plus `error`, which only appears in traces).
enum class BlockKind {
    Data,
    Model,
    Read,
    Text,
    LastOf,
    Array,
    Object,
    Sequence,
    Get,
    Message,
    If,
    Match,
    Repeat,
    Map,
    Function,
    Call,
    Code,
    Args,
    Include,
    Import,
    Aggregator,
    Empty,
    Error
};

/// The name PDL uses for a kind (`lastOf`, `code`, ...; the args form of code is `code`).
const char* blockKindName(BlockKind kind);

/// A field whose value is evaluated later: a string (template), or a list/dict holding some.
/// Trace records `{pdl__expr: …, pdl__result: …}` are unwrapped to their source.
struct Expr {
    Value value;
    SourceSpan span;
    bool present = false;

    explicit operator bool() const { return present; }
};

struct Block;
using BlockPtr = std::shared_ptr<const Block>;

/// A `contribute` target: result, context, stdout, stderr or an aggregator variable's name,
/// optionally with a replacement value (`{context: {value: …}}`).
struct ContributeTarget {
    std::string name;
    Expr value;
    SourceSpan span;
};

/// The `parser` field.
struct ParserSpec {
    enum class Kind { None, Json, Jsonl, Yaml, Csv, Regex, Pdl };
    Kind kind = Kind::None;
    std::string regex;
    std::string mode = "fullmatch"; ///< search, match, fullmatch, split, findall
    Value spec;                     ///< expected type of the parsed value (null if none)
    BlockPtr pdl;                   ///< the `{pdl: block}` form
    SourceSpan span;
};

/// The `retry` field: an int (extra tries) or the mapping form.
struct RetrySpec {
    bool present = false;
    Expr tries;
    std::vector<std::string> exceptions; ///< empty: retry on every error
    Expr delay, backoff, maxDelay, jitter;
    SourceSpan span;
};

/// How loop iterations (or a sequence's children) are combined.
struct JoinSpec {
    enum class As { Text, Array, Object, LastOf, Reduce };
    As as = As::Text;
    Expr with;   ///< separator for text
    Expr reduce; ///< function for reduce
    SourceSpan span;
};

/// One of a block's `expectations`: a statement its result should satisfy, judged by
/// `feedback` (a function; the standard LLM judge when absent).
struct Expectation {
    Expr expect;
    Expr feedback;
    SourceSpan span;
};

enum class ContextMode { Dependent, Independent };

/// Fields every block may carry, plus the block's own span and YAML node.
struct Block {
    explicit Block(BlockKind k) : kind(k) {}
    virtual ~Block() = default;

    BlockKind kind;
    SourceSpan span;
    /// The mapping (or scalar) the block was read from, for spans of nested values.
    std::shared_ptr<const YamlValue> node;

    std::optional<std::string> description;
    std::optional<std::string> def;
    SourceSpan defSpan;
    std::vector<std::pair<std::string, BlockPtr>> defs;
    /// Unset means the default `[result, context]`.
    std::optional<std::vector<ContributeTarget>> contribute;
    std::optional<std::string> role;
    std::optional<Value> spec;
    SourceSpan specSpan;
    ParserSpec parser;
    BlockPtr fallback;
    RetrySpec retry;
    Expr traceErrorOnRetry;
    std::vector<Expectation> expectations;
    ContextMode context = ContextMode::Dependent;
    /// Span of each field as written (key position to end of value), in document order.
    std::vector<std::pair<std::string, SourceSpan>> fieldSpans;

    /// The span of field `name` (invalid if absent).
    SourceSpan fieldSpan(std::string_view name) const;

    template <typename T> const T* as() const
    {
        return kind == T::Kind ? static_cast<const T*>(this) : nullptr;
    }
};

template <BlockKind K> struct BlockOf : Block {
    static constexpr BlockKind Kind = K;
    BlockOf() : Block(K) {}
};

/// `data:` or a bare scalar.
struct DataBlock : BlockOf<BlockKind::Data> {
    Expr data;
    bool raw = false;
};

struct ModelBlock : BlockOf<BlockKind::Model> {
    Expr model;
    BlockPtr input; ///< null: `${ pdl_context }`
    Expr parameters;
    Expr platform;
    std::optional<std::string> modelResponse;
    Expr backend, processor;
    Expr structuredDecoding;
};

struct ReadBlock : BlockOf<BlockKind::Read> {
    Expr read; ///< null value: stdin
    std::optional<std::string> message;
    bool multiline = false;
};

/// text, lastOf, array, sequence: a list of children (text also accepts a single block).
struct ListBlockBase : Block {
    using Block::Block;
    std::vector<BlockPtr> children;
};
struct TextBlock : ListBlockBase {
    static constexpr BlockKind Kind = BlockKind::Text;
    TextBlock() : ListBlockBase(Kind) {}
};
struct LastOfBlock : ListBlockBase {
    static constexpr BlockKind Kind = BlockKind::LastOf;
    LastOfBlock() : ListBlockBase(Kind) {}
};
struct ArrayBlock : ListBlockBase {
    static constexpr BlockKind Kind = BlockKind::Array;
    ArrayBlock() : ListBlockBase(Kind) {}
};
struct SequenceBlock : ListBlockBase {
    static constexpr BlockKind Kind = BlockKind::Sequence;
    SequenceBlock() : ListBlockBase(Kind) {}
    JoinSpec join;
};

struct ObjectBlock : BlockOf<BlockKind::Object> {
    bool listForm = false;
    std::vector<std::pair<std::string, BlockPtr>> fields; ///< mapping form
    std::vector<BlockPtr> items;                          ///< list form
};

struct GetBlock : BlockOf<BlockKind::Get> {
    std::string get;
};

struct MessageBlock : BlockOf<BlockKind::Message> {
    BlockPtr content;
    Expr name, toolCallId, toolCalls;
};

struct IfBlock : BlockOf<BlockKind::If> {
    Expr condition;
    BlockPtr then;
    BlockPtr elseBlock;
};

/// A `case` pattern of a match block.
struct PatternField;

struct Pattern {
    enum class Kind { Literal, Any, Array, Object, AnyOf };
    Kind kind = Kind::Literal;
    Value literal;
    std::vector<Pattern> items;       ///< array / anyOf
    std::vector<PatternField> fields; ///< object
    std::optional<std::string> def;
    SourceSpan span;
};

/// One `{object: {key: pattern}}` entry. A struct rather than std::pair because a pair of an
/// incomplete type inside Pattern itself does not compile with clang (the fuzz build).
struct PatternField {
    PatternField(std::string key, Pattern pattern)
        : first(std::move(key)), second(std::move(pattern))
    {}
    std::string first;
    Pattern second;
};

struct MatchCase {
    std::optional<Pattern> pattern; ///< none: matches everything
    Expr guard;                     ///< `if`
    BlockPtr then;
    SourceSpan span;
};

struct MatchBlock : BlockOf<BlockKind::Match> {
    Expr match;
    std::vector<MatchCase> cases;
};

/// Fields shared by repeat and map.
struct LoopBlockBase : Block {
    using Block::Block;
    BlockPtr body;
    std::vector<std::pair<std::string, Expr>> forVars;
    SourceSpan forSpan;
    std::optional<std::string> index;
    Expr maxIterations;
    JoinSpec join;
};
struct RepeatBlock : LoopBlockBase {
    static constexpr BlockKind Kind = BlockKind::Repeat;
    RepeatBlock() : LoopBlockBase(Kind) {}
    Expr whileCond;
    Expr until;
};
struct MapBlock : LoopBlockBase {
    static constexpr BlockKind Kind = BlockKind::Map;
    MapBlock() : LoopBlockBase(Kind) {}
    Expr maxWorkers;
};

struct FunctionBlock : BlockOf<BlockKind::Function> {
    /// Parameter name → type (as written); empty for `function:` null.
    std::vector<std::pair<std::string, Value>> params;
    BlockPtr returns;
};

struct CallBlock : BlockOf<BlockKind::Call> {
    Expr call;
    Expr args; ///< a mapping or an expression
};

struct CodeBlock : BlockOf<BlockKind::Code> {
    /// IPython: Python run as a notebook cell; its printed output is the result.
    enum class Lang { Python, IPython, Command, Jinja, Pdl };
    Lang lang = Lang::Python;
    BlockPtr code;
    Expr parameters; ///< jinja template parameters
    Expr scope;      ///< `scope:`: the variables the code sees instead of the program's
};

/// `args: [argv…]`: run a command without a shell.
struct ArgsBlock : BlockOf<BlockKind::Args> {
    std::vector<Expr> args;
};

struct IncludeBlock : BlockOf<BlockKind::Include> {
    std::string include;
};

struct ImportBlock : BlockOf<BlockKind::Import> {
    std::string import;
};

struct AggregatorBlock : BlockOf<BlockKind::Aggregator> {
    /// "context", or a file sink.
    bool isContext = false;
    Expr file, mode, encoding, prefix, suffix, flush;
};

/// An empty block, or `factor: WEIGHT` (the reference's FactorBlock, which its inference modes
/// use): a factor adds its weight to the run's score and, like an empty block, results in ""
/// and adds nothing to the context. It shares the kind so that every per-kind table (colours,
/// layouts) holds it; isFactor() tells them apart.
struct EmptyBlock : BlockOf<BlockKind::Empty> {
    Expr factor;
    Expr resample; ///< whether an inference mode may resample here (accepted, unused)
    bool isFactor() const { return bool(factor); }
};

/// A failed block recorded in a trace.
struct ErrorBlock : BlockOf<BlockKind::Error> {
    std::string msg;
    BlockPtr program;
};

/// A parsed PDL program: the root block and the file it came from.
struct Program {
    QString file;
    /// The text it was parsed from (shared with the caller's buffer, not copied): what the
    /// interpreter maps spans to lines and prompt ids in (an editor's unsaved text included).
    QByteArray source;
    BlockPtr root;
    std::shared_ptr<const YamlValue> document;
    /// The nodes of `document` that were read as blocks (sorted by address), for mapping a
    /// location back to the block that holds it (referenceErrorLine).
    std::vector<const YamlValue*> blockNodes;
};

} // namespace hako::pdl
