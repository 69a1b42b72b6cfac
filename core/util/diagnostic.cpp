#include "core/util/diagnostic.h"

namespace hako {

QString severityName(Severity s)
{
    switch (s) {
    case Severity::Error:
        return QStringLiteral("error");
    case Severity::Warning:
        return QStringLiteral("warning");
    case Severity::Note:
        return QStringLiteral("note");
    }
    return QStringLiteral("error");
}

QString Diagnostic::toString() const
{
    QString where;
    if (!span.file.isEmpty())
        where = span.file + QLatin1Char(':');
    if (span.line > 0) {
        where += QString::number(span.line) + QLatin1Char(':');
        if (span.column > 0)
            where += QString::number(span.column) + QLatin1Char(':');
    }
    if (!where.isEmpty())
        where += QLatin1Char(' ');
    return where + severityName(severity) + QStringLiteral(": ") + message;
}

} // namespace hako
