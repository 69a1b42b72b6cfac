// After a crash the window offers the unsaved programs back: every readable copy is restored,
// each in its own tab, even when one copy — here the newest — is malformed; that one is said in
// the message bar and left alone.
#include "core/workbench/recoverystore.h"
#include "isolatedsettings.h"
#include "widgets/common/messagebar.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/workbench/mainwindow.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

using namespace hako;

class TestRecoveryRestore : public QObject {
    Q_OBJECT

    std::unique_ptr<testing::IsolatedSettings> m_settings;

    // Marks a copy as written by a process that is gone (a crashed session).
    static bool orphan(const RecoveryStore& store, const QString& id, qint64 deadPid)
    {
        QFile copy(QDir(store.directory()).filePath(id + QStringLiteral(".json")));
        if (!copy.open(QIODevice::ReadOnly))
            return false;
        QJsonObject o = QJsonDocument::fromJson(copy.readAll()).object();
        copy.close();
        o.insert(QStringLiteral("pid"), deadPid);
        if (!copy.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return false;
        return copy.write(QJsonDocument(o).toJson()) > 0;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_settings =
            std::make_unique<testing::IsolatedSettings>(QStringLiteral("tst_recoveryrestore"));
        QVERIFY(m_settings->isValid());
        // Test mode's data folder outlives the process: start without an earlier run's copies.
        QDir(RecoveryStore().directory()).removeRecursively();
    }

    void everyGoodCopyIsRestoredDespiteABadOne()
    {
        QProcess gone;
        gone.start(QStringLiteral("true"), {});
        QVERIFY(gone.waitForFinished());
        const qint64 deadPid = gone.processId() > 0 ? gone.processId() : 999999;

        RecoveryStore store;
        QStringList texts;
        for (int i = 0; i < 3; ++i) {
            const QString id = RecoveryStore::newBufferId();
            texts << QStringLiteral("text: unsaved %1\n").arg(i);
            QVERIFY(store.save(id, QString(), texts.last()).ok());
            QVERIFY(orphan(store, id, deadPid));
        }
        // The newest copy, but its text is not a text.
        QFile bad(QDir(store.directory()).filePath(QStringLiteral("bad.json")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write(QJsonDocument(QJsonObject{{QStringLiteral("version"), 1},
                                            {QStringLiteral("buffer"), QStringLiteral("bad")},
                                            {QStringLiteral("saved"),
                                             QStringLiteral("2999-01-01T00:00:00.000Z")},
                                            {QStringLiteral("pid"), deadPid},
                                            {QStringLiteral("text"), 42}})
                      .toJson());
        bad.close();

        MainWindow window;
        window.show();
        QStringList offered;
        window.setRecoveryQuestion([&](const QStringList& names) {
            offered = names;
            return true;
        });
        QCOMPARE(window.offerRecovery(), 3);
        QCOMPARE(offered.size(), 3);
        QStringList restored;
        for (EditorPane* pane : window.findChildren<EditorPane*>())
            restored << pane->editor()->text();
        for (const QString& text : texts)
            QVERIFY2(restored.contains(text), qPrintable(restored.join(QLatin1Char('|'))));
        const QString said = window.editorPane()->messageBar()->text();
        QVERIFY2(said.contains(QLatin1String("bad.json")), qPrintable(said));
        QVERIFY(bad.exists());
    }
};

QTEST_MAIN(TestRecoveryRestore)
#include "tst_recoveryrestore.moc"
