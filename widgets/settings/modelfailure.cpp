#include "widgets/settings/modelfailure.h"

#include <QCoreApplication>
#include <QFile>
#include <QRegularExpression>
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
    auto translated = [](const char* text) {
        return QCoreApplication::translate("hako::ModelFailure", text);
    };
    const QString& message = error.message;
    // `model 'x' at openai (http://…): …`: the server's address, when the message names it.
    static const QRegularExpression server(QStringLiteral(" at [^ ]+ \\((https?://[^)]+)\\)"));
    const QString url = server.match(message).captured(1);
    static const QRegularExpression modelName(QStringLiteral("^model '([^']+)'"));
    const QString model = modelName.match(message).captured(1);
    // What went wrong, with what to do, in the words of someone who does not run servers.
    QString what;
    // The provider's own words, in English or as translated for the interface.
    const QString cannotConnect =
        QCoreApplication::translate("hako::models::OpenAiProvider", "cannot connect: %1. %2")
            .section(QStringLiteral("%1"), 0, 0)
            .trimmed();
    // A connection that timed out is a server that does not answer just the same.
    const QString connectTimeout =
        QCoreApplication::translate("hako::models::OpenAiProvider",
                                    "could not connect within %1 s (connect timeout). %2")
            .section(QStringLiteral("%1"), 0, 0)
            .trimmed();
    if (message.contains(QLatin1String("cannot connect")) ||
        message.contains(QLatin1String("could not connect within")) ||
        (!cannotConnect.isEmpty() && message.contains(cannotConnect)) ||
        (!connectTimeout.isEmpty() && message.contains(connectTimeout)))
        what =
            (url.isEmpty()
                 ? translated(
                       QT_TRANSLATE_NOOP("hako::ModelFailure",
                                         "The model server does not answer: it may have stopped."))
                 : translated(QT_TRANSLATE_NOOP(
                                  "hako::ModelFailure",
                                  "The model server at %1 does not answer: it may have stopped."))
                       .arg(url)) +
            QLatin1Char(' ') +
            translated(QT_TRANSLATE_NOOP(
                "hako::ModelFailure",
                "Start it again (or check its address in Settings › Model Endpoints), then run "
                "again."));
    else if (message.contains(QLatin1String("HTTP 401")) ||
             message.contains(QLatin1String("HTTP 403")))
        what = translated(QT_TRANSLATE_NOOP(
            "hako::ModelFailure",
            "The model server refused the API key (or none was given). Enter the key in "
            "Settings › Model Endpoints, then run again."));
    else if (message.contains(QLatin1String("HTTP 404")))
        what =
            (model.isEmpty() ? translated(QT_TRANSLATE_NOOP("hako::ModelFailure",
                                                            "The server has no such model."))
                             : translated(QT_TRANSLATE_NOOP("hako::ModelFailure",
                                                            "The server has no model named “%1”."))
                                   .arg(model)) +
            QLatin1Char(' ') +
            translated(QT_TRANSLATE_NOOP(
                "hako::ModelFailure",
                "Choose one of its models in the Model field (the list shows what the server "
                "has)."));
    else
        what = translated(QT_TRANSLATE_NOOP(
            "hako::ModelFailure",
            "Hako could not get a reply from the model. Check the model settings."));
    // The provider's own message goes under the message bar's Details (showModelFailure).
    return translated(QT_TRANSLATE_NOOP("hako::ModelFailure", "Line %1: %2"))
        .arg(error.span.line)
        .arg(what);
}

} // namespace hako
