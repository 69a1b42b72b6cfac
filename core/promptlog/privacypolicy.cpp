#include "core/promptlog/privacypolicy.h"
#include "core/promptlog/privacypolicy_p.h"

#include "core/util/globmatch.h"
#include "core/util/outputfile.h"
#include "core/util/threadslot.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QStandardPaths>

#include <array>
#include <optional>
#include <string_view>
#include <type_traits>

namespace hako::promptlog {

namespace {

// The rules a text goes through, in one pass: the named group that matched says which.
// Credentials (passwords in URLs, `password=…`/`api_key: …` assignments, Authorization
// values) are always replaced; the content rules (e-mail, key shapes, phone numbers) only with
// builtin redaction.
QString credentialRules()
{
    return QStringLiteral(
        // the password of a URL's userinfo: scheme://user:PASSWORD@host
        R"((?<url>\b[A-Za-z][A-Za-z0-9+.-]*://[^/?#\s:@]*:)[^/?#\s@]+@)"
        // NAME=VALUE, NAME: VALUE, "NAME": "VALUE" for credential names; an Authorization
        // value keeps its scheme word. The scheme is atomic and a value already redacted is
        // left alone, so that redacting twice changes nothing.
        R"(|(?<assign>(?i:\b(?:api[_-]?key|x-api-key|access[_-]?token|auth[_-]?token)"
        R"(|refresh[_-]?token|client[_-]?secret|secret[_-]?key|password|passwd|pwd)"
        R"(|(?:proxy-)?authorization)\b)["']?\s*[:=]\s*["']?)"
        R"((?>(?:(?i:bearer|basic|token|bot|digest)\s+)?))(?!\[REDACTED)[^\s"',;&]+)");
}

QString contentRules()
{
    return QStringLiteral(
        // e-mail addresses
        R"((?<email>[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}))"
        // Authorization headers and key shapes: OpenAI/Anthropic sk-…, AWS, GitHub, Slack,
        // Google
        R"(|(?<bearer>\bBearer\s+)[A-Za-z0-9._~+/=-]{8,})"
        R"(|(?<key>\bsk-[A-Za-z0-9_-]{16,}|\bAKIA[0-9A-Z]{16}\b|\bgh[pousr]_[A-Za-z0-9]{20,})"
        R"(|\bgithub_pat_[A-Za-z0-9_]{20,}|\bxox[abprs]-[A-Za-z0-9-]{10,}|\bAIza[0-9A-Za-z_-]{35}))"
        // phone numbers: +CC …, (area) local, or three groups joined by - or .; digits
        // run together or dates (2024-05-01) are not phone numbers
        R"(|(?<phone>(?<![\w+])(?:\+\d{1,3}[ .-]?(?:\(\d{1,4}\)[ .-]?)?\d{1,4}(?:[ .-]?\d{2,4}){2,3})"
        R"(|\(\d{2,4}\)[ .-]?\d{2,4}[ .-]\d{3,4})"
        R"(|\d{2,4}[.-]\d{2,4}[.-]\d{3,4})(?![\w-])))");
}

const QRegularExpression& rules(bool withContent)
{
    static const QRegularExpression all(credentialRules() + QLatin1Char('|') + contentRules(),
                                        QRegularExpression::UseUnicodePropertiesOption);
    static const QRegularExpression credentials(credentialRules(),
                                                QRegularExpression::UseUnicodePropertiesOption);
    return withContent ? all : credentials;
}

} // namespace

