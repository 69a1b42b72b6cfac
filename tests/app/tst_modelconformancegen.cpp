// The model-calling conformance suite: every program of tests/data/conformance/model/programs run
// with `hako run --stream none` and `--stream result` against the local OpenAI-compatible test
// server (its default echo reply), compared with what the reference interpreter printed and sent
// over a server that answers the same way (tests/tools/refpdl/gen_model_cases.py recorded it in
// model/cases.json). Per mode: stdout, the exit status (and a failure's line in the reference's
// `file:LINE - ` form), and every request: method, path, the body as JSON and the headers the
// reference sent beyond the ordinary ones.
//
// What the comparison ignores, and why:
// - the order of keys in a body (JSON objects are unordered);
// - a key whose value is null inside a message: the reference keeps LiteLLM's reply object in the
//   context and sends it back with LiteLLM's null fields (`tool_calls`, `function_call`), whose
//   set depends on LiteLLM's version, not on PDL;
// - the order of requests sent concurrently (`map`): they are matched as a set;
// - where a request goes: the recording's stand-ins send every provider to the one server and
//   name the model as Hako does (`openai/`, `ollama/`, `ollama_chat/` stripped; other prefixes
//   kept, as a LiteLLM proxy receives them); the server's address in a body reads `SERVER`.
//
// tests/data/conformance/model-differences.txt lists the cases that differ, `case: reason`. The
// test fails on a difference not listed and on a listed case that conforms in both modes.
#include "conformancefiles.h"
#include "openaitestserver.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QtTest>

#include <nlohmann/json.hpp>

using json = nlohmann::json;
using hako::testing::OpenAiTestServer;
using hako::testing::RecordedRequest;

