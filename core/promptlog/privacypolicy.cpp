#include "core/promptlog/privacypolicy.h"

#include "core/util/globmatch.h"
#include "core/util/outputfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QStandardPaths>

namespace hako::promptlog {

namespace {

// One pass over the text for every built-in rule: the named group that matched says which.
const QRegularExpression& builtinRules()
{
    static const QRegularExpression re(
        QStringLiteral(
            // e-mail addresses
            R"((?<email>[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}))"
            // Authorization headers and key shapes: OpenAI/Anthropic sk-…, AWS, GitHub, Slack,
            // Google
            R"(|(?<bearer>\bBearer\s+)[A-Za-z0-9._~+/=-]{8,})"
            R"(|(?<key>\bsk-[A-Za-z0-9_-]{16,}|\bAKIA[0-9A-Z]{16}\b|\bgh[pousr]_[A-Za-z0-9]{20,})"
            R"(|\bxox[abprs]-[A-Za-z0-9-]{10,}|\bAIza[0-9A-Za-z_-]{35}))"
            // phone numbers: +CC …, (area) local, or three groups joined by - or .; digits
            // run together or dates (2024-05-01) are not phone numbers
            R"(|(?<phone>(?<![\w+])(?:\+\d{1,3}[ .-]?(?:\(\d{1,4}\)[ .-]?)?\d{1,4}(?:[ .-]?\d{2,4}){2,3})"
            R"(|\(\d{2,4}\)[ .-]?\d{2,4}[ .-]\d{3,4})"
            R"(|\d{2,4}[.-]\d{2,4}[.-]\d{3,4})(?![\w-])))"),
        QRegularExpression::UseUnicodePropertiesOption);
    return re;
}

// Whether any built-in rule could match: every one needs an '@', a digit or a key's prefix.
// Most prompt text has none of them, and skipping the regular expression there is what keeps
// the writer fast.
bool mayHoldSecrets(const QString& text)
{
    for (const QChar ch : text) {
        if (ch == QLatin1Char('@') || ch.isDigit())
            return true;
    }
    for (const char* prefix : {"sk-", "Bearer", "AKIA", "_", "xox", "AIza"}) {
        if (text.contains(QLatin1String(prefix)))
            return true;
    }
    return false;
}

QString applyBuiltin(const QString& text)
{
    if (!mayHoldSecrets(text))
        return text;
    const QRegularExpression& re = builtinRules();
    QString out;
    qsizetype last = 0;
    QRegularExpressionMatchIterator it = re.globalMatch(text);
    if (!it.hasNext())
        return text;
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        out += QStringView(text).mid(last, m.capturedStart() - last);
        if (m.capturedLength(QStringLiteral("email")) > 0)
            out += QLatin1String("[REDACTED:email]");
        else if (m.capturedLength(QStringLiteral("bearer")) > 0)
            out += m.captured(QStringLiteral("bearer")) + QLatin1String("[REDACTED:key]");
        else if (m.capturedLength(QStringLiteral("key")) > 0)
            out += QLatin1String("[REDACTED:key]");
        else
            out += QLatin1String("[REDACTED:phone]");
        last = m.capturedEnd();
    }
    out += QStringView(text).mid(last);
    return out;
}

struct Redactor {
    bool builtin = true;
    QList<QRegularExpression> user;

    explicit Redactor(const PrivacyPolicy& p) : builtin(p.builtinRedaction)
    {
        for (const QString& pattern : p.userPatterns) {
            QRegularExpression re(pattern, QRegularExpression::UseUnicodePropertiesOption);
            if (re.isValid() && !pattern.isEmpty())
                user.append(re);
        }
    }
    QString operator()(const QString& text) const
    {
        QString out = builtin ? applyBuiltin(text) : text;
        for (const QRegularExpression& re : user)
            out.replace(re, QStringLiteral("[REDACTED]"));
        return out;
    }
};

QJsonValue redactValue(const QJsonValue& v, const Redactor& p)
{
    if (v.isString())
        return p(v.toString());
    if (v.isArray()) {
        QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i)
            a[i] = redactValue(a.at(i), p);
        return a;
    }
    if (v.isObject()) {
        QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            it.value() = redactValue(it.value(), p);
        return o;
    }
    return v;
}

bool globMatches(const QString& pattern, const QString& text)
{
    const QByteArray p = pattern.toUtf8();
    const QByteArray t = text.toUtf8();
    return globMatch(std::string_view(p.constData(), size_t(p.size())),
                     std::string_view(t.constData(), size_t(t.size())));
}

} // namespace

Result<bool> PrivacyPolicy::validate() const
{
    for (const QString& pattern : userPatterns) {
        const QRegularExpression re(pattern);
        if (!re.isValid())
            return makeError(QStringLiteral("redaction pattern '%1' is not a valid regular "
                                            "expression: %2")
                                 .arg(pattern, re.errorString()));
    }
    return true;
}

