#include "core/memory/memorybindings.h"

#include "core/memory/hashembedding.h"
#include "core/memory/memorystore.h"
#include "core/memory/reflector.h"
#include "core/memory/threadindex.h"
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/model/modelprovider.h"

#include <QDir>

#include <mutex>

namespace hako::memory {

namespace {

using pdl::CallArgs;
using pdl::EvalError;
using pdl::Value;

// Positional argument `i` or keyword `name`, or nullptr.
const Value* arg(const CallArgs& a, size_t i, std::string_view name)
{
    if (const Value* v = a.kw(name))
        return v;
    return i < a.positional.size() ? &a.positional[i] : nullptr;
}

std::string str(const char* fn, const Value* v, std::string_view name, std::string fallback = {})
{
    if (!v || v->isNull())
        return fallback;
    if (!v->isString())
        throw EvalError(std::string(fn) + "(): " + std::string(name) + " must be a string, got " +
                        v->typeName());
    return v->asString();
}

int64_t integer(const char* fn, const Value* v, std::string_view name, int64_t fallback)
{
    if (!v || v->isNull())
        return fallback;
    if (!v->isInt())
        throw EvalError(std::string(fn) + "(): " + std::string(name) + " must be an integer, got " +
                        v->typeName());
    return v->asInt();
}

Value recordValue(const MemoryRecord& r, const Candidate* c)
{
    pdl::Dict d;
    d.set("id", Value(r.id));
    d.set("text", Value(r.text.toStdString()));
    d.set("kind", Value(kindName(r.kind).toStdString()));
    d.set("created_at", Value(formatTime(r.createdAt).toStdString()));
    d.set("importance", Value(int64_t(r.importance)));
    if (c)
        d.set("score", Value(double(c->score)));
    return Value(std::move(d));
}

Value messageValue(const ThreadMessage& m)
{
    pdl::Dict md;
    md.set("id", Value(m.id.toStdString()));
    pdl::List path;
    for (const QString& p : m.path)
        path.push_back(Value(p.toStdString()));
    md.set("path", Value(std::move(path)));
    md.set("author", Value(m.author.toStdString()));
    md.set("text", Value(m.text.toStdString()));
    md.set("created_at", Value(m.createdAt.toStdString()));
    return Value(std::move(md));
}

std::vector<int64_t> idList(const char* fn, const Value* v, std::string_view name)
{
    std::vector<int64_t> out;
    if (!v || v->isNull())
        return out;
    if (!v->isList())
        throw EvalError(std::string(fn) + "(): " + std::string(name) + " must be a list, got " +
                        v->typeName());
    for (const Value& e : v->asList())
        out.push_back(integer(fn, &e, name, 0));
    return out;
}

struct Env {
    std::shared_ptr<MemoryStore> store;
    std::shared_ptr<models::IModelProvider> provider;
    MemoryBindingOptions options;
    mutable std::mutex threadMutex;
    std::shared_ptr<const ThreadIndex> thread; // replaced by thread.load()