// Whether any rule could match. Each needs one of: an '@' (e-mail, URL userinfo); a phone
// number's start ('+' or '(' before a digit, or a digit, '.' or '-' and a digit: a lone digit
// is no phone number, and most prompts have some); a key's prefix; a credential's name. Most
// prompt text has none of them, and skipping the regular expression there is what keeps the
// writer fast. One pass over the text: searching for each word in turn (case-insensitively,
// for the credentials' names) took a fifth of the writer's time on 2 KB prompts.
bool mayHoldSecrets(QStringView text)
{
    static constexpr std::string_view kExact[] = {"sk-",  "Bearer", "AKIA",       "xox",
                                                  "AIza", "ghp_",   "gho_",       "ghu_",
                                                  "ghs_", "ghr_",   "github_pat_"};
    static constexpr std::string_view kAnyCase[] = {"key",  "token", "secret",
                                                    "pass", "pwd",   "authorization"};
    // For each first letter of the words (lower case, from 'a'), their second letters as bits
    // from 'a': a letter is looked at further only where the next one could continue a word
    // (every word's first two characters are letters).
    static constexpr std::array<uint32_t, 26> kSecond = [] {
        std::array<uint32_t, 26> bits{};
        auto add = [&bits](std::string_view w) {
            bits[size_t((w[0] | 0x20) - 'a')] |= 1u << ((w[1] | 0x20) - 'a');
        };
        for (std::string_view w : kExact)
            add(w);
        for (std::string_view w : kAnyCase)
            add(w);
        return bits;
    }();
    // Case-folded as Qt's case-insensitive search compares (so the Kelvin sign is a 'k'); ASCII
    // without a call into Qt's tables, which cost more than the rest of the scan.
    auto fold = [](char16_t c) -> char32_t {
        if (c < 0x80)
            return c >= u'A' && c <= u'Z' ? char32_t(c + 32) : char32_t(c);
        return QChar::toCaseFolded(char32_t(c));
    };
    const qsizetype n = text.size();
    // The length of the decimal digit (as `\d` reads it: any script's, a surrogate pair
    // included) at `i`, or 0.
    auto digitAt = [&](qsizetype i) -> qsizetype {
        if (i >= n)
            return 0;
        const char16_t c = text[i].unicode();
        if (c < 0x80)
            return c >= u'0' && c <= u'9' ? 1 : 0;
        if (QChar::isHighSurrogate(c) && i + 1 < n && QChar::isLowSurrogate(text[i + 1].unicode()))
            return QChar::isDigit(QChar::surrogateToUcs4(c, text[i + 1].unicode())) ? 2 : 0;
        return QChar::isDigit(char32_t(c)) ? 1 : 0;
    };
    // Whether `word` is at `i`, case-folded or exactly.
    auto at = [&](qsizetype i, std::string_view word, bool folded) {
        if (n - i < qsizetype(word.size()))
            return false;
        for (size_t k = 0; k < word.size(); ++k) {
            const char16_t c = text[i + qsizetype(k)].unicode();
            const char16_t w = char16_t(word[k]);
            if (folded ? fold(c) != fold(w) : c != w)
                return false;
        }
        return true;
    };
    for (qsizetype i = 0; i < n; ++i) {
        const char16_t c = text[i].unicode();
        if (const qsizetype d = digitAt(i)) {
            const qsizetype next = i + d;
            if (next < n && (text[next] == u'.' || text[next] == u'-') && digitAt(next + 1))
                return true;
            i = next - 1;
            continue;
        }
        char32_t folded = 0;
        if (c < 0x80) {
            if (c == u'@' || ((c == u'+' || c == u'(') && digitAt(i + 1)))
                return true;
            folded = fold(c);
            if (folded < u'a' || folded > u'z')
                continue; // no word starts with it
        } else {
            folded = fold(c);
            if (folded >= 128 || !QChar::isLetter(folded))
                continue;
        }
        // Most letters, and most pairs of letters, start none of the words.
        if (folded < u'a' || folded > u'z' || i + 1 >= n)
            continue;
        const uint32_t seconds = kSecond[size_t(folded - u'a')];
        const char32_t next = seconds ? fold(text[i + 1].unicode()) : 0;
        if (next < u'a' || next > u'z' || !(seconds >> (next - u'a') & 1u))
            continue;
        for (std::string_view w : kExact) {
            if (char16_t(w[0]) == c && at(i, w, false))
                return true;
        }
        for (std::string_view w : kAnyCase) {
            if (char32_t(w[0]) == folded && at(i, w, true))
                return true;
        }
    }
    return false;
}

