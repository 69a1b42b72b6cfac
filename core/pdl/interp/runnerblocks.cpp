// Leaf blocks that reach outside the program: read, include, import, code, args, model.
#include "core/pdl/interp/pdlfunction.h"
#include "core/pdl/interp/runner.h"
#include "core/pdl/parser/programparser.h"
#include "core/pdl/programcheck.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

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
    if (!std::getline(std::cin, out))
        return std::nullopt;
    if (!out.empty() && out.back() == '\r')
        out.pop_back();
    return out;
}

} // namespace

Value Runner::execRead(const ReadBlock& b, State& st, TraceNode* node)
{
    Value target = b.read ? eval(b.read, st, node, "read") : Value();
    if (target.isNull()) {
        std::string prompt = b.message     ? *b.message
                             : b.multiline ? "Enter/Paste your content. Ctrl-D to save it.\n"
                                           : "How can I help you?: ";
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
    QFile f(resolvePath(st, target.asString()));
    if (!f.open(QIODevice::ReadOnly))
        throw PdlError("cannot read " + f.fileName().toStdString() + ": " +
                           f.errorString().toStdString(),
                       b.read.span);
    QByteArray data = f.readAll();
    QString text = QString::fromUtf8(data);
    if (text.contains(QChar::ReplacementCharacter) && !data.contains("\xEF\xBF\xBD"))
        throw PdlError(f.fileName().toStdString() + " is not UTF-8 text", b.read.span);
    return Value(data.toStdString());
}

Value Runner::execInclude(const IncludeBlock& b, State& st, const std::string& id, TraceNode* node)
{
    const ProgramInfo* info = loadProgram(resolvePath(st, b.include), b.fieldSpan("include"));
    const ProgramInfo* saved = st.program;
    st.program = info;
    TracePtr cn;
    try {
        Value v = exec(info->program->root, st, id + ".", node ? &cn : nullptr);
        st.program = saved;
        if (node)
            node->addChild("pdl__trace", cn, true);
        return v;
    } catch (...) {
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
    const ProgramInfo* info = loadProgram(file, b.fieldSpan("import"));
    State is;
    is.program = info;
    is.callDepth = st.callDepth;
    for (const char* builtin : {"pdl_context", "pdl_model_default_parameters"}) {
        if (const Value* v = st.scope.find(builtin))
            is.scope.set(builtin, *v);
    }
    TracePtr cn;
    exec(info->program->root, is, id + ".", node ? &cn : nullptr);
    if (node)
        node->addChild("pdl__trace", cn, true);
    Value result(is.scope.vars());
    std::lock_guard lock(programsMutex);
    imports.emplace(file, result);
    return result;
}

Value Runner::execCode(const CodeBlock& b, State& st, const std::string& id, TraceNode* node)
{
    State cs = st;
    TracePtr cn;
    Value code = exec(b.code, cs, id + ".code.", node ? &cn : nullptr);
    if (node)
        node->addChild("code", cn, true);
    const std::string source = code.toText();
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
        State ps = st;
        TracePtr pn;
        Value v = exec(parsed.program->root, ps, id + ".pdl.", node ? &pn : nullptr);
        if (node)
            node->addChild("pdl__trace", pn, true);
        return v;
    }
    default:
        return runCode(b, source, st, node);
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

} // namespace hako::pdl
