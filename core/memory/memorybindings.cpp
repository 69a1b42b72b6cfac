#include "core/memory/memorybindings.h"

#include "core/memory/hashembedding.h"
#include "core/memory/memorystore.h"
#include "core/memory/reflector.h"
#include "core/memory/threadindex.h"
#include "core/models/modelprovider.h"

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

struct Env {
    std::shared_ptr<MemoryStore> store;
    std::shared_ptr<models::IModelProvider> provider;
    MemoryBindingOptions options;
    std::shared_ptr<const ThreadIndex> thread;

    ChangeContext ctx(const QString& reason) const
    {
        return {Actor::Agent, reason, options.runId, options.nodeId};
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
};

} // namespace

Value makeMemoryBindings(std::shared_ptr<MemoryStore> store,
                         std::shared_ptr<models::IModelProvider> provider,
                         MemoryBindingOptions options, std::shared_ptr<const ThreadIndex> thread)
{
    auto env = std::make_shared<Env>(
        Env{std::move(store), std::move(provider), std::move(options), std::move(thread)});
    pdl::Dict d;
    d.set("add", Value(pdl::makeCallable("add", [env](const CallArgs& a) {
              const std::string text = str("add", arg(a, 0, "text"), "text");
              if (text.empty())
                  throw EvalError("add(): text is required");
              const QString kindText =
                  QString::fromStdString(str("add", arg(a, 1, "kind"), "kind", "observation"));
              const auto kind = kindFromName(kindText);
              if (!kind)
                  throw EvalError("add(): unknown kind '" + kindText.toStdString() +
                                  "' (observation, insight, reflection, chat, summary)");
              MemoryRecord r;
              r.agent = env->options.agent;
              r.kind = *kind;
              r.text = QString::fromStdString(text);
              const Value* imp = arg(a, 2, "importance");
              r.importance = int(integer("add", imp, "importance", 5));
              r.importanceSource =
                  imp && !imp->isNull() ? ImportanceSource::Model : ImportanceSource::Default;
              if (const Value* ev = arg(a, 3, "evidence"); ev && ev->isList()) {
                  for (const Value& e : ev->asList())
                      r.evidence.push_back(integer("add", &e, "evidence", 0));
              }
              r.source.runId = env->options.runId;
              r.source.nodeId = env->options.nodeId;
              r.embeddingModel = env->options.embeddingModel;
              r.embedding = env->embed(r.text);
              auto id = env->store->add(std::move(r), env->ctx(QStringLiteral("memory.add")));
              if (!id)
                  throw EvalError("add(): " + id.error().message.toStdString());
              return Value(*id);
          })));
    d.set("retrieve", Value(pdl::makeCallable("retrieve", [env](const CallArgs& a) {
              const QString query =
                  QString::fromStdString(str("retrieve", arg(a, 0, "query"), "query"));
              const QString modeText =
                  QString::fromStdString(str("retrieve", arg(a, 2, "mode"), "mode", "seed"));
              const auto mode = modeFromName(modeText);
              if (!mode)
                  throw EvalError("retrieve(): unknown mode '" + modeText.toStdString() +
                                  "' (seed, ga, recent)");
              RetrievalParams p;
              p.mode = *mode;
              p.k = int(integer("retrieve", arg(a, 1, "k"), "k", RetrievalParams::defaultK(*mode)));
              p.agent = env->options.agent;
              std::vector<float> q;
              if (*mode != RetrievalMode::Recent)
                  q = env->embed(query);
              auto rec = env->store->retrieve(query, q, env->options.embeddingModel, p,
                                              env->ctx(QStringLiteral("memory.retrieve")));
              if (!rec)
                  throw EvalError("retrieve(): " + rec.error().message.toStdString());
              return env->selected(*rec);
          })));
    d.set("recent", Value(pdl::makeCallable("recent", [env](const CallArgs& a) {
              RetrievalParams p;
              p.mode = RetrievalMode::Recent;
              p.k = int(integer("recent", arg(a, 0, "n"), "n", 20));
              p.agent = env->options.agent;
              auto rec = env->store->retrieve(QString(), {}, QString(), p,
                                              env->ctx(QStringLiteral("memory.recent")));
              if (!rec)
                  throw EvalError("recent(): " + rec.error().message.toStdString());
              return env->selected(*rec);
          })));
    d.set("reflect", Value(pdl::makeCallable("reflect", [env](const CallArgs& a) {
              const Value* force = arg(a, 0, "force");
              ReflectionOptions o;
              o.agent = env->options.agent;
              o.threshold = env->options.reflectionThreshold;
              o.chatModel = env->options.chatModel;
              o.embeddingModel = env->options.embeddingModel;
              Reflector reflector(env->store, env->provider.get(), o);
              auto ids = reflector.reflect(force && force->truthy(),
                                           env->ctx(QStringLiteral("memory.reflect")));
              if (!ids)
                  throw EvalError("reflect(): " + ids.error().message.toStdString());
              pdl::List out;
              for (int64_t id : *ids)
                  out.push_back(recordValue(env->store->get(id).value(), nullptr));
              return Value(std::move(out));
          })));
    d.set("thread_context", Value(pdl::makeCallable("thread_context", [env](const CallArgs& a) {
              const QString id =
                  QString::fromStdString(str("thread_context", arg(a, 0, "id"), "id"));
              if (!env->thread)
                  throw EvalError("thread_context(): no thread is loaded");
              auto chain = env->thread->context(id);
              if (!chain)
                  throw EvalError("thread_context(): " + chain.error().message.toStdString());
              pdl::List out;
              for (const ThreadMessage& m : *chain) {
                  pdl::Dict md;
                  md.set("id", Value(m.id.toStdString()));
                  pdl::List path;
                  for (const QString& p : m.path)
                      path.push_back(Value(p.toStdString()));
                  md.set("path", Value(std::move(path)));
                  md.set("author", Value(m.author.toStdString()));
                  md.set("text", Value(m.text.toStdString()));
                  out.push_back(Value(std::move(md)));
              }
              return Value(std::move(out));
          })));
    return Value(std::move(d));
}

} // namespace hako::memory
