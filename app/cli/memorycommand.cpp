#include "cli/memorycommand.h"
#include "cli/output.h"

#include "core/memory/hashembedding.h"
#include "core/memory/memoryexchange.h"
#include "core/memory/memorystore.h"
#include "core/models/modelrouter.h"
#include "core/util/outputfile.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <cstdio>
#include <memory>
#include <optional>

namespace hako {

using namespace hako::memory;

namespace {

const char* kUsage =
    "usage: hako memory --store FILE COMMAND [OPTIONS]\n"
    "commands:\n"
    "  add --text T [--kind K] [--importance N] [--created ISO-8601] [--agent A]\n"
    "      adds one memory (its embedding computed) and prints its id\n"
    "  list [--kind K] [--state active|archived|deleted] [--agent A] [--json]\n"
    "      id, kind, state, importance, created_at, text; one memory per line\n"
    "  retrieve --query TEXT [--mode seed|ga|recent] [-k N] [--weights a,b,c] [--decay D]\n"
    "           [--agent A] [--now ISO-8601] [--what-if] [--json]\n"
    "      prints the selected memories in prompt order as id<TAB>created_at<TAB>score<TAB>text;\n"
    "      --json prints every candidate with its components, rank and cut reason;\n"
    "      weights are recency, importance, relevance (ga mode); --what-if leaves the store as "
    "it is\n"
    "  import-ga DIR [--agent A] [--reembed]\n"
    "      imports a Generative Agents associative memory folder (nodes.json, embeddings.json,\n"
    "      kw_strength.json); its vectors are taken as --embedding-model's (default\n"
    "      text-embedding-ada-002) unless --reembed computes them anew\n"
    "  export [FILE]     the whole store as JSON (to standard output without FILE)\n"
    "  import FILE       adds the memories of an export\n"
    "      imports list on standard error whatever they changed or dropped (a clamped\n"
    "      importance, evidence pointing outside the import)\n"
    "options for every command:\n"
    "  --read-only   never write the store: list, export and retrieve --what-if work on a\n"
    "      store you may only read or one that fails SQLite's integrity check (a store you\n"
    "      cannot write is opened this way by itself)\n"
    "  --embedding-model NAME   the embedding model (default: the store's, else 'hash'),\n"
    "      named and connected as in `hako run` (OPENAI_BASE_URL, ollama/NAME, a\n"
    "      hako-models.yaml beside the store; see `hako models`).\n"
    "      'hash' is a built-in, model-free fallback (hashed words and trigrams): lexical, not\n"
    "      semantic, but deterministic and offline.\n";

int fail(const QString& message, int code = 1)
{
    writeText(stderr, QStringLiteral("hako memory: %1\n").arg(message));
    return code;
}

QString oneLine(QString text)
{
    return text.replace(QLatin1Char('\\'), QLatin1String("\\\\"))
        .replace(QLatin1Char('\n'), QLatin1String("\\n"))
        .replace(QLatin1Char('\t'), QLatin1String("\\t"));
}

// --name VALUE options and flags; the first bare word is the command, the rest positionals.
struct Args {
    QHash<QString, QString> values;
    QStringList flags;
    QString command;
    QStringList positional;
    QString error;

