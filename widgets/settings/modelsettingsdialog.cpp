#include "widgets/settings/modelsettingsdialog.h"

#include "core/models/apikeystore.h"
#include "core/models/openaiprovider.h"
#include "widgets/common/messagebar.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProcessEnvironment>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace hako {

namespace {

QString settingsKey(const QString& endpoint)
{
    return QStringLiteral("models/defaultModel/") + endpoint;
}

} // namespace

ModelSettingsDialog::ModelSettingsDialog(const QString& workspaceDir,
                                         std::shared_ptr<models::ApiKeyStore> keys, QWidget* parent)
    : QDialog(parent), m_workspaceDir(workspaceDir), m_keys(std::move(keys))
{
    setWindowTitle(tr("Model settings"));
    buildUi();
    Result<models::ModelSettings> loaded = models::ModelSettings::load(workspaceDir);
    if (loaded) {
        m_settings = std::move(loaded.value());
    } else {
        // Still show the built-in endpoints; saving would overwrite the broken file, so it is
        // refused until the file is fixed.
        m_message->showMessage(
            tr("%1 — fix the file by hand; saving is disabled.").arg(loaded.error().toString()));
        m_settings = models::ModelSettings::load(QString()).value();
        if (auto* box = findChild<QDialogButtonBox*>())
            box->button(QDialogButtonBox::Save)->setEnabled(false);
    }
    QSettings qs;
    for (models::EndpointSetting& e : m_settings.endpoints) {
        if (e.builtIn)
            e.defaultModel = qs.value(settingsKey(e.name)).toString();
    }
    fillList();
    // Which endpoints already have a key in the keyring (read in the background).
    for (const models::EndpointSetting& e : m_settings.endpoints) {
        const QString name = e.name;
        m_keys->lookupAsync(name, this, [this, name](Result<QString> key) {
            if (!key) {
                m_message->showMessage(key.error().message, MessageBar::Kind::Information);
                return;
            }
            if (!key->isEmpty())
                m_storedKeys.insert(name, *key);
            updateKeyState();
        });
    }
    if (!m_list->count())
        return;
    m_list->setCurrentRow(0);
}

ModelSettingsDialog::~ModelSettingsDialog()
{
    m_cancel.cancel();
}