namespace {

QString applyRules(const QString& text, bool withContent)
{
    if (!mayHoldSecrets(text))
        return text;
    QRegularExpressionMatchIterator it = rules(withContent).globalMatch(text);
    if (!it.hasNext())
        return text;
    QString out;
    qsizetype last = 0;
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        out += QStringView(text).mid(last, m.capturedStart() - last);
        if (m.capturedLength(QStringLiteral("url")) > 0)
            out += m.captured(QStringLiteral("url")) + QLatin1String("[REDACTED:key]@");
        else if (m.capturedLength(QStringLiteral("assign")) > 0)
            out += m.captured(QStringLiteral("assign")) + QLatin1String("[REDACTED:key]");
        else if (m.capturedLength(QStringLiteral("email")) > 0)
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

// The words of a JSON key: split at '_', '-', '.', ' ' and lower→upper case changes
// ("x-api-key", "apiKey", "gen_ai.request.api_key"), lower-cased.
QStringList keyWords(const QString& key)
{
    QStringList words;
    QString word;
    for (qsizetype i = 0; i < key.size(); ++i) {
        const QChar ch = key.at(i);
        const bool separator = !ch.isLetterOrNumber();
        const bool camel = ch.isUpper() && i > 0 && key.at(i - 1).isLower();
        if ((separator || camel) && !word.isEmpty()) {
            words.append(word);
            word.clear();
        }
        if (!separator)
            word += ch.toLower();
    }
    if (!word.isEmpty())
        words.append(word);
    return words;
}

// The user's patterns compiled, kept by each thread for the patterns it last saw (a call's
// redaction compiled them again for every call).
const QList<QRegularExpression>& compiledPatterns(const QStringList& patterns)
{
    struct Compiled {
        QStringList patterns;
        QList<QRegularExpression> expressions;
    };
    Compiled& c = ThreadSlot<Compiled>::get();
    if (c.patterns != patterns) {
        c.expressions.clear();
        for (const QString& pattern : patterns) {
            QRegularExpression re(pattern, QRegularExpression::UseUnicodePropertiesOption);
            if (re.isValid() && !pattern.isEmpty())
                c.expressions.append(re);
        }
        c.patterns = patterns;
    }
    return c.expressions;
}

struct Redactor {
    bool builtin = true;
    QList<QRegularExpression> user;

    explicit Redactor(const PrivacyPolicy& p)
        : builtin(p.builtinRedaction), user(compiledPatterns(p.userPatterns))
    {}
    QString operator()(const QString& text) const
    {
        QString out = applyRules(text, builtin);
        for (const QRegularExpression& re : user)
            out.replace(re, QStringLiteral("[REDACTED]"));
        return out;
    }
    /// The text redacted, or nothing when no rule changes it.
    std::optional<QString> changed(const QString& text) const
    {
        QString out = (*this)(text);
        if (out.isSharedWith(text) || out == text)
            return std::nullopt;
        return out;
    }
};

std::optional<QJsonValue> redacted(const QJsonValue& v, const Redactor& p, int depth = 0);

// A string holding a JSON object or array (tool-call arguments, OTLP attributes given as JSON
// text) is redacted as JSON, so that its credential-named fields are found too.
std::optional<QString> redactedString(const QString& text, const Redactor& p, int depth)
{
    const QString trimmed = text.trimmed();
    if (depth < 16 &&
        (trimmed.startsWith(QLatin1Char('{')) || trimmed.startsWith(QLatin1Char('[')))) {
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(trimmed.toUtf8(), &error);
        if (error.error == QJsonParseError::NoError) {
            const QJsonValue inner =
                doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array());
            const std::optional<QJsonValue> clean = redacted(inner, p, depth + 1);
            if (!clean)
                return std::nullopt;
            return QString::fromUtf8(
                clean->isObject() ? QJsonDocument(clean->toObject()).toJson(QJsonDocument::Compact)
                                  : QJsonDocument(clean->toArray()).toJson(QJsonDocument::Compact));
        }
    }
    return p.changed(text);
}

// `v` with its secrets replaced, or nothing when it holds none. Most prompts hold none: a
// list or object is read in place, and copied only where a value changes.
std::optional<QJsonValue> redacted(const QJsonValue& v, const Redactor& p, int depth)
{
    if (v.isString()) {
        std::optional<QString> clean = redactedString(v.toString(), p, depth);
        return clean ? std::optional<QJsonValue>(std::move(*clean)) : std::nullopt;
    }
    if (v.isArray()) {
        const QJsonArray a = v.toArray();
        std::optional<QJsonArray> out;
        for (qsizetype i = 0; i < a.size(); ++i) {
            if (std::optional<QJsonValue> clean = redacted(a.at(i), p, depth + 1)) {
                if (!out)
                    out = a;
                (*out)[i] = std::move(*clean);
            }
        }
        return out ? std::optional<QJsonValue>(std::move(*out)) : std::nullopt;
    }
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        std::optional<QJsonObject> out;
        static const QString kReplaced = QStringLiteral("[REDACTED:key]");
        for (auto it = o.constBegin(); it != o.constEnd(); ++it) {
            const QJsonValue value = it.value();
            std::optional<QJsonValue> clean;
            // A number or flag under such a name (token_count, password_min_length) is no
            // secret; a string, list or object is replaced whole.
            if ((value.isString() || value.isObject() || value.isArray()) &&
                isCredentialName(it.key())) {
                if (value != QJsonValue(kReplaced))
                    clean = QJsonValue(kReplaced);
            } else {
                clean = redacted(value, p, depth + 1);
            }
            if (clean) {
                if (!out)
                    out = o;
                out->insert(it.key(), std::move(*clean));
            }
        }
        return out ? std::optional<QJsonValue>(std::move(*out)) : std::nullopt;
    }
    return std::nullopt;
}

// `v` with its secrets replaced (`v` itself when it holds none).
template <typename T> T redactValue(const T& v, const Redactor& p)
{
    std::optional<QJsonValue> clean = redacted(QJsonValue(v), p);
    if (!clean)
        return v;
    if constexpr (std::is_same_v<T, QJsonArray>)
        return clean->toArray();
    else
        return clean->toObject();
}

