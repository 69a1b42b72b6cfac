// No secret survives the prompt log: every kind of secret, placed in every field a call stores,
// is gone from the SQLite file and from both export formats — with redaction, in "metadata
// only" mode, and (for credentials) with the built-in content rules switched off.
#include "core/promptlog/callexchange.h"
#include "core/promptlog/privacypolicy_p.h"
#include "core/promptlog/promptlog.h"
#include "core/promptlog/sqlshared_p.h"

#include <QBuffer>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using namespace hako::promptlog;

namespace {

struct SecretKind {
    const char* name;
    QString text;      ///< how it reads in free text
    QJsonObject json;  ///< how it sits in a JSON field (a credential-named key, or a text)
    QByteArray needle; ///< what must not remain
    bool credential;   ///< removed even with the built-in content rules off
};

QList<SecretKind> secretKinds()
{
    auto note = [](const QString& t) {
        return QJsonObject{{QStringLiteral("note"), t}};
    };
    const QString bearer =
        QStringLiteral("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIi.c2ln");
    const QString github = QStringLiteral("token ghp_Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2");
    const QString aws = QStringLiteral("key AKIAZ7Y6X5W4V3U2T1S0 here");
    const QString openai = QStringLiteral("use sk-proj-Q1w2E3r4T5y6U7i8O9p0A1s2 now");
    const QString email = QStringLiteral("write to hanako.suzuki@example.co.jp");
    const QString url = QStringLiteral("http://hako:Pa55w0rdXyZq@collector.internal:4318/v1");
    return {
        {"bearer", bearer, note(bearer), "eyJhbGciOiJIUzI1NiJ9", false},
        {"github", github, note(github), "Z9y8X7w6V5u4T3s2R1q0", false},
        {"aws", aws, note(aws), "AKIAZ7Y6X5W4V3U2T1S0", false},
        {"openai", openai, note(openai), "Q1w2E3r4T5y6U7i8O9p0", false},
        {"email", email, note(email), "hanako.suzuki", false},
        {"api_key attribute", QStringLiteral("api_key=c2VjcmV0LWFwaS1rZXktdmFsdWU"),
         QJsonObject{{QStringLiteral("api_key"), QStringLiteral("c2VjcmV0LWFwaS1rZXktdmFsdWU")}},
         "c2VjcmV0LWFwaS1rZXktdmFsdWU", true},
        {"Authorization attribute",
         QStringLiteral("Authorization: Basic aGFrbzpodW50ZXIyLXNlY3JldA=="),
         QJsonObject{{QStringLiteral("Authorization"),
                      QStringLiteral("Basic aGFrbzpodW50ZXIyLXNlY3JldA==")}},
         "aGFrbzpodW50ZXIyLXNlY3JldA", true},
        {"api key header", QStringLiteral("X-Api-Key: k3y-Wh1ch-Is-Secr3t"),
         QJsonObject{
             {QStringLiteral("headers"),
              QJsonObject{{QStringLiteral("X-Api-Key"), QStringLiteral("k3y-Wh1ch-Is-Secr3t")}}}},
         "Wh1ch-Is-Secr3t", true},
        {"url password", url, QJsonObject{{QStringLiteral("base_url"), url}}, "Pa55w0rdXyZq", true},
    };
}

const QStringList kFields = {
    QStringLiteral("parameters"),  QStringLiteral("messages"),    QStringLiteral("reply"),
    QStringLiteral("toolCalls"),   QStringLiteral("inputs"),      QStringLiteral("error"),
    QStringLiteral("promptName"),  QStringLiteral("programPath"), QStringLiteral("spanFile"),
    QStringLiteral("tags"),        QStringLiteral("model"),       QStringLiteral("endpoint"),
    QStringLiteral("finishReason")};

// A JSON field holds the secret both ways: under its key and as a string among others.
QJsonObject both(const SecretKind& k)
{
    return QJsonObject{{QStringLiteral("k"), k.json}, {QStringLiteral("s"), k.text}};
}

QString compact(const QJsonObject& o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

CallRecord callWithSecret(const SecretKind& k, const QString& field)
{
    CallRecord c;
    c.uid = QStringLiteral("call-1");
    c.runId = QStringLiteral("run-1");
    c.programPath = QStringLiteral("/work/p.pdl");
    c.promptName = QStringLiteral("ask");
    c.tags = {QStringLiteral("private")};
    c.model = QStringLiteral("gpt-4o");
    c.endpoint = QStringLiteral("local");
    c.parameters = QJsonObject{{QStringLiteral("temperature"), 0.2}};
    c.messages = QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                        {QStringLiteral("content"), QStringLiteral("hi")}}};
    c.reply = QStringLiteral("hello");
    c.startedAt = QDateTime::currentMSecsSinceEpoch();
    c.promptTokens = 3;
    const QString text = QStringLiteral("see %1 please").arg(k.text);
    if (field == QLatin1String("parameters"))
        c.parameters =
            QJsonObject{{QStringLiteral("temperature"), 0.2}, {QStringLiteral("extra"), both(k)}};
    else if (field == QLatin1String("messages"))
        c.messages = QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                            {QStringLiteral("content"), text}},
                                QJsonObject{{QStringLiteral("role"), QStringLiteral("tool")},
                                            {QStringLiteral("content"), compact(k.json)},
                                            {QStringLiteral("meta"), both(k)}}};
    else if (field == QLatin1String("reply"))
        c.reply = text;
    else if (field == QLatin1String("toolCalls"))
        c.toolCalls = QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("fetch")},
                                             {QStringLiteral("arguments"), compact(both(k))}}};
    else if (field == QLatin1String("inputs"))
        c.inputs = both(k);
    else if (field == QLatin1String("error"))
        c.error = text;
    else if (field == QLatin1String("promptName"))
        c.promptName = text;
    else if (field == QLatin1String("programPath"))
        c.programPath = QStringLiteral("/work/") + k.text + QStringLiteral("/p.pdl");
    else if (field == QLatin1String("spanFile"))
        c.span = {k.text, 3, 1, 3, 10};
    else if (field == QLatin1String("tags"))
        c.tags << QStringLiteral("note:") + k.text;
    else if (field == QLatin1String("model"))
        c.model = text;
    else if (field == QLatin1String("endpoint"))
        c.endpoint = text;
    else if (field == QLatin1String("finishReason"))
        c.finishReason = text;
    return c;
}