void ModelSettingsDialog::buildUi()
{
    auto* top = new QVBoxLayout(this);
    m_message = new MessageBar(this);
    top->addWidget(m_message);

    auto* body = new QHBoxLayout;
    top->addLayout(body, 1);

    auto* left = new QVBoxLayout;
    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("endpointList"));
    left->addWidget(m_list, 1);
    auto* buttons = new QHBoxLayout;
    auto* add = new QPushButton(tr("Add"), this);
    add->setObjectName(QStringLiteral("addEndpoint"));
    m_remove = new QPushButton(tr("Remove"), this);
    m_remove->setObjectName(QStringLiteral("removeEndpoint"));
    buttons->addWidget(add);
    buttons->addWidget(m_remove);
    left->addLayout(buttons);
    body->addLayout(left, 1);

    auto* form = new QFormLayout;
    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("name"));
    m_baseUrl = new QLineEdit(this);
    m_baseUrl->setObjectName(QStringLiteral("baseUrl"));
    m_baseUrl->setPlaceholderText(QStringLiteral("http://localhost:8000/v1"));
    m_apiKey = new QLineEdit(this);
    m_apiKey->setObjectName(QStringLiteral("apiKey"));
    m_apiKey->setEchoMode(QLineEdit::Password);
    m_forgetKey = new QPushButton(tr("Forget key"), this);
    m_forgetKey->setObjectName(QStringLiteral("forgetKey"));
    auto* keyRow = new QHBoxLayout;
    keyRow->addWidget(m_apiKey, 1);
    keyRow->addWidget(m_forgetKey);
    m_keyState = new QLabel(this);
    m_keyState->setObjectName(QStringLiteral("keyState"));
    m_keyState->setWordWrap(true);
    m_keyEnv = new QLineEdit(this);
    m_keyEnv->setObjectName(QStringLiteral("keyEnv"));
    m_defaultModel = new QComboBox(this);
    m_defaultModel->setObjectName(QStringLiteral("defaultModel"));
    m_defaultModel->setEditable(true);
    m_test = new QPushButton(tr("Test connection"), this);
    m_test->setObjectName(QStringLiteral("testConnection"));
    m_testState = new QLabel(this);
    m_testState->setObjectName(QStringLiteral("testState"));
    m_testState->setWordWrap(true);
    m_models = new QListWidget(this);
    m_models->setObjectName(QStringLiteral("models"));
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Base URL"), m_baseUrl);
    form->addRow(tr("API key"), keyRow);
    form->addRow(QString(), m_keyState);
    form->addRow(tr("Key variable"), m_keyEnv);
    form->addRow(tr("Default model"), m_defaultModel);
    form->addRow(m_test, m_testState);
    form->addRow(tr("Models"), m_models);
    body->addLayout(form, 2);

    auto* box = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Close, this);
    top->addWidget(box);

    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        storeEdits();
        showEndpoint(row);
    });
    connect(add, &QPushButton::clicked, this, &ModelSettingsDialog::addEndpoint);
    connect(m_remove, &QPushButton::clicked, this, &ModelSettingsDialog::removeEndpoint);
    connect(m_test, &QPushButton::clicked, this, &ModelSettingsDialog::testConnection);
    connect(m_forgetKey, &QPushButton::clicked, this, [this] {
        if (m_current < 0)
            return;
        m_apiKey->clear();
        m_typedKeys.insert(m_settings.endpoints[m_current].name, QString());
        updateKeyState();
    });
    connect(m_apiKey, &QLineEdit::textEdited, this, [this](const QString& text) {
        if (m_current >= 0)
            m_typedKeys.insert(m_settings.endpoints[m_current].name, text);
        updateKeyState();
    });
    connect(m_name, &QLineEdit::editingFinished, this, [this] {
        storeEdits();
        fillList();
    });
    connect(box, &QDialogButtonBox::accepted, this, &ModelSettingsDialog::save);
    connect(box, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(760, 480);
}

void ModelSettingsDialog::fillList()
{
    const QSignalBlocker block(m_list);
    const int row = m_current;
    m_list->clear();
    for (const models::EndpointSetting& e : m_settings.endpoints)
        m_list->addItem(e.builtIn ? tr("%1 (built in)").arg(e.name) : e.name);
    if (row >= 0 && row < m_list->count())
        m_list->setCurrentRow(row);
}

bool ModelSettingsDialog::selectEndpoint(const QString& name)
{
    for (int i = 0; i < m_settings.endpoints.size(); ++i) {
        if (m_settings.endpoints[i].name == name) {
            m_list->setCurrentRow(i);
            return true;
        }
    }
    return false;
}

void ModelSettingsDialog::showEndpoint(int row)
{
    m_current = row;
    const bool valid = row >= 0 && row < m_settings.endpoints.size();
    for (QWidget* w : std::initializer_list<QWidget*>{m_name, m_baseUrl, m_apiKey, m_keyEnv,
                                                      m_defaultModel, m_test, m_forgetKey})
        w->setEnabled(valid);
    m_models->clear();
    m_testState->clear();
    if (!valid) {
        m_remove->setEnabled(false);
        return;
    }
    const models::EndpointSetting& e = m_settings.endpoints[row];
    m_name->setText(e.name);
    m_baseUrl->setText(e.baseUrl);
    // Built-in endpoints are configured by environment variables; only the key and the default
    // model are set here.
    m_name->setReadOnly(e.builtIn);
    m_baseUrl->setReadOnly(e.builtIn);
    m_keyEnv->setReadOnly(e.builtIn);
    m_baseUrl->setToolTip(e.builtIn ? tr("Set by an environment variable (see the README, "
                                         "\"Connecting a model\")")
                                    : QString());
    m_remove->setEnabled(!e.builtIn);
    m_apiKey->setText(m_typedKeys.value(e.name));
    m_keyEnv->setText(e.apiKeyEnv);
    m_defaultModel->clear();
    m_defaultModel->setEditText(e.defaultModel);
    updateKeyState();
}

