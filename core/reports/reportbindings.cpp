#include "core/reports/reportbindings.h"

#include "core/docs/bm25index.h"
#include "core/pdl/model/modelprovider.h"
#include "core/reports/answerrounding.h"
#include "core/reports/companyname.h"
#include "core/reports/pagerenderer.h"
#include "core/reports/reportindex.h"
#include "core/reports/transcriptcache.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>

#include <cmath>
#include <mutex>

namespace hako::reports {

namespace {

using pdl::CallArgs;
using pdl::Dict;
using pdl::EvalError;
using pdl::Value;

struct Session {
    ReportBindingOptions options;
    QString cacheDir;
    std::mutex mutex;
    std::shared_ptr<ReportIndex> index;
};

const Value* arg(const CallArgs& a, size_t i, std::string_view name)
{
    if (const Value* v = a.kw(name))
        return v;
    return i < a.positional.size() ? &a.positional[i] : nullptr;
}

QString text(const char* fn, const Value* v, std::string_view name, const QString& fallback = {})
{
    if (!v || v->isNull()) {
        if (fallback.isNull())
            throw EvalError(std::string("report.") + fn + "(): " + std::string(name) +
                            " is missing");
        return fallback;
    }
    if (!v->isString())
        throw EvalError(std::string("report.") + fn + "(): " + std::string(name) +
                        " must be a string, got " + v->typeName());
    return QString::fromStdString(v->asString());
}

double number(const char* fn, const Value* v, std::string_view name, double fallback)
{
    if (!v || v->isNull())
        return fallback;
    if (!v->isNumber())
        throw EvalError(std::string("report.") + fn + "(): " + std::string(name) +
                        " must be a number, got " + v->typeName());
    return v->toDouble();
}

QStringList textList(const char* fn, const Value* v, std::string_view name)
{
    QStringList out;
    if (!v || v->isNull())
        return out;
    if (v->isString())
        return {QString::fromStdString(v->asString())};
    if (!v->isList())
        throw EvalError(std::string("report.") + fn + "(): " + std::string(name) +
                        " must be a list of strings, got " + v->typeName());
    for (const Value& item : v->asList())
        out.append(QString::fromStdString(item.isString() ? item.asString() : item.toText()));
    return out;
}

[[noreturn]] void fail(const char* fn, const QString& message)
{
    throw EvalError(std::string("report.") + fn + "(): " + message.toStdString());
}

// The PDFs a path names: the file itself, or a folder's *.pdf files by name.
QStringList pdfFiles(const Session& s, const char* fn, const QString& path)
{
    const QString full = QDir(s.options.baseDir).absoluteFilePath(path);
    const QFileInfo info(full);
    if (info.isFile())
        return {info.absoluteFilePath()};
    if (!info.isDir())
        fail(fn, QStringLiteral("%1: no such file or folder").arg(full));
    QStringList out;
    const QDir dir(full);
    for (const QString& name :
         dir.entryList({QStringLiteral("*.pdf"), QStringLiteral("*.PDF")}, QDir::Files, QDir::Name))
        out.append(dir.absoluteFilePath(name));
    if (out.isEmpty())
        fail(fn, QStringLiteral("%1: the folder holds no PDF").arg(full));
    return out;
}

IPdfPageRenderer& renderer(const char* fn)
{
    IPdfPageRenderer* r = pdfPageRenderer();
    if (!r)
        fail(fn, QStringLiteral("PDF support is not installed (the `pdf` plugin, built with "
                                "poppler-qt6, was not found)"));
    return *r;
}

const Dict& pageDict(const char* fn, const Value* v)
{
    if (!v || !v->isDict() || !v->asDict().find("file") || !v->asDict().find("page"))
        fail(fn, QStringLiteral("the first argument must be a page from report.pages()"));
    return v->asDict();
}

QString field(const Dict& d, const char* key)
{
    const Value* v = d.find(key);
    return v && v->isString() ? QString::fromStdString(v->asString()) : QString();
}

Value pages(Session& s, const CallArgs& a)
{
    const QString path = text("pages", arg(a, 0, "path"), "path");
    const QString model = text("pages", arg(a, 1, "model"), "model");
    const int dpi = int(number("pages", arg(a, 2, "dpi"), "dpi", 360));
    const TranscriptCache cache(QDir(s.cacheDir).filePath(QStringLiteral("transcripts")));
    pdl::List out;
    for (const QString& file : pdfFiles(s, "pages", path)) {
        Result<QString> sha = TranscriptCache::fileHash(file);
        if (!sha.ok())
            fail("pages", sha.error().message);
        Result<int> count = renderer("pages").pageCount(file);
        if (!count.ok())
            fail("pages", count.error().message);
        for (int p = 1; p <= *count; ++p) {
            pdl::Dict d;
            d.set("file", Value(file.toStdString()));
            d.set("name", Value(QFileInfo(file).fileName().toStdString()));
            d.set("page", Value(int64_t(p)));
            d.set("pages", Value(int64_t(*count)));
            d.set("sha", Value(sha->toStdString()));
            d.set("model", Value(model.toStdString()));
            d.set("dpi", Value(int64_t(dpi)));
            const std::optional<QString> kept = cache.find(*sha, p, model);
            d.set("cached", kept ? Value(kept->toStdString()) : Value());
            out.push_back(Value(std::move(d)));
        }
    }
    return Value(std::move(out));
}

Value image(const CallArgs& a)
{
    const Dict& page = pageDict("image", arg(a, 0, "page"));
    const Value* pageDpi = page.find("dpi");
    const int dpi =
        int(number("image", arg(a, 1, "dpi"), "dpi", pageDpi ? pageDpi->toDouble() : 360));
    const QString file = field(page, "file");
    Result<QByteArray> png =
        renderer("image").renderPng(file, int(page.find("page")->toDouble()) - 1, dpi);
    if (!png.ok())
        fail("image", png.error().message);
    const std::string url = "data:image/png;base64," + png->toBase64().toStdString();
    return Value(pdl::Dict{{"type", Value("image_url")},
                           {"image_url", Value(pdl::Dict{{"url", Value(url)}})}});
}

// A model's transcript without the ```markdown fence it is often wrapped in.
QString unfenced(QString markdown)
{
    static const QRegularExpression fence(
        QStringLiteral("^\\s*```[A-Za-z]*\\s*\\n(.*)\\n\\s*```\\s*$"),
        QRegularExpression::DotMatchesEverythingOption);
    const QRegularExpressionMatch m = fence.match(markdown);
    return m.hasMatch() ? m.captured(1) : markdown.trimmed();
}

Value remember(Session& s, const CallArgs& a)
{
    const Dict& page = pageDict("remember", arg(a, 0, "page"));
    const QString markdown = unfenced(text("remember", arg(a, 1, "markdown"), "markdown"));
    const TranscriptCache cache(QDir(s.cacheDir).filePath(QStringLiteral("transcripts")));
    Result<bool> kept = cache.store(field(page, "sha"), int(page.find("page")->toDouble()),
                                    field(page, "model"), markdown);
    if (!kept.ok())
        fail("remember", kept.error().message);
    return Value(markdown.toStdString());
}

} // namespace

namespace {

Value indexReports(Session& s, const CallArgs& a)
{
    const QString path = text("index", arg(a, 0, "path"), "path");
    const QString model = text("index", arg(a, 1, "model"), "model");
    const QString embedding =
        text("index", arg(a, 2, "embedding_model"), "embedding_model", QStringLiteral("hash"));
    const TranscriptCache cache(QDir(s.cacheDir).filePath(QStringLiteral("transcripts")));
    std::vector<ReportFile> reports;
    pdl::List files;
    for (const QString& file : pdfFiles(s, "index", path)) {
        Result<QString> sha = TranscriptCache::fileHash(file);
        if (!sha.ok())
            fail("index", sha.error().message);
        Result<int> count = renderer("index").pageCount(file);
        if (!count.ok())
            fail("index", count.error().message);
        ReportFile r{file, *sha, {}, {}};
        for (int p = 1; p <= *count; ++p) {
            std::optional<QString> kept = cache.find(*sha, p, model);
            if (!kept)
                fail("index", QStringLiteral("%1: page %2 has no transcript by %3 yet "
                                             "(transcribe it first: report.remember)")
                                  .arg(file)
                                  .arg(p)
                                  .arg(model));
            r.pages.append(*kept);
        }
        r.company = detectCompany(r.pages);
        files.push_back(Value(pdl::Dict{{"file", Value(file.toStdString())},
                                        {"company", Value(r.company.toStdString())},
                                        {"pages", Value(int64_t(*count))}}));
        reports.push_back(std::move(r));
    }
    const std::vector<docs::ChunkPreset> presets(std::begin(docs::kChunkPresets),
                                                 std::end(docs::kChunkPresets));
    auto built = ReportIndex::build(reports, s.options.provider, embedding, s.cacheDir, presets);
    if (!built.ok())
        fail("index", built.error().message);
    pdl::Dict chunks;
    for (const auto& [preset, n] : (*built)->chunkCounts())
        chunks.set(QStringLiteral("%1/%2").arg(preset.size).arg(preset.overlap).toStdString(),
                   Value(int64_t(n)));
    pdl::List companies;
    for (const QString& c : (*built)->companies())
        companies.push_back(Value(c.toStdString()));
    {
        std::lock_guard lock(s.mutex);
        s.index = *built;
    }
    return Value(pdl::Dict{{"files", Value(std::move(files))},
                           {"companies", Value(std::move(companies))},
                           {"chunks", Value(std::move(chunks))},
                           {"embedded", Value(int64_t((*built)->embeddedChunks()))}});
}

std::shared_ptr<ReportIndex> currentIndex(Session& s, const char* fn)
{
    std::lock_guard lock(s.mutex);
    if (!s.index)
        fail(fn, QStringLiteral("no reports are indexed yet (call report.index first)"));
    return s.index;
}

Value context(Session& s, const CallArgs& a)
{
    const QStringList queries = textList("context", arg(a, 0, "queries"), "queries");
    const QStringList companies = textList("context", arg(a, 1, "companies"), "companies");
    const int k = int(number("context", arg(a, 2, "k"), "k", 30));
    const double threshold = number("context", arg(a, 3, "threshold"), "threshold", 0.3);
    auto chosen = currentIndex(s, "context")->context(queries, companies, k, threshold);
    if (!chosen.ok())
        fail("context", chosen.error().message);
    pdl::List out;
    for (const ContextChunk& c : *chosen) {
        out.push_back(
            Value(pdl::Dict{{"text", Value(c.chunk.text.toStdString())},
                            {"file", Value(QFileInfo(c.chunk.file).fileName().toStdString())},
                            {"page", Value(int64_t(c.chunk.page))},
                            {"company", Value(c.chunk.company.toStdString())},
                            {"score", Value(std::round(c.score * 1000) / 1000)},
                            {"chunking", Value(QStringLiteral("%1/%2")
                                                   .arg(c.chunking.size)
                                                   .arg(c.chunking.overlap)
                                                   .toStdString())}}));
    }
    return Value(std::move(out));
}

Value format(const CallArgs& a)
{
    const Value* v = arg(a, 0, "context");
    if (!v || !v->isList())
        fail("format", QStringLiteral("the argument must be the list report.context() gave"));
    std::string out;
    int n = 0;
    for (const Value& item : v->asList()) {
        if (!item.isDict())
            continue;
        const Dict& d = item.asDict();
        out += "[" + std::to_string(++n) + "] " + field(d, "company").toStdString() + " " +
               field(d, "file").toStdString() + " p." +
               (d.find("page") ? d.find("page")->str() : std::string("?")) + "\n" +
               field(d, "text").toStdString() + "\n\n";
    }
    return Value(out);
}

QString defaultCacheDir(const QString& baseDir)
{
    if (!baseDir.isEmpty())
        return QDir(baseDir).filePath(QStringLiteral(".hako"));
    return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation))
        .filePath(QStringLiteral("hako/reports"));
}

} // namespace

