#include "core/reports/reportdocs.h"

namespace hako::reports {

QList<pdl::BuiltinDoc> reportBuiltinDocs()
{
    const QString area = QStringLiteral("reports");
    auto doc = [&](const char* name, const char* signature, const char* summary) {
        return pdl::BuiltinDoc{QString::fromUtf8(name), QString::fromUtf8(signature),
                               QString::fromUtf8(summary), area};
    };
    return {
        doc("report", "report",
            "Questions over PDF reports (every run has it): pages as images for a vision "
            "model, transcripts kept in the program folder's .hako/transcripts, three chunkings "
            "in vector stores, context by company with BM25, rounding in code. See "
            "resources/examples/report_qa."),
        doc("report.pages", "report.pages(path, model, dpi=360) → list of pages",
            "The pages of a PDF, or of every PDF in a folder (relative to the program), as "
            "dicts {file, name, page, pages, sha, model, dpi, cached}. `cached` is the "
            "transcript kept for this file (by the hash of its bytes), page and model, or None "
            "when the page still has to be transcribed."),
        doc("report.image", "report.image(page, dpi=None) → message part",
            "The page rendered as PNG at its dpi, as an OpenAI image part {type: image_url, "
            "image_url: {url: 'data:image/png;base64,…'}} to put in a user message's content "
            "list next to a text part."),
        doc("report.remember", "report.remember(page, markdown) → str",
            "Keeps a page's transcript (a surrounding ``` fence is taken off), so later runs "
            "find it in `cached` and send nothing. Returns the transcript."),
        doc("report.index", "report.index(path, model, embedding_model='hash') → summary",
            "Indexes the transcripts `model` wrote of the PDFs: the company of each report "
            "from its first 10 pages, the text cut three ways (500/100, 330/50, 810/100 "
            "characters) into vector stores embedded with `embedding_model` (kept on disk). "
            "Returns {files: [{file, company, pages}], companies, chunks, embedded}."),
        doc("report.companies", "report.companies() → list of str",
            "The companies of the indexed reports."),
        doc("report.context",
            "report.context(queries, companies=[], k=30, threshold=0.3) → list of passages",
            "The context for a question and its rewrites: the k nearest chunks per store and "
            "query of the reports of `companies` (all when empty or unknown), duplicates "
            "removed, scored with BM25 (best over the queries, 1 for the best chunk), those "
            "below `threshold` dropped, best first. Each is {text, file, page, company, score, "
            "chunking}."),
        doc("report.format", "report.format(context) → str",
            "The passages of report.context() numbered, with company, file and page, for a "
            "prompt."),
        doc("report.company", "report.company(texts) → str",
            "The company a report's pages name most (株式会社…, …株式会社, … Co., Ltd.), or ''."),
        doc("report.round", "report.round(answer, question) → str",
            "The answer's number as the question asks for it, rounded half up in code: "
            "小数第一位を四捨五入 gives an integer, 小数第二位を四捨五入 one decimal, "
            "小数第二位まで "
            "two, 整数で an integer, 百万円単位 converts 1.5億 to 150. The answer unchanged "
            "when the question names no rounding or the answer has no number (分かりません)."),
    };
}

} // namespace hako::reports