// The stored field as text, to see that it was stored (redacted) rather than lost.
QString fieldText(const CallRecord& c, const QString& field)
{
    if (field == QLatin1String("parameters"))
        return compact(c.parameters);
    if (field == QLatin1String("messages"))
        return QString::fromUtf8(QJsonDocument(c.messages).toJson());
    if (field == QLatin1String("toolCalls"))
        return QString::fromUtf8(QJsonDocument(c.toolCalls).toJson());
    if (field == QLatin1String("inputs"))
        return compact(c.inputs);
    if (field == QLatin1String("tags"))
        return c.tags.join(QLatin1Char(' '));
    if (field == QLatin1String("spanFile"))
        return c.span.file;
    if (field == QLatin1String("reply"))
        return c.reply;
    if (field == QLatin1String("error"))
        return c.error;
    if (field == QLatin1String("promptName"))
        return c.promptName;
    if (field == QLatin1String("programPath"))
        return c.programPath;
    if (field == QLatin1String("model"))
        return c.model;
    if (field == QLatin1String("endpoint"))
        return c.endpoint;
    return c.finishReason;
}

QByteArray fileBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// One to `most` of `pieces`, picked at random, end to end.
QString joinedPieces(QRandomGenerator& rng, const QStringList& pieces, int most)
{
    QString text;
    const int n = rng.bounded(1, most + 1);
    for (int k = 0; k < n; ++k)
        text += pieces.at(rng.bounded(int(pieces.size())));
    return text;
}

// A random JSON value of a call's shape: objects under ordinary and credential-like keys,
// lists, numbers and texts that hold secrets or JSON of their own, or nothing to redact.
QJsonValue randomJson(QRandomGenerator& rng, int depth)
{
    static const QStringList keys = {QStringLiteral("role"),          QStringLiteral("content"),
                                     QStringLiteral("api_key"),       QStringLiteral("token_count"),
                                     QStringLiteral("password"),      QStringLiteral("name"),
                                     QStringLiteral("Authorization"), QStringLiteral("arguments")};
    static const QStringList texts = {
        QStringLiteral("hello"),
        QStringLiteral("天気は?"),
        QStringLiteral("mail hanako@example.jp"),
        QStringLiteral("sk-abcdefghijklmnopqrstuvwx"),
        QStringLiteral("[REDACTED:key]"),
        QStringLiteral("{\"api_key\": \"x\", \"q\": \"call 03-1234-5678\"}"),
        QStringLiteral("[1, {\"note\": \"plain\"}]"),
        QStringLiteral("{not json")};
    const int kind = depth >= 3 ? rng.bounded(3) : rng.bounded(5);
    switch (kind) {
    case 0:
        return texts.at(rng.bounded(int(texts.size())));
    case 1:
        return rng.bounded(100);
    case 2:
        return rng.bounded(2) == 1 ? QJsonValue(true) : QJsonValue(QJsonValue::Null);
    case 3: {
        QJsonArray a;
        for (int i = rng.bounded(4); i > 0; --i)
            a.append(randomJson(rng, depth + 1));
        return a;
    }
    default: {
        QJsonObject o;
        for (int i = rng.bounded(4); i > 0; --i)
            o.insert(keys.at(rng.bounded(int(keys.size()))), randomJson(rng, depth + 1));
        return o;
    }
    }
}