Value makeReportBindings(const ReportBindingOptions& options)
{
    auto s = std::make_shared<Session>();
    s->options = options;
    s->cacheDir = !options.cacheDir.isEmpty() ? options.cacheDir : defaultCacheDir(options.baseDir);
    auto fn = [](const char* name, auto body) {
        return Value(pdl::makeCallable(std::string("report.") + name, std::move(body)));
    };
    pdl::Dict report;
    report.set("pages", fn("pages", [s](const CallArgs& a) { return pages(*s, a); }));
    report.set("image", fn("image", [](const CallArgs& a) { return image(a); }));
    report.set("remember", fn("remember", [s](const CallArgs& a) { return remember(*s, a); }));
    report.set("index", fn("index", [s](const CallArgs& a) { return indexReports(*s, a); }));
    report.set("companies", fn("companies", [s](const CallArgs&) {
                   pdl::List out;
                   for (const QString& c : currentIndex(*s, "companies")->companies())
                       out.push_back(Value(c.toStdString()));
                   return Value(std::move(out));
               }));
    report.set("context", fn("context", [s](const CallArgs& a) { return context(*s, a); }));
    report.set("format", fn("format", [](const CallArgs& a) { return format(a); }));
    report.set(
        "company", fn("company", [](const CallArgs& a) {
            return Value(
                detectCompany(textList("company", arg(a, 0, "texts"), "texts")).toStdString());
        }));
    report.set("round", fn("round", [](const CallArgs& a) {
                   const QString answer = text("round", arg(a, 0, "answer"), "answer");
                   const QString question = text("round", arg(a, 1, "question"), "question");
                   return Value(roundAnswer(answer, question).toStdString());
               }));
    return Value(std::move(report));
}

} // namespace hako::reports
