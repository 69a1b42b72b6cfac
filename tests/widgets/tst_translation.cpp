// The Japanese interface: resources/translations/hako_ja.ts is complete (no unfinished, vanished
// or empty entries; every placeholder, accelerator and HTML tag of the source kept), the
// language is chosen from the settings or HAKO_LANGUAGE, the window's menus come out in
// Japanese, and at 1280×720 no label, button, tab or menu title of the main window and its main
// dialogs (model settings, run tags, about) is cut off. With HAKO_SCREENSHOT_DIR set, the test
// saves what it checked as PNG files there.
#include "core/models/apikeystore.h"
#include "core/pdl/code/codetrust.h"
#include "core/promptlog/callrecord.h"
#include "core/run/runtrust.h"
#include "core/util/pluginmanager.h"
#include "core/workbench/runcontroller.h"
#include "core/workbench/workbenchcontext.h"
#include "isolatedsettings.h"
#include "widgets/common/aboutplugins.h"
#include "widgets/common/languagemanager.h"
#include "widgets/common/messagebar.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/playground/playgroundpane.h"
#include "widgets/settings/modelsettingsdialog.h"
#include "widgets/workbench/docklayout.h"
#include "widgets/workbench/mainwindow.h"
#include "widgets/workbench/runactions.h"
#include "widgets/workbench/trustdialog.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QInputDialog>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QStyle>
#include <QTabBar>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include <thread>

Q_DECLARE_METATYPE(hako::Diagnostic)

using namespace hako;

namespace {

QString tsPath()
{
    return QStringLiteral(HAKO_SOURCE_DIR "/resources/translations/hako_ja.ts");
}

struct TsMessage {
    QString context;
    QString source;
    QStringList translations; // one per numerus form, or the one translation
    QString type;             // the translation's type attribute ("" when finished)
    bool numerus = false;
};

QList<TsMessage> readTs(const QString& path, QString* error)
{
    QList<TsMessage> out;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = file.errorString();
        return out;
    }
    QXmlStreamReader xml(&file);
    QString context;
    TsMessage current;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const auto name = xml.name();
            if (name == QLatin1String("name")) {
                context = xml.readElementText();
            } else if (name == QLatin1String("message")) {
                current = TsMessage{};
                current.context = context;
                current.numerus =
                    xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes");
            } else if (name == QLatin1String("source")) {
                current.source = xml.readElementText();
            } else if (name == QLatin1String("translation")) {
                current.type = xml.attributes().value(QLatin1String("type")).toString();
                if (!current.numerus)
                    current.translations << xml.readElementText();
            } else if (name == QLatin1String("numerusform")) {
                current.translations << xml.readElementText();
            }
        } else if (xml.isEndElement() && xml.name() == QLatin1String("message")) {
            out << current;
        }
    }
    if (xml.hasError())
        *error = xml.errorString();
    return out;
}

// %1…%99 (also %L1) and, in plural messages, %n.
QStringList placeholders(const QString& text)
{
    static const QRegularExpression re(QStringLiteral("%L?(\\d{1,2}|n)"));
    QStringList out;
    for (auto it = re.globalMatch(text); it.hasNext();)
        out << it.next().captured(0);
    out.sort();
    out.removeDuplicates();
    return out;
}

QStringList htmlTags(const QString& text)
{
    static const QRegularExpression re(QStringLiteral("</?([a-zA-Z][a-zA-Z0-9]*)[^>]*>"));
    QStringList out;
    for (auto it = re.globalMatch(text); it.hasNext();)
        out << it.next().captured(0).section(QLatin1Char(' '), 0, 0).remove(QLatin1Char('>'));
    out.sort();
    return out;
}

bool hasAccelerator(const QString& text)
{
    return QString(text).remove(QStringLiteral("&&")).contains(QLatin1Char('&'));
}

class MemoryBackend : public models::ISecretBackend {
public:
    void read(const QString&, std::function<void(models::SecretReply)> done) override
    {
        std::thread([done] { done(models::SecretReply{}); }).detach();
    }
    void write(const QString&, const QString&, std::function<void(QString)> done) override
    {
        std::thread([done] { done(QString()); }).detach();
    }
};

} // namespace

