// ModelCatalog: the models of the configured endpoints, listed in the background, cached per
// folder and asked again when stale or after the settings changed.
#include "core/models/modelcatalog.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>
#include <QThreadPool>
#include <QtTest>

#include <atomic>

using namespace hako;
using namespace hako::models;

class TestModelCatalog : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // The listers capture the test's locals: every listing ends before the next test.
    void cleanup() { QThreadPool::globalInstance()->waitForDone(); }

    void listsInTheBackgroundAndCaches()
    {
        ModelCatalog catalog;
        std::atomic<int> calls{0};
        std::atomic<bool> onGuiThread{false};
        QThread* gui = QThread::currentThread();
        catalog.setLister([&](const QString& dir, const CancelToken&) {
            ++calls;
            onGuiThread = QThread::currentThread() == gui;
            return QStringList{QStringLiteral("ollama/granite3.2:2b"), dir};
        });
        QTemporaryDir dir;
        QSignalSpy changed(&catalog, &ModelCatalog::modelsChanged);
        // The answer comes as a signal (and from then on from models()).
        catalog.models(dir.path());
        QTRY_COMPARE(changed.count(), 1);
        QVERIFY(!onGuiThread);
        const QString key = ModelCatalog::folderKey(dir.path());
        QCOMPARE(changed.at(0).at(0).toString(), key);
        const QStringList expected{QStringLiteral("ollama/granite3.2:2b"), key};
        QCOMPARE(changed.at(0).at(1).toStringList(), expected);
        // Cached: no second listing while fresh.
        QCOMPARE(catalog.models(dir.path()), expected);
        QCOMPARE(catalog.models(dir.path() + QStringLiteral("/.")), expected);
        QCOMPARE(calls.load(), 1);
        // After the settings changed it asks again.
        catalog.invalidate();
        catalog.models(dir.path());
        QTRY_COMPARE(changed.count(), 2);
        QCOMPARE(calls.load(), 2);
    }

    void staleAnswersAreAskedAgain()
    {
        ModelCatalog catalog;
        catalog.setMaxAgeSeconds(-1); // always stale
        std::atomic<int> calls{0};
        std::atomic<bool> release{false};
        catalog.setLister([&](const QString&, const CancelToken& cancel) {
            const int n = ++calls;
            while (n > 1 && !release && !cancel.isCancelled())
                QThread::msleep(5);
            return QStringList{QString::number(n)};
        });
        QSignalSpy changed(&catalog, &ModelCatalog::modelsChanged);
        catalog.models(QString());
        QTRY_COMPARE(changed.count(), 1);
        // The cached names are given at once while the new listing runs.
        QCOMPARE(catalog.models(QString()), QStringList{QStringLiteral("1")});
        release = true;
        QTRY_COMPARE(changed.count(), 2);
        QCOMPARE(changed.at(1).at(1).toStringList(), QStringList{QStringLiteral("2")});
    }

    void oneListingAtATimePerFolder()
    {
        ModelCatalog catalog;
        std::atomic<int> calls{0};
        std::atomic<bool> release{false};
        catalog.setLister([&](const QString&, const CancelToken& cancel) {
            ++calls;
            while (!release && !cancel.isCancelled())
                QThread::msleep(5);
            return QStringList{QStringLiteral("m")};
        });
        QSignalSpy changed(&catalog, &ModelCatalog::modelsChanged);
        for (int i = 0; i < 5; ++i)
            catalog.models(QStringLiteral("/tmp"));
        release = true;
        QTRY_COMPARE(changed.count(), 1);
        QCOMPARE(calls.load(), 1);
    }

    void anAnswerAfterInvalidateIsDropped()
    {
        ModelCatalog catalog;
        std::atomic<bool> release{false};
        // The listing of the old settings waits until released; a listing takes the lister
        // that was set when it was asked for.
        catalog.setLister([&](const QString&, const CancelToken& cancel) {
            while (!release && !cancel.isCancelled())
                QThread::msleep(5);
            return QStringList{QStringLiteral("old settings")};
        });
        QSignalSpy changed(&catalog, &ModelCatalog::modelsChanged);
        catalog.models(QStringLiteral("/tmp"));
        catalog.invalidate(); // the settings changed while the first listing ran
        catalog.setLister([](const QString&, const CancelToken&) {
            return QStringList{QStringLiteral("new settings")};
        });
        catalog.models(QStringLiteral("/tmp"));
        QTRY_COMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(1).toStringList(), QStringList{QStringLiteral("new settings")});
        // The first listing ends now; its answer is delivered to nobody.
        release = true;
        QThreadPool::globalInstance()->waitForDone();
        QCoreApplication::sendPostedEvents();
        QCOMPARE(changed.count(), 1);
        QCOMPARE(catalog.models(QStringLiteral("/tmp")),
                 QStringList{QStringLiteral("new settings")});
    }
};

QTEST_GUILESS_MAIN(TestModelCatalog)
#include "tst_modelcatalog.moc"
