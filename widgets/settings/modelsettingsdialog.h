#pragma once

#include "core/models/modelsettings.h"
#include "core/util/cancel.h"

#include <QDialog>
#include <QHash>
#include <QStringList>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QLayout;
class QLineEdit;
class QListWidget;
class QPushButton;
class QTableWidget;

namespace hako {

class MessageBar;

namespace models {
class ApiKeyStore;
}

/// Settings → Model Endpoints: the user's model settings (ModelConfig::userFile(), a
/// hako-models.yaml in the application's configuration folder) and the built-in endpoints
/// (Ollama, OpenAI, Azure, LiteLLM proxy): per endpoint its name, base URL, API key and key
/// variable; for all, the default model (what `model: default` stands for; the choices are the
/// models the endpoints serve, from ModelCatalog and "Test connection") and model names mapped
/// to an endpoint. Keys go only to the desktop keyring (ApiKeyStore) — or, when there is none,
/// are kept for the session, or stored in a file only the user can read when they tick that
/// choice (ApiKeyStore::setSessionKey / storeInFile); the file is written
/// atomically on Save; "Test connection" lists the endpoint's models in the background with a
/// timeout.
///
/// Usage from the main window (no exec()):
///   auto* d = new ModelSettingsDialog(models::ModelConfig::userFile(),
///                                     models::ApiKeyStore::system(), this);
///   d->setAttribute(Qt::WA_DeleteOnClose);
///   d->open();
/// and, to pick up changes, connect `saved()` (the file and keys are written by then).
///
/// Threading: GUI thread only; network and keyring work runs elsewhere and reports back here.
class ModelSettingsDialog : public QDialog {
    Q_OBJECT
public:
    ModelSettingsDialog(const QString& settingsFile, std::shared_ptr<models::ApiKeyStore> keys,
                        QWidget* parent = nullptr);
    ~ModelSettingsDialog() override;

    /// How long "Test connection" waits for a connection and for the answer.
    void setTestTimeout(int ms) { m_testTimeoutMs = ms; }

    /// The endpoints as currently edited (built-in ones first).
    QList<models::EndpointSetting> endpoints() const { return m_settings.endpoints; }
    /// Selects the endpoint named `name`; false when there is none.
    bool selectEndpoint(const QString& name);

public Q_SLOTS:
    /// Lists the selected endpoint's models (asynchronous; see connectionTested()).
    void testConnection();
    /// Checks, writes the settings file and stores changed keys; emits saved() or saveFailed().
    void save();
    void addEndpoint();
    void removeEndpoint();

Q_SIGNALS:
    /// A test finished: the models, or the error ("" on success).
    void connectionTested(const QString& endpoint, const QStringList& models, const QString& error);
    void saved();
    void saveFailed(const QString& error);

private:
    void buildUi();
    QLayout* buildEndpointList();
    QLayout* buildEndpointForm();
    QLayout* buildGlobalSettings();
    void fillList();
    void showEndpoint(int row);
    void storeEdits();
    void updateKeyState();
    QString keyFor(const models::EndpointSetting& e) const;
    void finishSave(const QString& error);
    void fillRoutes();
    void storeGlobalEdits();
    void addModelChoices(const QStringList& names);
    /// Without a keyring: keeps each typed key for the session or in the key file (as chosen).
    void keepKeysWithoutKeyring();

    QString m_settingsFile;
    std::shared_ptr<models::ApiKeyStore> m_keys;
    models::ModelSettings m_settings;
    int m_current = -1;
    int m_testTimeoutMs = 8000;
    /// Keys read from the keyring, and keys typed (empty string = delete) but not yet stored.
    QHash<QString, QString> m_storedKeys;
    QHash<QString, QString> m_typedKeys;
    int m_pendingKeyWrites = 0;
    QString m_keyWriteError;
    /// Where keys went, said after Save ("kept for this session only", …).
    QStringList m_keyNotes;
    CancelToken m_cancel;

    MessageBar* m_message = nullptr;
    QListWidget* m_list = nullptr;
    QLineEdit* m_name = nullptr;
    QLineEdit* m_baseUrl = nullptr;
    QLineEdit* m_apiKey = nullptr;
    QPushButton* m_forgetKey = nullptr;
    QLabel* m_keyState = nullptr;
    QCheckBox* m_keyToFile = nullptr;
    QLineEdit* m_keyEnv = nullptr;
    QComboBox* m_defaultModel = nullptr;
    QPushButton* m_test = nullptr;
    QLabel* m_testState = nullptr;
    QListWidget* m_models = nullptr;
    QPushButton* m_remove = nullptr;
    QTableWidget* m_routes = nullptr;
    QPushButton* m_removeRoute = nullptr;
};

} // namespace hako
