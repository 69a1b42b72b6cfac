#pragma once

#include "core/library/promptlibrary.h"
#include "core/util/latestjob.h"

#include <QWidget>

#include <functional>
#include <optional>

class QLabel;
class QLineEdit;
class QPushButton;
class QTextBrowser;
class QTreeWidget;

namespace hako {

class MessageBar;
class PromptExperiments;

/// The prompt library pane: the prompts of a library (a git repository), the versions and
/// labels of the selected one, a word diff of two versions, and "Save version" for the current
/// program. Git runs on worker threads; the newest request's answer wins. The author never sees
/// a git command: versions are numbered, labels are names.
class LibraryPane : public QWidget {
    Q_OBJECT
public:
    explicit LibraryPane(QWidget* parent = nullptr);

    /// Opens the library at `folder` (remembered as the last one); an error shows in the pane.
    void openLibrary(const QString& folder);
    /// The open library's folder ("" when none).
    QString libraryFolder() const { return m_folder; }

    /// Records the current program `file` as a new version with the message typed in the pane
    /// (or `message` when given); the file must be saved and inside the library.
    void saveVersion(const QString& file, const QString& message = QString());
    /// Puts the keyboard focus on the version message (File › Save Version…).
    void focusMessage();
    /// Reads the library again.
    void refresh();
    /// The selected prompt's experiments (wired to the evaluation store by the window).
    PromptExperiments* experiments() const { return m_experiments; }

Q_SIGNALS:
    /// The current program should be saved to disk and then saveVersion() called.
    void saveVersionRequested(const QString& message);
    /// Opens `path` (a prompt's file in the library) in the editor.
    void openRequested(const QString& path);
    /// Puts `text` (an old version) into the program `path` as an edit the author can undo.
    void restoreRequested(const QString& path, const QByteArray& text);
    void statusMessage(const QString& text, int timeoutMs);
    /// Run on Dataset: run these files (saved versions of the selected prompt, the older
    /// first) over the dataset and compare them.
    void versionsRunRequested(const QStringList& programs);

private:
    void chooseLibrary();
    void showPrompts(const QList<library::LibraryPrompt>& prompts,
                     const QList<QMap<QString, QString>>& labels, const QList<int>& versionCounts);
    void showHistory();
    void setLabel();
    void compareVersions();
    void runVersions();
    /// Sync with the team's library (asking its address the first time); a clash asks which
    /// text to keep.
    void syncWithTeam();
    void runSync(const QString& remote, int choice);
    /// The two versions Compare and Run on Dataset work on: the selected ones, else the
    /// selected and the newest; older first.
    QStringList chosenVersions() const;
    void restoreVersion();
    std::optional<library::LibraryPrompt> selectedPrompt() const;
    QString selectedCommit() const;
    /// Runs `work` on a worker thread and `done` here with its result; with `newestWins`, only
    /// when no newer such request came first (a save or a label move is always reported).
    template <typename T>
    void background(std::function<T()> work, std::function<void(const T&)> done,
                    bool newestWins = true);

    QString m_folder;
    std::optional<library::PromptLibrary> m_library;
    QList<library::LibraryPrompt> m_prompts;
    QList<library::PromptVersion> m_versions;
    LatestJob m_latest;

    MessageBar* m_bar;
    QLabel* m_location;
    QPushButton* m_open;
    QTreeWidget* m_promptList;
    QTreeWidget* m_history;
    QTextBrowser* m_detail;
    QPushButton* m_label;
    QPushButton* m_compare;
    QPushButton* m_restore;
    QPushButton* m_runOnDataset;
    QPushButton* m_sync;
    PromptExperiments* m_experiments;
    QLineEdit* m_message;
    QPushButton* m_save;
};

} // namespace hako
