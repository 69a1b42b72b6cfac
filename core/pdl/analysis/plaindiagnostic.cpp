#include "core/pdl/analysis/plaindiagnostic.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace hako::pdl {

namespace {

QString colonInText()
{
    return QCoreApplication::translate(
        "hako::pdl::PlainError",
        "A colon followed by a space inside a text makes YAML read a new field: put the "
        "whole text in double quotes, as in \"お問い合わせ: 返品したい\"");
}

// A key a person would not name a field: words of a sentence (not ASCII, or with spaces).
bool looksLikeText(const QString& key)
{
    static const QRegularExpression name(QStringLiteral("^[A-Za-z_][A-Za-z0-9_-]*$"));
    return !name.match(key).hasMatch();
}

std::optional<QString> sentenceFor(const QString& message, Mistake& mistake)
{
    // `${　name　}`: the Japanese input method's space is part of the name to an expression.
    static const QRegularExpression wideSpaces(
        QStringLiteral("'([^']*\\x{3000}[^']*)' is (undefined|used but never defined)"));
    if (const QRegularExpressionMatch m = wideSpaces.match(message); m.hasMatch()) {
        mistake = Mistake::FullWidthSpaces;
        const QString written = m.captured(1);
        return QCoreApplication::translate(
                   "hako::pdl::PlainError",
                   "The name in `${ }` has full-width spaces around or inside it: write it with "
                   "ordinary spaces, as in `${ %1 }` (the quick fix replaces them)")
                   .arg(QString(written).remove(QChar(0x3000)).trimmed()) +
               QCoreApplication::translate("hako::pdl::PlainError",
                                           " It is written `${%1}` (□ marks a full-width space).")
                   .arg(showFullWidthSpaces(written));
    }
    static const QRegularExpression wordsAfter(
        QStringLiteral("expected token 'end of print statement', got '([^']*)'"));
    if (const QRegularExpressionMatch m = wordsAfter.match(message); m.hasMatch()) {
        mistake = Mistake::UnclosedExpression;
        return QCoreApplication::translate(
                   "hako::pdl::PlainError",
                   "A `${` is not closed before “%1”: end the expression with `}`, as in "
                   "`${ name }`")
            .arg(m.captured(1));
    }
    if (message.contains(QLatin1String("unexpected end of template")) ||
        message.contains(QLatin1String("expected 'end of print statement'"))) {
        mistake = Mistake::UnclosedExpression;
        return QCoreApplication::translate(
            "hako::pdl::PlainError", "A `${` is not closed: end it with `}`, as in `${ name }`");
    }
    if (message.contains(QLatin1String("illegal map value")) ||
        message.contains(QLatin1String("mapping values are not allowed"))) {
        mistake = Mistake::ColonInText;
        return colonInText();
    }
    static const QRegularExpression textAsField(
        QStringLiteral("field '([^']+)' is not allowed in an? \\w+ block"));
    if (const QRegularExpressionMatch m = textAsField.match(message);
        m.hasMatch() && looksLikeText(m.captured(1))) {
        mistake = Mistake::ColonInText;
        return colonInText();
    }
    static const QRegularExpression comment(
        QStringLiteral("the text ends before '(.*)': ' #' starts a YAML comment"));
    if (const QRegularExpressionMatch m = comment.match(message); m.hasMatch()) {
        mistake = Mistake::CommentInText;
        return QCoreApplication::translate(
                   "hako::pdl::PlainError",
                   "A `#` after a space starts a comment in YAML, so “%1” is left out of the "
                   "text: put the whole text in double quotes (the quick fix does)")
            .arg(m.captured(1));
    }
    static const QRegularExpression stray(
        QStringLiteral("'}' after '(.*)' is not part of the expression"));
    if (const QRegularExpressionMatch m = stray.match(message); m.hasMatch()) {
        mistake = Mistake::StrayBrace;
        return QCoreApplication::translate(
                   "hako::pdl::PlainError",
                   "There is one `}` too many after `%1`: it would be written out in the text. "
                   "Remove it (the quick fix does)")
            .arg(m.captured(1));
    }
    static const QRegularExpression undefined(QStringLiteral(
        "variable '([^']+)' is used but never defined(?: \\(did you mean '([^']+)'\\?\\))?"));
    if (const QRegularExpressionMatch m = undefined.match(message); m.hasMatch()) {
        mistake = Mistake::UndefinedName;
        if (m.hasCaptured(2) && !m.captured(2).isEmpty())
            return QCoreApplication::translate("hako::pdl::PlainError",
                                               "`%1` is not an input or a defined name")
                       .arg(m.captured(1)) +
                   QCoreApplication::translate("hako::pdl::PlainError", " — did you mean `%1`?")
                       .arg(m.captured(2));
        return QCoreApplication::translate(
                   "hako::pdl::PlainError",
                   "`%1` is not defined in the program, so it is an input: fill it in under "
                   "Inputs before a run, or give it a value in `defs:` (a quick fix adds it)")
            .arg(m.captured(1));
    }
    return std::nullopt;
}

} // namespace

QString showFullWidthSpaces(const QString& text)
{
    return QString(text).replace(QChar(0x3000), QChar(0x25A1));
}

std::optional<PlainDiagnostic> commonMistake(const QString& message)
{
    Mistake mistake = Mistake::None;
    const QString trimmed = message.trimmed();
    std::optional<QString> text = sentenceFor(trimmed, mistake);
    if (!text)
        return std::nullopt;
    return PlainDiagnostic{*text, trimmed, mistake};
}

PlainDiagnostic plainDiagnostic(const Diagnostic& diagnostic)
{
    if (std::optional<PlainDiagnostic> known = commonMistake(diagnostic.message))
        return *known;
    PlainDiagnostic out;
    const QString message = diagnostic.message.trimmed();
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
