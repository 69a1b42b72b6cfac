#include "core/pdl/code/commandrunner.h"

#include "core/pdl/code/childprocess.h"
#include "core/pdl/code/sandbox.h"

#include <cstdio>

namespace hako::pdl::code {

namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

std::string trimmed(std::string s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' '))
        s.pop_back();
    return s;
}

} // namespace

Result<std::vector<std::string>> splitCommandLine(std::string_view line)
{
    std::vector<std::string> words;
    std::string word;
    bool inWord = false; // a word has started (it may be empty: '')
    size_t i = 0;
    while (i < line.size()) {
        char c = line[i];
        if (isSpace(c)) {
            if (inWord)
                words.push_back(std::move(word));
            word.clear();
            inWord = false;
            ++i;
        } else if (c == '\'') {
            size_t close = line.find('\'', i + 1);
            if (close == std::string_view::npos)
                return makeError(QStringLiteral("No closing quotation"));
            word.append(line.substr(i + 1, close - i - 1));
            inWord = true;
            i = close + 1;
        } else if (c == '"') {
            ++i;
            bool closed = false;
            while (i < line.size()) {
                char d = line[i];
                if (d == '"') {
                    closed = true;
                    ++i;
                    break;
                }
                if (d == '\\' && i + 1 < line.size() &&
                    (line[i + 1] == '"' || line[i + 1] == '\\')) {
                    word.push_back(line[i + 1]);
                    i += 2;
                    continue;
                }
                if (d == '\\' && i + 1 >= line.size())
                    break; // shlex reports the missing quote
                word.push_back(d);
                ++i;
            }
            if (!closed)
                return makeError(QStringLiteral("No closing quotation"));
            inWord = true;
        } else if (c == '\\') {
            if (i + 1 >= line.size())
                return makeError(QStringLiteral("No escaped character"));
            word.push_back(line[i + 1]);
            inWord = true;
            i += 2;
        } else {
            word.push_back(c);
            inWord = true;
            ++i;
        }
    }
    if (inWord)
        words.push_back(std::move(word));
    return words;
}

std::string joinCommandLine(const std::vector<std::string>& argv)
{
    std::string line;
    for (const std::string& arg : argv) {
        if (!line.empty())
            line += ' ';
        bool safe = !arg.empty();
        for (unsigned char c : arg)
            if (!(std::isalnum(c) ||
                  std::string_view("@%+=:,./-_").find(char(c)) != std::string_view::npos))
                safe = false;
        if (safe) {
            line += arg;
            continue;
        }
        line += '\'';
        for (char c : arg) {
            if (c == '\'')
                line += "'\"'\"'";
            else
                line += c;
        }
        line += '\'';
    }
    return line;
}

CommandOutcome runCommand(const std::vector<std::string>& argv,
                          const std::optional<std::string>& input, const CancelToken& cancel,
                          std::chrono::milliseconds timeout, const CommandOptions& options)
{
    CommandOutcome outcome;
    auto fail = [&](CommandOutcome::Status status, std::string message) {
        outcome.status = status;
        outcome.errorMessage = std::move(message);
        return outcome;
    };
    if (argv.empty() || argv[0].empty())
        return fail(CommandOutcome::Status::Failed, "empty command");
    const std::string shown = joinCommandLine(argv);

    std::string program = argv[0];
    if (program.find('/') != std::string::npos && program[0] != '/' &&
        !options.workingDirectory.empty())
        program = options.workingDirectory + "/" + program;
    if (findExecutable(program).empty())
        return fail(CommandOutcome::Status::Failed,
                    argv[0].find('/') == std::string::npos
                        ? "command not found: '" + argv[0] + "' is not in PATH"
                        : "cannot run '" + argv[0] + "': no such executable file");

    ChildSpec spec;
    spec.argv = argv;
    spec.workingDirectory = options.workingDirectory;
    spec.pipeStdin = input.has_value();
    if (options.sandbox) {
        spec.argv = options.sandbox->wrap(argv, options.workingDirectory);
        spec.workingDirectory.clear();
        spec.environment = options.sandbox->environment();
        spec.limits = options.sandbox->limits();
    }

    ChildProcess process;
    std::string error;
    if (!process.start(spec, &error))
        return fail(CommandOutcome::Status::Failed, error);
    if (input) {
        process.queueWrite(*input);
        process.closeStdinWhenWritten();
    }
    auto deadline = timeout.count() > 0 ? std::chrono::steady_clock::now() + timeout
                                        : std::chrono::steady_clock::time_point::max();
    PumpStatus st = process.pump({}, &cancel, deadline, options.maxOutputBytes);
    int status = 0;
    if (st == PumpStatus::Ended && !process.waitFor(&cancel, deadline, &status))
        st = cancel.isCancelled() ? PumpStatus::Cancelled : PumpStatus::TimedOut;
    if (st != PumpStatus::Ended)
        process.kill();
    outcome.out = std::move(process.out());
    outcome.err = std::move(process.err());

    switch (st) {
    case PumpStatus::Cancelled:
        return fail(CommandOutcome::Status::Cancelled, "command '" + shown + "' cancelled");
    case PumpStatus::TimedOut:
        return fail(CommandOutcome::Status::TimedOut,
                    "command '" + shown + "' timed out after " + formatSeconds(timeout));
    case PumpStatus::OutputLimit:
        return fail(CommandOutcome::Status::Failed,
                    "command '" + shown + "' wrote more than " +
                        std::to_string(options.maxOutputBytes >> 20) + " MiB of output");
    case PumpStatus::Done:
    case PumpStatus::Ended:
        break;
    }
    outcome.exitCode = status;
    if (status == 0) {
        outcome.status = CommandOutcome::Status::Ok;
        return outcome;
    }
    std::string err = trimmed(outcome.err);
    return fail(CommandOutcome::Status::Exited, "command '" + shown + "' failed with " +
                                                    ChildProcess::describeStatus(status) +
                                                    (err.empty() ? std::string() : ": " + err));
}

} // namespace hako::pdl::code
