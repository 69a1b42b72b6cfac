// `hako notebook`: a notebook of %%pdl cells run headless, its outputs written back into a file
// that Jupyter (Python's nbformat) reads as valid, under the trust rule of `hako run`.
#include "hakoprocess.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

QJsonObject pdlCell(const QString& source)
{
    return {{QStringLiteral("cell_type"), QStringLiteral("code")},
            {QStringLiteral("metadata"), QJsonObject{{QStringLiteral("tags"), QJsonArray{"keep"}}}},
            {QStringLiteral("source"), source},
            {QStringLiteral("outputs"), QJsonArray()},
            {QStringLiteral("execution_count"), QJsonValue::Null}};
}

} // namespace

class TestNotebookCli : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        qputenv("XDG_CONFIG_HOME", m_home.path().toUtf8());
        qputenv("XDG_DATA_HOME", m_home.path().toUtf8());
    }

    void threeCellsRunAndTheFileStaysANotebook()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("n.ipynb"));
        QVERIFY(runHako({QStringLiteral("notebook"), QStringLiteral("new"), path}).exitCode == 0);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
        file.close();
        QJsonArray cells;
        cells.append(
            pdlCell(QStringLiteral("%%pdl\ndefs:\n  who: 世界\ntext: こんにちは、${ who }\n")));
        cells.append(QJsonObject{{QStringLiteral("cell_type"), QStringLiteral("markdown")},
                                 {QStringLiteral("metadata"), QJsonObject()},
                                 {QStringLiteral("source"), QStringLiteral("# 見出し")}});
        cells.append(
            pdlCell(QStringLiteral("%%pdl\ntext:\n- ${ who }さん\n- ${ pdl_context | length }\n")));
        cells.append(pdlCell(QStringLiteral("%%pdl -r\ndata: ${ pdl_context | length }\n")));
        root.insert(QStringLiteral("cells"), cells);
        QJsonObject metadata = root.value(QLatin1String("metadata")).toObject();
        metadata.insert(QStringLiteral("x_custom"), QStringLiteral("kept"));
        root.insert(QStringLiteral("metadata"), metadata);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(QJsonDocument(root).toJson());
        file.close();

        const HakoOutcome run = runHako({QStringLiteral("notebook"), QStringLiteral("run"), path});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject written = QJsonDocument::fromJson(file.readAll()).object();
        file.close();
        const QJsonArray out = written.value(QLatin1String("cells")).toArray();
        const auto text = [&](int i) {
            const QJsonValue t = out.at(i)
                                     .toObject()
                                     .value(QLatin1String("outputs"))
                                     .toArray()
                                     .at(0)
                                     .toObject()
                                     .value(QLatin1String("text"));
            QString joined;
            for (const QJsonValue& line : t.toArray())
                joined += line.toString();
            return joined;
        };
        QCOMPARE(text(0), QStringLiteral("こんにちは、世界\n"));
        // The third cell sees the first's variable and the context it left (the first's message
        // and its own first one).
        QCOMPARE(text(2), QStringLiteral("世界さん2\n"));
        QCOMPARE(text(3), QStringLiteral("0\n")); // `-r` starts from an empty context
        QCOMPARE(out.at(2).toObject().value(QLatin1String("execution_count")).toInt(), 2);
        // What Hako does not read is written back as it was.
        QCOMPARE(written.value(QLatin1String("metadata"))
                     .toObject()
                     .value(QLatin1String("x_custom"))
                     .toString(),
                 QStringLiteral("kept"));
        QCOMPARE(out.at(0)
                     .toObject()
                     .value(QLatin1String("metadata"))
                     .toObject()
                     .value(QLatin1String("tags"))
                     .toArray()
                     .at(0)
                     .toString(),
                 QStringLiteral("keep"));

        // Python's nbformat (Jupyter's reader) validates it.
        QProcess python;
        python.start(QStringLiteral("/usr/bin/python3"),
                     {QStringLiteral("-c"),
                      QStringLiteral("import sys, nbformat\n"
                                     "nbformat.validate(nbformat.read(sys.argv[1], 4))"),
                      path});
        QVERIFY(python.waitForFinished(60000));
        const QByteArray complaint = python.readAllStandardError();
        if (python.exitCode() != 0 && complaint.contains("No module named"))
            QSKIP("python3-nbformat is not installed");
        QVERIFY2(python.exitCode() == 0, complaint.constData());
    }

    void aFailingCellStopsTheRunAndShowsItsError()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("e.ipynb"));
        QJsonObject root{{QStringLiteral("nbformat"), 4},
                         {QStringLiteral("nbformat_minor"), 4},
                         {QStringLiteral("metadata"), QJsonObject()},
                         {QStringLiteral("cells"),
                          QJsonArray{pdlCell(QStringLiteral("%%pdl\ntext:\n- a\n- ${ 1 / 0 }\n")),
                                     pdlCell(QStringLiteral("%%pdl\ntext: never\n"))}}};
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(root).toJson());
        file.close();
        const HakoOutcome run = runHako({QStringLiteral("notebook"), QStringLiteral("run"), path});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("e.ipynb#1:4")), qPrintable(run.err));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonArray cells = QJsonDocument::fromJson(file.readAll())
                                     .object()
                                     .value(QLatin1String("cells"))
                                     .toArray();
        const QJsonObject error =
            cells.at(0).toObject().value(QLatin1String("outputs")).toArray().at(0).toObject();
        QCOMPARE(error.value(QLatin1String("output_type")).toString(), QStringLiteral("error"));
        QVERIFY(cells.at(1).toObject().value(QLatin1String("outputs")).toArray().isEmpty());
    }

    void untrustedCodeIsRefusedAndNothingIsWritten()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("c.ipynb"));
        QJsonObject root{
            {QStringLiteral("nbformat"), 4},
            {QStringLiteral("nbformat_minor"), 4},
            {QStringLiteral("metadata"), QJsonObject()},
            {QStringLiteral("cells"),
             QJsonArray{pdlCell(QStringLiteral("%%pdl\nlang: python\ncode: result = 1\n"))}}};
        const QByteArray before = QJsonDocument(root).toJson();
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(before);
        file.close();
        const HakoOutcome refused =
            runHakoAsGiven({QStringLiteral("notebook"), QStringLiteral("run"), path});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains(QStringLiteral("--trust")), qPrintable(refused.err));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), before);
        file.close();
        const HakoOutcome trusted = runHakoAsGiven(
            {QStringLiteral("notebook"), QStringLiteral("run"), QStringLiteral("--trust"), path});
        QVERIFY2(trusted.exitCode == 0, qPrintable(trusted.err));
    }

    void notANotebookSaysWhere()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.ipynb"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\n \"cells\": [\n  {,\n");
        file.close();
        const HakoOutcome run = runHako({QStringLiteral("notebook"), QStringLiteral("run"), path});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QStringLiteral("bad.ipynb:3")), qPrintable(run.err));
    }

private:
    QTemporaryDir m_home;
};

QTEST_GUILESS_MAIN(TestNotebookCli)
#include "tst_notebookcli.moc"