class TestTranslation : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<testing::IsolatedSettings> m_settings;
    std::unique_ptr<LanguageManager> m_language;

    // Every visible label, button, tab and combo box of `top` shows its whole text; returns the
    // ones that do not, as "class 'text' (needs WxH, has WxH)".
    static QStringList clipped(QWidget* top)
    {
        QStringList out;
        auto describe = [](QWidget* w, const QString& text, QSize need, QSize has) {
            return QStringLiteral("%1 %2 '%3' (needs %4×%5, has %6×%7)")
                .arg(QString::fromLatin1(w->metaObject()->className()), w->objectName(),
                     text.simplified().left(80))
                .arg(need.width())
                .arg(need.height())
                .arg(has.width())
                .arg(has.height());
        };
        for (QLabel* label : top->findChildren<QLabel*>()) {
            if (!label->isVisibleTo(top) || label->text().isEmpty() || label->width() <= 0 ||
                !label->pixmap().isNull())
                continue;
            const QSize has = label->contentsRect().size();
            const int margin = 2 * label->margin();
            if (label->wordWrap()) {
                const int need = label->heightForWidth(label->width());
                if (need > label->height())
                    out << describe(label, label->text(), {label->width(), need}, label->size());
            } else {
                const QSize need = label->sizeHint() - QSize(margin, margin);
                const QSize inner = label->size() - QSize(margin, margin);
                if (need.width() > inner.width() + 1 || need.height() > inner.height() + 1)
                    out << describe(label, label->text(), need, has);
            }
        }
        for (QAbstractButton* button : top->findChildren<QAbstractButton*>()) {
            if (!button->isVisibleTo(top) || button->text().isEmpty())
                continue;
            if (qobject_cast<QTabBar*>(button->parentWidget()))
                continue; // the tab bar's scroll buttons
            // The text itself (not the style's minimum button width, which a compact "×" button
            // rightly goes below), its icon, and for check boxes the indicator.
            const QString text = QString(button->text())
                                     .replace(QStringLiteral("&&"), QStringLiteral("\x01"))
                                     .remove(QLatin1Char('&'))
                                     .replace(QLatin1Char('\x01'), QLatin1Char('&'));
            int need = button->fontMetrics().horizontalAdvance(text) + 6;
            if (!button->icon().isNull())
                need += button->iconSize().width() + 4;
            if (qobject_cast<QCheckBox*>(button) || qobject_cast<QRadioButton*>(button))
                need += -6 + button->style()->pixelMetric(QStyle::PM_IndicatorWidth) +
                        button->style()->pixelMetric(QStyle::PM_CheckBoxLabelSpacing);
            const int needHeight = button->fontMetrics().height();
            if (need > button->width() || needHeight > button->height())
                out << describe(button, button->text(), {need, needHeight}, button->size());
        }
        for (QComboBox* combo : top->findChildren<QComboBox*>()) {
            if (!combo->isVisibleTo(top) || combo->isEditable() || combo->currentText().isEmpty())
                continue;
            const int textWidth = combo->fontMetrics().horizontalAdvance(combo->currentText());
            // The popup arrow and the frame take about two line heights.
            const int room = combo->width() - 2 * combo->fontMetrics().height();
            if (textWidth > room)
                out << describe(combo, combo->currentText(), {textWidth, combo->height()},
                                {room, combo->height()});
        }
        for (QTabBar* tabs : top->findChildren<QTabBar*>()) {
            if (!tabs->isVisibleTo(top))
                continue;
            for (int i = 0; i < tabs->count(); ++i) {
                if (!tabs->isTabVisible(i))
                    continue;
                const QRect rect = tabs->tabRect(i);
                // The text (mnemonic removed) and a little padding on each side.
                const QString text = QString(tabs->tabText(i)).remove(QLatin1Char('&'));
                const QSize need(tabs->fontMetrics().horizontalAdvance(text) + 8, rect.height());
                const bool offBar = rect.right() > tabs->width() || rect.bottom() > tabs->height();
                if (need.width() > rect.width() + 1 || offBar)
                    out << describe(tabs, tabs->tabText(i), need, rect.size());
            }
        }
        return out;
    }

    static void screenshot(QWidget* w, const QString& name)
    {
        const QString dir = qEnvironmentVariable("HAKO_SCREENSHOT_DIR");
        if (dir.isEmpty())
            return;
        QDir().mkpath(dir);
        const QString path = QDir(dir).filePath(name + QStringLiteral(".png"));
        QVERIFY2(w->grab().save(path), qPrintable(path));
        qInfo("screenshot: %s", qPrintable(path));
    }

    static void showAndSettle(QWidget* w)
    {
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w));
        QTest::qWait(50);
        QApplication::processEvents();
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_settings = std::make_unique<testing::IsolatedSettings>(QStringLiteral("tst_translation"));
        QVERIFY(m_settings->isValid());
        qputenv("HAKO_LANGUAGE", "ja");
        m_language = std::make_unique<LanguageManager>();
        QVERIFY2(m_language->apply(), "the Japanese translation :/i18n/hako_ja.qm is missing");
    }

    void cleanupTestCase()
    {
        m_language.reset();
        qunsetenv("HAKO_LANGUAGE");
    }

    // (a) The .ts file: every entry finished, nothing vanished, placeholders, accelerators and
    // HTML tags carried over.
    void translationIsComplete()
    {
        QString error;
        const QList<TsMessage> messages = readTs(tsPath(), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(messages.size() > 500, qPrintable(QString::number(messages.size())));
        QStringList problems;
        for (const TsMessage& m : messages) {
            const QString where = m.context + QStringLiteral(": \"") + m.source + QLatin1Char('"');
            if (!m.type.isEmpty()) {
                problems << QStringLiteral("%1 is %2").arg(where, m.type);
                continue;
            }
            if (m.translations.isEmpty()) {
                problems << where + QStringLiteral(" has no translation");
                continue;
            }
            for (const QString& t : m.translations) {
                if (t.trimmed().isEmpty())
                    problems << where + QStringLiteral(" has an empty translation");
                QStringList want = placeholders(m.source);
                QStringList have = placeholders(t);
                if (want != have)
                    problems << QStringLiteral("%1: placeholders %2 became %3")
                                    .arg(where, want.join(QLatin1Char(' ')),
                                         have.join(QLatin1Char(' ')));
                if (hasAccelerator(m.source) != hasAccelerator(t))
                    problems << where + QStringLiteral(": the keyboard accelerator (&) is lost");
                if (htmlTags(m.source) != htmlTags(t))
                    problems << where + QStringLiteral(": HTML tags differ");
                if (m.source.contains(QLatin1String("${")) && !t.contains(QLatin1String("${")))
                    problems << where + QStringLiteral(": the ${ } expression is lost");
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    void languageIsChosen()
    {
        QCOMPARE(
            LanguageManager::resolve(QStringLiteral("system"), QLocale(QStringLiteral("ja_JP"))),
            QStringLiteral("ja"));
        QCOMPARE(
            LanguageManager::resolve(QStringLiteral("system"), QLocale(QStringLiteral("de_DE"))),
            QStringLiteral("en"));
        QCOMPARE(LanguageManager::resolve(QStringLiteral("en"), QLocale(QStringLiteral("ja_JP"))),
                 QStringLiteral("en"));
        QCOMPARE(LanguageManager::resolve(QStringLiteral("ja_JP.UTF-8"), QLocale::c()),
                 QStringLiteral("ja"));
        // The environment wins over the setting.
        QSettings().setValue(QLatin1String(LanguageManager::kSettingsKey), QStringLiteral("en"));
        QCOMPARE(m_language->preference(), QStringLiteral("en"));
        QCOMPARE(m_language->effectiveLanguage(), QStringLiteral("ja"));
        QSettings().remove(QLatin1String(LanguageManager::kSettingsKey));
        QCOMPARE(m_language->preference(), QStringLiteral("system"));
        // QScintilla's editing menu, which has no Japanese translation of its own.
        QCOMPARE(QCoreApplication::translate("QsciScintilla", "&Undo"),
                 QStringLiteral("元に戻す(&U)"));
        // Qt's own strings (standard buttons) are Japanese too when Qt's translations exist.
        if (QFile::exists(QLibraryInfo::path(QLibraryInfo::TranslationsPath) +
                          QStringLiteral("/qtbase_ja.qm")))
            QCOMPARE(QCoreApplication::translate("QPlatformTheme", "Cancel"),
                     QStringLiteral("キャンセル"));
    }

    // (b) The window in Japanese, and Settings › Language.
    void menusAreJapanese()
    {
        MainWindow window;
        QStringList titles;
        for (QAction* a : window.menuBar()->actions())
            titles << a->text();
        QCOMPARE(titles, (QStringList{QStringLiteral("ファイル(&F)"), QStringLiteral("編集(&E)"),
                                      QStringLiteral("実行(&R)"), QStringLiteral("トレース(&T)"),
                                      QStringLiteral("表示(&V)"), QStringLiteral("設定(&S)"),
                                      QStringLiteral("ヘルプ(&H)")}));
        auto* languageMenu = window.findChild<QMenu*>(QStringLiteral("languageMenu"));
        QVERIFY(languageMenu);
        QCOMPARE(languageMenu->title(), QStringLiteral("言語(&L)"));
        QStringList choices;
        for (QAction* a : languageMenu->actions()) {
            QVERIFY(a->isCheckable());
            choices << a->data().toString();
        }
        QCOMPARE(choices, (QStringList{QStringLiteral("system"), QStringLiteral("en"),
                                       QStringLiteral("ja")}));
        QVERIFY(languageMenu->actions().first()->isChecked());

        // Choosing a language remembers it and tells the user about the restart (in the new
        // language); HAKO_LANGUAGE keeps Japanese in effect here.
        QSignalSpy changed(m_language.get(), &LanguageManager::languageChanged);
        qunsetenv("HAKO_LANGUAGE");
        auto* english = window.findChild<QAction*>(QStringLiteral("language_en"));
        QVERIFY(english);
        english->trigger();
        QCOMPARE(QSettings().value(QLatin1String(LanguageManager::kSettingsKey)).toString(),
                 QStringLiteral("en"));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(QCoreApplication::translate("hako::MainWindow", "&File"), QStringLiteral("&File"));
        window.findChild<QAction*>(QStringLiteral("language_ja"))->trigger();
        QCOMPARE(changed.count(), 2);
        QCOMPARE(QCoreApplication::translate("hako::MainWindow", "&File"),
                 QStringLiteral("ファイル(&F)"));
        QSettings().remove(QLatin1String(LanguageManager::kSettingsKey));
        qputenv("HAKO_LANGUAGE", "ja");
        QVERIFY(m_language->apply());
    }

    // English texts are the sources, but `%n` texts need their plural forms from hako_en.ts:
    // "1 block", "2 blocks", never "1 block(s)".
    void englishPlurals()
    {
        qputenv("HAKO_LANGUAGE", "en");
        QVERIFY(m_language->apply());
        const char* context = "hako::TraceTimelineView";
        QCOMPARE(QCoreApplication::translate(context, "%n block(s), %1", nullptr, 1),
                 QStringLiteral("1 block, %1"));
        QCOMPARE(QCoreApplication::translate(context, "%n block(s), %1", nullptr, 3),
                 QStringLiteral("3 blocks, %1"));
        QCOMPARE(QCoreApplication::translate("hako::AboutPlugins", "%1 of %n plugin(s) loaded.",
                                             nullptr, 1),
                 QStringLiteral("%1 of 1 plugin loaded."));
        // Every `%n` text of the sources has both forms (scripts/update-translations adds new
        // ones to hako_en.ts).
        QFile ts(QStringLiteral(HAKO_SOURCE_DIR "/resources/translations/hako_en.ts"));
        QVERIFY(ts.open(QIODevice::ReadOnly));
        const QString xml = QString::fromUtf8(ts.readAll());
        QVERIFY(!xml.contains(QLatin1String("type=\"unfinished\"")));
        QVERIFY(!xml.contains(QLatin1String("<numerusform></numerusform>")));
        qputenv("HAKO_LANGUAGE", "ja");
        QVERIFY(m_language->apply());
    }

    // An unsaved program is 無題 wherever its name shows: the tab, and the name its runs go by
    // (the trace's title, the console's messages, the prompt log), here an error's location.
    void untitledIsMudaiEverywhere()
    {
        qRegisterMetaType<hako::Diagnostic>();
        QVERIFY(RunController::programFileName(QString()).endsWith(QStringLiteral("/無題.pdl")));
        WorkbenchContext context;
        EditorPane pane(&context);
        QCOMPARE(pane.displayName(), QStringLiteral("無題.pdl"));
        RunController run;
        QSignalSpy finished(&run, &RunController::finished);
        QVERIFY(run.start("text:\n- ${ nowhere.x }\n", QString()));
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY(!finished[0][0].toBool());
        const Diagnostic error = finished[0][2].value<Diagnostic>();
        QVERIFY2(error.span.file.endsWith(QStringLiteral("無題.pdl")), qPrintable(error.span.file));
    }

    // Settings › Language applies without a restart: the window is rebuilt in the new language
    // and keeps the program, its unsaved text and the view.
    void languageChangesWithoutRestart()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("p.pdl"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("text: saved\n");
        }
        QPointer<MainWindow> window = new MainWindow;
        QVERIFY(window->openFile(path));
        window->editorPane()->editor()->setText(QStringLiteral("text: not saved yet\n"));
        window->editorPane()->setPromptMode(true);
        window->show();
        QPointer<MainWindow> rebuilt;
        connect(
            window, &MainWindow::rebuildRequested, window,
            [&] { rebuilt = MainWindow::rebuild(window); }, Qt::QueuedConnection);
        qunsetenv("HAKO_LANGUAGE");
        window->findChild<QAction*>(QStringLiteral("language_en"))->trigger();
        QTRY_VERIFY(rebuilt);
        QTRY_VERIFY(!window); // the old window is gone, without a "Save changes?" question
        QCOMPARE(rebuilt->menuBar()->actions().first()->text(), QStringLiteral("&File"));
        QCOMPARE(rebuilt->editorPane()->filePath(), path);
        QCOMPARE(rebuilt->editorPane()->editor()->text(), QStringLiteral("text: not saved yet\n"));
        QVERIFY(rebuilt->editorPane()->isModified());
        QVERIFY(rebuilt->editorPane()->isPromptMode());
        delete rebuilt.data();
        QSettings().remove(QLatin1String(LanguageManager::kSettingsKey));
        qputenv("HAKO_LANGUAGE", "ja");
        QVERIFY(m_language->apply());
    }

    // (c) Nothing cut off at 1280×720: the window with its default layout and the main dialogs.
    void mainWindowFits()
    {
        MainWindow window;
        window.resize(1280, 720);
        showAndSettle(&window);
        screenshot(&window, QStringLiteral("ja-mainwindow"));
        const QStringList bad = clipped(&window);
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QLatin1Char('\n'))));
        // The menu titles all fit in the menu bar.
        QMenuBar* bar = window.menuBar();
        for (QAction* a : bar->actions())
            QVERIFY2(bar->rect().contains(bar->actionGeometry(a)), qPrintable(a->text()));
        // Each menu is wide enough for its items (Qt sizes menus to fit; the check guards against
        // a fixed width).
        for (QAction* a : bar->actions()) {
            QMenu* menu = a->menu();
            menu->popup(QPoint(0, 0));
            QApplication::processEvents();
            for (QAction* item : menu->actions()) {
                if (item->isSeparator() || !item->isVisible())
                    continue;
                const int need = menu->fontMetrics().horizontalAdvance(
                    QString(item->text()).remove(QLatin1Char('&')));
                QVERIFY2(menu->actionGeometry(item).width() > need, qPrintable(item->text()));
            }
            if (a == bar->actions().first())
                screenshot(menu, QStringLiteral("ja-menu-file"));
            if (a == bar->actions().at(4))
                screenshot(menu, QStringLiteral("ja-menu-settings"));
            menu->hide();
        }
    }

    // Each pane of the View menu shown in the window at 1280×720 (their docks start hidden or
    // tabbed), one after another.
    void panesFit()
    {
        QStringList names;
        {
            MainWindow window;
            for (QDockWidget* dock : window.findChildren<QDockWidget*>())
                names << dock->objectName();
        }
        QVERIFY(names.size() >= 5);
        QStringList bad;
        for (const QString& name : names) {
            // A fresh window per pane: the default layout with this pane shown and given room,
            // as View › (pane) or opening a file of its kind does.
            MainWindow window;
            window.resize(1280, 720);
            showAndSettle(&window);
            auto* dock = window.findChild<QDockWidget*>(name);
            dock->show();
            dock->raise();
            window.dockLayout()->makeRoom(dock);
            QApplication::processEvents();
            QTest::qWait(30);
            for (const QString& line : clipped(dock))
                bad << name + QStringLiteral(": ") + line;
            screenshot(&window, QStringLiteral("ja-pane-") + name);
        }
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QLatin1Char('\n'))));
    }

    // The check itself sees a cut-off label, button and tab.
    void clippingIsDetected()
    {
        QWidget top;
        auto* label = new QLabel(QStringLiteral("プロンプトログを再読み込み"), &top);
        auto* button = new QPushButton(QStringLiteral("フォルダーを信頼して実行"), &top);
        label->setGeometry(0, 0, 40, 20);
        button->setGeometry(0, 30, 40, 20);
        top.resize(200, 100);
        showAndSettle(&top);
        QCOMPARE(clipped(&top).size(), 2);
    }

    void modelSettingsFits()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        auto keys = std::make_shared<models::ApiKeyStore>(std::make_shared<MemoryBackend>(), 2000);
        ModelSettingsDialog dialog(dir.filePath(QStringLiteral("hako-models.yaml")), keys);
        showAndSettle(&dialog);
        QTest::qWait(100);
        screenshot(&dialog, QStringLiteral("ja-model-settings"));
        const QStringList bad = clipped(&dialog);
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QLatin1Char('\n'))));
    }

    void runTagsFits()
    {
        MainWindow window;
        window.resize(1280, 720);
        showAndSettle(&window);
        QInputDialog* dialog = window.runActions()->createTagsDialog(&window);
        QCOMPARE(dialog->windowTitle(), QStringLiteral("実行タグ"));
        dialog->open();
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        QApplication::processEvents();
        screenshot(dialog, QStringLiteral("ja-run-tags"));
        const QStringList bad = clipped(dialog);
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QLatin1Char('\n'))));
        dialog->close();
    }

    void trustDialogFits()
    {
        RunTrustCheck check;
        check.folder = QStringLiteral("/home/user/ダウンロード");
        using Kind = pdl::code::CodeSite::Kind;
        const QString file = QStringLiteral("/home/user/ダウンロード/要約.pdl");
        check.sites.push_back({Kind::Python, SourceSpan{file, 12, 3}, {}});
        check.sites.push_back({Kind::Host, SourceSpan{file, 20, 5}, "http://192.168.0.9:8000/v1"});
        TrustDialog dialog(file, check);
        showAndSettle(&dialog);
        QCOMPARE(dialog.windowTitle(), QStringLiteral("コードを実行しますか？"));
        QVERIFY2(dialog.informativeText().contains(QStringLiteral("要約.pdl:12 の Python コード")),
                 qPrintable(dialog.informativeText()));
        screenshot(&dialog, QStringLiteral("ja-trust"));
        const QStringList bad = clipped(&dialog);
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QLatin1Char('\n'))));
    }

    // A finished run of an example that needs no model: the trace panes, console and status
    // bar as a Japanese user sees them.
    void runFits()
    {
        MainWindow window;
        window.resize(1280, 720);
        showAndSettle(&window);
        QVERIFY(window.openExample(QStringLiteral("loops.pdl")));
        QSignalSpy finished(window.runController(), &RunController::finished);
        QVERIFY(window.runProgram());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
        QTest::qWait(200);
        QVERIFY(
            window.statusBar()->currentMessage().contains(QStringLiteral("実行が完了しました")));
        screenshot(&window, QStringLiteral("ja-run"));
        const QStringList bad = clipped(&window);
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QLatin1Char('\n'))));
    }

    // A run that cannot reach its model: the message bar's plain-words message and its
    // "Configure models…" button.
    void modelFailureFits()
    {
        MainWindow window;
        window.resize(1280, 720);
        showAndSettle(&window);
        window.editorPane()->editor()->setText(
            QStringLiteral("text:\n- model: ollama/never-installed\n  input: こんにちは\n"));
        QSignalSpy finished(window.runController(), &RunController::finished);
        QVERIFY(window.runProgram());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QVERIFY(!finished[0][0].toBool());
        MessageBar* bar = window.editorPane()->messageBar();
        QTRY_VERIFY(bar->isVisible());
        // The server is not running: said so, in Japanese, with what to do.
        QVERIFY2(bar->text().contains(QStringLiteral("応答しません")) &&
                     bar->text().contains(QStringLiteral("起動し直して")),
                 qPrintable(bar->text()));
        QCOMPARE(bar->actionText(), QStringLiteral("モデルを設定…"));
        QTest::qWait(50);
        screenshot(&window, QStringLiteral("ja-model-failure"));
        const QStringList bad = clipped(bar);
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QLatin1Char('\n'))));
    }

    // The plain-words error for a misspelt name, in Japanese, with its "did you mean".
    void undefinedNameInJapanese()
    {
        MainWindow window;
        window.resize(1280, 720);
        showAndSettle(&window);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("要約.pdl"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("defs:\n  article: 吾輩は猫である。\ntext:\n- \"要約: ${ artcle }\"\n");
        file.close();
        QVERIFY(window.openFile(path));
        // The editor's analysis (which knows the definitions) is in before the run.
        QTRY_VERIFY(window.editorPane()->editor()->report() != nullptr);
        QSignalSpy finished(window.runController(), &RunController::finished);
        QVERIFY(window.runProgram());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
        MessageBar* bar = window.editorPane()->messageBar();
        QTRY_VERIFY(bar->isVisible());
        QVERIFY2(bar->text().contains(
                     QStringLiteral("`artcle` は入力でも、定義された名前でもありません — "
                                    "`article` のことですか？")),
                 qPrintable(bar->text()));
        QTest::qWait(50);
        screenshot(&window, QStringLiteral("ja-undefined-name"));
        const QStringList bad = clipped(bar);
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QLatin1Char('\n'))));
    }

    // The playground (not yet docked in the window): empty, then with a logged call and two
    // variants, at the size a bottom dock has at 1280×720.
    void playgroundFits()
    {
        PlaygroundPane pane;
        pane.resize(1280, 420);
        showAndSettle(&pane);
        screenshot(&pane, QStringLiteral("ja-playground-empty"));
        QStringList bad = clipped(&pane);
        promptlog::CallRecord call;
        call.model = QStringLiteral("ollama/qwen2.5");
        call.promptName = QStringLiteral("要約");
        call.parameters = QJsonObject{{QStringLiteral("temperature"), 0.2}};
        call.messages = QJsonArray{
            QJsonObject{{QStringLiteral("role"), QStringLiteral("system")},
                        {QStringLiteral("content"), QStringLiteral("あなたは丁寧な編集者です。")}},
            QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                        {QStringLiteral("content"),
                         QStringLiteral("次の文章を三行で要約してください: ${ article }")}}};
        call.inputs = QJsonObject{{QStringLiteral("article"), QStringLiteral("吾輩は猫である。")}};
        pane.openCall(call);
        pane.addVariant();
        QApplication::processEvents();
        QTest::qWait(50);
        screenshot(&pane, QStringLiteral("ja-playground"));
        bad += clipped(&pane);
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QLatin1Char('\n'))));
    }

    void aboutPluginsFits()
    {
        AboutPlugins dialog(PluginManager::instance().plugins());
        dialog.resize(dialog.sizeHint());
        showAndSettle(&dialog);
        QCOMPARE(dialog.windowTitle(), QStringLiteral("プラグインについて"));
        screenshot(&dialog, QStringLiteral("ja-about-plugins"));
        const QStringList bad = clipped(&dialog);
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QLatin1Char('\n'))));
    }

    void aboutFits()
    {
        MainWindow window;
        window.resize(1280, 720);
        showAndSettle(&window);
        auto* about = window.findChild<QAction*>(QStringLiteral("aboutAction"));
        QVERIFY(about);
        about->trigger();
        QMessageBox* box = nullptr;
        QTRY_VERIFY((box = window.findChild<QMessageBox*>(QStringLiteral("aboutDialog"))));
        QVERIFY(QTest::qWaitForWindowExposed(box));
        QApplication::processEvents();
        QCOMPARE(box->windowTitle(), QStringLiteral("Hako について"));
        screenshot(box, QStringLiteral("ja-about"));
        const QStringList bad = clipped(box);
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QLatin1Char('\n'))));
        box->close();
    }
};

QTEST_MAIN(TestTranslation)
#include "tst_translation.moc"