namespace {

QString modelDir()
{
    return QStringLiteral(HAKO_TEST_DATA_DIR "/conformance/model");
}

QString differencesFile()
{
    return QStringLiteral(HAKO_TEST_DATA_DIR "/conformance/model-differences.txt");
}

// Drops null-valued keys of the messages (see the file's comment); the rest stays as sent.
json normalisedBody(json body)
{
    if (body.is_object() && body.contains("messages") && body["messages"].is_array()) {
        for (json& m : body["messages"]) {
            if (!m.is_object())
                continue;
            for (auto it = m.begin(); it != m.end();) {
                if (it->is_null())
                    it = m.erase(it);
                else
                    ++it;
            }
        }
    }
    return body;
}

QString shown(const json& j)
{
    return QString::fromStdString(j.dump());
}

// Empty when Hako's requests are the reference's, in order; otherwise the first that differs.
QString compareInOrder(const json& want, const QList<RecordedRequest>& got, const QString& url)
{
    if (got.size() != qsizetype(want.size()))
        return QStringLiteral("%1 requests; the reference sent %2")
            .arg(got.size())
            .arg(want.size());
    for (int i = 0; i < got.size(); ++i) {
        const json& w = want[size_t(i)];
        const RecordedRequest& r = got.at(i);
        if (r.method.toStdString() != w["method"].get<std::string>() ||
            r.path.toStdString() != w["path"].get<std::string>())
            return QStringLiteral("request %1: %2 %3; the reference: %4 %5")
                .arg(i)
                .arg(QString::fromUtf8(r.method), QString::fromUtf8(r.path),
                     QString::fromStdString(w["method"].get<std::string>()),
                     QString::fromStdString(w["path"].get<std::string>()));
        const QByteArray text = QByteArray(r.body).replace(url.toUtf8(), "SERVER");
        const json body = normalisedBody(json::parse(text.begin(), text.end(), nullptr, false));
        const json wantBody = normalisedBody(w["body"]);
        if (body != wantBody)
            return QStringLiteral("request %1 body\n  hako:      %2\n  reference: %3")
                .arg(i)
                .arg(shown(body), shown(wantBody));
        for (auto h = w["headers"].begin(); h != w["headers"].end(); ++h) {
            const QByteArray value = r.header(QByteArray::fromStdString(h.key()));
            if (value.toStdString() != h.value().get<std::string>())
                return QStringLiteral("request %1 header %2: '%3'; the reference: '%4'")
                    .arg(i)
                    .arg(QString::fromStdString(h.key()), QString::fromUtf8(value),
                         QString::fromStdString(h.value().get<std::string>()));
        }
    }
    return {};
}

// compareInOrder(), or the same requests in another order: `map` sends concurrently, so the
// order in which its requests reach the server is not the program's.
QString compareRequests(const json& want, const QList<RecordedRequest>& got, const QString& url)
{
    const QString inOrder = compareInOrder(want, got, url);
    if (inOrder.isEmpty() || got.size() != qsizetype(want.size()))
        return inOrder;
    QList<RecordedRequest> rest = got;
    for (const json& w : want) {
        bool found = false;
        for (qsizetype i = 0; i < rest.size() && !found; ++i) {
            if (compareInOrder(json::array({w}), {rest.at(i)}, url).isEmpty()) {
                rest.removeAt(i);
                found = true;
            }
        }
        if (!found)
            return inOrder;
    }
    return {};
}

// The reference's error lines (`file:LINE - message`) as line numbers.
QList<int> referenceLines(const json& mode)
{
    QList<int> lines;
    static const QRegularExpression refLine(QStringLiteral("^[^:]+:(\\d+) - "));
    for (const auto& line : mode.value("errors", json::array())) {
        const auto m = refLine.match(QString::fromStdString(line.get<std::string>()));
        if (m.hasMatch() && m.captured(1).toInt() > 0)
            lines << m.captured(1).toInt();
    }
    return lines;
}

QString compareFailure(const json& mode, const QString& err)
{
    const QList<int> want = referenceLines(mode);
    if (want.isEmpty())
        return {};
    static const QRegularExpression ourLine(
        QStringLiteral("^[^\\s][^\\n]*?\\.pdl:(\\d+)(?::\\d+)?(?: - |: )"),
        QRegularExpression::MultilineOption);
    for (auto it = ourLine.globalMatch(err); it.hasNext();) {
        if (want.contains(it.next().captured(1).toInt()))
            return {};
    }
    return QStringLiteral("the reference reports line %1; hako said: %2")
        .arg(QString::number(want.first()), err);
}

// Runs one case in one stream mode; empty when Hako conforms, otherwise what differs.
QString runMode(const json& c, const QString& mode)
{
    OpenAiTestServer server;
    if (!server.start())
        return QStringLiteral("the test server did not start");
    const QString url = server.baseUrl();
    const QString program =
        modelDir() + QLatin1Char('/') + QString::fromStdString(c["program"].get<std::string>());
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "OPENAI_API_BASE"})
        env.remove(QString::fromLatin1(name));
    env.insert(QStringLiteral("OLLAMA_API_BASE"),
               QStringLiteral("http://127.0.0.1:%1").arg(server.port()));
    env.insert(QStringLiteral("OPENAI_BASE_URL"), url);
    env.insert(QStringLiteral("OPENAI_API_KEY"), QStringLiteral("sk-test"));
    // Providers Hako reaches through a LiteLLM proxy (watsonx/…) go to the same server.
    env.insert(QStringLiteral("LITELLM_PROXY_API_BASE"), url);
    env.insert(QStringLiteral("HAKO_KEYRING"), QStringLiteral("0"));
    p.setProcessEnvironment(env);
    p.setWorkingDirectory(QFileInfo(program).absolutePath());
    const QString scope = QStringLiteral("{\"server\": \"%1\"}").arg(url);
    p.start(QStringLiteral(HAKO_BINARY_DIR "/bin/hako"),
            {QStringLiteral("run"), QStringLiteral("--trust"), QStringLiteral("--stream"), mode,
             QStringLiteral("-d"), scope, QFileInfo(program).fileName()});
    if (!p.waitForStarted())
        return QStringLiteral("hako did not start");
    if (c.contains("stdin"))
        p.write(QByteArray::fromStdString(c["stdin"].get<std::string>()));
    p.closeWriteChannel();
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        return QStringLiteral("hako run did not finish within 60 s");
    }
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    const QString err = QString::fromUtf8(p.readAllStandardError());
    if (p.exitStatus() != QProcess::NormalExit)
        return QStringLiteral("hako crashed: %1").arg(err);
    const json& want = c[mode.toStdString()];
    const bool refOk = want["exit"] == 0;
    if (refOk && p.exitCode() != 0)
        return QStringLiteral("exit %1: %2").arg(p.exitCode()).arg(err);
    if (!refOk && p.exitCode() == 0)
        return QStringLiteral("the reference fails (%1); hako succeeded with: %2")
            .arg(shown(want.value("errors", json())), out);
    const QString wantOut = QString::fromStdString(want["stdout"].get<std::string>());
    if (out != wantOut)
        return QStringLiteral("stdout differs\n  hako:      %1\n  reference: %2")
            .arg(shown(json(out.toStdString())), shown(json(wantOut.toStdString())));
    if (!refOk)
        if (QString failure = compareFailure(want, err); !failure.isEmpty())
            return failure;
    return compareRequests(want["requests"], server.requests(), url);
}

} // namespace

