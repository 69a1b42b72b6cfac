// libhako_window's entry (see app/moduleentry.h): the workbench window, loaded by libhako_cli
// only when `hako` opens it, so that the command line never maps QtWidgets, QScintilla or
// hako_widgets.
#include "cli/output.h"
#include "core/util/settingsfileguard.h"
#include "core/util/version.h"
#include "moduleentry.h"
#include "widgets/common/languagemanager.h"
#include "widgets/common/thememanager.h"
#include "widgets/editor/editorpane.h"
#include "widgets/workbench/mainwindow.h"
#include "widgets/workbench/programtabs.h"

#include <QApplication>
#include <QIcon>
#include <QPointer>
#include <QTimer>

#include <cstdio>
#include <functional>
#include <type_traits>

namespace {

QIcon applicationIcon()
{
    QIcon icon;
    for (int size : {16, 22, 24, 32, 48, 64, 128, 256})
        icon.addFile(QStringLiteral(":/icons/hako-%1.png").arg(size), QSize(size, size));
    return icon;
}

int runWorkbench(int& argc, char** argv, const QStringList& files)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Hako"));
    QApplication::setApplicationName(QStringLiteral("Hako"));
    QApplication::setApplicationDisplayName(QStringLiteral("Hako"));
    QApplication::setApplicationVersion(hako::versionString());
    QApplication::setDesktopFileName(QStringLiteral("io.github.hako.Hako"));
    QApplication::setWindowIcon(applicationIcon());
    // Before anything reads or writes the settings (the language and theme just below).
    const hako::SettingsFileGuard settingsGuard;
    if (settingsGuard.redirected())
        hako::writeText(stderr, QStringLiteral("hako: warning: %1\n").arg(settingsGuard.warning()));
    // Before any window exists, so that every text is built in the chosen language.
    hako::LanguageManager language;
    language.apply();
    // Before any window exists too, so that it is built and first painted in the chosen theme.
    hako::ThemeManager theme;
    theme.apply();

    // Held by pointer: Settings › Language replaces the window by one built in the new
    // language (MainWindow::rebuild).
    QPointer<hako::MainWindow> window = new hako::MainWindow;
    window->setAttribute(Qt::WA_DeleteOnClose, false);
    std::function<void()> followRebuilds = [&window, &followRebuilds] {
        QObject::connect(
            window, &hako::MainWindow::rebuildRequested, window,
            [&window, &followRebuilds] {
                window = hako::MainWindow::rebuild(window);
                followRebuilds();
            },
            Qt::QueuedConnection);
    };
    followRebuilds();
    // Each file opens by its kind; programs each in a tab, the first one in view.
    hako::EditorPane* first = nullptr;
    for (const QString& file : files) {
        QString error;
        if (!window->openPath(file, &error))
            hako::writeText(stderr, QStringLiteral("hako: %1\n").arg(error));
        else if (!first && !window->editorPane()->filePath().isEmpty())
            first = window->editorPane();
    }
    if (first)
        window->programTabs()->setCurrentEditor(first);
    window->show();
    if (files.isEmpty())
        window->showStartPageIfIdle();
    // For the start-up benchmark (tests/bench/bench_workbench.cpp): leave as soon as the window
    // has been shown and the event loop is idle.
    if (qEnvironmentVariableIsSet("HAKO_QUIT_WHEN_SHOWN"))
        QTimer::singleShot(0, &app, &QApplication::quit);
    else
        QTimer::singleShot(0, window, [&window] { window->offerRecovery(); });
    const int status = app.exec();
    delete window.data();
    return status;
}

} // namespace

extern "C" __attribute__((visibility("default"))) int
hakoWindowMain(int* argc, char** argv, const char* const* files, int fileCount)
{
    static_assert(std::is_same_v<decltype(&hakoWindowMain), hako::WindowEntry>);
    QStringList paths;
    for (int i = 0; i < fileCount; ++i)
        paths.append(QString::fromLocal8Bit(files[i]));
    return runWorkbench(*argc, argv, paths);
}
