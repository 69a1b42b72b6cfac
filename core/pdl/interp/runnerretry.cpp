// How a block's tries run (one, or again after a failure or unmet `expectations`); what a retry
// does between tries: its configuration, its wait, and `expectations` judged after a try; and
// the `factor` block, which only scores the run.
#include "core/pdl/interp/pdlfunction_p.h"
#include "core/pdl/interp/runner_p.h"
#include "core/pdl/programcheck.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <thread>

namespace hako::pdl {

namespace {

// The standard judge of `expectations`, as the reference's `stdlib.expectations.feedback`
// behaves (pdl_stdlib.pdl): the judge model answers true or false with log probabilities;
// `stdlib.reward` turns them into a score; a score below log(1/2) asks the context transformer
// model for an instruction to add before the retry. Written for Hako; the prompts are the
// reference's, since the requests must be the same.
constexpr const char* kJudgeProgram = R"PDL(function:
  expectation: string
  response:
  pdl_llm_as_judge: string
  pdl_llm_context_transformer: string
return:
  lastOf:
  - def: score
    retry: 3
    fallback:
      kind: error
      msg: "Llm-as-judge failed!"
    lastOf:
    - model: ${ pdl_llm_as_judge }
      input: "Your task is to determine if the following statement is true:\n        \n${ expectation }\n\nHere is the solution: ${ response }\n\nIs the statement correct? Respond with only ('true'/'false')\n\n"
      modelResponse: judgement
      parameters:
        logprobs: true
        top_logprobs: 5
        response_format:
          type: json_schema
          json_schema: {name: schema, schema: {enum: [true, false]}, strict: true}
    - ${ stdlib.reward(judgement) }
  - if: ${ score < -0.69 }
    then:
      array:
      - ${ score }
      - model: ${ pdl_llm_context_transformer }
        input: "The following requirement is not satisfied, what instruction can be added to get the correct answer?\nrequirement: ${ expectation }\nAnswer with only the instruction.\n"
    else: ${ score }
)PDL";

const std::shared_ptr<const Program>& judgeProgram()
{
    static const std::shared_ptr<const Program> program = [] {
        ParseResult parsed =
            checkProgramText(QByteArray(kJudgeProgram), QStringLiteral("<expectations judge>"));
        return parsed.ok() ? parsed.program : nullptr;
    }();
    return program;
}

// The instruction a feedback function's value carries: a string is one, a number is a score
// alone, a list is [score, instruction] (process_advance_block_retry, pdl_interpreter.py).
std::string instructionOf(const Value& feedback)
{
    if (feedback.isString())
        return feedback.asString();
    if (feedback.isList() && feedback.asList().size() >= 2)
        return feedback.asList()[1].toText();
    return {};
}

} // namespace

Runner::RetryPlan Runner::retryPlan(const Block& b, const State& st)
{
    RetryPlan p;
    if (!b.retry.present)
        return p;
    auto number = [&](const Expr& e, const char* name) {
        Value v = eval(e, st, nullptr, name);
        if (!v.isNumber())
            throw PdlError(std::string("retry ") + name + " must be a number, got " + v.typeName(),
                           e.span);
        return v.toDouble();
    };
    // The mapping form's `tries` defaults to -1, and a negative number retries forever
    // (RetryConfiguration, pdl_ast.py).
    p.shownTries = b.retry.tries ? int64_t(number(b.retry.tries, "tries")) : -1;
    p.extraTries = p.shownTries < 0 ? std::numeric_limits<int64_t>::max() : p.shownTries;
    if (b.retry.delay)
        p.delay = number(b.retry.delay, "delay");
    if (b.retry.backoff)
        p.backoff = number(b.retry.backoff, "backoff");
    if (b.retry.maxDelay)
        p.maxDelay = number(b.retry.maxDelay, "max_delay");
    if (b.retry.jitter) {
        // A number is a fixed extra wait; [low, high] a random one in that range.
        Value j = eval(b.retry.jitter, st, nullptr, "jitter");
        if (j.isList() && j.asList().size() == 2 && j.asList()[0].isNumber() &&
            j.asList()[1].isNumber()) {
            p.jitterLow = j.asList()[0].toDouble();
            p.jitterHigh = j.asList()[1].toDouble();
        } else if (j.isNumber()) {
            p.jitterLow = p.jitterHigh = j.toDouble();
        } else {
            throw PdlError("retry jitter must be a number or [low, high]", b.retry.jitter.span);
        }
    }
    return p;
}

void Runner::waitBeforeRetry(const RetryPlan& p, int64_t attempt)
{
    // calculate_retry_delay (pdl_interpreter.py): delay × backoff^attempt, capped, plus jitter.
    double wait = p.delay * std::pow(p.backoff, double(attempt));
    if (p.maxDelay >= 0)
        wait = std::min(wait, p.maxDelay);
    if (p.jitterHigh > p.jitterLow) {
        // On the heap: the library's thread-locals live in the static TLS space (runner.cpp),
        // where a 5 KB generator has no place.
        thread_local std::unique_ptr<std::mt19937> random =
            std::make_unique<std::mt19937>(std::random_device{}());
        wait += std::uniform_real_distribution<double>(p.jitterLow, p.jitterHigh)(*random);
    } else {
        wait += p.jitterLow;
    }
    auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(int64_t(wait * 1e6));
    while (std::chrono::steady_clock::now() < until) {
        checkCancelled();
        std::this_thread::sleep_for(std::min<std::chrono::nanoseconds>(
            until - std::chrono::steady_clock::now(), std::chrono::milliseconds(20)));
    }
}

