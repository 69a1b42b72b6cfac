// Leaf blocks that reach outside the program: read, include, import, code, args, model.
#include "core/pdl/interp/aggregator_p.h"
#include "core/pdl/interp/pdlfunction_p.h"
#include "core/pdl/interp/runner_p.h"
#include "core/pdl/parser/programparser.h"
#include "core/pdl/parser/referencelines.h"
#include "core/pdl/programcheck.h"

#include "core/util/boundedfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cctype>
#include <iostream>

namespace hako::pdl {

namespace {

QString resolvePath(const State& st, const std::string& path)
{
    QString p = QString::fromStdString(path);
    if (QFileInfo(p).isAbsolute() || !st.program)
        return p;
    return QDir(st.program->dir).filePath(p);
}

std::optional<std::string> readStdin(const std::string& prompt, bool multiline, Runner& r)
{
    if (!prompt.empty())
        r.write(prompt);
    std::string out;
    if (multiline) {
        std::string line;
        bool any = false;
        while (std::getline(std::cin, line)) {
            out += line;
            out += '\n';
            any = true;
        }
        if (!any && std::cin.eof())
            return out;
        return out;
    }
    // Python's input() on Linux strips the "\n" only: a "\r" before it stays in the text.
    if (!std::getline(std::cin, out))
        return std::nullopt;
    return out;
}

// Includes and imports nest like calls: a file that includes itself (directly or through
// others) stops at the call limit instead of recursing forever.
void checkNesting(const State& st, const RunOptions& options, const std::string& what,
                  const QString& file, const SourceSpan& span)
{
    if (st.callDepth >= options.maxCallDepth)
        throw PdlError(what + " of " + file.toStdString() + " nested deeper than " +
                           std::to_string(options.maxCallDepth) +
                           " calls and includes (does it include itself?)",
                       span);
}

} // namespace

void Runner::writeRetryNotice(const Block& b, const State& st, int64_t attempt, int64_t tries,
                              const std::string& message)
{
    // process_advance_block_retry (pdl_interpreter.py) prints the retried block's location,
    // not the failing one's, and the error's details. Its colour codes are left out: the
    // notice also goes to log files and the workbench's Console.
    int line = b.span.line;
    if (st.program && st.program->program)
        line = referenceErrorLine(*st.program->program,
                                  st.program->lines.join(QLatin1Char('\n')).toUtf8(), b.span);
    const std::string where = b.span.isValid() ? QFileInfo(b.span.file).fileName().toStdString() +
                                                     ":" + std::to_string(line) + " - "
                                               : std::string();
    write("\n[Retry " + std::to_string(attempt) + "/" + std::to_string(tries) + "] " + where +
              "An error occurred in a PDL block. Error details: " + message + "\n\n",
          true);
}

Value Runner::execRead(const ReadBlock& b, State& st, TraceNode* node)
{
    Value target = b.read ? eval(b.read, st, node, "read") : Value();
    if (target.isNull()) {
        std::string prompt = b.message     ? *b.message
                             : b.multiline ? "Enter/Paste your content. Ctrl-D to save it."
                                           : "How can I help you?: ";
        // The reference prints a multiline prompt with print() (its own line, even when
        // empty) and a one-line prompt with input() (process_input, pdl_interpreter.py).
        if (b.multiline)
            prompt += '\n';
        std::optional<std::string> text;
        if (options.readInput) {
            if (!prompt.empty())
                write(prompt);
            text = options.readInput(prompt, b.multiline);
        } else {
            text = readStdin(prompt, b.multiline, *this);
        }
        if (!text)
            throw PdlError("end of input while reading from stdin", b.span);
        return Value(std::move(*text));
    }
    if (!target.isString())
        throw PdlError("read needs a file name, got " + std::string(target.typeName()),
                       b.read.span);
    const QString path = resolvePath(st, target.asString());
    if (!QFileInfo::exists(path))
        throw PdlError("read: file not found: " + QFileInfo(path).absoluteFilePath().toStdString(),
                       b.read.span);
    Result<QByteArray> read = readBoundedFile(path);
    if (!read)
        throw PdlError("read: " + read.error().message.toStdString(), b.read.span);
    const QByteArray& data = *read;
    QString text = QString::fromUtf8(data);
    if (text.contains(QChar::ReplacementCharacter) && !data.contains("\xEF\xBF\xBD"))
        throw PdlError(QFileInfo(path).absoluteFilePath().toStdString() + " is not UTF-8 text",
                       b.read.span);
    return Value(data.toStdString());
}

Value Runner::execInclude(const IncludeBlock& b, State& st, const std::string& id, TraceNode* node)
{
    const QString file = resolvePath(st, b.include);
    checkNesting(st, options, "include", file, b.fieldSpan("include"));
    const ProgramInfo* info = loadProgram(file, b.fieldSpan("include"), "include");
    const ProgramInfo* saved = st.program;
    st.program = info;
    ++st.callDepth;
    TracePtr cn;
    try {
        Value v = exec(info->program->root, st, childPrefix(id, "."), node ? &cn : nullptr);
        --st.callDepth;
        st.program = saved;
        if (node)
            node->addChild("pdl__trace", cn, true);
        return v;
    } catch (...) {
        --st.callDepth;
        st.program = saved;
        if (node && cn)
            node->addChild("pdl__trace", cn, true);
        throw;
    }
}

Value Runner::execImport(const ImportBlock& b, State& st, const std::string& id, TraceNode* node)
{
    std::string path = b.import;
    if (!QString::fromStdString(path).endsWith(QLatin1String(".pdl")))
        path += ".pdl";
    const QString file = QFileInfo(resolvePath(st, path)).absoluteFilePath();
    {
        std::lock_guard lock(programsMutex);
        auto it = imports.find(file);
        if (it != imports.end())
            return it->second;
    }
    checkNesting(st, options, "import", file, b.fieldSpan("import"));
    const ProgramInfo* info = loadProgram(file, b.fieldSpan("import"), "import");
    State is;
    is.quiet = true;
    is.program = info;
    is.callDepth = st.callDepth + 1;
    is.traceParent = st.traceParent;
    is.debugDepth = st.debugDepth;
    for (const char* builtin : {"pdl_context", "pdl_model_default_parameters"}) {
        if (const Value* v = st.scope.find(builtin))
            is.scope.set(builtin, *v);
    }
    TracePtr cn;
    exec(info->program->root, is, childPrefix(id, "."), node ? &cn : nullptr);
    if (node)
        node->addChild("pdl__trace", cn, true);
    Value result(is.scope.vars());
    std::lock_guard lock(programsMutex);
    imports.emplace(file, result);
    return result;
}

Value Runner::execAggregator(const AggregatorBlock& b, State& st, TraceNode* node)
{
    std::shared_ptr<const Aggregator> aggregator;
    if (b.isContext) {
        aggregator = std::make_shared<ContextAggregator>();
    } else {
        auto text = [&](const Expr& e, const char* field, const std::string& fallback) {
            if (!e)
                return fallback;
            Value v = eval(e, st, node, field);
            if (!v.isString())
                throw PdlError(std::string("aggregator ") + field + " must be a string, got " +
                                   v.typeName(),
                               e.span);
            return v.asString();
        };
        FileAggregator::Config config;
        config.span = b.span;
        const std::string file = text(b.file, "file", "");
        if (file.empty())
            throw PdlError("aggregator file must be a file name", b.file ? b.file.span : b.span);
        config.path = QFileInfo(resolvePath(st, file)).absoluteFilePath();
        const std::string mode = text(b.mode, "mode", "w");
        if (mode == "w" || mode == "wt")
            config.append = false;
        else if (mode == "a" || mode == "at")
            config.append = true;
        else
            throw PdlError("aggregator mode must be 'w' (replace the file) or 'a' (append), not '" +
                               mode + "'",
                           b.mode.span);
        std::string encoding = text(b.encoding, "encoding", "utf-8");
        for (char& c : encoding)
            c = char(std::tolower(static_cast<unsigned char>(c)));
        if (encoding != "utf-8" && encoding != "utf8")
            throw PdlError("aggregator files are written in UTF-8; encoding '" + encoding +
                               "' is not supported",
                           b.encoding.span);
        config.prefix = text(b.prefix, "prefix", "");
        config.suffix = text(b.suffix, "suffix", "\n");
        if (b.flush)
            config.flush = eval(b.flush, st, node, "flush").truthy();
        aggregator = std::make_shared<FileAggregator>(std::move(config));
    }
    {
        std::lock_guard lock(aggregatorsMutex);
        aggregators.push_back(aggregator);
    }
    return Value(std::static_pointer_cast<const Callable>(aggregator));
}

Value Runner::execPart(const BlockPtr& part, const State& st, const std::string& prefix,
                       const char* field, TraceNode* node)
{
    State ps = st;
    ps.streamResult = false; // the part is not the result, or streams only as a whole
    TracePtr pn;
    Value v = exec(part, ps, prefix, node ? &pn : nullptr);
    if (node)
        node->addChild(field, pn, true);
    return v;
}

Value Runner::execCode(const CodeBlock& b, State& st, const std::string& id, TraceNode* node)
{
    // The source is not part of the result.
    Value code = execPart(b.code, st, id + ".code.", "code", node);
    const std::string source = code.toText();
    // `scope:` (the reference's CodeBlock.scope) replaces the program's variables for the code
    // alone; they do not leak into the program.
    State scoped;
    if (b.scope) {
        Value vars = eval(b.scope, st, node, "scope");
        if (!vars.isDict())
            throw PdlError("the scope of a code block must be an object, not '" +
                               std::string(vars.typeName()) + "'",
                           b.scope.span);
        scoped = st;
        scoped.scope = Env();
        for (const auto& [k, v] : vars.asDict())
            scoped.scope.set(k.isString() ? k.asString() : k.str(), v);
    }
    State& cs = b.scope ? scoped : st;
    switch (b.lang) {
    case CodeBlock::Lang::Pdl: {
        ParseResult parsed =
            checkProgramText(QByteArray::fromStdString(source),
                             QStringLiteral("<code block %1>").arg(QString::fromStdString(id)));
        if (!parsed.ok() || !parsed.program) {
            std::string msg = "the generated PDL program has errors:";
            for (const Diagnostic& d : parsed.diagnostics)
                msg += "\n" + d.toString().toStdString();
            throw PdlError(msg, b.span);
        }
        // The code block streams the program's result as a whole; its model calls are single
        // requests, not streams, as the reference's are.
        State ps = cs;
        ps.batchCalls = true;
        return execPart(parsed.program->root, ps, id + ".pdl.", "pdl__trace", node);
    }
    default:
        return runCode(b, source, cs, node);
    }
}

Value Runner::execArgs(const ArgsBlock& b, State& st, TraceNode* node)
{
    std::vector<std::string> argv;
    Dict traced;
    for (const Expr& e : b.args)
        argv.push_back(evalValue(e.value, st, e.span).toText());
    if (node) {
        List l;
        for (const auto& a : argv)
            l.push_back(Value(a));
        node->exprs.emplace_back("args", Value(std::move(l)));
    }
    return runCommand(argv, b.span, node);
}

Value Runner::parse(const Block& b, const Value& result)
{
    return parseResult(b.parser, result, b.parser.span.isValid() ? b.parser.span : b.span);
}

namespace {

// Whether `file`, with every symbolic link resolved, lies in `folder` or below it.
bool resolvesInside(const QString& file, const QString& folder)
{
    const QString real = QFileInfo(file).canonicalFilePath();
    QString root = QFileInfo(folder).canonicalFilePath();
    if (real.isEmpty() || root.isEmpty())
        return false;
    if (!root.endsWith(QLatin1Char('/')))
        root += QLatin1Char('/');
    return real.startsWith(root);
}

} // namespace

// The message for an included or imported file that is not a valid program. Its diagnostics
// quote the file's text; a file outside the including program's folder (`include:` of a link to
// /etc/shadow, say) is any file on the machine, so only where its first error is gets said.
std::string Runner::includeErrors(const QString& file, const SourceSpan& from, const char* what,
                                  const std::vector<Diagnostic>& diagnostics)
{
    std::vector<const Diagnostic*> errors;
    for (const Diagnostic& d : diagnostics)
        if (d.severity == Severity::Error)
            errors.push_back(&d);
    const QString folder =
        from.file.isEmpty() ? QDir::currentPath() : QFileInfo(from.file).absolutePath();
    if (resolvesInside(file, folder)) {
        std::string msg = std::string(what) + ": errors in " + file.toStdString() + ":";
        for (const Diagnostic* d : errors)
            msg += "\n" + d->toString().toStdString();
        return msg;
    }
    // Errors about the file itself (not a regular file, too large, not UTF-8) quote nothing of
    // it and are said as they are.
    for (const Diagnostic* d : errors)
        if (d->span.line <= 0)
            return std::string(what) + ": " + d->message.toStdString();
    std::string msg = std::string(what) + ": " + file.toStdString() +
                      " is not a valid program, and it is outside the program's folder (" +
                      folder.toStdString() + "), so its content is not shown";
    if (!errors.empty() && errors.front()->span.line > 0)
        msg += " (" + std::to_string(errors.size()) + " error(s), the first at line " +
               std::to_string(errors.front()->span.line) + ")";
    return msg + "; copy it into the folder to see the details";
}

void Runner::finishAggregators()
{
    std::vector<std::shared_ptr<const Aggregator>> all;
    {
        std::lock_guard lock(aggregatorsMutex);
        all.swap(aggregators);
    }
    std::optional<PdlError> first;
    for (const auto& a : all) {
        try {
            a->finish();
        } catch (const PdlError& e) {
            if (!first)
                first = e;
        }
    }
    if (first)
        throw *first;
}

const ProgramInfo* Runner::loadProgram(const QString& path, const SourceSpan& from,
                                       const char* what)
{
    const QString canonical = QFileInfo(path).absoluteFilePath();
    std::lock_guard lock(programsMutex);
    auto it = programs.find(canonical);
    if (it != programs.end())
        return it->second.get();
    if (!QFileInfo::exists(canonical))
        throw PdlError(std::string(what) + ": file not found: " + canonical.toStdString(), from);
    ParseResult parsed = checkProgram(canonical);
    if (!parsed.ok() || !parsed.program)
        throw PdlError(includeErrors(canonical, from, what, parsed.diagnostics), from);
    auto info = std::make_unique<ProgramInfo>();
    info->program = parsed.program;
    info->dir = QFileInfo(canonical).absolutePath();
    info->lines = QString::fromUtf8(parsed.program->source).split(QLatin1Char('\n'));
    const ProgramInfo* raw = info.get();
    programs.emplace(canonical, std::move(info));
    announceProgram(parsed.program);
    return raw;
}

} // namespace hako::pdl
