#include "widgets/settings/modelfailure.h"

#include <QCoreApplication>
#include <QFile>
#include <QStringList>

namespace hako {

bool isModelCallFailure(const Diagnostic& error, const QString& programText)
{
    if (error.severity != Severity::Error || !error.span.isValid())
        return false;
    QString text = programText;
    if (text.isEmpty() && !error.span.file.isEmpty()) {
        QFile file(error.span.file);
        // Programs are small; a huge or unreadable file just means "not recognised".
        if (file.size() > 16 * 1024 * 1024 || !file.open(QIODevice::ReadOnly))
            return false;
        text = QString::fromUtf8(file.readAll());
    }
    const QStringList lines = text.split(QLatin1Char('\n'));
    if (error.span.line > lines.size())
        return false;
    // Columns count code points.
    const QList<uint> points = lines.at(error.span.line - 1).toUcs4();
    const int column = std::min<int>(error.span.column, int(points.size()) + 1);
    const QString before =
        QString::fromUcs4(reinterpret_cast<const char32_t*>(points.constData()), column - 1)
            .trimmed();
    if (!before.endsWith(QLatin1String("model:")))
        return false;
    // `model:` itself, not the end of another key (`my_model:`), possibly after a list dash or
    // an opening brace of a flow mapping.
    const QString head = before.chopped(6).trimmed();
    return head.isEmpty() || head == QLatin1String("-") || head.endsWith(QLatin1Char('{')) ||
           head.endsWith(QLatin1Char(','));
}

QString modelCallFailureText(const Diagnostic& error)
{
    return QCoreApplication::translate("hako::ModelFailure",
                                       "Line %1: Hako could not get a reply from the model. "
                                       "Check the model settings. Details: %2")
        .arg(error.span.line)
        .arg(error.message);
}

} // namespace hako
