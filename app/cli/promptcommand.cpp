#include "cli/promptcommand.h"
#include "cli/optionparser.h"
#include "cli/output.h"

#include "core/library/librarysync.h"
#include "core/library/promptlibrary.h"
#include "core/library/promptrender.h"
#include "core/pdl/parser/yamlvalue.h"
#include "core/pdl/valuejson.h"
#include "core/util/worddiff.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace hako {

namespace {

const char* kUsage =
    "usage: hako prompt COMMAND [OPTIONS]\n"
    "  The prompt library: a folder that is a git repository of PDL programs. A prompt is a\n"
    "  committed program; its versions are the commits of its file; labels (production,\n"
    "  staging, any name) point at versions. Only saved versions are ever given out.\n"
    "commands:\n"
    "  list                          the prompts, their newest version and labels\n"
    "  history NAME                  the versions of NAME (newest first) and its label moves\n"
    "  diff NAME A [B]               a word diff of two versions (B: the newest)\n"
    "  label NAME LABEL [VERSION]    puts LABEL on a version (default: the newest)\n"
    "  get NAME[@LABEL|@VERSION]     prints the program at that version\n"
    "      --render                  prints the messages it would send instead\n"
    "      -d YAML                   the input variables for --render\n"
    "  save FILE [-m MESSAGE]        saves FILE (inside the library) as a new version\n"
    "  init [DIR]                    makes DIR (default: the library folder) a library\n"
    "  sync [--remote URL]           shares the library with the team's git server: brings\n"
    "                                their versions, sends yours, joins label moves; a prompt\n"
    "                                changed on both sides stops the sync (exit 3) unless\n"
    "      --keep-mine|--take-theirs says which text to keep (both stay in the history)\n"
    "NAME is a prompt's name, its id, its path or its file's base name; VERSION a number from\n"
    "history (3 or v3) or a commit id.\n"
    "options:\n"
    "  --library DIR   the library (default: HAKO_LIBRARY, else the one the workbench opened\n"
    "                  last, else the current folder)\n"
    "  --json          machine-readable output\n";

struct Options {
    QString library;
    QString remote;
    library::ConflictChoice choice = library::ConflictChoice::Stop;
    bool json = false;
    bool render = false;
    QString data;
    QString message;
    QStringList words;
};

int fail(const QString& message, int code = 1)
{
    writeText(stderr, QStringLiteral("hako prompt: %1\n").arg(message));
    return code;
}

void printJson(const QJsonValue& v)
{
    const QJsonDocument doc =
        v.isArray() ? QJsonDocument(v.toArray()) : QJsonDocument(v.toObject());
    writeText(stdout, QString::fromUtf8(doc.toJson(QJsonDocument::Indented)));
}

QString when(qint64 secs)
{
    return QDateTime::fromSecsSinceEpoch(secs).toString(QStringLiteral("yyyy-MM-dd HH:mm"));
}

QJsonObject versionJson(const library::PromptVersion& v)
{
    return {{QStringLiteral("version"), v.number},
            {QStringLiteral("commit"), v.commit},
            {QStringLiteral("author"), v.author},
            {QStringLiteral("time"),
             QDateTime::fromSecsSinceEpoch(v.time, Qt::UTC).toString(Qt::ISODate)},
            {QStringLiteral("message"), v.message},
            {QStringLiteral("path"), v.path}};
}

int listCmd(const library::PromptLibrary& lib, const Options& o)
{
    Result<QList<library::LibraryPrompt>> prompts = lib.prompts();
    if (!prompts)
        return fail(prompts.error().message);
    QJsonArray out;
    for (const library::LibraryPrompt& p : *prompts) {
        Result<QList<library::PromptVersion>> h = lib.history(p);
        const QMap<QString, QString> labels = lib.labels(p);
        QJsonObject labelsJson;
        QStringList labelText;
        for (auto it = labels.begin(); it != labels.end(); ++it) {
            int number = 0;
            if (h)
                for (const library::PromptVersion& v : *h)
                    if (v.commit == it.value())
                        number = v.number;
            labelsJson.insert(it.key(), number);
            labelText << QStringLiteral("%1=v%2").arg(it.key()).arg(number);
        }
        const int newest = h && !h->isEmpty() ? h->first().number : 0;
        if (o.json) {
            out.append(QJsonObject{{QStringLiteral("name"), p.name},
                                   {QStringLiteral("id"), p.id},
                                   {QStringLiteral("path"), p.path},
                                   {QStringLiteral("versions"), newest},
                                   {QStringLiteral("labels"), labelsJson}});
        } else {
            writeText(stdout, QStringLiteral("%1\t%2\tv%3\t%4\n")
                                  .arg(p.name, p.path)
                                  .arg(newest)
                                  .arg(labelText.join(QLatin1Char(' '))));
        }
    }
    if (o.json)
        printJson(out);
    return 0;
}

int historyCmd(const library::PromptLibrary& lib, const Options& o)
{
    Result<library::LibraryPrompt> p = lib.find(o.words.value(0));
    if (!p)
        return fail(p.error().message);
    Result<QList<library::PromptVersion>> h = lib.history(*p);
    if (!h)
        return fail(h.error().message);
    const QList<library::LabelEvent> moves = lib.labelHistory(*p);
    auto numberOf = [&h](const QString& commit) {
        for (const library::PromptVersion& v : *h)
            if (v.commit == commit)
                return v.number;
        return 0;
    };
    if (o.json) {
        QJsonArray versions, labels;
        for (const library::PromptVersion& v : *h)
            versions.append(versionJson(v));
        for (const library::LabelEvent& e : moves)
            labels.append(QJsonObject{{QStringLiteral("label"), e.label},
                                      {QStringLiteral("version"), numberOf(e.commit)},
                                      {QStringLiteral("commit"), e.commit},
                                      {QStringLiteral("by"), e.by},
                                      {QStringLiteral("at"), double(e.time)}});
        printJson(QJsonObject{{QStringLiteral("name"), p->name},
                              {QStringLiteral("id"), p->id},
                              {QStringLiteral("versions"), versions},
                              {QStringLiteral("labels"), labels}});
        return 0;
    }
    const QMap<QString, QString> labels = lib.labels(*p);
    for (const library::PromptVersion& v : *h) {
        QStringList here;
        for (auto it = labels.begin(); it != labels.end(); ++it)
            if (it.value() == v.commit)
                here << it.key();
        writeText(stdout, QStringLiteral("v%1  %2  %3  %4  %5%6\n")
                              .arg(v.number)
                              .arg(v.commit.left(10), when(v.time), v.author, v.message,
                                   here.isEmpty() ? QString()
                                                  : QStringLiteral("  [%1]").arg(
                                                        here.join(QStringLiteral(", ")))));
    }
    for (const library::LabelEvent& e : moves)
        writeText(stdout, QStringLiteral("label %1 -> v%2  %3  %4\n")
                              .arg(e.label)
                              .arg(numberOf(e.commit))
                              .arg(when(e.time), e.by));
    return 0;
}

int diffCmd(const library::PromptLibrary& lib, const Options& o)
{
    if (o.words.size() < 2)
        return fail(QStringLiteral("diff needs a prompt and a version"), 2);
    const QString name = o.words[0];
    Result<library::ResolvedPrompt> a = lib.get(name + QLatin1Char('@') + o.words[1]);
    if (!a)
        return fail(a.error().message);
    Result<library::ResolvedPrompt> b =
        lib.get(o.words.size() > 2 ? name + QLatin1Char('@') + o.words[2] : name);
    if (!b)
        return fail(b.error().message);
    const auto segments = wordDiff(QString::fromUtf8(a->text), QString::fromUtf8(b->text));
    if (o.json) {
        QJsonArray parts;
        for (const WordDiffSegment& s : segments)
            parts.append(QJsonObject{
                {QStringLiteral("op"), s.op == WordDiffSegment::Op::Equal    ? "equal"
                                       : s.op == WordDiffSegment::Op::Insert ? "insert"
                                                                             : "delete"},
                {QStringLiteral("text"), s.text}});
        printJson(QJsonObject{{QStringLiteral("from"), a->version.number},
                              {QStringLiteral("to"), b->version.number},
                              {QStringLiteral("diff"), parts}});
        return 0;
    }
    writeText(stdout, QStringLiteral("--- %1 v%2\n+++ %1 v%3\n")
                          .arg(a->prompt.name)
                          .arg(a->version.number)
                          .arg(b->version.number));
    const QString out = formatWordDiff(segments);
    writeText(stdout, out.endsWith(QLatin1Char('\n')) ? out : out + QLatin1Char('\n'));
    return 0;
}

int labelCmd(const library::PromptLibrary& lib, const Options& o)
{
    if (o.words.size() < 2)
        return fail(QStringLiteral("label needs a prompt and a label"), 2);
    Result<library::LibraryPrompt> p = lib.find(o.words[0]);
    if (!p)
        return fail(p.error().message);
    Result<library::PromptVersion> v = lib.setLabel(*p, o.words[1], o.words.value(2));
    if (!v)
        return fail(v.error().message);
    writeText(stdout, QStringLiteral("%1: %2 is now version %3 (%4)\n")
                          .arg(p->name, o.words[1])
                          .arg(v->number)
                          .arg(v->commit.left(10)));
    return 0;
}

Result<QJsonObject> dataObject(const QString& data)
{
    if (data.isEmpty())
        return QJsonObject();
    Result<pdl::YamlValue> yaml = pdl::loadYaml(data.toUtf8(), QStringLiteral("-d"));
    if (!yaml)
        return yaml.error();
    const pdl::Value value = yaml->toValue();
    if (!value.isDict())
        return makeError(QStringLiteral("-d must be a mapping of variable names to values"));
    return pdl::toQJsonObject(value);
}

int getCmd(const library::PromptLibrary& lib, const Options& o)
{
    if (o.words.isEmpty())
        return fail(QStringLiteral("get needs a prompt (NAME, NAME@LABEL or NAME@VERSION)"), 2);
    Result<library::ResolvedPrompt> r = lib.get(o.words[0]);
    if (!r)
        return fail(r.error().message);
    QJsonArray messages;
    if (o.render) {
        Result<QJsonObject> vars = dataObject(o.data);
        if (!vars)
            return fail(vars.error().message, 2);
        Result<QJsonArray> rendered = library::renderPromptMessages(
            r->text, QDir(lib.root()).filePath(r->version.path), *vars);
        if (!rendered)
            return fail(rendered.error().toString());
        messages = *rendered;
    }
    if (o.json) {
        QJsonObject out{{QStringLiteral("name"), r->prompt.name},
                        {QStringLiteral("id"), r->prompt.id},
                        {QStringLiteral("path"), r->version.path},
                        {QStringLiteral("version"), versionJson(r->version)},
                        {QStringLiteral("label"), r->label},
                        {QStringLiteral("program"), QString::fromUtf8(r->text)}};
        if (o.render)
            out.insert(QStringLiteral("calls"), messages);
        printJson(out);
        return 0;
    }
    if (!o.render) {
        writeText(stdout, QString::fromUtf8(r->text));
        return 0;
    }
    for (const QJsonValue& call : messages)
        for (const QJsonValue& m : call.toObject().value(QLatin1String("messages")).toArray()) {
            const QJsonObject msg = m.toObject();
            const QJsonValue content = msg.value(QLatin1String("content"));
            writeText(stdout,
                      QStringLiteral("[%1]\n%2\n\n")
                          .arg(msg.value(QLatin1String("role")).toString(),
                               content.isString()
                                   ? content.toString()
                                   : QString::fromUtf8(QJsonDocument(content.toArray())
                                                           .toJson(QJsonDocument::Compact))));
        }
    return 0;
}

int syncCmd(const library::PromptLibrary& lib, const Options& o)
{
    const library::LibrarySync sync(lib);
    if (!o.remote.isEmpty())
        if (Result<bool> set = sync.setRemote(o.remote); !set)
            return fail(set.error().message);
    Result<library::SyncOutcome> done = sync.sync(o.choice);
    if (!done)
        return fail(done.error().message);
    if (done->stopped()) {
        writeText(stderr, QStringLiteral("hako prompt: changed both here and in the team library "
                                         "since the last sync: %1\nnothing was changed; sync "
                                         "again with --keep-mine or --take-theirs (both versions "
                                         "stay in the history)\n")
                              .arg(done->conflicts.join(QStringLiteral(", "))));
        return 3;
    }
    writeText(stdout,
              QStringLiteral("received %1 version(s), sent %2%3\n")
                  .arg(done->received)
                  .arg(done->sent)
                  .arg(done->labelsMerged ? QStringLiteral("; label moves of both sides kept")
                                          : QString()));
    return 0;
}

} // namespace

