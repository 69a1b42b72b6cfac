// whenReady: the answer of background work always arrives from the event loop, after the call
// that started the work has returned, and never to an object that is gone.
#include "core/util/whenready.h"

#include <QPointer>
#include <QPromise>
#include <QTest>
#include <QtConcurrent>

using namespace hako;

class TestWhenReady : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // The work finished before its answer was asked for (a worker that ran while the GUI thread
    // was preempted): the answer still waits for the event loop. QFuture::then(context, …)
    // would call it here, inside the starting call, and the caller's next line would overwrite it.
    void aFinishedJobAnswersLater()
    {
        QObject context;
        QString shown;
        whenReady(&context, QtFuture::makeReadyFuture(QStringLiteral("5 tokens")),
                  [&](const QString& answer) { shown = answer; });
        QVERIFY(shown.isEmpty());
        shown = QStringLiteral("counting…"); // what the starting call shows next
        QTRY_COMPARE(shown, QStringLiteral("5 tokens"));
    }

    void aRunningJobAnswersWhenDone()
    {
        QObject context;
        QPromise<int> promise;
        int got = 0;
        whenReady(&context, promise.future(), [&](int n) { got = n; });
        promise.start();
        promise.addResult(42);
        promise.finish();
        QTRY_COMPARE(got, 42);
    }

    void answersComeInTheOrderTheJobsEnded()
    {
        QObject context;
        QStringList order;
        for (int i = 0; i < 20; ++i)
            whenReady(&context, QtFuture::makeReadyFuture(i),
                      [&](int n) { order.append(QString::number(n)); });
        QTRY_COMPARE(order.size(), 20);
        for (int i = 0; i < 20; ++i)
            QCOMPARE(order.at(i), QString::number(i));
    }

    // The pane closed while its query ran: nothing is called on it.
    void noAnswerOnceTheContextIsGone()
    {
        auto* context = new QObject;
        QPromise<int> promise;
        bool called = false;
        whenReady(context, promise.future(), [&](int) { called = true; });
        delete context;
        promise.start();
        promise.addResult(1);
        promise.finish();
        // A second job on a live context, started after: when it has answered, the first had
        // its chance too.
        QObject live;
        bool second = false;
        whenReady(&live, QtFuture::makeReadyFuture(2), [&](int) { second = true; });
        QTRY_VERIFY(second);
        QVERIFY(!called);
    }

    // A job cancelled before it produced anything has no answer to hand on.
    void aCancelledJobHasNoAnswer()
    {
        QObject context;
        QPromise<int> promise;
        bool called = false;
        whenReady(&context, promise.future(), [&](int) { called = true; });
        promise.start();
        promise.future().cancel();
        promise.finish();
        QObject live;
        bool second = false;
        whenReady(&live, QtFuture::makeReadyFuture(2), [&](int) { second = true; });
        QTRY_VERIFY(second);
        QVERIFY(!called);
    }

    void workOnAPoolThread()
    {
        QObject context;
        QThread* answeredOn = nullptr;
        whenReady(&context, QtConcurrent::run([] { return QThread::currentThread(); }),
                  [&](QThread* worker) {
                      QVERIFY(worker != QThread::currentThread());
                      answeredOn = QThread::currentThread();
                  });
        QTRY_VERIFY(answeredOn);
        QCOMPARE(answeredOn, QThread::currentThread());
    }
};

QTEST_GUILESS_MAIN(TestWhenReady)
#include "tst_whenready.moc"
