// Scores in the Prompt Log pane over a real SQLite log: the Score column shows an evaluator's
// verdict and a person's thumbs, `score:✗` in the search keeps the failing calls, the detail
// lists the call's scores, Annotate… keeps a person's score with the call, and the Over Time
// tab charts the mean score per evaluator ("No scores yet — …" before there is one).
#include "core/promptlog/calltablemodel.h"
#include "core/promptlog/promptlog.h"
#include "core/workbench/workbenchcontext.h"
#include "isolatedsettings.h"
#include "widgets/promptlog/callscores.h"
#include "widgets/promptlog/promptlogpane.h"
#include "widgets/promptlog/timechart.h"
#include "widgets/trace/annotationdialog.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDateTime>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QToolButton>

#include <cmath>

using namespace hako;
using namespace hako::promptlog;

namespace {

CallRecord makeCall(const QString& uid, const QString& reply, int64_t startedAt)
{
    CallRecord c;
    c.uid = uid;
    c.runId = QStringLiteral("run-1");
    c.promptName = QStringLiteral("answer");
    c.model = QStringLiteral("m");
    c.messages = QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                        {QStringLiteral("content"), QStringLiteral("質問")}}};
    c.reply = reply;
    c.startedAt = startedAt;
    return c;
}

CallScore verdict(const QString& uid, double value, bool passed)
{
    CallScore s;
    s.callUid = uid;
    s.name = QStringLiteral("exact");
    s.kind = ScoreValueKind::Number;
    s.number = value;
    s.passed = passed;
    s.source = ScoreSource::Online;
    s.note = QStringLiteral("compared with the reference");
    return s;
}

int rowOfUid(PromptLogPane& pane, const QString& prompt, const QString& uid)
{
    Q_UNUSED(prompt)
    for (int r = 0; r < pane.callModel()->rowCount(); ++r)
        if (const CallRecord* c = pane.callModel()->callAt(r); c && c->uid == uid)
            return r;
    return -1;
}

} // namespace

class TestPromptLogScores : public QObject {
    Q_OBJECT

    std::unique_ptr<testing::IsolatedSettings> m_settings;

private Q_SLOTS:
    void initTestCase()
    {
        m_settings = std::make_unique<testing::IsolatedSettings>(QStringLiteral("tst_scores"));
        QVERIFY(m_settings->isValid());
    }

    void searchWordsAboutScores()
    {
        QString text = QStringLiteral("天気 score:✗ rain");
        QCOMPARE(takeScoreWords(text), std::optional(CallFilter::Scored::Failed));
        QCOMPARE(text, QStringLiteral("天気 rain"));
        text = QStringLiteral("scored");
        QCOMPARE(takeScoreWords(text), std::optional(CallFilter::Scored::Any));
        QVERIFY(text.isEmpty());
        text = QStringLiteral("score:UP");
        QCOMPARE(takeScoreWords(text), std::optional(CallFilter::Scored::Passed));
        text = QStringLiteral("scoreboard");
        QVERIFY(!takeScoreWords(text));
        QCOMPARE(text, QStringLiteral("scoreboard"));
    }

    void scoresShowFilterAndChart()
    {
        QTemporaryDir dir;
        QString error;
        std::shared_ptr<PromptLog> log =
            PromptLog::open(dir.filePath(QStringLiteral("log.sqlite")), &error);
        QVERIFY2(log, qPrintable(error));
        const int64_t now = QDateTime::currentMSecsSinceEpoch();
        QVERIFY(
            log->insertNow({makeCall(QStringLiteral("good"), QStringLiteral("Paris"), now - 2000),
                            makeCall(QStringLiteral("bad"), QStringLiteral("Lyon"), now - 1000),
                            makeCall(QStringLiteral("none"), QStringLiteral("?"), now)}));
        WorkbenchContext context;
        context.setPromptLog(log);
        PromptLogPane pane;
        QAbstractItemModelTester tester(pane.callModel());
        pane.setWorkbenchContext(&context);
        pane.resize(1000, 700);
        pane.show();
        QTRY_COMPARE(pane.callModel()->rowCount(), 3);
        // Before any score: the monitor says so plainly.
        QVERIFY(
            pane.scoreChart()->emptyLabel()->text().startsWith(QStringLiteral("No scores yet")));
        QVERIFY(!pane.scoreChart()->emptyLabel()->isHidden());

        QVERIFY(log->setScore(verdict(QStringLiteral("good"), 1, true)));
        QVERIFY(log->setScore(verdict(QStringLiteral("bad"), 0, false)));
        pane.refresh();
        auto scoreOf = [&pane](const QString& uid) {
            const int row = rowOfUid(pane, {}, uid);
            return row < 0 ? QString()
                           : pane.callModel()->index(row, CallTableModel::Score).data().toString();
        };
        QTRY_COMPARE(scoreOf(QStringLiteral("bad")), QStringLiteral("exact 0 ✗"));
        QCOMPARE(scoreOf(QStringLiteral("good")), QStringLiteral("exact 1 ✓"));
        QCOMPARE(scoreOf(QStringLiteral("none")), QString());
        QCOMPARE(pane.callModel()->headerData(CallTableModel::Score, Qt::Horizontal).toString(),
                 QStringLiteral("Score"));

        // The monitor: the evaluator's mean (0.5) in the newest bucket.
        QTRY_VERIFY(pane.scoreChart()->emptyLabel()->isHidden());
        QCOMPARE(pane.scoreChart()->evaluatorCombo()->currentText(), QStringLiteral("exact"));
        const QList<double> means = pane.scoreChart()->chart()->values();
        QVERIFY(!means.isEmpty());
        QCOMPARE(means.last(), 0.5);

        // score:✗ keeps the failing call.
        pane.searchField()->setText(QStringLiteral("score:✗"));
        pane.refresh();
        QTRY_COMPARE(pane.callModel()->rowCount(), 1);
        QCOMPARE(pane.callModel()->callAt(0)->uid, QStringLiteral("bad"));

        // Its detail lists its score; Annotate… keeps a person's thumbs down and note.
        pane.callsView()->setCurrentIndex(pane.callModel()->index(0, 0));
        QTRY_VERIFY(pane.detailView()->toPlainText().contains(
            QStringLiteral("compared with the reference")));
        QVERIFY(pane.annotateButton()->isEnabled());
        AnnotationDialog* dialog = pane.annotateShownCall();
        QVERIFY(dialog);
        dialog->thumbsDown()->click();
        dialog->noteField()->setPlainText(QStringLiteral("リヨンではない"));
        dialog->saveButton()->click();
        QTRY_VERIFY(pane.detailView()->toPlainText().contains(QStringLiteral("リヨンではない")));
        ScoreFilter human;
        human.source = ScoreSource::Human;
        const auto kept = log->scores(human);
        QVERIFY(kept);
        QCOMPARE(kept->size(), 1);
        QCOMPARE(kept->first().callUid, QStringLiteral("bad"));
        QCOMPARE(kept->first().passed, std::optional<bool>(false));
        QTRY_COMPARE(scoreOf(QStringLiteral("bad")), QStringLiteral("✗ · exact 0 ✗"));
    }
};

QTEST_MAIN(TestPromptLogScores)
#include "tst_promptlogscores.moc"
