// What the workbench keeps for itself holds prompts, replies and unsaved programs: recovery
// copies, the run archive's traces and the prompt log's settings are created readable by their
// owner only (files 0600 in folders 0700 that Hako creates); a program the user saves is shared
// like any file the user creates (the umask decides).
#include "core/pdl/interp/tracenode.h"
#include "core/promptlog/pricetable.h"
#include "core/workbench/programfile.h"
#include "core/workbench/recoverystore.h"
#include "core/workbench/runarchive.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace hako;

namespace {

QString modeOf(const QString& path)
{
    struct stat st {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return QStringLiteral("missing");
    return QString::number(st.st_mode & 07777, 8);
}

} // namespace

class TestPrivateFiles : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void recoveryCopiesArePrivate()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("state/recovery"));
        RecoveryStore store(folder);
        const QString id = RecoveryStore::newBufferId();
        QVERIFY(store.save(id, QStringLiteral("/tmp/p.pdl"), QStringLiteral("text: secret")).ok());
        QCOMPARE(modeOf(dir.filePath(QStringLiteral("state"))), QStringLiteral("700"));
        QCOMPARE(modeOf(folder), QStringLiteral("700"));
        QCOMPARE(modeOf(store.list(true).front().recoveryFile), QStringLiteral("600"));
    }

    void archivedTracesArePrivate()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("data/traces"));
        RunArchive archive(folder);
        pdl::TraceNode root;
        root.id = "text";
        QString error;
        QVERIFY2(archive.save(root, QStringLiteral("run-1"), &error), qPrintable(error));
        QCOMPARE(modeOf(folder), QStringLiteral("700"));
        QCOMPARE(modeOf(archive.pathFor(QStringLiteral("run-1"))), QStringLiteral("600"));
    }

    void promptLogSettingsArePrivate()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("config/prices.json"));
        promptlog::PriceTable table;
        QVERIFY(table.save(path).ok());
        QCOMPARE(modeOf(dir.filePath(QStringLiteral("config"))), QStringLiteral("700"));
        QCOMPARE(modeOf(path), QStringLiteral("600"));
    }

    void programsAreSharedAsTheUmaskSays()
    {
        QTemporaryDir dir;
        const mode_t mask = ::umask(022);
        ::umask(mask);
        const QString path = dir.filePath(QStringLiteral("hello.pdl"));
        QVERIFY(ProgramFile::save(path, QStringLiteral("text: hello\n")).ok());
        QCOMPARE(modeOf(path), QString::number(0666 & ~mask, 8));
    }
};

QTEST_GUILESS_MAIN(TestPrivateFiles)
#include "tst_privatefiles.moc"