// What the policy does to a stored JSON value, by its definition: a string, list or object
// under a credential's name replaced whole; a text holding a JSON object or list redacted as
// JSON (written compactly when anything in it changed); any other text by the rules.
QJsonValue redactedByDefinition(const QJsonValue& v, const PrivacyPolicy& policy, int depth = 0)
{
    if (v.isString()) {
        const QString text = v.toString();
        const QString trimmed = text.trimmed();
        if (depth < 16 && (trimmed.startsWith(u'{') || trimmed.startsWith(u'['))) {
            QJsonParseError error;
            const QJsonDocument doc = QJsonDocument::fromJson(trimmed.toUtf8(), &error);
            if (error.error == QJsonParseError::NoError) {
                const QJsonValue inner =
                    doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(doc.array());
                const QJsonValue clean = redactedByDefinition(inner, policy, depth + 1);
                if (clean == inner)
                    return text;
                return QString::fromUtf8(
                    clean.isObject()
                        ? QJsonDocument(clean.toObject()).toJson(QJsonDocument::Compact)
                        : QJsonDocument(clean.toArray()).toJson(QJsonDocument::Compact));
            }
        }
        return policy.redact(text);
    }
    if (v.isArray()) {
        QJsonArray out;
        for (const QJsonValue& item : v.toArray())
            out.append(redactedByDefinition(item, policy, depth + 1));
        return out;
    }
    if (v.isObject()) {
        QJsonObject out;
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            const QJsonValue value = it.value();
            const bool whole = isCredentialName(it.key()) &&
                               (value.isString() || value.isArray() || value.isObject());
            out.insert(it.key(), whole ? QJsonValue(QStringLiteral("[REDACTED:key]"))
                                       : redactedByDefinition(value, policy, depth + 1));
        }
        return out;
    }
    return v;
}

} // namespace

