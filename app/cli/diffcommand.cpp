#include "cli/diffcommand.h"
#include "cli/optionparser.h"
#include "cli/output.h"

#include "core/otel/otlpfile.h"
#include "core/pdl/trace/tracediff.h"
#include "core/pdl/trace/traceloader.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QtConcurrent>

#include <cstdio>
#include <cstdlib>
#include <new>

namespace hako {

namespace {

const char* kUsage =
    "usage: hako diff [--json] TRACE_A TRACE_B\n"
    "  Compares two traces (two runs of a program, a fork and its original, two OpenTelemetry\n"
    "  traces): Hako's or the reference's trace JSON, or OTLP JSON/protobuf.\n"
    "  The trees are aligned block by block, so an inserted or deleted block shows as such.\n"
    "  Prints one line per changed (~), inserted (+) or deleted (-) block with its id, name and\n"
    "  source line, the word diff of a changed result as [-old-]{+new+}, the prompt messages\n"
    "  that differ, then a summary with the duration, token and cost deltas. Timings, tokens\n"
    "  and cost never count as a difference.\n"
    "options:\n"
    "  --json   print a JSON document instead: same, summary, differences\n"
    "exit status: 0 the runs are the same (timings aside), 1 they differ, 2 an error (also\n"
    "  when nothing was found to differ but blocks below 2,000 levels, or values nested\n"
    "  too deeply, could not be compared)\n";

int fail(const QString& message)
{
    writeText(stderr, QStringLiteral("hako diff: %1\n").arg(message));
    return 2;
}

Result<pdl::TracePtr> readTraceOrFail(const QString& path)
{
    Result<pdl::TraceLoadResult> loaded = pdl::readTraceFile(path);
    if (!loaded)
        return loaded.error();
    if (loaded->partial) // half a trace would show as a run that stopped early
        return loaded->problem;
    if (!loaded->root)
        return makeError(QStringLiteral("%1 holds no trace").arg(path));
    return std::move(loaded->root);
}

QString outOfMemory(const QString& what)
{
    return QStringLiteral("out of memory %1 (the two traces must fit in memory together; "
                          "compare smaller traces or free memory)")
        .arg(what);
}

// Memory can run out where no error can be returned (inside the JSON reader's destructors,
// which allocate): the process then ends with a message and exit status 2 instead of
// std::terminate's abort. Nothing is allocated on the way out.
void outOfMemoryExit()
{
    static const char message[] =
        "hako diff: out of memory reading or comparing the traces (the two must fit in memory "
        "together; compare smaller traces or free memory)\n";
    std::fputs(message, stderr); // stderr is unbuffered: nothing is allocated
    std::_Exit(2);
}

// Running out of memory is an error that says so, never an abort.
Result<pdl::TracePtr> readTrace(const QString& path)
{
    try {
        return readTraceOrFail(path);
    } catch (const std::bad_alloc&) {
        return makeError(outOfMemory(QStringLiteral("reading %1").arg(path)));
    }
}

// The comparison and its report: what is printed, and the exit status.
int compareAndReport(pdl::TracePtr a, pdl::TracePtr b, const QStringList& files, bool json)
{
    const pdl::TraceDiff diff = pdl::TraceDiff::compare(std::move(a), std::move(b));
    const QString text =
        json ? QString::fromUtf8(
                   QJsonDocument(diff.toJson(files[0], files[1])).toJson(QJsonDocument::Indented))
             : diff.report(files[0], files[1]);
    writeText(stdout, text);
    if (diff.isUndetermined()) {
        // Nothing found to differ, but not everything could be compared: neither answer.
        writeText(stderr, QStringLiteral("hako diff: %1 block(s) hold blocks or values nested too "
                                         "deeply to compare; the traces are not known to be the "
                                         "same\n")
                              .arg(diff.counts().notCompared));
        return 2;
    }
    return diff.isSame() ? 0 : 1;
}

} // namespace

int diffCommand(const QStringList& args)
{
    bool json = false;
    QStringList files;
    OptionParser parser;
    parser.addFlag({QStringLiteral("--json")}, [&json] { json = true; });
    parser.setPositional([&files](const QString& path) {
        files.append(path);
        return QString();
    });
    const OptionParser::Parsed parsed = parser.parse(args);
    if (std::optional<int> exit = OptionParser::finish(parsed, QStringLiteral("hako diff"), kUsage))
        return *exit;
    if (files.size() != 2) {
        writeText(stderr, QString::fromLatin1(kUsage));
        return 2;
    }
    std::set_new_handler(outOfMemoryExit);
    otel::registerOtlpTraceFormat();
    // Small files are read side by side (each is a parse of its own). Large ones one after
    // the other: reading holds a file's bytes and the parser's index besides its tree, and
    // two of those at once would double the peak for little gain in time.
    constexpr qint64 kSideBySide = 64LL << 20;
    const bool sideBySide =
        QFileInfo(files[0]).size() < kSideBySide && QFileInfo(files[1]).size() < kSideBySide;
    QFuture<Result<pdl::TracePtr>> second;
    if (sideBySide)
        second = QtConcurrent::run(readTrace, files[1]);
    Result<pdl::TracePtr> a = readTrace(files[0]);
    Result<pdl::TracePtr> b = sideBySide ? second.result() : readTrace(files[1]);
    if (!a)
        return fail(a.error().message);
    if (!b)
        return fail(b.error().message);
    try {
        return compareAndReport(std::move(*a), std::move(*b), files, json);
    } catch (const std::bad_alloc&) {
        return fail(outOfMemory(QStringLiteral("comparing the traces")));
    }
}

} // namespace hako
