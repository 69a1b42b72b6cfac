// `hako log` on a damaged SQLite prompt log: a write into it is refused, saying the file is
// damaged and how to save it, and `hako log salvage --log DAMAGED NEW.sqlite` copies what can be
// read into a new log the other commands then read.
#include "core/promptlog/promptlog.h"
#include "hakoprocess.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace hako::promptlog;

class TestLogSalvage : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void damagedLogIsSaidAndSalvaged()
    {
        const QString damaged = m_dir.filePath(QStringLiteral("damaged.sqlite"));
        {
            QString error;
            auto log = PromptLog::open(damaged, &error);
            QVERIFY2(log && error.isEmpty(), qPrintable(error));
            std::vector<CallRecord> calls;
            for (int i = 0; i < 200; ++i) {
                CallRecord c;
                c.uid = QStringLiteral("call-%1").arg(i);
                c.model = QStringLiteral("m");
                c.startedAt = 1700000000000 + i;
                c.messages =
                    QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                           {QStringLiteral("content"), QStringLiteral("q")}}};
                c.reply = QString(1500, QLatin1Char('r'));
                calls.push_back(c);
            }
            QCOMPARE(*log->insertNow(std::move(calls)), int64_t(200));
        }
        QFile f(damaged);
        QVERIFY(f.open(QIODevice::ReadWrite));
        const qint64 page = f.size() / 4096 / 2;
        QVERIFY(f.seek(page * 4096));
        QByteArray bytes = f.read(4096);
        for (char& b : bytes)
            b = char(~b);
        QVERIFY(f.seek(page * 4096));
        f.write(bytes);
        f.close();

        // Writing into it is refused, naming the file and the way out.
        const QString jsonl = m_dir.filePath(QStringLiteral("more.jsonl"));
        {
            CallRecord more;
            more.uid = QStringLiteral("more-1");
            more.model = QStringLiteral("m");
            more.startedAt = 1700000000000;
            QFile out(jsonl);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(QJsonDocument(more.toJson()).toJson(QJsonDocument::Compact) + "\n");
        }
        const HakoOutcome imported = runHako({QStringLiteral("log"), QStringLiteral("import"),
                                              QStringLiteral("--log"), damaged, jsonl});
        QCOMPARE(imported.exitCode, 1);
        QVERIFY2(imported.err.contains(QLatin1String("is damaged")) &&
                     imported.err.contains(QLatin1String("hako log salvage")),
                 qPrintable(imported.err));

        const QString saved = m_dir.filePath(QStringLiteral("saved.sqlite"));
        const HakoOutcome salvaged = runHako({QStringLiteral("log"), QStringLiteral("salvage"),
                                              QStringLiteral("--log"), damaged, saved});
        QVERIFY2(salvaged.exitCode == 0, qPrintable(salvaged.err));
        const QRegularExpressionMatch m =
            QRegularExpression(QStringLiteral("salvaged (\\d+) calls")).match(salvaged.out);
        QVERIFY2(m.hasMatch(), qPrintable(salvaged.out));
        const int copied = m.captured(1).toInt();
        QVERIFY(copied >= 100 && copied <= 200);

        const HakoOutcome after = runHako(
            {QStringLiteral("log"), QStringLiteral("list"), QStringLiteral("--limit"),
             QStringLiteral("0"), QStringLiteral("--json"), QStringLiteral("--log"), saved});
        QVERIFY2(after.exitCode == 0, qPrintable(after.err));
        QCOMPARE(after.out.count(QLatin1String("\"call-")), copied);
    }
};

QTEST_GUILESS_MAIN(TestLogSalvage)
#include "tst_logsalvage.moc"
