// Replays the fuzzers' corpus (tests/fuzz/corpus: the seeds plus every input libFuzzer kept,
// crashes and hangs it found included, once fixed) through the same entry points the fuzzers
// call, so a finding stays fixed in the ordinary test run, without clang or libFuzzer.
#include "core/pdl/expr/expression.h"
#include "core/pdl/expr/template.h"
#include "core/pdl/programcheck.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QtTest>

using namespace hako;
using namespace hako::pdl;

namespace {

QString corpusDir(const QString& harness)
{
    return QStringLiteral(HAKO_SOURCE_DIR "/tests/fuzz/corpus/") + harness;
}

QStringList corpusFiles(const QString& harness)
{
    QStringList files;
    QDirIterator it(corpusDir(harness), QDir::Files);
    while (it.hasNext())
        files << it.next();
    files.sort();
    return files;
}

QByteArray contents(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

} // namespace

class TestFuzzCorpus : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void programs_data()
    {
        QTest::addColumn<QString>("path");
        const QStringList files = corpusFiles(QStringLiteral("program"));
        QVERIFY2(files.size() >= 10, "the program corpus is missing");
        for (const QString& f : files)
            QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
    }

    // What fuzz_program does: check the bytes as a program; every diagnostic printable, with
    // a position inside the file when it has one.
    void programs()
    {
        QFETCH(QString, path);
        const QByteArray text = contents(path);
        ParseResult r = checkProgramText(text, QStringLiteral("fuzz.pdl"));
        const int lines = int(text.count('\n')) + 1;
        for (const Diagnostic& d : r.diagnostics) {
            QVERIFY(!d.toString().isEmpty());
            QVERIFY2(d.span.line <= lines, qPrintable(d.toString()));
        }
        if (r.program)
            QVERIFY(r.program->root);
        else
            QVERIFY(!r.ok());
    }

    void expressions_data()
    {
        QTest::addColumn<QString>("path");
        const QStringList files = corpusFiles(QStringLiteral("expression"));
        QVERIFY2(files.size() >= 10, "the expression corpus is missing");
        for (const QString& f : files)
            QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
    }

    // What fuzz_expression does: syntax check, free variables and compilation agree on
    // whether the template is well formed.
    void expressions()
    {
        QFETCH(QString, path);
        const QByteArray bytes = contents(path);
        const std::string_view text(bytes.constData(), size_t(bytes.size()));
        const std::optional<Diagnostic> error = checkTemplate(text);
        (void)templateVariables(text);
        auto compiled = expr::compileTemplate(text);
        QVERIFY(compiled);
        QCOMPARE(compiled->mode == expr::CompiledTemplate::Mode::Error, error.has_value());
        (void)expr::compileExpression(text);
    }
};

QTEST_GUILESS_MAIN(TestFuzzCorpus)
#include "tst_fuzzcorpus.moc"
