// Help › User Guide: the guide ships inside Hako in Japanese and English, opens offline in the
// interface's language, and every picture it shows is there.
#include "widgets/help/guidewindow.h"
#include "widgets/workbench/mainwindow.h"

#include <QAction>
#include <QImage>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QTest>
#include <QTextBrowser>
#include <QTextDocument>

using namespace hako;

class TestGuideWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void guideInEachLanguage_data()
    {
        QTest::addColumn<QString>("language");
        QTest::addColumn<QString>("title");
        QTest::addColumn<QString>("checkName");
        QTest::newRow("ja") << QStringLiteral("ja") << QStringLiteral("Hako 使い方ガイド")
                            << QStringLiteral("参照と同じ");
        QTest::newRow("en") << QStringLiteral("en") << QStringLiteral("Hako user guide")
                            << QStringLiteral("Same as the reference");
        // A language without a guide of its own reads the English one.
        QTest::newRow("fr") << QStringLiteral("fr") << QStringLiteral("Hako user guide")
                            << QStringLiteral("Same as the reference");
    }
    void guideInEachLanguage()
    {
        QFETCH(QString, language);
        QFETCH(QString, title);
        QFETCH(QString, checkName);
        GuideWindow guide(language);
        const QString text = guide.browser()->toPlainText();
        QVERIFY2(text.startsWith(title), qPrintable(text.left(80)));
        // What each check does, in the words the experiment form uses.
        QVERIFY(text.contains(checkName));
        // Every picture it names loads from the resources (no network, nothing missing).
        const QString html = guide.browser()->toHtml();
        static const QRegularExpression img(QStringLiteral("<img src=\"([^\"]+)\""));
        int pictures = 0;
        for (auto it = img.globalMatch(html); it.hasNext();) {
            const QUrl url(it.next().captured(1));
            const QVariant image = guide.browser()->loadResource(QTextDocument::ImageResource, url);
            QVERIFY2((!image.isNull() && !image.value<QImage>().isNull()) ||
                         !image.toByteArray().isEmpty(),
                     qPrintable(url.toString()));
            ++pictures;
        }
        QVERIFY(pictures >= 3);
    }

    void helpMenuOpensIt()
    {
        MainWindow window;
        QAction* guide = nullptr;
        for (QAction* menu : window.menuBar()->actions())
            if (menu->menu())
                for (QAction* a : menu->menu()->actions())
                    if (a->text() == QLatin1String("&User Guide"))
                        guide = a;
        QVERIFY(guide);
        QCOMPARE(guide->shortcut(), QKeySequence(QKeySequence::HelpContents));
        guide->trigger();
        GuideWindow* shown = window.findChild<GuideWindow*>();
        QVERIFY(shown);
        QTRY_VERIFY(shown->isVisible());
        shown->close();
    }
};

QTEST_MAIN(TestGuideWindow)
#include "tst_guidewindow.moc"