bool PrivacyPolicy::metadataOnly(const CallRecord& call) const
{
    for (const QString& pattern : metadataOnlyTags) {
        for (const QString& tag : call.tags) {
            if (globMatches(pattern, tag))
                return true;
        }
    }
    if (!call.programPath.isEmpty()) {
        const QString program = QDir::cleanPath(QFileInfo(call.programPath).absoluteFilePath());
        for (const QString& folder : metadataOnlyFolders) {
            const QString f = QDir::cleanPath(QFileInfo(folder).absoluteFilePath());
            if (program.startsWith(f + QLatin1Char('/')))
                return true;
        }
    }
    return false;
}

QString PrivacyPolicy::redact(const QString& text) const
{
    return Redactor(*this)(text);
}

void PrivacyPolicy::apply(CallRecord& call) const
{
    if (metadataOnly(call)) {
        call.messages = {};
        call.reply.clear();
        call.toolCalls = {};
        call.inputs = {};
        call.contentOmitted = true;
    }
    const Redactor redactor(*this);
    if (!redactor.builtin && redactor.user.isEmpty())
        return;
    call.messages = redactValue(call.messages, redactor).toArray();
    call.reply = redactor(call.reply);
    call.toolCalls = redactValue(call.toolCalls, redactor).toArray();
    call.inputs = redactValue(call.inputs, redactor).toObject();
    call.error = redactor(call.error);
}

QString PromptLogSettings::defaultPath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation))
        .filePath(QStringLiteral("promptlog.json"));
}

Result<PromptLogSettings> PromptLogSettings::load(const QString& path)
{
    PromptLogSettings s;
    QFile file(path);
    if (!file.exists())
        return s;
    if (!file.open(QIODevice::ReadOnly))
        return makeError(QStringLiteral("cannot read the prompt log settings %1: %2")
                             .arg(path, file.errorString()));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (!doc.isObject())
        return makeError(
            QStringLiteral("the prompt log settings %1 are not a JSON object").arg(path));
    const QJsonObject root = doc.object();
    s.privacy.builtinRedaction = root.value(QLatin1String("redact_builtin")).toBool(true);
    for (const QJsonValue& v : root.value(QLatin1String("redact")).toArray())
        s.privacy.userPatterns.append(v.toString());
    const QJsonObject meta = root.value(QLatin1String("metadata_only")).toObject();
    for (const QJsonValue& v : meta.value(QLatin1String("tags")).toArray())
        s.privacy.metadataOnlyTags.append(v.toString());
    for (const QJsonValue& v : meta.value(QLatin1String("folders")).toArray())
        s.privacy.metadataOnlyFolders.append(v.toString());
    s.retentionDays = root.value(QLatin1String("retention_days")).toInt(0);
    s.log = root.value(QLatin1String("log")).toString();
    const QJsonObject folders = root.value(QLatin1String("folder_tags")).toObject();
    for (auto it = folders.begin(); it != folders.end(); ++it) {
        QStringList tags;
        for (const QJsonValue& v : it.value().toArray())
            if (!v.toString().isEmpty())
                tags.append(v.toString());
        s.folderTags.append({QDir::cleanPath(it.key()), tags});
    }
    if (auto valid = s.privacy.validate(); !valid)
        return makeError(QStringLiteral("%1: %2").arg(path, valid.error().message));
    return s;
}

QStringList PromptLogSettings::tagsFor(const QString& programPath) const
{
    const QString program = QDir::cleanPath(QFileInfo(programPath).absoluteFilePath());
    QStringList out;
    for (const auto& [folder, tags] : folderTags) {
        const QString prefix =
            folder.endsWith(QLatin1Char('/')) ? folder : folder + QLatin1Char('/');
        if (!program.startsWith(prefix))
            continue;
        for (const QString& t : tags)
            if (!out.contains(t))
                out.append(t);
    }
    return out;
}

Result<bool> PromptLogSettings::save(const QString& path) const
{
    QJsonObject root{
        {QLatin1String("redact_builtin"), privacy.builtinRedaction},
        {QLatin1String("redact"), QJsonArray::fromStringList(privacy.userPatterns)},
        {QLatin1String("metadata_only"),
         QJsonObject{
             {QLatin1String("tags"), QJsonArray::fromStringList(privacy.metadataOnlyTags)},
             {QLatin1String("folders"), QJsonArray::fromStringList(privacy.metadataOnlyFolders)}}},
        {QLatin1String("retention_days"), retentionDays}};
    if (!log.isEmpty())
        root.insert(QLatin1String("log"), log);
    if (!folderTags.isEmpty()) {
        QJsonObject folders;
        for (const auto& [folder, tags] : folderTags)
            folders.insert(folder, QJsonArray::fromStringList(tags));
        root.insert(QLatin1String("folder_tags"), folders);
    }
    QString error;
    if (!makeOutputFolder(QFileInfo(path).absolutePath(), &error) ||
        !writeOutputFile(path, QJsonDocument(root).toJson(QJsonDocument::Indented), &error))
        return makeError(
            QStringLiteral("cannot write the prompt log settings %1: %2").arg(path, error));
    return true;
}

} // namespace hako::promptlog