class TestPromptLogSecrets : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_n = 0;

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // The quick check that lets most prompts skip the redaction rules misses nothing the rules
    // could need: against the plain definition (Qt's own searches, one word at a time) over
    // generated texts made of the words' pieces, other cases, look-alike characters
    // (the Kelvin sign folds to 'k', full-width digits are digits) and Japanese.
    void quickCheckAgreesWithItsDefinition()
    {
        auto oracle = [](const QString& text) {
            const QList<uint> points = text.toUcs4();
            auto digit = [&points](qsizetype i) {
                return i < points.size() && QChar::isDigit(char32_t(points[i]));
            };
            for (qsizetype i = 0; i < points.size(); ++i) {
                const uint c = points[i];
                if (c == '@' || ((c == '+' || c == '(') && digit(i + 1)) ||
                    (digit(i) && i + 1 < points.size() &&
                     (points[i + 1] == '.' || points[i + 1] == '-') && digit(i + 2)))
                    return true;
            }
            for (const char* w : {"sk-", "Bearer", "AKIA", "xox", "AIza", "ghp_", "gho_", "ghu_",
                                  "ghs_", "ghr_", "github_pat_"})
                if (text.contains(QLatin1String(w)))
                    return true;
            for (const char* w : {"key", "token", "secret", "pass", "pwd", "authorization"})
                if (text.contains(QLatin1String(w), Qt::CaseInsensitive))
                    return true;
            return false;
        };
        const QStringList pieces = {
            QStringLiteral("s"),         QStringLiteral("k"),       QStringLiteral("-"),
            QStringLiteral("sk"),        QStringLiteral("Bear"),    QStringLiteral("er"),
            QStringLiteral("AK"),        QStringLiteral("IA"),      QStringLiteral("xo"),
            QStringLiteral("x"),         QStringLiteral("AI"),      QStringLiteral("za"),
            QStringLiteral("ke"),        QStringLiteral("Y"),       QStringLiteral("KE"),
            QStringLiteral("to"),        QStringLiteral("KEN"),     QStringLiteral("sec"),
            QStringLiteral("RET"),       QStringLiteral("pa"),      QStringLiteral("SS"),
            QStringLiteral("pw"),        QStringLiteral("D"),       QStringLiteral("author"),
            QStringLiteral("IZATION"),   QStringLiteral(" "),       QStringLiteral("\u212A"),
            QStringLiteral("\uFF11"),    QStringLiteral("\u017F"),  QStringLiteral("要約"),
            QStringLiteral("@"),         QStringLiteral("_"),       QStringLiteral("\U0001F469"),
            QStringLiteral("1"),         QStringLiteral("42"),      QStringLiteral("+"),
            QStringLiteral("("),         QStringLiteral("."),       QStringLiteral("gh"),
            QStringLiteral("p_"),        QStringLiteral("github_"), QStringLiteral("pat_"),
            QStringLiteral("\U0001D7D7")};
        QRandomGenerator rng(20261128);
        int positives = 0;
        for (int i = 0; i < 20000; ++i) {
            const QString text = joinedPieces(rng, pieces, 7);
            const bool expected = oracle(text);
            positives += expected;
            if (mayHoldSecrets(text) != expected)
                QFAIL(qPrintable(QStringLiteral("%1: expected %2").arg(text).arg(expected)));
        }
        // Both answers were exercised.
        QVERIFY(positives > 1000);
        QVERIFY(positives < 19000);
        QVERIFY(mayHoldSecrets(QStringLiteral("my \u212Aey is")));
        QVERIFY(!mayHoldSecrets(QStringLiteral("要約してください。")));
        QVERIFY(!mayHoldSecrets(QStringLiteral("Question number 1: what is the weather?")));
        QVERIFY(mayHoldSecrets(QStringLiteral("call 03-1234-5678")));
    }

    // What the quick check lets through unexamined, the rules leave as it is: generated texts
    // of phone numbers', e-mail addresses' and keys' pieces go through the policy, and every
    // one the policy changes is one the check flagged.
    void quickCheckMissesNothingTheRulesReplace()
    {
        const QStringList pieces = {QStringLiteral("+81"),
                                    QStringLiteral("+"),
                                    QStringLiteral("(03)"),
                                    QStringLiteral("("),
                                    QStringLiteral(")"),
                                    QStringLiteral("1234"),
                                    QStringLiteral("90"),
                                    QStringLiteral("5678"),
                                    QStringLiteral("-"),
                                    QStringLiteral("."),
                                    QStringLiteral(" "),
                                    QStringLiteral("\uFF10\uFF13"),
                                    QStringLiteral("a"),
                                    QStringLiteral("@"),
                                    QStringLiteral("example.jp"),
                                    QStringLiteral("ghp_"),
                                    QStringLiteral("gh"),
                                    QStringLiteral("s_"),
                                    QStringLiteral("Z9y8X7w6V5u4T3s2R1q0P9o8"),
                                    QStringLiteral("電話"),
                                    QStringLiteral("sk-"),
                                    QStringLiteral("AKIA"),
                                    QStringLiteral("2024-05-01"),
                                    QStringLiteral("\U0001D7D8"),
                                    QStringLiteral("github_pat_"),
                                    QStringLiteral("x"),
                                    QStringLiteral("03-1234-5678"),
                                    QStringLiteral("+81 90 1234 5678"),
                                    QStringLiteral("hanako@example.jp"),
                                    QStringLiteral("(045) 123-4567")};
        QRandomGenerator rng(20261129);
        PrivacyPolicy policy;
        int changed = 0;
        int skipped = 0;
        for (int i = 0; i < 20000; ++i) {
            const QString text = joinedPieces(rng, pieces, 8);
            CallRecord call;
            call.reply = text;
            policy.apply(call);
            const bool flagged = mayHoldSecrets(text);
            changed += call.reply != text;
            skipped += !flagged;
            if (call.reply != text && !flagged)
                QFAIL(qPrintable(QStringLiteral("%1 → %2, not flagged").arg(text, call.reply)));
        }
        qInfo("%d changed, %d not examined", changed, skipped);
        // Both kinds of text were there.
        QVERIFY(changed > 1000);
        QVERIFY(skipped > 1000);
    }

    // A call's JSON fields (messages, parameters, tool calls, inputs) come out of the policy as
    // its definition says, over generated values with and without anything to redact; those
    // with nothing come out as the same value.
    void jsonFieldsAreRedactedAsDefined()
    {
        QRandomGenerator rng(20261130);
        PrivacyPolicy policy;
        int unchanged = 0;
        for (int i = 0; i < 3000; ++i) {
            QJsonArray messages;
            for (int m = rng.bounded(1, 4); m > 0; --m)
                messages.append(randomJson(rng, 1));
            QJsonObject inputs;
            inputs.insert(QStringLiteral("question"), randomJson(rng, 1));
            CallRecord call;
            call.messages = messages;
            call.inputs = inputs;
            policy.apply(call);
            const QJsonValue want = redactedByDefinition(messages, policy);
            if (QJsonValue(call.messages) != want)
                QFAIL(qPrintable(
                    QStringLiteral("%1\n→ %2\nwanted %3")
                        .arg(QString::fromUtf8(QJsonDocument(messages).toJson()),
                             QString::fromUtf8(QJsonDocument(call.messages).toJson()),
                             QString::fromUtf8(QJsonDocument(want.toArray()).toJson()))));
            QCOMPARE(QJsonValue(call.inputs), redactedByDefinition(inputs, policy));
            unchanged += call.messages == messages;
        }
        // Both kinds were there.
        QVERIFY(unchanged > 100);
        QVERIFY(unchanged < 2900);
    }

    // A call's tags are stored as the JSON text Qt writes for them, also when a tag needs
    // escaping.
    void tagsAreWrittenAsJson()
    {
        const QStringList pieces = {QStringLiteral("otel"), QStringLiteral("service:api"),
                                    QStringLiteral(" "),    QStringLiteral("\""),
                                    QStringLiteral("\\"),   QStringLiteral("/"),
                                    QStringLiteral("\n"),   QStringLiteral("\x7f"),
                                    QStringLiteral("タグ"), QStringLiteral("\U0001F469"),
                                    QStringLiteral("~")};
        QRandomGenerator rng(20261130);
        for (int i = 0; i < 5000; ++i) {
            QStringList tags;
            for (int t = rng.bounded(4); t > 0; --t)
                tags.append(rng.bounded(5) == 0 ? QString() : joinedPieces(rng, pieces, 4));
            const QString want =
                tags.isEmpty() ? QString()
                               : QString::fromUtf8(QJsonDocument(QJsonArray::fromStringList(tags))
                                                       .toJson(QJsonDocument::Compact));
            QCOMPARE(tagsText(tags), want);
        }
    }

    void noSecretIsStoredOrExported_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("field");
        const QList<SecretKind> kinds = secretKinds();
        for (const char* mode : {"redact", "metadata-only", "builtin-off"}) {
            for (int k = 0; k < kinds.size(); ++k) {
                if (QLatin1String(mode) == QLatin1String("builtin-off") && !kinds[k].credential)
                    continue;
                for (const QString& field : kFields)
                    QTest::addRow("%s/%s/%s", mode, kinds[k].name, qPrintable(field))
                        << QString::fromLatin1(mode) << k << field;
            }
        }
    }
    void noSecretIsStoredOrExported()
    {
        QFETCH(QString, mode);
        QFETCH(int, kind);
        QFETCH(QString, field);
        const SecretKind k = secretKinds().at(kind);

        PromptLogOptions options;
        options.batchIntervalMs = 5;
        if (mode == QLatin1String("metadata-only"))
            options.privacy.metadataOnlyTags = {QStringLiteral("private")};
        if (mode == QLatin1String("builtin-off"))
            options.privacy.builtinRedaction = false;
        const QString path = m_dir.filePath(QStringLiteral("log%1.sqlite").arg(++m_n));
        QString error;
        auto log = PromptLog::open(path, &error, options);
        QVERIFY2(log && error.isEmpty(), qPrintable(error));
        const CallRecord call = callWithSecret(k, field);
        QVERIFY(compact(call.toJson()).toUtf8().contains(k.needle)); // the case is not vacuous
        log->record(call);
        QVERIFY(log->flush());

        auto stored = log->find(call.uid);
        QVERIFY2(stored, stored ? "" : qPrintable(stored.error().message));
        const QByteArray storedJson = compact(stored->toJson()).toUtf8();
        QVERIFY2(!storedJson.contains(k.needle), storedJson.constData());
        const QString kept = fieldText(*stored, field);
        if (mode == QLatin1String("metadata-only"))
            QVERIFY(stored->contentOmitted);
        else
            QVERIFY2(kept.contains(QLatin1String("REDACTED")), qPrintable(kept));

        for (ExportFormat format : {ExportFormat::Jsonl, ExportFormat::Csv}) {
            QBuffer out;
            out.open(QIODevice::WriteOnly);
            auto n = exportCalls(*log, {}, format, out);
            QVERIFY2(n, n ? "" : qPrintable(n.error().message));
            QCOMPARE(*n, int64_t(1));
            QVERIFY2(!out.data().contains(k.needle), out.data().constData());
        }

        // Nor anywhere in the file: not in a full-text index, not in the journal.
        log.reset();
        const QDir dir(m_dir.path());
        for (const QString& name : dir.entryList({QFileInfo(path).fileName() + QLatin1Char('*')}))
            QVERIFY2(!fileBytes(dir.filePath(name)).contains(k.needle), qPrintable(name));
    }

    // Calls stored under laxer settings leave through the rules as they stand.
    void exportAppliesTodaysRules()
    {
        const QString path = m_dir.filePath(QStringLiteral("lax.sqlite"));
        PromptLogOptions lax;
        lax.privacy.builtinRedaction = false;
        QString error;
        auto log = PromptLog::open(path, &error, lax);
        QVERIFY2(log && error.isEmpty(), qPrintable(error));
        CallRecord c = callWithSecret(secretKinds().at(4), QStringLiteral("reply")); // e-mail
        log->record(c);
        QVERIFY(log->flush());
        QCOMPARE(log->find(c.uid)->reply, c.reply);
        log.reset();

        log = PromptLog::open(path, &error, PromptLogOptions{});
        QVERIFY2(log && error.isEmpty(), qPrintable(error));
        QBuffer out;
        out.open(QIODevice::WriteOnly);
        QVERIFY(exportCalls(*log, {}, ExportFormat::Jsonl, out));
        QVERIFY(!out.data().contains("hanako.suzuki"));
        QVERIFY(out.data().contains("[REDACTED:email]"));
    }

    // Metadata only keeps the settings that shape a call, nothing that could carry content.
    void metadataOnlyKeepsSafeParameters()
    {
        PrivacyPolicy p;
        p.metadataOnlyTags = {QStringLiteral("private")};
        CallRecord c;
        c.tags = {QStringLiteral("private")};
        c.parameters =
            QJsonObject{{QStringLiteral("temperature"), 0.2},
                        {QStringLiteral("max_tokens"), 200},
                        {QStringLiteral("stream"), true},
                        {QStringLiteral("model"), QStringLiteral("gpt-4o")},
                        {QStringLiteral("stop"), QJsonArray{QStringLiteral("Customer Yamada:")}},
                        {QStringLiteral("user"), QStringLiteral("yamada")},
                        {QStringLiteral("base_url"), QStringLiteral("http://10.0.0.5/v1")},
                        {QStringLiteral("temperature_note"), QStringLiteral("free text")},
                        {QStringLiteral("max_tokens_text"), QStringLiteral("ok")},
                        {QStringLiteral("seed"), QStringLiteral("not a number")}};
        p.apply(c);
        QCOMPARE(c.parameters, (QJsonObject{{QStringLiteral("temperature"), 0.2},
                                            {QStringLiteral("max_tokens"), 200},
                                            {QStringLiteral("stream"), true},
                                            {QStringLiteral("model"), QStringLiteral("gpt-4o")}}));
    }

    void credentialNames_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("credential");
        for (const char* yes :
             {"api_key", "apiKey", "x-api-key", "X-API-KEY", "Authorization", "proxy-authorization",
              "password", "db_password", "token", "access_token", "refreshToken", "client_secret",
              "secret", "Cookie", "gen_ai.request.api_key", "aws_secret_access_key", "private_key",
              "credentials"})
            QTest::addRow("%s", yes) << QString::fromLatin1(yes) << true;
        for (const char* no : {"max_tokens", "tokens", "keyword", "key", "model", "author",
                               "temperature", "passage", "monkey", "base_url"})
            QTest::addRow("%s", no) << QString::fromLatin1(no) << false;
    }
    void credentialNames()
    {
        QFETCH(QString, key);
        QFETCH(bool, credential);
        QCOMPARE(isCredentialName(key), credential);
    }
};

QTEST_GUILESS_MAIN(TestPromptLogSecrets)
#include "tst_promptlogsecrets.moc"
