#include "cli/searchcommand.h"
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
    QStringList command;
    for (int i = 0; i < args.size(); ++i) {
        const QString& a = args.at(i);
        if (!file.isEmpty()) {
            command.append(a);
            continue;
        }
        auto value = [&]() -> QString {
            return i + 1 < args.size() ? args.at(++i) : QString();
        };
        if (a == QLatin1String("--help") || a == QLatin1String("-h")) {
            writeText(stdout, QString::fromUtf8(kUsage));
            return 0;
        } else if (a == QLatin1String("--mode")) {
            const QString m = value();
            if (m == QLatin1String("seed")) {
                session.mode = docs::OutputMode::Seed;
            } else if (m == QLatin1String("context")) {
                session.mode = docs::OutputMode::Context;
            } else {
                writeText(stderr, QStringLiteral("hako search: unknown mode '%1'\n").arg(m));
                return 2;
            }
        } else if (a == QLatin1String("--units")) {
            const QString u = value();
            if (u == QLatin1String("lines")) {
                indexOptions.units = docs::UnitKind::Lines;
            } else if (u == QLatin1String("sentences")) {
                indexOptions.units = docs::UnitKind::Sentences;
            } else if (u == QLatin1String("paragraphs")) {
                indexOptions.units = docs::UnitKind::Paragraphs;
            } else {
                writeText(stderr, QStringLiteral("hako search: unknown units '%1'\n").arg(u));
                return 2;
            }
        } else if (a == QLatin1String("--max-unit")) {
            bool ok = false;
            indexOptions.maxUnitLength = value().toInt(&ok);
            if (!ok || indexOptions.maxUnitLength < 8) {
                writeText(stderr, QStringLiteral("hako search: --max-unit needs a number >= 8\n"));
                return 2;
            }
        } else if (a == QLatin1String("--kana")) {
            indexOptions.normalize.foldKana = true;
        } else if (a == QLatin1String("--expect")) {
            session.expectedAnswer = value();
        } else if (a.startsWith(QLatin1Char('-')) && a.size() > 1) {
            writeText(stderr, QStringLiteral("hako search: unknown option '%1'\n%2")
                                  .arg(a, QString::fromUtf8(kUsage)));
            return 2;
        } else {
            file = a;
        }
    }
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