class TestModelConformanceGen : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void knownDifferencesAreCases()
    {
        const json cases = conformance::readJson(modelDir() + QStringLiteral("/cases.json"));
        QVERIFY2(cases.is_array(), "tests/data/conformance/model/cases.json is missing");
        QVERIFY2(cases.size() >= 80, "fewer than 80 model-calling cases");
        QString error;
        const QHash<QString, QString> known =
            conformance::knownDifferences(differencesFile(), QStringLiteral(":"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QSet<QString> names;
        for (const auto& c : cases)
            names.insert(QString::fromStdString(c["name"].get<std::string>()));
        for (auto it = known.begin(); it != known.end(); ++it)
            QVERIFY2(names.contains(it.key()),
                     qPrintable(QStringLiteral("%1 lists %2, which is not a model case")
                                    .arg(differencesFile(), it.key())));
    }

    void run_data()
    {
        QTest::addColumn<int>("index");
        const json cases = conformance::readJson(modelDir() + QStringLiteral("/cases.json"));
        if (!cases.is_array())
            return;
        for (size_t i = 0; i < cases.size(); ++i)
            QTest::newRow(cases[i]["name"].get<std::string>().c_str()) << int(i);
    }

    void run()
    {
        QFETCH(int, index);
        static const json cases = conformance::readJson(modelDir() + QStringLiteral("/cases.json"));
        static QString listError;
        static const QHash<QString, QString> known =
            conformance::knownDifferences(differencesFile(), QStringLiteral(":"), &listError);
        QVERIFY2(listError.isEmpty(), qPrintable(listError));
        const json& c = cases[size_t(index)];
        const QString name = QString::fromStdString(c["name"].get<std::string>());
        QStringList diffs;
        for (const QString& mode : {QStringLiteral("none"), QStringLiteral("result")}) {
            const QString diff = runMode(c, mode);
            // One line per case and mode, for counting what conforms.
            qInfo().noquote() << QStringLiteral("conformance %1 %2 %3")
                                     .arg(mode, name,
                                          diff.isEmpty() ? QStringLiteral("ok")
                                                         : QStringLiteral("differs"));
            if (!diff.isEmpty())
                diffs << QStringLiteral("--stream %1: %2").arg(mode, diff);
        }
        if (known.contains(name)) {
            QVERIFY2(!diffs.isEmpty(), qPrintable(QStringLiteral("%1 now conforms: remove it "
                                                                 "from %2")
                                                      .arg(name, differencesFile())));
            return;
        }
        QVERIFY2(diffs.isEmpty(), qPrintable(diffs.join(QLatin1Char('\n'))));
    }
};

QTEST_GUILESS_MAIN(TestModelConformanceGen)
#include "tst_modelconformancegen.moc"