int promptCommand(const QStringList& args)
{
    Options o;
    OptionParser parser;
    parser.addOption({QStringLiteral("--library")}, [&o](const QString& v) {
        o.library = v;
        return QString();
    });
    parser.addFlag({QStringLiteral("--json")}, [&o] { o.json = true; });
    parser.addOption({QStringLiteral("--remote")}, [&o](const QString& v) {
        o.remote = v;
        return QString();
    });
    parser.addFlag({QStringLiteral("--keep-mine")},
                   [&o] { o.choice = library::ConflictChoice::KeepMine; });
    parser.addFlag({QStringLiteral("--take-theirs")},
                   [&o] { o.choice = library::ConflictChoice::TakeTheirs; });
    parser.addFlag({QStringLiteral("--render")}, [&o] { o.render = true; });
    parser.addOption({QStringLiteral("-d"), QStringLiteral("--data")}, [&o](const QString& v) {
        o.data = v;
        return QString();
    });
    parser.addOption({QStringLiteral("-m"), QStringLiteral("--message")}, [&o](const QString& v) {
        o.message = v;
        return QString();
    });
    parser.setPositional([&o](const QString& w) {
        o.words << w;
        return QString();
    });
    const OptionParser::Parsed parsed = parser.parse(args);
    if (std::optional<int> exit =
            OptionParser::finish(parsed, QStringLiteral("hako prompt"), kUsage))
        return *exit;
    if (o.words.isEmpty())
        return fail(
            QStringLiteral("which command? (list, history, diff, label, get, save, init, sync)"),
            2);
    const QString command = o.words.takeFirst();
    const QString folder =
        o.library.isEmpty() ? library::PromptLibrary::defaultFolder() : o.library;
    if (command == QLatin1String("init")) {
        Result<library::PromptLibrary> made =
            library::PromptLibrary::create(o.words.value(0, folder));
        if (!made)
            return fail(made.error().message);
        writeText(stdout, QStringLiteral("prompt library: %1\n").arg(made->root()));
        return 0;
    }
    Result<library::PromptLibrary> lib = library::PromptLibrary::open(
        command == QLatin1String("save") && !o.words.isEmpty() && o.library.isEmpty()
            ? QFileInfo(o.words.first()).absolutePath()
            : folder);
    if (!lib)
        return fail(lib.error().message, 2);
    if (command == QLatin1String("list"))
        return listCmd(*lib, o);
    if (command == QLatin1String("history"))
        return historyCmd(*lib, o);
    if (command == QLatin1String("diff"))
        return diffCmd(*lib, o);
    if (command == QLatin1String("label"))
        return labelCmd(*lib, o);
    if (command == QLatin1String("get"))
        return getCmd(*lib, o);
    if (command == QLatin1String("sync"))
        return syncCmd(*lib, o);
    if (command == QLatin1String("save")) {
        if (o.words.isEmpty())
            return fail(QStringLiteral("save needs a file"), 2);
        Result<QString> commit = lib->saveVersion(o.words.first(), o.message);
        if (!commit)
            return fail(commit.error().message);
        writeText(stdout,
                  QStringLiteral("saved %1 as %2\n").arg(o.words.first(), commit->left(10)));
        return 0;
    }
    return fail(
        QStringLiteral("unknown command '%1' (list, history, diff, label, get, save, init, sync)")
            .arg(command),
        2);
}

} // namespace hako
