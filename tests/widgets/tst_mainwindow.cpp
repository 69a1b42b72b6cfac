#include "core/workbench/workbenchcontext.h"
#include "isolatedsettings.h"
#include "widgets/common/messagebar.h"
#include "widgets/editor/editorpane.h"
#include "widgets/editor/findbar.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/workbench/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;

class TestMainWindow : public QObject {
    Q_OBJECT

private:
    static QByteArray readBytes(const QString& path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    // A fresh copy of a fixture, so tests may modify and save it.
    QString copyFixture(const QString& name, const QString& as = {})
    {
        const QString target = m_files->filePath(as.isEmpty() ? name : as);
        QFile::remove(target);
        if (!QFile::copy(QStringLiteral(HAKO_TEST_DATA_DIR "/") + name, target))
            qFatal("cannot copy fixture");
        QFile(target).setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        return target;
    }
    struct Answers {
        QStringList askedFor;
        MainWindow::SaveChoice choice = MainWindow::SaveChoice::Cancel;
    };
    static void answerWith(MainWindow& window, Answers& answers)
    {
        window.setSaveQuestion([&answers](const QString& name) {
            answers.askedFor.append(name);
            return answers.choice;
        });
    }

    std::unique_ptr<testing::IsolatedSettings> m_settings;
    std::unique_ptr<QTemporaryDir> m_files;

private Q_SLOTS:
    void initTestCase()
    {
        m_settings = std::make_unique<testing::IsolatedSettings>(QStringLiteral("tst_mainwindow"));
        QVERIFY(m_settings->isValid());
    }
    void init()
    {
        QSettings().clear();
        m_files = std::make_unique<QTemporaryDir>();
    }

    void openEditSave()
    {
        const QString path = copyFixture(QStringLiteral("hello.pdl"));
        MainWindow window;
        window.show();
        QSignalSpy programs(window.context(), &WorkbenchContext::currentProgramChanged);
        QVERIFY(window.openFile(path));
        PdlEditor* editor = window.editorPane()->editor();
        QCOMPARE(editor->text().toUtf8(), readBytes(path));
        QCOMPARE(window.windowTitle(), QStringLiteral("hello.pdl[*] — Hako"));
        QVERIFY(!window.isWindowModified());
        QCOMPARE(window.context()->currentProgram(), QFileInfo(path).absoluteFilePath());
        QCOMPARE(programs.size(), 1);

        editor->setCursorPosition(0, 0);
        editor->insert(QStringLiteral("# edited\n"));
        QVERIFY(window.isWindowModified());

        QVERIFY(window.save());
        QVERIFY(!window.isWindowModified());
        QVERIFY(readBytes(path).startsWith("# edited\n# A small PDL program"));
        QCOMPARE(readBytes(path), editor->text().toUtf8());
    }

    void closeWithUnsavedChanges()
    {
        const QString path = copyFixture(QStringLiteral("hello.pdl"));
        const QByteArray original = readBytes(path);
        MainWindow window;
        Answers answers;
        answerWith(window, answers);
        window.show();
        QVERIFY(window.openFile(path));
        window.editorPane()->editor()->append(QStringLiteral("extra: 1\n"));

        answers.choice = MainWindow::SaveChoice::Cancel;
        QVERIFY(!window.close());
        QVERIFY(window.isVisible());
        QCOMPARE(answers.askedFor, QStringList{QStringLiteral("hello.pdl")});
        QCOMPARE(readBytes(path), original);

        answers.choice = MainWindow::SaveChoice::Save;
        QVERIFY(window.close());
        QVERIFY(readBytes(path).endsWith("extra: 1\n"));
    }

    void closeDiscardKeepsFile()
    {
        const QString path = copyFixture(QStringLiteral("hello.pdl"));
        const QByteArray original = readBytes(path);
        MainWindow window;
        Answers answers;
        answers.choice = MainWindow::SaveChoice::Discard;
        answerWith(window, answers);
        window.show();
        QVERIFY(window.openFile(path));
        window.editorPane()->editor()->append(QStringLiteral("x"));
        QVERIFY(window.close());
        QCOMPARE(answers.askedFor.size(), 1);
        QCOMPARE(readBytes(path), original);
    }

    void unmodifiedCloseDoesNotAsk()
    {
        MainWindow window;
        Answers answers;
        answerWith(window, answers);
        window.show();
        QVERIFY(window.close());
        QVERIFY(answers.askedFor.isEmpty());
    }

    void newAndOpenAsk()
    {
        const QString path = copyFixture(QStringLiteral("hello.pdl"));
        const QString other = copyFixture(QStringLiteral("hello.pdl"), QStringLiteral("b.pdl"));
        MainWindow window;
        Answers answers;
        answerWith(window, answers);
        QVERIFY(window.openFile(path));
        PdlEditor* editor = window.editorPane()->editor();
        editor->append(QStringLiteral("more: 1\n"));
        const QString edited = editor->text();

        answers.choice = MainWindow::SaveChoice::Cancel;
        QVERIFY(!window.newFile());
        QVERIFY(!window.openFile(other));
        QCOMPARE(editor->text(), edited);
        QCOMPARE(window.editorPane()->filePath(), QFileInfo(path).absoluteFilePath());
        QCOMPARE(answers.askedFor.size(), 2);

        answers.choice = MainWindow::SaveChoice::Discard;
        QVERIFY(window.newFile());
        QCOMPARE(editor->text(), QString());
        QCOMPARE(window.windowTitle(), QStringLiteral("untitled.pdl[*] — Hako"));
        QVERIFY(!window.isWindowModified());
        QCOMPARE(window.context()->currentProgram(), QString());
    }

    void saveUntitledAsksForPath()
    {
        MainWindow window;
        const QString target = m_files->filePath(QStringLiteral("new.pdl"));
        QString suggested;
        window.setSavePathQuestion([&](const QString& s) {
            suggested = s;
            return target;
        });
        window.editorPane()->editor()->setText(QStringLiteral("text: hi\n"));
        QVERIFY(window.save());
        QVERIFY(suggested.endsWith(QLatin1String("untitled.pdl")));
        QCOMPARE(readBytes(target), QByteArray("text: hi\n"));
        QCOMPARE(window.windowTitle(), QStringLiteral("new.pdl[*] — Hako"));
        QCOMPARE(window.recentFiles(), QStringList{target});

        // A cancelled file dialog saves nothing.
        window.setSavePathQuestion([](const QString&) { return QString(); });
        QVERIFY(!window.saveAs());
    }

    void openMissingFileShowsError()
    {
        const QString path = copyFixture(QStringLiteral("hello.pdl"));
        MainWindow window;
        QVERIFY(window.openFile(path));
        const QString missing = m_files->filePath(QStringLiteral("missing.pdl"));
        QString error;
        QVERIFY(!window.openFile(missing, &error));
        QVERIFY(error.contains(missing));
        MessageBar* bar = window.editorPane()->messageBar();
        QVERIFY(!bar->isHidden());
        QCOMPARE(bar->kind(), MessageBar::Kind::Error);
        QVERIFY(bar->text().contains(QLatin1String("no such file")));
        // The document that was open stays open.
        QCOMPARE(window.editorPane()->filePath(), QFileInfo(path).absoluteFilePath());
        QVERIFY(window.openFile(path));
        QVERIFY(bar->isHidden());
    }

    void invalidUtf8IsRejected()
    {
        const QString path = m_files->filePath(QStringLiteral("latin1.pdl"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("text: caf\xe9\n");
        f.close();
        MainWindow window;
        QVERIFY(!window.openFile(path));
        QVERIFY(window.editorPane()->messageBar()->text().contains(QLatin1String("UTF-8")));
        QCOMPARE(window.editorPane()->editor()->text(), QString());
    }

    void recentFilesPersisted()
    {
        QStringList paths;
        for (int i = 0; i < 12; ++i) {
            paths.append(
                copyFixture(QStringLiteral("hello.pdl"), QStringLiteral("p%1.pdl").arg(i)));
        }
        {
            MainWindow window;
            QVERIFY(window.openFile(paths[0]));
            QVERIFY(window.openFile(paths[1]));
            QCOMPARE(window.recentFiles(), (QStringList{paths[1], paths[0]}));
            QVERIFY(window.openFile(paths[0])); // reopening moves it to the front
            QCOMPARE(window.recentFiles(), (QStringList{paths[0], paths[1]}));
        }
        {
            MainWindow window; // a new window reads the persisted list
            QCOMPARE(window.recentFiles(), (QStringList{paths[0], paths[1]}));
            QFile::remove(paths[0]);
            QCOMPARE(window.recentFiles(), QStringList{paths[1]});
            for (int i = 2; i < 12; ++i)
                QVERIFY(window.openFile(paths[i]));
            const QStringList recent = window.recentFiles();
            QCOMPARE(recent.size(), 10);
            QCOMPARE(recent.first(), paths[11]);
            QVERIFY(!recent.contains(paths[1])); // the oldest fell off

            // File › Open Recent lists them and its Clear List empties the persisted list.
            QMenu* menu = nullptr;
            for (QMenu* m : window.findChildren<QMenu*>()) {
                if (m->title() == QLatin1String("Open &Recent"))
                    menu = m;
            }
            QVERIFY(menu);
            Q_EMIT menu->aboutToShow();
            QStringList labels;
            QAction* clear = nullptr;
            for (QAction* a : menu->actions()) {
                labels.append(a->text());
                if (a->text() == QLatin1String("&Clear List"))
                    clear = a;
            }
            QVERIFY2(labels.first().endsWith(QDir::toNativeSeparators(paths[11])),
                     qPrintable(labels.join(u'|')));
            QCOMPARE(labels.size(), 10 + 2); // files, separator, Clear List
            QVERIFY(clear && clear->isEnabled());
            clear->trigger();
            QCOMPARE(window.recentFiles(), QStringList());
        }
        MainWindow fresh;
        QCOMPARE(fresh.recentFiles(), QStringList());
    }

    // Not a check: saves what the window looks like when HAKO_SCREENSHOT_DIR is set, so a
    // person can review the layout (`HAKO_SCREENSHOT_DIR=/tmp ctest -R widgets/mainwindow`).
    void screenshot()
    {
        const QString dir = qEnvironmentVariable("HAKO_SCREENSHOT_DIR");
        if (dir.isEmpty())
            QSKIP("set HAKO_SCREENSHOT_DIR to save screenshots");
        MainWindow window;
        window.resize(1100, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openFile(QStringLiteral(HAKO_TEST_DATA_DIR "/hello.pdl")));
        PdlEditor* editor = window.editorPane()->editor();
        editor->setCursorPosition(5, 10);
        QTest::qWait(50);
        QVERIFY(window.grab().save(dir + QStringLiteral("/hako-main.png")));
        QVERIFY(window.findChild<QMenuBar*>());
        editor->setSelection(6, 4, 6, 9);
        QAction* replace = nullptr;
        for (QAction* a : window.findChildren<QAction*>()) {
            if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_H))
                replace = a;
        }
        QVERIFY(replace);
        replace->trigger();
        window.openFile(QStringLiteral(HAKO_TEST_DATA_DIR "/missing.pdl"));
        QTest::qWait(50);
        QVERIFY(window.grab().save(dir + QStringLiteral("/hako-find.png")));
    }

    void shortcutsReachActions()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        PdlEditor* editor = window.editorPane()->editor();
        editor->setText(QStringLiteral("a: 1\nb: 2\n"));
        editor->setFocus();
        QTRY_VERIFY(editor->hasFocus());
        editor->setCursorPosition(1, 0);
        // Scintilla binds Ctrl+/ itself; the editor must leave it to Toggle Comment.
        QTest::keyClick(editor, Qt::Key_Slash, Qt::ControlModifier);
        QCOMPARE(editor->text(), QStringLiteral("a: 1\n# b: 2\n"));
        QTest::keyClick(editor, Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(editor->text(), QStringLiteral("a: 1\nb: 2\n"));

        auto* findBar = window.editorPane()->findChild<FindBar*>();
        QVERIFY(findBar && findBar->isHidden());
        QTest::keyClick(editor, Qt::Key_H, Qt::ControlModifier);
        QVERIFY(findBar->isVisible());
        QVERIFY(findBar->isReplaceVisible());
        findBar->setFindText(QStringLiteral("b"));
        editor->setFocus();
        editor->setCursorPosition(0, 0);
        QTest::keyClick(editor, Qt::Key_F3);
        QCOMPARE(editor->selectedText(), QStringLiteral("b"));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_F, Qt::ControlModifier);
        QVERIFY(!findBar->isReplaceVisible());
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
        QVERIFY(findBar->isHidden());
    }

    void geometryPersisted()
    {
        QSize size;
        {
            MainWindow window;
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.resize(900, 650);
            QTRY_COMPARE(window.size(), QSize(900, 650));
            size = window.size();
            QVERIFY(window.close());
        }
        MainWindow again;
        QCOMPARE(again.size(), size);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
