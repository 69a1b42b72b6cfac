#include "core/memory/memorydocs.h"

namespace hako::memory {

QList<pdl::BuiltinDoc> memoryBuiltinDocs()
{
    const QString area = QStringLiteral("memory");
    auto doc = [&](const char* name, const char* signature, const char* summary) {
        return pdl::BuiltinDoc{QString::fromUtf8(name), QString::fromUtf8(signature),
                               QString::fromUtf8(summary), area};
    };
    return {
        doc("memory", "memory",
            "The agent's long-term memory store, given to a run by `hako run --memory STORE`. "
            "Every change and every retrieval is journaled with the block that made it; the "
            "Memory pane shows them."),
        doc("memory.add",
            "memory.add(text, kind='observation', importance=5, evidence=[], messages=[]) → int",
            "Stores a memory and returns its id. `kind` is observation, insight, reflection, "
            "chat or summary; `importance` 1–10; `evidence` the ids of the memories it was "
            "drawn from; `messages` the ids of the thread messages it came from. The text is "
            "embedded with the store's embedding model."),
        doc("memory.retrieve", "memory.retrieve(query, k=5, mode='seed') → list of memories",
            "The memories for a prompt, in prompt order, as dicts {id, text, kind, created_at, "
            "importance, score}. `seed`: the top k by cosine similarity to the query, then "
            "oldest first; `ga`: recency × importance × relevance (Generative Agents), best "
            "first; `recent`: the newest k. Updates each selected memory's last access; the "
            "journal keeps every candidate's scores and why it was cut."),
        doc("memory.recent", "memory.recent(n=20) → list of memories",
            "The newest n active memories, oldest first (for summarising what happened lately)."),
        doc("memory.accumulated", "memory.accumulated() → int",
            "The importance of the observations, chats and insights stored since the latest "
            "reflection: a program reflects once it passes a threshold (150 by default)."),
        doc("memory.reflect", "memory.reflect(force=False, model=None) → list of memories",
            "When the accumulated importance reaches the threshold (or with `force`), asks the "
            "chat model `model` for high-level insights about the memories since the last "
            "reflection and stores each as a reflection linked to its evidence. Returns the new "
            "reflections (empty when not due)."),
        doc("memory.merge", "memory.merge(ids, text, importance=None, kind='reflection') → int",
            "Replaces the memories `ids` by one memory `text` that cites them as evidence; the "
            "originals are archived (not deleted), so the merge can be inspected and undone. "
            "Without `importance` the merged memory keeps the highest of the originals."),
        doc("memory.thread_context", "memory.thread_context(id) → list of messages",
            "Same as `thread.context(id)`."),
        doc("thread", "thread",
            "The reply tree the agent reads, given to a run with `memory` by `hako run --memory "
            "STORE`. Load one with `thread.load(file)`."),
        doc("thread.load", "thread.load(file) → int",
            "Loads a reply-tree JSON file (relative to the program's folder): an array of "
            "messages, or {\"messages\": […]}, each {id, path, author, text, created_at}; `path` "
            "lists the 5-hex-digit ids from the root post to the message. Returns the number of "
            "messages."),
        doc("thread.context", "thread.context(id) → list of messages",
            "The chain from the root post to message `id`, root first: every message whose "
            "path is a prefix of the message's path. Sibling branches are never included. Each "
            "message is {id, path, author, text, created_at}."),
        doc("thread.get", "thread.get(id) → message",
            "One message {id, path, author, text, created_at}; an error when there is none."),
        doc("thread.messages", "thread.messages() → list of messages",
            "Every message of the loaded thread in file order (empty when none is loaded)."),
    };
}

} // namespace hako::memory
