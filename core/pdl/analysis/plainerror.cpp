#include "core/pdl/analysis/plainerror.h"

#include "core/pdl/check/scopeanalysis.h"
#include "core/pdl/parser/programparser.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <optional>
#include <vector>

namespace hako::pdl {

namespace {

// The mistakes a person new to PDL makes most, recognised in the interpreter's and the YAML
// reader's wording, said with what to do.
std::optional<QString> commonMistake(const QString& message)
{
    // `${　name　}`: the Japanese input method's space is part of the name to an expression.
    static const QRegularExpression wideSpaces(
        QStringLiteral("'([^']*\\x{3000}[^']*)' is (undefined|used but never defined)"));
    if (const QRegularExpressionMatch m = wideSpaces.match(message); m.hasMatch())
        return QCoreApplication::translate(
                   "hako::pdl::PlainError",
                   "The name in `${ }` has full-width spaces around or inside it: write "
                   "it with ordinary spaces, as in `${ %1 }` (the quick fix replaces them)")
            .arg(m.captured(1).remove(QChar(0x3000)).trimmed());
    if (message.contains(QLatin1String("unexpected end of template")) ||
        message.contains(QLatin1String("expected 'end of print statement'")))
        return QCoreApplication::translate(
            "hako::pdl::PlainError", "A `${` is not closed: end it with `}`, as in `${ name }`");
    if (message.contains(QLatin1String("illegal map value")) ||
        message.contains(QLatin1String("mapping values are not allowed")))
        return QCoreApplication::translate(
            "hako::pdl::PlainError",
            "A colon followed by a space inside a text makes YAML read a new field: put the "
            "whole text in double quotes, as in \"お問い合わせ: 返品したい\"");
    return std::nullopt;
}

} // namespace

// The sentences are translated: the workbench shows them in the interface's language.
PlainError plainRunError(const Diagnostic& error, const ScopeAnalysis* scopes)
{
    PlainError out;
    const QString message = error.message.trimmed();
    if (std::optional<QString> known = commonMistake(message)) {
        out.text = *known;
        out.detail = message;
        return out;
    }
    static const QRegularExpression undefined(QStringLiteral("'([^'\\s]+)' is undefined"));
    if (const QRegularExpressionMatch m = undefined.match(message); m.hasMatch()) {
        const QString name = m.captured(1);
        out.text = QCoreApplication::translate("hako::pdl::PlainError",
                                               "`%1` is not an input or a defined name")
                       .arg(name);
        if (scopes) {
            QString best;
            int bestDistance = 1 << 30;
            QSet<QString> seen;
            for (const VariableDefinition& d : scopes->definitions) {
                const QString candidate = QString::fromStdString(d.name);
                if (candidate == name || seen.contains(candidate))
                    continue;
                seen.insert(candidate);
                const int distance = nameDistance(name, candidate);
                if (distance < bestDistance) {
                    bestDistance = distance;
                    best = candidate;
                }
            }
            if (!best.isEmpty() && bestDistance <= std::max<int>(1, int(name.toUcs4().size()) / 4))
                out.text +=
                    QCoreApplication::translate("hako::pdl::PlainError", " — did you mean `%1`?")
                        .arg(best);
            else
                out.text += QCoreApplication::translate(
                    "hako::pdl::PlainError", ": define it with `def:` or `defs:`, or give it as "
                                             "an input");
        }
        out.detail = message;
        return out;
    }
    // Anything else: its first line is the sentence, the rest the detail.
    const qsizetype newline = message.indexOf(QLatin1Char('\n'));
    if (newline < 0) {
        out.text = message;
        return out;
    }
    out.text = message.left(newline).trimmed();
    if (out.text.endsWith(QLatin1Char(':')))
        out.text.chop(1);
    out.detail = message;
    return out;
}

} // namespace hako::pdl
