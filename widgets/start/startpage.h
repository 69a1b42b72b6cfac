#pragma once

#include "core/util/latestjob.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace hako {

/// The first-start page (and Help › Getting Started): the three things people come to Hako
/// for, each one click away — write a prompt (from a template), debug a run (an example
/// program, run), explore a document — and a model connection step: Ollama on this computer is
/// looked for at once (OLLAMA_API_BASE, else localhost:11434), an OpenAI-compatible server is
/// tested with its URL and key and, when it answers, kept as an endpoint of the user's model
/// settings (the key in the keyring) with its first model as the default. Network calls run
/// off the GUI thread with short timeouts. Presentation and those two probes only; the window
/// wires the signals.
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
    /// The user's model settings file (tests point it elsewhere); default ModelConfig::userFile().
    void setModelSettingsFile(const QString& path) { m_settingsFile = path; }

Q_SIGNALS:
    void writePromptRequested();
    void debugRunRequested();
    void exploreDocumentRequested();
    void modelSettingsRequested();
    /// Go to the Editor: the page is left as it is.
    void closeRequested();
    /// A server was kept as an endpoint (the model lists should be asked again).
    void modelsChanged();
    /// Ollama was looked for / a server was tested: the models that answered, or why not.
    void ollamaProbed(const QStringList& models, const QString& error);
    void serverTested(const QStringList& models, const QString& error);

protected:
    void showEvent(QShowEvent* event) override;

private:
    QLabel* m_ollamaState;
    QLineEdit* m_url;
    QLineEdit* m_key;
    QPushButton* m_test;
    QPushButton* m_use;
    QLabel* m_serverState;
    QCheckBox* m_showAtStart;
    QString m_settingsFile;
    QStringList m_serverModels;
    bool m_probed = false;
    LatestJob m_latest;
};

} // namespace hako