std::optional<ContextPtr> Runner::unmetExpectations(const Block& b, const Value& result,
                                                    const State& st, ContextPtr context,
                                                    bool mayRetry, const std::string& id)
{
    bool unmet = false;
    for (size_t i = 0; i < b.expectations.size(); ++i) {
        const Expectation& e = b.expectations[i];
        State js = st;
        js.quiet = true;
        js.streamResult = false;
        Value fn;
        if (e.feedback) {
            fn = eval(e.feedback, js, nullptr, "feedback");
        } else {
            const std::shared_ptr<const Program>& judge = judgeProgram();
            if (!judge)
                throw PdlError("internal error: the expectations judge does not parse", e.span);
            fn = exec(judge->root, js, id + ".expectations.", nullptr);
        }
        Dict args;
        args.set("expectation", eval(e.expect, js, nullptr, "expect"));
        args.set("response", result);
        // The judge models go only to a function that names them as parameters.
        if (auto pdlFn = std::dynamic_pointer_cast<const PdlFunction>(
                fn.isCallable() ? fn.asCallable() : nullptr)) {
            for (const auto& [name, type] : pdlFn->function().params) {
                if (name == "pdl_llm_as_judge" || name == "pdl_llm_context_transformer") {
                    const Value* model = st.scope.find(name);
                    args.set(name, model ? *model : Value());
                }
            }
        }
        const Value feedback = callFunction(fn, args, js, id + ".expectations.", nullptr, e.span);
        const std::string instruction = instructionOf(feedback);
        // An instruction goes into the context of the next try, as a user message; with no
        // try left, the result stands (process_advance_block_retry).
        if (mayRetry && !instruction.empty()) {
            Dict m;
            m.set("role", Value("user"));
            m.set("content", Value(instruction));
            context = contextAppend(context, Value(std::move(m)));
            unmet = true;
        }
    }
    if (!unmet)
        return std::nullopt;
    return context;
}

Value Runner::execFactor(const EmptyBlock& b, State& st, TraceNode* node)
{
    if (!b.isFactor())
        return Value("");
    // The reference's default run (no inference mode) adds the weight to the run's score,
    // records it as the block's `pdl__score`, and results in "" with no context.
    Value w = eval(b.factor, st, node, "factor");
    if (!w.isNumber())
        throw PdlError("a factor must be a number, not '" + std::string(w.typeName()) + "'",
                       b.span);
    if (node)
        node->score = w.toDouble();
    return Value("");
}

Value Runner::finishAttempt(const Block& b, Value r, State& st, TraceNode* node, bool streamParsed)
{
    // The reference traces a block's result as the body produced it, before parsing.
    if (node) {
        node->result = r;
        node->hasResult = true;
    }
    if (b.parser.kind != ParserSpec::Kind::None) {
        r = parse(b, r);
        if (streamParsed && !st.quiet) {
            State parsed = st;
            parsed.streamResult = true;
            streamValue(parsed, r);
        }
    }
    // A function's spec is the type of what its calls return (callFunction).
    if (b.spec && b.kind != BlockKind::Function) {
        const SourceSpan at = b.fieldSpan("spec");
        checkSpec(*b.spec, r, at.isValid() ? at : b.span);
    }
    return r;
}

Value Runner::execWithRetry(const BlockPtr& bp, State& st, std::string& id, TraceNode* node,
                            bool streamParsed)
{
    const Block& b = *bp;
    // Most blocks neither retry nor check expectations: they run once, and keep no copy of the
    // state to go back to (a copy also shares the scope, so the next variable set copied it).
    if (!b.retry.present && b.expectations.empty())
        return finishAttempt(b, execBody(bp, st, id, node), st, node, streamParsed);
    const RetryPlan plan = retryPlan(b, st);
    const int64_t extraTries = plan.extraTries;
    const State start = st;
    const std::string baseId = id;
    ContextPtr retryContext = start.context; // with the instructions of unmet expectations
    for (int64_t attempt = 0;; ++attempt) {
        try {
            Value r = finishAttempt(b, execBody(bp, st, id, node), st, node, streamParsed);
            if (!b.expectations.empty()) {
                if (std::optional<ContextPtr> next =
                        unmetExpectations(b, r, start, retryContext, attempt < extraTries, id)) {
                    retryContext = *next;
                    st = start;
                    st.context = retryContext;
                    id = baseId + ".retry" + std::to_string(attempt + 1);
                    if (node) {
                        node->id = id;
                        node->children.clear();
                        node->exprs.clear();
                    }
                    waitBeforeRetry(plan, attempt);
                    continue;
                }
            }
            return r;
        } catch (const PdlError& e) {
            bool retry = attempt < extraTries;
            if (retry && !b.retry.exceptions.empty()) {
                bool match = false;
                for (const std::string& want : b.retry.exceptions)
                    for (const std::string& have : e.types)
                        match = match || want == have;
                retry = match;
            }
            // The reference renames a retried block `<id>.retry<N>` (N: the attempt about to
            // run, or the one that failed last), and its children after it.
            if (b.retry.present) {
                id = baseId + ".retry" + std::to_string(retry ? attempt + 1 : attempt);
                if (node)
                    node->id = id;
            }
            if (!retry)
                throw;
            std::string message = e.what();
            writeRetryNotice(b, start, attempt + 1, plan.shownTries, message);
            st = start;
            st.context = retryContext;
            if (b.traceErrorOnRetry && eval(b.traceErrorOnRetry, st, nullptr, "x").truthy())
                st.context = contextAppend(st.context, "assistant", Value(message), id);
            if (node) {
                node->children.clear();
                node->exprs.clear();
                // Reported as a new start of the same node: a live view drops the failed
                // attempt's children, as the trace does.
                if (options.observer) {
                    std::lock_guard lock(observerMutex);
                    options.observer->blockStarted(*node);
                }
            }
            waitBeforeRetry(plan, attempt);
        }
    }
}

} // namespace hako::pdl
