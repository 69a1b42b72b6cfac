#include "cli/searchcommand.h"
#include "cli/optionparser.h"
#include "cli/output.h"

#include "core/docs/documentindex.h"
#include "core/docs/documentsession.h"

#include <cstdio>
#include <iostream>
#include <string>

namespace hako {

namespace {

const char* kUsage =
    "usage: hako search [--mode seed|context] [--units lines|sentences|paragraphs]\n"
    "                   [--max-unit N] [--kana] [--expect ANSWER] FILE [COMMAND …]\n"
    "  COMMAND is one of: search Q1 Q2 … [page K] | page K | show N1 N2 A-B … |\n"
    "                     answer TEXT | rank QUERY [| QUERY2 …] | memo TEXT\n"
    "  Without COMMAND, commands are read from standard input, one per line, and each is\n"
    "  answered with the cost so far, the input and the output.\n";

} // namespace

int searchCommand(const QStringList& args)
{
    docs::SessionOptions session;
    docs::IndexOptions indexOptions;
    QString file;
    OptionParser parser;
    parser.addOption({QStringLiteral("--mode")}, [&session](const QString& m) {
        if (m == QLatin1String("seed"))
            session.mode = docs::OutputMode::Seed;
        else if (m == QLatin1String("context"))
            session.mode = docs::OutputMode::Context;
        else
            return QStringLiteral("unknown mode '%1'").arg(m);
        return QString();
    });
    parser.addOption({QStringLiteral("--units")}, [&indexOptions](const QString& u) {
        if (u == QLatin1String("lines"))
            indexOptions.units = docs::UnitKind::Lines;
        else if (u == QLatin1String("sentences"))
            indexOptions.units = docs::UnitKind::Sentences;
        else if (u == QLatin1String("paragraphs"))
            indexOptions.units = docs::UnitKind::Paragraphs;
        else
            return QStringLiteral("unknown units '%1'").arg(u);
        return QString();
    });
    parser.addOption({QStringLiteral("--max-unit")}, [&indexOptions](const QString& v) {
        bool ok = false;
        indexOptions.maxUnitLength = v.toInt(&ok);
        if (!ok || indexOptions.maxUnitLength < 8)
            return QStringLiteral("--max-unit needs a number >= 8");
        return QString();
    });
    parser.addFlag({QStringLiteral("--kana")},
                   [&indexOptions] { indexOptions.normalize.foldKana = true; });
    parser.addOption({QStringLiteral("--expect")}, [&session](const QString& v) {
        session.expectedAnswer = v;
        return QString();
    });
    // FILE, then the command: its words are the command's, even those starting with `-`.
    parser.setPositional([&file](const QString& word) {
        file = word;
        return QString();
    });
    parser.stopAtFirstPositional();
    const OptionParser::Parsed parsed = parser.parse(args);
    if (std::optional<int> exit =
            OptionParser::finish(parsed, QStringLiteral("hako search"), kUsage))
        return *exit;
    const QStringList& command = parsed.rest;
    if (file.isEmpty()) {
        writeText(stderr, QString::fromUtf8(kUsage));
        return 2;
    }
    Result<docs::Document> doc = docs::loadDocument(file);
    if (!doc) {
        writeText(stderr, QStringLiteral("hako search: %1\n").arg(doc.error().message));
        return 1;
    }
    for (const Diagnostic& w : doc->warnings())
        writeText(stderr, w.toString() + QLatin1Char('\n'));
    auto index = docs::DocumentIndex::build(
        std::make_shared<docs::Document>(std::move(doc).value()), indexOptions);
    docs::DocumentSession s(index, session);
    if (!command.isEmpty()) {
        writeText(stdout, s.execute(command.join(QLatin1Char(' '))).output + QLatin1Char('\n'));
        return 0;
    }
    std::string line;
    while (std::getline(std::cin, line)) {
        const QString input = QString::fromUtf8(line).trimmed();
        if (input.isEmpty())
            continue;
        const docs::CommandResult r = s.execute(input);
        writeText(stdout, QStringLiteral("Cost so far: %1\nInput: %2\nOutput:\n%3\n\n")
                              .arg(r.totalCost)
                              .arg(r.input, r.output));
    }
    return 0;
}

} // namespace hako