    QString value(const char* name) const { return values.value(QLatin1String(name)); }
    bool has(const char* name) const
    {
        return values.contains(QLatin1String(name)) || flags.contains(QLatin1String(name));
    }
};

Args parse(const QStringList& words)
{
    static const QStringList withValue = {
        QStringLiteral("--store"),   QStringLiteral("--text"),
        QStringLiteral("--kind"),    QStringLiteral("--importance"),
        QStringLiteral("--created"), QStringLiteral("--agent"),
        QStringLiteral("--state"),   QStringLiteral("--query"),
        QStringLiteral("--mode"),    QStringLiteral("-k"),
        QStringLiteral("--weights"), QStringLiteral("--decay"),
        QStringLiteral("--now"),     QStringLiteral("--embedding-model")};
    static const QStringList flags = {QStringLiteral("--json"),    QStringLiteral("--what-if"),
                                      QStringLiteral("--reembed"), QStringLiteral("--help"),
                                      QStringLiteral("-h"),        QStringLiteral("--read-only")};
    Args a;
    for (int i = 0; i < words.size(); ++i) {
        const QString& w = words.at(i);
        if (withValue.contains(w)) {
            if (i + 1 >= words.size()) {
                a.error = QStringLiteral("%1 needs a value").arg(w);
                return a;
            }
            a.values.insert(w, words.at(++i));
        } else if (flags.contains(w)) {
            a.flags.append(w);
        } else if (w.startsWith(QLatin1Char('-')) && w.size() > 1) {
            a.error = QStringLiteral("unknown option %1").arg(w);
            return a;
        } else if (a.command.isEmpty()) {
            a.command = w;
        } else {
            a.positional.append(w);
        }
    }
    return a;
}

QString embeddingModelFor(const Args& a, const MemoryStore& store, const QString& fallback)
{
    if (a.has("--embedding-model"))
        return a.value("--embedding-model");
    if (!store.embeddingModel().isEmpty())
        return store.embeddingModel();
    return fallback;
}

// The provider for `model`: the built-in hash model, or the model routing a run uses (the
// environment and hako-models.yaml beside the store).
Result<std::unique_ptr<models::IModelProvider>> providerFor(const QString& model,
                                                            const QString& storePath)
{
    std::shared_ptr<models::IModelProvider> routed;
    if (model != HashEmbeddingProvider::modelName()) {
        auto p = models::createDefaultProvider(QFileInfo(storePath).absolutePath());
        if (!p)
            return p.error();
        routed = std::move(p.value());
    }
    return std::unique_ptr<models::IModelProvider>(new HashFallbackProvider(std::move(routed)));
}

// Refuses another model than the store's before asking any provider.
Result<std::vector<float>> embedWith(const MemoryStore& store, const QString& model,
                                     const QString& text)
{
    if (!store.embeddingModel().isEmpty() && store.embeddingModel() != model)
        return makeError(QStringLiteral("embedding model '%1' refused: this store holds "
                                        "embeddings of '%2'")
                             .arg(model, store.embeddingModel()));
    auto p = providerFor(model, store.path());
    if (!p)
        return p.error();
    return embedOne(**p, model, text);
}

const ChangeContext kUser{Actor::User, QStringLiteral("hako memory"), {}, {}};

int addCmd(const Args& a, MemoryStore& store)
{
    if (!a.has("--text"))
        return fail(QStringLiteral("add needs --text"), 2);
    MemoryRecord r;
    r.text = a.value("--text");
    if (a.has("--agent"))
        r.agent = a.value("--agent");
    if (a.has("--kind")) {
        const auto k = kindFromName(a.value("--kind"));
        if (!k)
            return fail(QStringLiteral("unknown kind '%1' (observation, insight, reflection, chat, "
                                       "summary)")
                            .arg(a.value("--kind")),
                        2);
        r.kind = *k;
    }
    if (a.has("--importance")) {
        bool ok = false;
        r.importance = a.value("--importance").toInt(&ok);
        if (!ok || r.importance < 1 || r.importance > 10)
            return fail(QStringLiteral("--importance must be an integer from 1 to 10"), 2);
        r.importanceSource = ImportanceSource::Manual;
    }
    if (a.has("--created")) {
        const auto t = parseTime(a.value("--created"));
        if (!t)
            return fail(
                QStringLiteral("--created: not an ISO-8601 time: '%1'").arg(a.value("--created")),
                2);
        r.createdAt = *t;
    }
    r.embeddingModel = embeddingModelFor(a, store, HashEmbeddingProvider::modelName());
    auto v = embedWith(store, r.embeddingModel, r.text);
    if (!v)
        return fail(v.error().message);
    r.embedding = std::move(v.value());
    auto id = store.add(std::move(r), kUser);
    if (!id)
        return fail(id.error().message);
    writeText(stdout, QStringLiteral("%1\n").arg(*id));
    return 0;
}

int listCmd(const Args& a, MemoryStore& store)
{
    MemoryFilter f;
    f.agent = a.value("--agent");
    if (a.has("--kind")) {
        f.kind = kindFromName(a.value("--kind"));
        if (!f.kind)
            return fail(QStringLiteral("unknown kind '%1'").arg(a.value("--kind")), 2);
    }
    if (a.has("--state")) {
        f.state = stateFromName(a.value("--state"));
        if (!f.state)
            return fail(QStringLiteral("unknown state '%1'").arg(a.value("--state")), 2);
    }
    auto list = store.list(f);
    if (!list)
        return fail(list.error().message);
    if (a.has("--json")) {
        QJsonArray arr;
        for (const MemoryRecord& r : *list)
            arr.append(r.toJson());
        writeText(stdout, QString::fromUtf8(QJsonDocument(arr).toJson(QJsonDocument::Indented)));
        return 0;
    }
    for (const MemoryRecord& r : *list) {
        writeText(stdout, QStringLiteral("%1\t%2\t%3\t%4\t%5\t%6\n")
                              .arg(r.id)
                              .arg(kindName(r.kind), stateName(r.state))
                              .arg(r.importance)
                              .arg(formatTime(r.createdAt), oneLine(r.text)));
    }
    return 0;
}

int retrieveCmd(const Args& a, MemoryStore& store)
{
    RetrievalParams p;
    if (a.has("--mode")) {
        const auto m = modeFromName(a.value("--mode"));
        if (!m)
            return fail(
                QStringLiteral("unknown mode '%1' (seed, ga, recent)").arg(a.value("--mode")), 2);
        p.mode = *m;
    }
    p.k = RetrievalParams::defaultK(p.mode);
    if (a.has("-k")) {
        bool ok = false;
        p.k = a.value("-k").toInt(&ok);
        if (!ok || p.k < 0)
            return fail(QStringLiteral("-k must be a non-negative integer"), 2);
    }
    if (a.has("--weights")) {
        const QStringList w = a.value("--weights").split(QLatin1Char(','));
        bool good = w.size() == 3;
        for (int i = 0; good && i < 3; ++i)
            p.weights[size_t(i)] = w.at(i).trimmed().toDouble(&good);
        if (!good)
            return fail(
                QStringLiteral("--weights needs three numbers: recency,importance,relevance"), 2);
    }
    if (a.has("--decay")) {
        bool ok = false;
        p.decay = a.value("--decay").toDouble(&ok);
        if (!ok || p.decay <= 0 || p.decay > 1)
            return fail(QStringLiteral("--decay must be a number in (0, 1]"), 2);
    }
    if (a.has("--now")) {
        const auto t = parseTime(a.value("--now"));
        if (!t)
            return fail(QStringLiteral("--now: not an ISO-8601 time"), 2);
        p.now = *t;
    }
    p.agent = a.value("--agent");
    p.whatIf = a.has("--what-if");
    const QString query = a.value("--query");
    if (p.mode != RetrievalMode::Recent && !a.has("--query"))
        return fail(QStringLiteral("retrieve needs --query (except in recent mode)"), 2);
    std::vector<float> q;
    QString model;
    if (p.mode != RetrievalMode::Recent && store.embeddingDimension() > 0) {
        model = embeddingModelFor(a, store, HashEmbeddingProvider::modelName());
        auto v = embedWith(store, model, query);
        if (!v)
            return fail(v.error().message);
        q = std::move(v.value());
    }
    auto rec = store.retrieve(query, q, model, p, kUser);
    if (!rec)
        return fail(rec.error().message);
    const RetrievalResult& res = rec->result;
    if (a.has("--json")) {
        QJsonObject o;
        if (rec->seq)
            o[QStringLiteral("retrieval")] = qint64(rec->seq);
        o[QStringLiteral("query")] = query;
        o[QStringLiteral("params")] = res.params.toJson();
        o[QStringLiteral("approximate")] = res.approximate;
        QJsonArray order;
        for (int64_t id : res.promptOrder)
            order.append(qint64(id));
        o[QStringLiteral("prompt_order")] = order;
        QJsonArray cands;
        for (const Candidate& c : res.candidates) {
            QJsonObject j = candidateToJson(c, res.params);
            if (c.selected()) {
                if (auto r = store.get(c.input.id))
                    j[QStringLiteral("text")] = r->text;
            }
            cands.append(j);
        }
        o[QStringLiteral("candidates")] = cands;
        writeText(stdout, QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented)));
        return 0;
    }
    for (int64_t id : res.promptOrder) {
        auto r = store.get(id);
        if (!r)
            return fail(r.error().message);
        writeText(stdout, QStringLiteral("%1\t%2\t%3\t%4\n")
                              .arg(id)
                              .arg(formatTime(r->createdAt))
                              .arg(double(res.find(id)->score), 0, 'f', 4)
                              .arg(oneLine(r->text)));
    }
    return 0;
}

