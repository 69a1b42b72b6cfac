#include "core/docs/documentbuiltindocs.h"

namespace hako::docs {

QList<pdl::BuiltinDoc> documentBuiltinDocs()
{
    const QString area = QStringLiteral("documents");
    auto entry = [&](const char* name, const char* signature, const char* summary) {
        return pdl::BuiltinDoc{QString::fromUtf8(name), QString::fromUtf8(signature),
                               QString::fromUtf8(summary), area};
    };
    return {
        entry("doc", "doc",
              "The document opened with `hako run --document FILE` (text in any common encoding, "
              "Aozora Bunko, or PDF), played as the search/show/answer game: every call is a "
              "command with a cost, recorded in the session's transcript. Functions: "
              "`doc.search`, `doc.show`, `doc.answer`, `doc.rank`, `doc.memo`, `doc.run`, "
              "`doc.cost`, `doc.submitted`, `doc.last`."),
        entry("doc.search", "doc.search(term1, term2, …, page=1) → str",
              "Lines containing every term (normalised: full/half width folded, ruby readings "
              "searchable), 10 per page, as `lineN: ` + the first 20 characters + `……` with the "
              "terms in `**`, then `[page1/N]`; `Not found.` when none. Costs 5. "
              "Example: `${ doc.search('白鳥の停車場') }`."),
        entry("doc.show", "doc.show(n1, n2, …) → str",
              "The whole lines with these numbers (ints, or strings such as `'176-178'` for "
              "ranges), one `lineN: text` per line; `lineN: Not found.` past the end. Costs 1 "
              "per line. Example: `${ doc.show(181, 182) }`."),
        entry("doc.answer", "doc.answer(text) → str",
              "Submits the answer: `Answer recorded.` (or `Correct.`/`Incorrect.` when the "
              "session knows the expected answer). Costs 1. The game's stop: see "
              "`doc.submitted()`."),
        entry("doc.rank", "doc.rank(query) → str",
              "The passages that best match `query` by BM25 (character bigrams for Japanese, "
              "words otherwise), best first with their scores; `a | b | c` ranks by the best of "
              "several queries and drops weak passages. Costs 5."),
        entry("doc.memo", "doc.memo(text) → str",
              "Replaces the session's memo (the notes kept with every transcript entry). "
              "Costs 0."),
        entry("doc.run", "doc.run(command) → str",
              "Runs one command line as typed (`search …`, `show …`, `answer …`, `rank …`, "
              "`page K`, `memo …`) and returns its output; a fenced code block in `command` is "
              "unwrapped first, so a model's whole reply can be passed. Unknown input gives "
              "`Unknown command.`, a command without arguments `Insufficient args.` (cost 0)."),
        entry("doc.cost", "doc.cost() → int",
              "The total cost of the commands run so far (search 5, show 1 per line, answer 1)."),
        entry("doc.submitted", "doc.submitted() → str | None",
              "The answer submitted with `answer`, or None while there is none: a loop's "
              "`until: ${ doc.submitted() is not none }` stops at the answer."),
        entry("doc.last", "doc.last() → dict | None",
              "The latest command of the transcript as `{input, output, cost, total_cost}`, or "
              "None before the first."),
    };
}

} // namespace hako::docs
