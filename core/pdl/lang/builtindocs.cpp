#include "core/pdl/lang/builtindocs.h"

#include <QMutex>

#include <algorithm>
#include <map>
#include <mutex>

namespace hako::pdl {

namespace {

struct Registry {
    QMutex mutex;
    std::map<QString, BuiltinDoc> entries;
};

Registry& registry()
{
    static Registry r;
    return r;
}

QList<BuiltinDoc> languageDocs()
{
    return {
        {QStringLiteral("pdl_context"), QStringLiteral("pdl_context → list of messages"),
         QStringLiteral("The background context at this point: every message contributed so "
                        "far, each {role, content, pdl__defsite}."),
         QStringLiteral("language")},
        {QStringLiteral("pdl_scope"), QStringLiteral("pdl_scope → dict"),
         QStringLiteral("Every variable visible here, by name."), QStringLiteral("language")},
        {QStringLiteral("pdl_usage"), QStringLiteral("pdl_usage → dict"),
         QStringLiteral("Usage of the model calls so far: model_calls, prompt_tokens, "
                        "completion_tokens."),
         QStringLiteral("language")},
        {QStringLiteral("pdl_model_default_parameters"),
         QStringLiteral("pdl_model_default_parameters → list"),
         QStringLiteral("Default parameters applied to model calls, by model name pattern "
                        "(e.g. `ollama/*`: temperature 0, seed 0)."),
         QStringLiteral("language")},
        {QStringLiteral("stdlib"), QStringLiteral("stdlib → dict"),
         QStringLiteral("PDL's standard library: get_tool_calls(model_response) (the tool calls "
                        "of a raw model response), reward(response) and "
                        "bool_confidence(response) (log-probability scores of a true/false "
                        "judge reply), and typechat."),
         QStringLiteral("language")},
        {QStringLiteral("pdl_particle_id"), QStringLiteral("pdl_particle_id → int"),
         QStringLiteral("The number of the particle running the program in an inference mode; "
                        "always 0 in Hako, which has none."),
         QStringLiteral("language")},
        {QStringLiteral("pdl_llm_as_judge"), QStringLiteral("pdl_llm_as_judge → str"),
         QStringLiteral("The model that judges a block's `expectations`."),
         QStringLiteral("language")},
        {QStringLiteral("pdl_llm_context_transformer"),
         QStringLiteral("pdl_llm_context_transformer → str"),
         QStringLiteral("The model that turns an unmet expectation into an instruction for the "
                        "retry."),
         QStringLiteral("language")},
        {QStringLiteral("range"), QStringLiteral("range([start,] stop[, step]) → list"),
         QStringLiteral("The integers from start (default 0) up to, not including, stop."),
         QStringLiteral("language")},
        {QStringLiteral("dict"), QStringLiteral("dict(key=value, …) → dict"),
         QStringLiteral("A dict of the keyword arguments."), QStringLiteral("language")},
        {QStringLiteral("namespace"), QStringLiteral("namespace(key=value, …) → dict"),
         QStringLiteral("A mutable object of the keyword arguments (Jinja)."),
         QStringLiteral("language")},
        {QStringLiteral("joiner"), QStringLiteral("joiner(sep=\", \") → function"),
         QStringLiteral("A function that returns \"\" the first time and `sep` afterwards."),
         QStringLiteral("language")},
        {QStringLiteral("image_url"), QStringLiteral("image_url(path) → str"),
         QStringLiteral("The image file at `path` (relative to the program; PNG, JPEG, WebP or "
                        "GIF, up to 20 MB) as a `data:` URL, for a message part "
                        "`{type: image_url, image_url: {url: ...}}` sent to a model that reads "
                        "images. Hako shows such parts as thumbnails, never as text."),
         QStringLiteral("language")},
        {QStringLiteral("lipsum"), QStringLiteral("lipsum(n=5, html=True, min=20, max=100) → str"),
         QStringLiteral("Placeholder lorem ipsum text of n paragraphs."),
         QStringLiteral("language")},
    };
}

} // namespace

void BuiltinDocs::add(const QList<BuiltinDoc>& docs)
{
    Registry& r = registry();
    QMutexLocker lock(&r.mutex);
    for (const BuiltinDoc& d : docs)
        r.entries[d.name] = d;
}

const BuiltinDoc* BuiltinDocs::find(const QString& name)
{
    Registry& r = registry();
    QMutexLocker lock(&r.mutex);
    auto it = r.entries.find(name);
    // std::map nodes are stable: the pointer stays valid while the entry is not replaced.
    return it == r.entries.end() ? nullptr : &it->second;
}

QList<BuiltinDoc> BuiltinDocs::withPrefix(const QString& prefix)
{
    Registry& r = registry();
    QMutexLocker lock(&r.mutex);
    QList<BuiltinDoc> out;
    for (auto it = r.entries.lower_bound(prefix); it != r.entries.end(); ++it) {
        if (!it->first.startsWith(prefix))
            break;
        out.append(it->second);
    }
    return out;
}

void registerBuiltinDocs()
{
    static std::once_flag once;
    std::call_once(once, [] { BuiltinDocs::add(languageDocs()); });
}

} // namespace hako::pdl
