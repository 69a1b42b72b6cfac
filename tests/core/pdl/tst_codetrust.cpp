#include "core/pdl/code/codetrust.h"

#include "core/pdl/parser/programparser.h"

#include <QDir>
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;
using namespace hako::pdl;
using namespace hako::pdl::code;

namespace {

const QString kData = QStringLiteral(HAKO_TEST_DATA_DIR "/code/");

std::shared_ptr<const Program> load(const QString& path)
{
    if (!QFile::exists(path))
        return nullptr;
    return parseProgram(path).program;
}

QString kinds(const std::vector<CodeSite>& sites)
{
    QStringList names;
    for (const CodeSite& s : sites) {
        switch (s.kind) {
        case CodeSite::Kind::Python:
            names << "python";
            break;
        case CodeSite::Kind::Command:
            names << "command";
            break;
        case CodeSite::Kind::Pdl:
            names << "pdl";
            break;
        case CodeSite::Kind::Include:
            names << "include:" + QString::fromStdString(s.detail);
            break;
        case CodeSite::Kind::Host:
            names << "host:" + QString::fromStdString(s.detail);
            break;
        }
    }
    return names.join(',');
}

} // namespace

class TestCodeTrust : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void modelHosts_data()
    {
        QTest::addColumn<QByteArray>("program");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no parameters") << QByteArray("model: m\n") << "";
        QTest::newRow("parameters without a server")
            << QByteArray("model: m\nparameters: {temperature: 0}\n") << "";
        QTest::newRow("literal base_url")
            << QByteArray("model: m\nparameters: {base_url: 'http://a.example/v1'}\n")
            << "host:http://a.example/v1";
        QTest::newRow("api_base in a nested block")
            << QByteArray("text:\n- if: ${ true }\n  then:\n    model: m\n    parameters:\n"
                          "      api_base: http://b.example\n")
            << "host:http://b.example";
        QTest::newRow("templated url")
            << QByteArray("model: m\nparameters: {base_url: '${ u }'}\n") << "host:";
        QTest::newRow("computed parameters")
            << QByteArray("model: m\nparameters: ${ p }\n") << "host:";
        QTest::newRow("code is not a host") << QByteArray("lang: python\ncode: result = 1\n") << "";
    }

    void modelHosts()
    {
        QFETCH(QByteArray, program);
        QFETCH(QString, expected);
        ParseResult r = parseProgramText(program, QStringLiteral("hosts.pdl"));
        QVERIFY(r.program);
        QCOMPARE(kinds(findModelHosts(*r.program)), expected);
        // The code check is not affected by model servers.
        QVERIFY(!kinds(findCodeSites(*r.program)).contains("host"));
    }

    void sites_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("withLoader");
        QTest::addColumn<QString>("expected");
        QTest::newRow("plain, jinja is not code") << "plain.pdl" << true << "";
        QTest::newRow("python in an else branch") << "nested_python.pdl" << true << "python";
        QTest::newRow("python in a function body") << "function_python.pdl" << true << "python";
        QTest::newRow("command in a fallback") << "fallback_command.pdl" << true << "command";
        QTest::newRow("args form") << "args_form.pdl" << true << "command";
        QTest::newRow("lang pdl") << "pdl_lang.pdl" << true << "pdl";
        QTest::newRow("include of a plain file") << "include_plain.pdl" << true << "";
        QTest::newRow("include unchecked without loader")
            << "include_plain.pdl" << false << "include:plain.pdl";
        QTest::newRow("import adds .pdl, relative folder")
            << "import_python.pdl" << true << "python";
        QTest::newRow("include cycle ends") << "include_cycle.pdl" << true << "";
        QTest::newRow("missing include is asked about")
            << "include_missing.pdl" << true << "include:no_such_file.pdl";
    }
    void sites()
    {
        QFETCH(QString, file);
        QFETCH(bool, withLoader);
        QFETCH(QString, expected);
        auto program = load(kData + file);
        QVERIFY2(program, qPrintable(file));
        ProgramLoader loader = withLoader ? ProgramLoader(load) : ProgramLoader();
        QCOMPARE(kinds(findCodeSites(*program, loader)), expected);
        QCOMPARE(programRunsCode(*program, loader), !expected.isEmpty());
    }

    void siteSpans()
    {
        auto program = load(kData + "import_python.pdl");
        QVERIFY(program);
        auto sites = findCodeSites(*program, load);
        QCOMPARE(sites.size(), size_t(1));
        // The python block of the imported file, at its own line.
        QVERIFY(sites[0].span.file.endsWith("sub/lib_python.pdl"));
        QCOMPARE(sites[0].span.line, 3);
    }

    void conformancePrograms_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("runsCode");
        QTest::newRow("command") << "examples/tutorial/code_command.pdl" << true;
        QTest::newRow("python in defs") << "examples/map-reduce/python-reduce.pdl" << true;
        QTest::newRow("retry") << "examples/tutorial/retry.pdl" << true;
        QTest::newRow("jinja") << "examples/tutorial/code_jinja.pdl" << false;
        QTest::newRow("lang pdl") << "examples/tutorial/code_pdl.pdl" << true;
    }
    void conformancePrograms()
    {
        QFETCH(QString, file);
        QFETCH(bool, runsCode);
        const QString path = QStringLiteral(HAKO_SHARED_DIR "/conformance/pdl/programs/") + file;
        if (!QFile::exists(path))
            QSKIP("the shared conformance programs are not present");
        auto program = load(path);
        QVERIFY(program);
        QCOMPARE(programRunsCode(*program, load), runsCode);
    }

    void trustStore()
    {
        QTemporaryDir dir;
        const QString root = QDir(dir.path()).canonicalPath();
        QVERIFY(QDir(root).mkpath("project/sub"));
        QVERIFY(QDir(root).mkpath("project-other"));
        const QString ini = root + "/settings.ini";
        {
            QSettings settings(ini, QSettings::IniFormat);
            CodeTrustStore store(&settings);
            QVERIFY(!store.isTrusted(root + "/project/a.pdl"));
            store.trustFolder(root + "/project/"); // trailing slash and all
            store.trustFolder(root + "/project");  // once only
            QCOMPARE(store.trustedFolders(), QStringList{root + "/project"});
            QVERIFY(store.isTrusted(root + "/project/a.pdl"));
            QVERIFY(store.isTrusted(root + "/project/sub/b.pdl"));
            // A folder whose name merely starts the same is not inside.
            QVERIFY(!store.isTrusted(root + "/project-other/c.pdl"));
            QVERIFY(!store.isTrusted(root + "/d.pdl"));
            QVERIFY(!store.isTrusted(QString()));
        }
        {
            // Remembered across instances (the settings file).
            QSettings settings(ini, QSettings::IniFormat);
            CodeTrustStore store(&settings);
            QVERIFY(store.isTrusted(root + "/project/sub/b.pdl"));
            QVERIFY(!store.revokeFolder(root + "/project/sub"));
            QVERIFY(store.revokeFolder(root + "/project"));
            QVERIFY(!store.isTrusted(root + "/project/a.pdl"));
            QVERIFY(store.trustedFolders().isEmpty());
        }
    }

    void trustFollowsSymlinks()
    {
        QTemporaryDir dir;
        const QString root = QDir(dir.path()).canonicalPath();
        QVERIFY(QDir(root).mkpath("real"));
        QVERIFY(QFile::link(root + "/real", root + "/alias"));
        QSettings settings(root + "/settings.ini", QSettings::IniFormat);
        CodeTrustStore store(&settings);
        store.trustFolder(root + "/alias");
        QFile f(root + "/real/p.pdl");
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        QVERIFY(store.isTrusted(root + "/real/p.pdl"));
        QVERIFY(store.isTrusted(root + "/alias/p.pdl"));
    }

    void needsConfirmation()
    {
        QTemporaryDir dir;
        QSettings settings(dir.filePath("settings.ini"), QSettings::IniFormat);
        CodeTrustStore store(&settings);
        auto code = load(kData + "nested_python.pdl");
        auto plain = load(kData + "plain.pdl");
        QVERIFY(code && plain);
        QVERIFY(store.needsConfirmation(*code, load));
        QVERIFY(!store.needsConfirmation(*plain, load));
        store.trustFolder(kData);
        QVERIFY(!store.needsConfirmation(*code, load));
    }
};

QTEST_GUILESS_MAIN(TestCodeTrust)
#include "tst_codetrust.moc"
