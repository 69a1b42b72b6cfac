#pragma once

#include "core/util/latestjob.h"

#include <QWidget>

#include <memory>

class QCheckBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QVBoxLayout;

namespace hako {

namespace models {
class ApiKeyStore;
}

/// The first-start page (and Help › Getting Started): the three things people come to Hako
/// for, each one click away — write a prompt (from a template), debug a run (an example
/// program, run), explore a document — and a model connection step: Ollama on this computer is
/// looked for at once (OLLAMA_API_BASE, else localhost:11434), an OpenAI-compatible server is
/// tested with its URL and key and, when it answers, kept as an endpoint of the user's model
/// settings (the key in the keyring — or, without one, kept for the session or, when the user
/// ticks it, in a file only they can read) with its first model as the default. After a restart
/// it shows the server connected that way (its address and how many models it serves, or that
/// it does not answer) and the recently opened prompts (the recent files, QSettings). Network
/// calls run off the GUI thread with short timeouts. Presentation and those probes only; the
/// window wires the signals.
class StartPage : public QWidget {
    Q_OBJECT
public:
    explicit StartPage(QWidget* parent = nullptr);
    ~StartPage() override;

    /// Whether the page shows when Hako starts without a file (QSettings ui/showStartPage).
    static bool showAtStart();

    /// Looks for Ollama again (done once when the page first shows).
    void probeOllama();
    /// Asks the server in the URL field for its models.
    void testServer();
    /// Keeps the tested server as an endpoint of the user's model settings.
    bool useServer();

    QLabel* ollamaState() const { return m_ollamaState; }
    QLabel* serverState() const { return m_serverState; }
    QLineEdit* urlField() const { return m_url; }
    QLineEdit* keyField() const { return m_key; }
    QPushButton* testButton() const { return m_test; }
    QPushButton* useButton() const { return m_use; }
    /// What is said about the connected server (address and models, or why not).
    QLabel* connectedState() const { return m_connectedState; }
    /// "Store the key in a file only you can read": shown when there is no desktop keyring.
    QCheckBox* keyToFileBox() const { return m_keyToFile; }
    /// The recent prompts as shown (each a button opening it), most recent first.
    QList<QPushButton*> recentButtons() const;
    /// Reads the recent prompts and the connected server again (done when the page shows).
    void refresh();
    /// The store keys go to (tests use one without a keyring); default ApiKeyStore::system().
    void setKeyStore(std::shared_ptr<models::ApiKeyStore> keys);
    /// The user's model settings file (tests point it elsewhere); default ModelConfig::userFile().
    void setModelSettingsFile(const QString& path) { m_settingsFile = path; }

Q_SIGNALS:
    void writePromptRequested();
    void debugRunRequested();
    void exploreDocumentRequested();
    void modelSettingsRequested();
    /// A recent prompt was clicked.
    void openRecentRequested(const QString& path);
    /// Go to the Editor: the page is left as it is.
    void closeRequested();
    /// A server was kept as an endpoint (the model lists should be asked again).
    void modelsChanged();
    /// The connected server was asked again: its models, or why not.
    void connectedServerChecked(const QStringList& models, const QString& error);
    /// Ollama was looked for / a server was tested: the models that answered, or why not.
    void ollamaProbed(const QStringList& models, const QString& error);
    void serverTested(const QStringList& models, const QString& error);

protected:
    void showEvent(QShowEvent* event) override;

private:
    /// The key file choice's label and tooltip (the file's path).
    void describeKeyFile();
    QGroupBox* buildModelsBox();
    void fillRecent();
    void checkConnectedServer();
    /// Keeps `key` for endpoint `name` as the user chose; says where in the server state.
    void keepKey(const QString& name, const QString& key);

    QLabel* m_ollamaState;
    QLineEdit* m_url;
    QLineEdit* m_key;
    QPushButton* m_test;
    QPushButton* m_use;
    QLabel* m_serverState;
    QCheckBox* m_showAtStart;
    QCheckBox* m_keyToFile;
    QLabel* m_connectedState;
    QVBoxLayout* m_recentList;
    /// The recent prompts' box and the connected server's caption: shown only when there is
    /// something to show (a first start keeps the page short, its connect step in view).
    QWidget* m_recentBox = nullptr;
    QLabel* m_connectedCaption = nullptr;
    std::shared_ptr<models::ApiKeyStore> m_keys;
    QString m_settingsFile;
    QStringList m_serverModels;
    bool m_probed = false;
    LatestJob m_latest;
    LatestJob m_connectedCheck;
};

} // namespace hako