void ModelSettingsDialog::storeEdits()
{
    if (m_current < 0 || m_current >= m_settings.endpoints.size())
        return;
    models::EndpointSetting& e = m_settings.endpoints[m_current];
    if (!e.builtIn) {
        const QString newName = m_name->text().trimmed();
        if (newName != e.name && m_typedKeys.contains(e.name))
            m_typedKeys.insert(newName, m_typedKeys.take(e.name));
        e.name = newName;
        e.baseUrl = m_baseUrl->text().trimmed();
        e.apiKeyEnv = m_keyEnv->text().trimmed();
    }
    e.defaultModel = m_defaultModel->currentText().trimmed();
}

void ModelSettingsDialog::updateKeyState()
{
    if (m_current < 0 || m_current >= m_settings.endpoints.size())
        return;
    const models::EndpointSetting& e = m_settings.endpoints[m_current];
    QString state;
    if (m_typedKeys.contains(e.name)) {
        state = m_typedKeys.value(e.name).isEmpty()
                    ? tr("The key will be removed from the desktop keyring on Save.")
                    : tr("The new key will be stored in the desktop keyring on Save.");
    } else if (m_storedKeys.contains(e.name)) {
        state = tr("A key is stored in the desktop keyring.");
    } else if (!e.apiKeyEnv.isEmpty() &&
               QProcessEnvironment::systemEnvironment().contains(e.apiKeyEnv)) {
        state = tr("The key comes from the environment variable %1.").arg(e.apiKeyEnv);
    } else {
        state = tr("No key (none is needed for Ollama and most local servers).");
    }
    if (!m_keys->available())
        state += QLatin1Char(' ') + m_keys->note();
    m_apiKey->setPlaceholderText(m_storedKeys.contains(e.name) ? tr("(stored in the keyring)")
                                                               : tr("(none)"));
    m_keyState->setText(state);
}

QString ModelSettingsDialog::keyFor(const models::EndpointSetting& e) const
{
    if (m_typedKeys.contains(e.name))
        return m_typedKeys.value(e.name);
    if (m_storedKeys.contains(e.name))
        return m_storedKeys.value(e.name);
    if (!e.apiKeyEnv.isEmpty())
        return QProcessEnvironment::systemEnvironment().value(e.apiKeyEnv);
    return QString();
}

void ModelSettingsDialog::testConnection()
{
    storeEdits();
    if (m_current < 0 || m_current >= m_settings.endpoints.size())
        return;
    const models::EndpointSetting e = m_settings.endpoints[m_current];
    if (e.baseUrl.isEmpty()) {
        m_testState->setText(tr("No base URL."));
        Q_EMIT connectionTested(e.name, {}, m_testState->text());
        return;
    }
    models::EndpointConfig config;
    config.name = e.name;
    config.baseUrl = e.baseUrl;
    config.apiKey = keyFor(e);
    config.connectTimeoutMs = m_testTimeoutMs;
    config.idleTimeoutMs = m_testTimeoutMs;
    config.maxRetries = 0;
    config.azure = e.name == QLatin1String("azure");
    m_test->setEnabled(false);
    m_models->clear();
    m_testState->setText(tr("Asking %1 …").arg(e.baseUrl));
    const CancelToken cancel = m_cancel;
    QtConcurrent::run([config, cancel] {
        models::OpenAiProvider provider(config);
        return provider.listModels(cancel);
    }).then(this, [this, name = e.name](Result<QStringList> models) {
        m_test->setEnabled(true);
        if (!models) {
            m_testState->setText(tr("Failed: %1").arg(models.error().message));
            Q_EMIT connectionTested(name, {}, models.error().message);
            return;
        }
        m_testState->setText(tr("Connected: %n model(s).", nullptr, int(models->size())));
        m_models->addItems(*models);
        if (m_current >= 0 && m_settings.endpoints[m_current].name == name) {
            const QString chosen = m_defaultModel->currentText();
            m_defaultModel->clear();
            m_defaultModel->addItems(*models);
            m_defaultModel->setEditText(chosen);
        }
        Q_EMIT connectionTested(name, *models, QString());
    });
}

