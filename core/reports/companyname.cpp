#include "core/reports/companyname.h"

#include <QHash>
#include <QRegularExpression>

namespace hako::reports {

namespace {

// Characters a company name is written with: kanji, katakana, Latin letters and digits, and
// the joiners between them; never hiragana, so a particle ends it (当社はハコ株式会社 → ハコ).
const QString kNameChars = QStringLiteral("[\\x{4E00}-\\x{9FFF}\\x{30A1}-\\x{30FA}ー・&A-Za-z0-9]");

QString bareName(QString name)
{
    name = name.normalized(QString::NormalizationForm_KC);
    static const QRegularExpression forms(
        QStringLiteral(
            "株式会社|\\(株\\)|有限会社|合同会社|ホールディングス|,?\\s*(Co\\.,?\\s*Ltd\\.?|"
            "Inc\\.?|Corporation|Corp\\.?|Ltd\\.?|Holdings)"),
        QRegularExpression::CaseInsensitiveOption);
    name.remove(forms);
    name.remove(QRegularExpression(QStringLiteral("\\s+")));
    return name.toCaseFolded();
}

} // namespace

QString detectCompany(const QStringList& pages)
{
    static const QRegularExpression patterns[] = {
        QRegularExpression(QStringLiteral("(?:株式会社|\\(株\\))") + kNameChars +
                           QStringLiteral("{1,20}")),
        QRegularExpression(kNameChars + QStringLiteral("{1,20}株式会社")),
        QRegularExpression(QStringLiteral("[A-Z][A-Za-z0-9&]*(?:\\s[A-Z][A-Za-z0-9&]*){0,4},?\\s"
                                          "(?:Co\\.,\\s?Ltd\\.|Inc\\.|Corporation)"))};
    QHash<QString, int> counts;
    QHash<QString, qsizetype> firstSeen;
    qsizetype order = 0;
    for (qsizetype p = 0; p < std::min<qsizetype>(pages.size(), 10); ++p) {
        const QString text = pages[p].normalized(QString::NormalizationForm_KC);
        for (const QRegularExpression& re : patterns) {
            for (auto it = re.globalMatch(text); it.hasNext();) {
                const QString name = it.next().captured(0).trimmed();
                if (bareName(name).isEmpty())
                    continue;
                ++counts[name];
                if (!firstSeen.contains(name))
                    firstSeen.insert(name, order++);
            }
        }
    }
    QString best;
    for (auto it = counts.constBegin(); it != counts.constEnd(); ++it) {
        if (best.isEmpty() || it.value() > counts[best] ||
            (it.value() == counts[best] && firstSeen[it.key()] < firstSeen[best]))
            best = it.key();
    }
    return best;
}

bool sameCompany(const QString& a, const QString& b)
{
    const QString x = bareName(a);
    const QString y = bareName(b);
    if (x.isEmpty() || y.isEmpty())
        return false;
    return x == y || x.contains(y) || y.contains(x);
}

} // namespace hako::reports