// The parameters a metadata-only call keeps: settings that shape the call, as numbers, flags
// or short names. Anything else (stop sequences, tools, schemas, headers, base URLs, user
// ids, free-form extras) may carry content or secrets and is dropped.
QJsonObject safeParameters(const QJsonObject& parameters, const Redactor& p)
{
    static const QStringList numeric = {QStringLiteral("temperature"),
                                        QStringLiteral("top_p"),
                                        QStringLiteral("top_k"),
                                        QStringLiteral("min_p"),
                                        QStringLiteral("max_tokens"),
                                        QStringLiteral("max_completion_tokens"),
                                        QStringLiteral("max_new_tokens"),
                                        QStringLiteral("n"),
                                        QStringLiteral("seed"),
                                        QStringLiteral("presence_penalty"),
                                        QStringLiteral("frequency_penalty"),
                                        QStringLiteral("repetition_penalty"),
                                        QStringLiteral("stream"),
                                        QStringLiteral("logprobs"),
                                        QStringLiteral("top_logprobs"),
                                        QStringLiteral("parallel_tool_calls"),
                                        QStringLiteral("timeout")};
    static const QStringList names = {QStringLiteral("model"), QStringLiteral("reasoning_effort"),
                                      QStringLiteral("service_tier")};
    QJsonObject out;
    for (auto it = parameters.begin(); it != parameters.end(); ++it) {
        const QJsonValue v = it.value();
        if (numeric.contains(it.key()) && (v.isDouble() || v.isBool()))
            out.insert(it.key(), v);
        else if (names.contains(it.key()) && v.isString() && v.toString().size() <= 200)
            out.insert(it.key(), p(v.toString()));
    }
    return out;
}

bool globMatches(const QString& pattern, const QString& text)
{
    const QByteArray p = pattern.toUtf8();
    const QByteArray t = text.toUtf8();
    return globMatch(std::string_view(p.constData(), size_t(p.size())),
                     std::string_view(t.constData(), size_t(t.size())));
}

} // namespace

namespace {

bool credentialWords(const QString& key)
{
    static const QStringList secretWords = {
        QStringLiteral("authorization"), QStringLiteral("auth"),   QStringLiteral("password"),
        QStringLiteral("passwd"),        QStringLiteral("pwd"),    QStringLiteral("passphrase"),
        QStringLiteral("secret"),        QStringLiteral("token"),  QStringLiteral("apikey"),
        QStringLiteral("bearer"),        QStringLiteral("cookie"), QStringLiteral("credential"),
        QStringLiteral("credentials")};
    static const QStringList keyKinds = {QStringLiteral("api"),     QStringLiteral("access"),
                                         QStringLiteral("private"), QStringLiteral("secret"),
                                         QStringLiteral("signing"), QStringLiteral("session")};
    const QStringList words = keyWords(key);
    for (qsizetype i = 0; i < words.size(); ++i) {
        if (secretWords.contains(words.at(i)))
            return true;
        if (words.at(i) == QLatin1String("key") && i > 0 && keyKinds.contains(words.at(i - 1)))
            return true;
    }
    return false;
}

} // namespace

bool isCredentialName(const QString& key)
{
    // Every call's messages bring the same few keys (role, content, name…): each thread
    // remembers its answers rather than splitting the key into words again. Bounded: keys past
    // it are split each time.
    struct Answers {
        QHash<QString, bool> byKey;
    };
    QHash<QString, bool>& answers = ThreadSlot<Answers>::get().byKey;
    if (auto it = answers.constFind(key); it != answers.constEnd())
        return *it;
    const bool credential = credentialWords(key);
    if (answers.size() < 4096)
        answers.insert(key, credential);
    return credential;
}

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
    // (The program's absolute path asks the system for the working folder: not for every call
    // of a log that names no folder.)
    if (!call.programPath.isEmpty() && !metadataOnlyFolders.isEmpty()) {
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
    const Redactor redactor(*this);
    if (metadataOnly(call)) {
        call.messages = {};
        call.reply.clear();
        call.toolCalls = {};
        call.inputs = {};
        call.parameters = safeParameters(call.parameters, redactor);
        call.contentOmitted = true;
    }
    // Every stored text but the identities Hako or the sender made up (uid, run, trace node,
    // program hash), which hold no user text and must stay what they are to be found again.
    call.parameters = redactValue(call.parameters, redactor);
    call.messages = redactValue(call.messages, redactor);
    call.reply = redactor(call.reply);
    call.toolCalls = redactValue(call.toolCalls, redactor);
    call.inputs = redactValue(call.inputs, redactor);
    call.error = redactor(call.error);
    call.promptName = redactor(call.promptName);
    call.programPath = redactor(call.programPath);
    call.span.file = redactor(call.span.file);
    for (QString& tag : call.tags)
        tag = redactor(tag);
    call.model = redactor(call.model);
    call.endpoint = redactor(call.endpoint);
    call.finishReason = redactor(call.finishReason);
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