void ModelSettingsDialog::addEndpoint()
{
    storeEdits();
    models::EndpointSetting e;
    QString name = QStringLiteral("endpoint");
    for (int n = 2;; ++n) {
        bool taken = false;
        for (const models::EndpointSetting& o : m_settings.endpoints)
            taken |= o.name == name;
        if (!taken)
            break;
        name = QStringLiteral("endpoint%1").arg(n);
    }
    e.name = name;
    e.baseUrl = QStringLiteral("http://localhost:8000/v1");
    m_settings.endpoints.append(e);
    m_current = -1;
    fillList();
    m_list->setCurrentRow(m_list->count() - 1);
    m_name->setFocus();
    m_name->selectAll();
}

void ModelSettingsDialog::removeEndpoint()
{
    if (m_current < 0 || m_current >= m_settings.endpoints.size() ||
        m_settings.endpoints[m_current].builtIn)
        return;
    const QString name = m_settings.endpoints[m_current].name;
    // Its key goes with it, so that it does not linger in the keyring.
    if (m_storedKeys.contains(name))
        m_typedKeys.insert(name, QString());
    m_settings.endpoints.removeAt(m_current);
    m_current = -1;
    fillList();
    m_list->setCurrentRow(std::min<int>(m_list->count() - 1, 0));
}

void ModelSettingsDialog::save()
{
    storeEdits();
    m_message->clearMessage();
    if (const QString problem = m_settings.check(); !problem.isEmpty()) {
        m_message->showMessage(problem);
        Q_EMIT saveFailed(problem);
        return;
    }
    Result<bool> written = m_settings.save();
    if (!written) {
        m_message->showMessage(written.error().toString());
        Q_EMIT saveFailed(written.error().toString());
        return;
    }
    QSettings qs;
    for (const models::EndpointSetting& e : m_settings.endpoints) {
        if (!e.builtIn)
            continue;
        if (e.defaultModel.isEmpty())
            qs.remove(settingsKey(e.name));
        else
            qs.setValue(settingsKey(e.name), e.defaultModel);
    }
    m_keyWriteError.clear();
    m_pendingKeyWrites = int(m_typedKeys.size());
    if (m_pendingKeyWrites == 0) {
        finishSave(QString());
        return;
    }
    const auto typed = m_typedKeys;
    for (auto it = typed.begin(); it != typed.end(); ++it) {
        const QString name = it.key();
        const QString key = it.value();
        m_keys->storeAsync(name, key, this, [this, name, key](QString error) {
            if (error.isEmpty()) {
                m_typedKeys.remove(name);
                if (key.isEmpty())
                    m_storedKeys.remove(name);
                else
                    m_storedKeys.insert(name, key);
            } else if (m_keyWriteError.isEmpty()) {
                m_keyWriteError = tr("The key of %1 was not stored: %2").arg(name, error);
            }
            if (--m_pendingKeyWrites == 0)
                finishSave(m_keyWriteError);
        });
    }
}

void ModelSettingsDialog::finishSave(const QString& error)
{
    updateKeyState();
    if (!error.isEmpty()) {
        m_message->showMessage(error);
        Q_EMIT saveFailed(error);
        return;
    }
    m_message->showMessage(tr("Saved to %1.").arg(m_settings.file()),
                           MessageBar::Kind::Information);
    Q_EMIT saved();
}

} // namespace hako
