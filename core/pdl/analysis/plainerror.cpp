#include "core/pdl/analysis/plainerror.h"

#include "core/pdl/analysis/plaindiagnostic.h"
#include "core/pdl/check/scopeanalysis.h"
#include "core/pdl/parser/programparser.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <optional>
#include <vector>

namespace hako::pdl {

// The sentences are translated: the workbench shows them in the interface's language.
PlainError plainRunError(const Diagnostic& error, const ScopeAnalysis* scopes)
{
    PlainError out;
    const QString message = error.message.trimmed();
    // The mistakes a person new to PDL makes most, said with what to do (as the Problems
    // pane says them before the run).
    if (std::optional<PlainDiagnostic> known = commonMistake(message)) {
        out.text = known->text;
        out.detail = known->detail;
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
    // Anything else as the Problems pane says it: its first line, the rest the detail.
    const PlainDiagnostic plain = plainDiagnostic(error);
    out.text = plain.text;
    out.detail = plain.detail;
    return out;
}

} // namespace hako::pdl