// What an import changed or dropped, so that nothing is altered silently.
void reportChanges(const ImportReport& report)
{
    for (const QString& change : report.changes)
        std::fputs(QStringLiteral("hako memory: note: %1\n").arg(change).toUtf8().constData(),
                   stderr);
}

QString changedSuffix(const ImportReport& report)
{
    return report.changes.isEmpty()
               ? QString()
               : QStringLiteral("; %1 change(s) listed above").arg(report.changes.size());
}

int importGaCmd(const Args& a, MemoryStore& store)
{
    if (a.positional.size() != 1)
        return fail(QStringLiteral("import-ga needs the folder (nodes.json, embeddings.json, "
                                   "kw_strength.json)"),
                    2);
    GaImportOptions o;
    if (a.has("--agent"))
        o.agent = a.value("--agent");
    if (a.has("--embedding-model"))
        o.embeddingModel = a.value("--embedding-model");
    o.reembed = a.has("--reembed");
    std::unique_ptr<models::IModelProvider> provider;
    if (o.reembed) {
        auto p = providerFor(o.embeddingModel, store.path());
        if (!p)
            return fail(p.error().message);
        provider = std::move(p.value());
        o.provider = provider.get();
    }
    ChangeContext ctx = kUser;
    ctx.reason = QStringLiteral("import-ga %1").arg(a.positional.first());
    auto r = importGenerativeAgents(store, a.positional.first(), o, ctx);
    if (!r)
        return fail(r.error().message);
    reportChanges(*r);
    writeText(stdout,
              QStringLiteral("imported %1 memories (%2 observations, %3 chats, %4 reflections; %5 "
                             "keyword strengths read%6)\n")
                  .arg(r->memories)
                  .arg(r->observations)
                  .arg(r->chats)
                  .arg(r->reflections)
                  .arg(r->keywords)
                  .arg(changedSuffix(*r)));
    return 0;
}

