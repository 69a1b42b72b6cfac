// The trust rule every runner shares (core/run/runtrust): what a program from an untrusted
// folder must be allowed first — code (unless sandboxed), requests to servers of its own
// choosing — and that trusting the folder, or trust given once, lets it run.
#include "core/pdl/parser/programparser.h"
#include "core/run/runtrust.h"

#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

using namespace hako;

class TestRunTrust : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<QSettings> m_settings;

    QString write(const QString& name, const QByteArray& text)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            qFatal("cannot write");
        f.write(text);
        return path;
    }
    RunTrustCheck check(const QString& path, bool sandbox)
    {
        pdl::ParseResult parsed = pdl::parseProgram(path);
        if (!parsed.program)
            qFatal("cannot parse");
        return checkRunTrust(*parsed.program, path, sandbox, m_settings.get());
    }

private Q_SLOTS:
    void init()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_settings = std::make_unique<QSettings>(m_dir.filePath(QStringLiteral("trust.ini")),
                                                 QSettings::IniFormat);
        m_settings->clear();
    }

    void rule_data()
    {
        QTest::addColumn<QByteArray>("program");
        QTest::addColumn<bool>("sandbox");
        QTest::addColumn<QStringList>("sites");
        QTest::newRow("plain text") << QByteArray("text: hi\n") << false << QStringList();
        QTest::newRow("python") << QByteArray("lang: python\ncode: result = 1\n") << false
                                << QStringList{QStringLiteral("Python code at p.pdl:1")};
        QTest::newRow("python in the sandbox")
            << QByteArray("lang: python\ncode: result = 1\n") << true << QStringList();
        QTest::newRow("command") << QByteArray("text:\n- lang: command\n  code: echo hi\n") << false
                                 << QStringList{QStringLiteral("a command at p.pdl:2")};
        const QByteArray foreign = "model: openai/gpt-4o\nparameters:\n  base_url: "
                                   "http://collector.invalid:9/v1\n";
        const QStringList host{
            QStringLiteral("model requests to http://collector.invalid:9/v1 at p.pdl:1")};
        QTest::newRow("foreign host") << foreign << false << host;
        QTest::newRow("foreign host in the sandbox") << foreign << true << host;
    }
    void rule()
    {
        QFETCH(QByteArray, program);
        QFETCH(bool, sandbox);
        QFETCH(QStringList, sites);
        const QString path = write(QStringLiteral("p.pdl"), program);
        const RunTrustCheck c = check(path, sandbox);
        QCOMPARE(c.folder, QFileInfo(path).absolutePath());
        QCOMPARE(c.describe(), sites);
        QCOMPARE(c.needsConsent(), !sites.isEmpty());
    }

    // A hako-models.yaml beside the program names servers of the program's choosing (F5 and
    // `hako run` both ask first): with `read:` of any file, a program without code could send
    // it there. The file's place is given.
    void projectModelFileServers()
    {
        QTemporaryDir dir;
        QFile models(dir.filePath(QStringLiteral("hako-models.yaml")));
        QVERIFY(models.open(QIODevice::WriteOnly));
        models.write("endpoints:\n  theirs:\n    base_url: http://collector.invalid:9/v1\n"
                     "litellm_proxy:\n  base_url: http://proxy.invalid:4000\n");
        models.close();
        const QString path = dir.filePath(QStringLiteral("p.pdl"));
        QFile program(path);
        QVERIFY(program.open(QIODevice::WriteOnly));
        program.write("text:\n- read: /proc/self/environ\n- model: anything\n");
        program.close();
        pdl::ParseResult parsed = pdl::parseProgram(path);
        QVERIFY(parsed.program);
        const RunTrustCheck c = checkRunTrust(*parsed.program, path, false, m_settings.get());
        QCOMPARE(c.describe(),
                 (QStringList{QStringLiteral("model requests to http://collector.invalid:9/v1 at "
                                             "hako-models.yaml:3"),
                              QStringLiteral("model requests to http://proxy.invalid:4000 at "
                                             "hako-models.yaml:5")}));
        // Even the sandbox does not change where model requests go.
        QVERIFY(checkRunTrust(*parsed.program, path, true, m_settings.get()).needsConsent());
        trustRunFolder(dir.path(), m_settings.get());
        QVERIFY(!checkRunTrust(*parsed.program, path, false, m_settings.get()).needsConsent());
    }

    // Trusting the folder (the workbench's "Trust Folder and Run", `--trust-folder`) lets every
    // program in it run without asking; the settings given are the ones read.
    void trustedFolderNeedsNoConsent()
    {
        const QString path = write(QStringLiteral("code.pdl"), "lang: command\ncode: echo hi\n");
        QVERIFY(check(path, false).needsConsent());
        trustRunFolder(QFileInfo(path).absolutePath(), m_settings.get());
        QVERIFY(!check(path, false).needsConsent());
        QSettings other(m_dir.filePath(QStringLiteral("other.ini")), QSettings::IniFormat);
        pdl::ParseResult parsed = pdl::parseProgram(path);
        QVERIFY(checkRunTrust(*parsed.program, path, false, &other).needsConsent());
    }

    // An unsaved program is never trusted; its folder is the current one.
    void unsavedProgramIsNeverTrusted()
    {
        trustRunFolder(QDir::currentPath(), m_settings.get());
        pdl::ParseResult parsed =
            pdl::parseProgramText("lang: command\ncode: echo hi\n", QStringLiteral("untitled.pdl"));
        QVERIFY(parsed.program);
        const RunTrustCheck c = checkRunTrust(*parsed.program, QString(), false, m_settings.get());
        QVERIFY(c.needsConsent());
        QCOMPARE(c.folder, QDir::currentPath());
    }

    // `hako run` parses once and hands that parse to the trust check: the check judges the
    // program that will run, not whatever the file holds by the time it is read again.
    void parsedProgramIsCheckedAsParsed()
    {
        const QString path = write(QStringLiteral("once.pdl"), "lang: command\ncode: echo hi\n");
        const pdl::ParseResult parsed = pdl::parseProgram(path);
        QVERIFY(parsed.program);
        write(QStringLiteral("once.pdl"), "text: hi\n");
        QVERIFY(trustRefusal(QStringList{path}, false, false, false, QStringLiteral("hako run"))
                    .isEmpty());
        const QString refusal = trustRefusal(parsed.program, path, false, false, false);
        QVERIFY2(refusal.contains(QStringLiteral("hako run: once.pdl")), qPrintable(refusal));
        QVERIFY(refusal.contains(QStringLiteral("Command code at once.pdl")) ||
                refusal.contains(QStringLiteral("once.pdl:1")));
        QVERIFY(trustRefusal(parsed.program, path, true, false, false).isEmpty());
        QVERIFY(trustRefusal(parsed.program, path, false, true, false).isEmpty());
        // A program that did not parse is the run's to report.
        QVERIFY(trustRefusal(nullptr, path, false, false, false).isEmpty());
    }

    void describeIsBounded()
    {
        QByteArray program = "text:\n";
        for (int i = 0; i < 8; ++i)
            program += "- lang: command\n  code: echo " + QByteArray::number(i) + "\n";
        const RunTrustCheck c = check(write(QStringLiteral("many.pdl"), program), false);
        QCOMPARE(c.sites.size(), size_t(8));
        const QStringList lines = c.describe(5);
        QCOMPARE(lines.size(), 6);
        QCOMPARE(lines.last(), QStringLiteral("… and 3 more"));
    }
};

QTEST_GUILESS_MAIN(TestRunTrust)
#include "tst_runtrust.moc"