    std::shared_ptr<const ThreadIndex> currentThread() const
    {
        std::lock_guard lock(threadMutex);
        return thread;
    }
    // The block running this call, so journal entries and sources link back to the trace.
    QString nodeId() const
    {
        const std::string id = pdl::currentBlockId();
        return id.empty() ? options.nodeId : QString::fromStdString(id);
    }
    ChangeContext ctx(const QString& reason) const
    {
        return {Actor::Agent, reason, options.runId, nodeId()};
    }
    std::vector<float> embed(const QString& text) const
    {
        if (!provider)
            throw EvalError("memory: no model provider for embeddings");
        auto v = embedOne(*provider, options.embeddingModel, text);
        if (!v)
            throw EvalError(v.error().message.toStdString());
        return std::move(v.value());
    }
    Value selected(const RetrievalRecord& rec) const
    {
        pdl::List out;
        for (int64_t id : rec.result.promptOrder) {
            auto r = store->get(id);
            if (!r)
                throw EvalError(r.error().message.toStdString());
            out.push_back(recordValue(*r, rec.result.find(id)));
        }
        return Value(std::move(out));
    }
    Value threadContext(const char* fn, const CallArgs& a) const
    {
        const QString id = QString::fromStdString(str(fn, arg(a, 0, "id"), "id"));
        const auto t = currentThread();
        if (!t)
            throw EvalError(std::string(fn) + "(): no thread is loaded (thread.load(file))");
        auto chain = t->context(id);
        if (!chain)
            throw EvalError(std::string(fn) + "(): " + chain.error().message.toStdString());
        pdl::List out;
        for (const ThreadMessage& m : *chain)
            out.push_back(messageValue(m));
        return Value(std::move(out));
    }
};

void setFn(pdl::Dict& d, const char* name, std::function<Value(const CallArgs&)> fn)
{
    d.set(name, Value(pdl::makeCallable(name, std::move(fn))));
}

} // namespace

namespace {

// The memory kind an argument names (`fallback` when it is absent).
Kind kindArg(const char* fn, const Value* v, const char* fallback, const char* known)
{
    const QString kindText = QString::fromStdString(str(fn, v, "kind", fallback));
    const auto kind = kindFromName(kindText);
    if (!kind)
        throw EvalError(std::string(fn) + "(): unknown kind '" + kindText.toStdString() + "'" +
                        known);
    return *kind;
}

// A new memory of the agent.
MemoryRecord newRecord(const Env& env, const std::string& text, Kind kind)
{
    MemoryRecord r;
    r.agent = env.options.agent;
    r.kind = kind;
    r.text = QString::fromStdString(text);
    return r;
}

// Where a new memory comes from (the run and block), and its embedding.
void stampAndEmbed(Env& env, MemoryRecord& r)
{
    r.source.runId = env.options.runId;
    r.source.nodeId = env.nodeId();
    r.embeddingModel = env.options.embeddingModel;
    r.embedding = env.embed(r.text);
}

// `memory.add(text, kind, importance, evidence, messages)`: a new memory, embedded, with
// where it came from (the run, the block, the thread of the messages).
Value addMemory(Env& env, const CallArgs& a)
{
    const std::string text = str("add", arg(a, 0, "text"), "text");
    if (text.empty())
        throw EvalError("add(): text is required");
    MemoryRecord r = newRecord(env, text,
                               kindArg("add", arg(a, 1, "kind"), "observation",
                                       " (observation, insight, reflection, chat, summary)"));
    const Value* imp = arg(a, 2, "importance");
    r.importance = int(integer("add", imp, "importance", 5));
    r.importanceSource =
        imp && !imp->isNull() ? ImportanceSource::Model : ImportanceSource::Default;
    r.evidence = idList("add", arg(a, 3, "evidence"), "evidence");
    if (const Value* m = arg(a, 4, "messages"); m && !m->isNull()) {
        if (!m->isList())
            throw EvalError(std::string("add(): messages must be a list, got ") + m->typeName());
        for (const Value& e : m->asList())
            r.source.messageIds.append(QString::fromStdString(e.toText()));
        // The thread is the root post of the messages' reply tree.
        if (const auto t = env.currentThread(); t && !r.source.messageIds.isEmpty()) {
            if (const ThreadMessage* msg = t->find(r.source.messageIds.front());
                msg && !msg->path.isEmpty())
                r.source.threadId = msg->path.front();
        }
    }
    stampAndEmbed(env, r);
    auto id = env.store->add(std::move(r), env.ctx(QStringLiteral("memory.add")));
    if (!id)
        throw EvalError("add(): " + id.error().message.toStdString());
    return Value(*id);
}

// `memory.retrieve(query, k, mode)`: the k memories the mode ranks first for the query.
Value retrieveMemories(Env& env, const CallArgs& a)
{
    const QString query = QString::fromStdString(str("retrieve", arg(a, 0, "query"), "query"));
    const QString modeText =
        QString::fromStdString(str("retrieve", arg(a, 2, "mode"), "mode", "seed"));
    const auto mode = modeFromName(modeText);
    if (!mode)
        throw EvalError("retrieve(): unknown mode '" + modeText.toStdString() +
                        "' (seed, ga, recent)");
    RetrievalParams p;
    p.mode = *mode;
    p.k = int(integer("retrieve", arg(a, 1, "k"), "k", RetrievalParams::defaultK(*mode)));
    p.agent = env.options.agent;
    std::vector<float> q;
    if (*mode != RetrievalMode::Recent)
        q = env.embed(query);
    auto rec = env.store->retrieve(query, q, env.options.embeddingModel, p,
                                   env.ctx(QStringLiteral("memory.retrieve")));
    if (!rec)
        throw EvalError("retrieve(): " + rec.error().message.toStdString());
    return env.selected(*rec);
}

// `memory.reflect(force, model)`: the reflections written when enough importance has
// accumulated (or when forced).
Value reflectNow(Env& env, const CallArgs& a)
{
    const Value* force = arg(a, 0, "force");
    ReflectionOptions o;
    o.agent = env.options.agent;
    o.threshold = env.options.reflectionThreshold;
    o.chatModel = QString::fromStdString(
        str("reflect", arg(a, 1, "model"), "model", env.options.chatModel.toStdString()));
    o.embeddingModel = env.options.embeddingModel;
    Reflector reflector(env.store, env.provider.get(), o);
    auto ids =
        reflector.reflect(force && force->truthy(), env.ctx(QStringLiteral("memory.reflect")));
    if (!ids)
        throw EvalError("reflect(): " + ids.error().message.toStdString());
    pdl::List out;
    for (int64_t id : *ids)
        out.push_back(recordValue(env.store->get(id).value(), nullptr));
    return Value(std::move(out));
}

// `memory.merge(ids, text, importance, kind)`: one memory replacing several active ones.
Value mergeMemories(Env& env, const CallArgs& a)
{
    const std::vector<int64_t> ids = idList("merge", arg(a, 0, "ids"), "ids");
    if (ids.empty())
        throw EvalError("merge(): ids must name at least one memory");
    const std::string text = str("merge", arg(a, 1, "text"), "text");
    if (text.empty())
        throw EvalError("merge(): text is required");
    MemoryRecord r = newRecord(env, text, kindArg("merge", arg(a, 3, "kind"), "reflection", ""));
    // Without an importance the merged memory keeps the highest of what it replaces.
    int importance = 1;
    for (int64_t id : ids) {
        auto m = env.store->get(id);
        if (!m)
            throw EvalError("merge(): " + m.error().message.toStdString());
        if (m->state != State::Active)
            throw EvalError("merge(): memory " + std::to_string(id) + " is not active");
        importance = std::max(importance, m->importance);
    }
    const Value* imp = arg(a, 2, "importance");
    r.importance = int(integer("merge", imp, "importance", importance));
    r.importanceSource =
        imp && !imp->isNull() ? ImportanceSource::Model : ImportanceSource::Default;
    stampAndEmbed(env, r);
    auto id = env.store->merge(ids, std::move(r), env.ctx(QStringLiteral("memory.merge")));
    if (!id)
        throw EvalError("merge(): " + id.error().message.toStdString());
    return Value(*id);
}

// `thread.load(file)`: the thread index the other thread functions read; the message count.
Value loadThread(Env& env, const CallArgs& a)
{
    QString file = QString::fromStdString(str("load", arg(a, 0, "file"), "file"));
    if (file.isEmpty())
        throw EvalError("load(): file is required");
    if (QDir::isRelativePath(file) && !env.options.baseDir.isEmpty())
        file = QDir(env.options.baseDir).filePath(file);
    auto loaded = ThreadIndex::load(file);
    if (!loaded)
        throw EvalError("load(): " + loaded.error().message.toStdString());
    auto index = std::make_shared<const ThreadIndex>(std::move(loaded.value()));
    const int64_t n = int64_t(index->messages().size());
    std::lock_guard lock(env.threadMutex);
    env.thread = std::move(index);
    return Value(n);
}

// The functions of `memory`.
Value memoryFunctions(const std::shared_ptr<Env>& env)
{
    pdl::Dict d;
    setFn(d, "add", [env](const CallArgs& a) { return addMemory(*env, a); });
    setFn(d, "retrieve", [env](const CallArgs& a) { return retrieveMemories(*env, a); });
    setFn(d, "recent", [env](const CallArgs& a) {
        RetrievalParams p;
        p.mode = RetrievalMode::Recent;
        p.k = int(integer("recent", arg(a, 0, "n"), "n", 20));
        p.agent = env->options.agent;
        auto rec = env->store->retrieve(QString(), {}, QString(), p,
                                        env->ctx(QStringLiteral("memory.recent")));
        if (!rec)
            throw EvalError("recent(): " + rec.error().message.toStdString());
        return env->selected(*rec);
    });
    setFn(d, "accumulated", [env](const CallArgs&) {
        return Value(env->store->importanceSinceLastReflection(env->options.agent));
    });
    setFn(d, "reflect", [env](const CallArgs& a) { return reflectNow(*env, a); });
    setFn(d, "merge", [env](const CallArgs& a) { return mergeMemories(*env, a); });
    setFn(d, "thread_context",
          [env](const CallArgs& a) { return env->threadContext("thread_context", a); });
    return Value(std::move(d));
}

// The functions of `thread`.
Value threadFunctions(const std::shared_ptr<Env>& env)
{
    pdl::Dict t;
    setFn(t, "load", [env](const CallArgs& a) { return loadThread(*env, a); });
    setFn(t, "context", [env](const CallArgs& a) { return env->threadContext("context", a); });
    setFn(t, "get", [env](const CallArgs& a) {
        const QString id = QString::fromStdString(str("get", arg(a, 0, "id"), "id"));
        const auto th = env->currentThread();
        if (!th)
            throw EvalError("get(): no thread is loaded (thread.load(file))");
        const ThreadMessage* m = th->find(id);
        if (!m)
            throw EvalError("get(): no message '" + id.toStdString() + "' in the thread");
        return messageValue(*m);
    });
    setFn(t, "messages", [env](const CallArgs&) {
        const auto th = env->currentThread();
        pdl::List out;
        if (th) {
            for (const ThreadMessage& m : th->messages())
                out.push_back(messageValue(m));
        }
        return Value(std::move(out));
    });
    return Value(std::move(t));
}

} // namespace

AgentBindings makeAgentBindings(std::shared_ptr<MemoryStore> store,
                                std::shared_ptr<models::IModelProvider> provider,
                                MemoryBindingOptions options,
                                std::shared_ptr<const ThreadIndex> thread)
{
    auto env = std::make_shared<Env>();
    env->store = std::move(store);
    env->provider = std::move(provider);
    env->options = std::move(options);
    env->thread = std::move(thread);
    return {memoryFunctions(env), threadFunctions(env)};
}

Value makeMemoryBindings(std::shared_ptr<MemoryStore> store,
                         std::shared_ptr<models::IModelProvider> provider,
                         MemoryBindingOptions options, std::shared_ptr<const ThreadIndex> thread)
{
    return makeAgentBindings(std::move(store), std::move(provider), std::move(options),
                             std::move(thread))
        .memory;
}

} // namespace hako::memory