int exportCmd(const Args& a, MemoryStore& store)
{
    auto doc = exportStore(store);
    if (!doc)
        return fail(doc.error().message);
    const QByteArray json = QJsonDocument(*doc).toJson(QJsonDocument::Indented);
    if (a.positional.isEmpty()) {
        writeText(stdout, std::string_view(json.constData(), size_t(json.size())));
        return 0;
    }
    QString error;
    if (!writeOutputFile(a.positional.first(), json, &error))
        return fail(QStringLiteral("cannot write %1: %2").arg(a.positional.first(), error));
    return 0;
}

int importCmd(const Args& a, MemoryStore& store)
{
    if (a.positional.size() != 1)
        return fail(QStringLiteral("import needs the export file"), 2);
    QFile f(a.positional.first());
    if (!f.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot read %1: %2").arg(f.fileName(), f.errorString()));
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &err);
    if (!doc.isObject())
        return fail(
            QStringLiteral("%1: not a JSON object (%2)").arg(f.fileName(), err.errorString()));
    ChangeContext ctx = kUser;
    ctx.reason = QStringLiteral("import %1").arg(f.fileName());
    auto r = importStore(store, doc.object(), ctx);
    if (!r)
        return fail(QStringLiteral("%1: %2").arg(f.fileName(), r.error().message));
    reportChanges(*r);
    writeText(stdout,
              QStringLiteral("imported %1 memories%2\n").arg(r->memories).arg(changedSuffix(*r)));
    return 0;
}

} // namespace

int memoryCommand(const QStringList& args)
{
    const Args a = parse(args);
    if (a.has("--help") || a.has("-h")) {
        writeText(stdout, QString::fromLatin1(kUsage));
        return 0;
    }
    if (!a.error.isEmpty())
        return fail(a.error + QLatin1Char('\n') + QString::fromLatin1(kUsage).trimmed(), 2);
    if (!a.has("--store") || a.command.isEmpty())
        return fail(QString::fromLatin1(kUsage).trimmed(), 2);
    static const QStringList commands = {QStringLiteral("add"),      QStringLiteral("list"),
                                         QStringLiteral("retrieve"), QStringLiteral("import-ga"),
                                         QStringLiteral("export"),   QStringLiteral("import")};
    if (!commands.contains(a.command))
        return fail(QStringLiteral("unknown command '%1' (add, list, retrieve, import-ga, export, "
                                   "import)")
                        .arg(a.command),
                    2);
    StoreOptions options;
    options.readOnly = a.has("--read-only");
    auto store = MemoryStore::open(a.value("--store"), options);
    if (!store) {
        QString message = store.error().message;
        if (message.contains(QLatin1String("quick check")))
            message += QStringLiteral("\nhint: hako memory --store %1 --read-only export FILE, "
                                      "then hako memory --store NEW-FILE import FILE")
                           .arg(a.value("--store"));
        return fail(message);
    }
    MemoryStore& s = **store;
    if (!s.integrityProblem().isEmpty())
        fail(QStringLiteral("warning: %1 is damaged (SQLite's quick check: %2); showing what "
                            "can be read")
                 .arg(s.path(), s.integrityProblem()));
    static const QStringList writing = {QStringLiteral("add"), QStringLiteral("import-ga"),
                                        QStringLiteral("import")};
    if (s.isReadOnly() && (writing.contains(a.command) ||
                           (a.command == QLatin1String("retrieve") && !a.has("--what-if"))))
        return fail(
            QStringLiteral("%1 is open read-only%2: '%3' would change it%4")
                .arg(s.path(),
                     options.readOnly ? QString() : QStringLiteral(" (you may not write it)"),
                     a.command,
                     a.command == QLatin1String("retrieve") ? QStringLiteral(" (add --what-if)")
                                                            : QString()));
    if (a.command == QLatin1String("add"))
        return addCmd(a, s);
    if (a.command == QLatin1String("list"))
        return listCmd(a, s);
    if (a.command == QLatin1String("retrieve"))
        return retrieveCmd(a, s);
    if (a.command == QLatin1String("import-ga"))
        return importGaCmd(a, s);
    if (a.command == QLatin1String("export"))
        return exportCmd(a, s);
    return importCmd(a, s);
}

} // namespace hako
