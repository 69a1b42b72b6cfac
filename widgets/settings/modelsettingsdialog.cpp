#include "widgets/settings/modelsettingsdialog.h"

#include "core/models/apikeystore.h"
#include "core/models/modelcatalog.h"
#include "core/models/modelconfig.h"
#include "core/models/openaiprovider.h"
#include "core/util/globmatch.h"
#include "core/util/whenready.h"
#include "widgets/common/accessibleparts.h"
#include "widgets/common/messagebar.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProcessEnvironment>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace hako {

namespace {

/// What to put before a model an endpoint serves so that the name routes back to it.
QString prefixFor(const models::EndpointSetting& e)
{
    if (!e.builtIn)
        return e.name + QLatin1Char('/');
    if (e.name == QLatin1String("litellm"))
        return QStringLiteral("litellm_proxy/");
    return e.name + QLatin1Char('/');
}

} // namespace

ModelSettingsDialog::ModelSettingsDialog(const QString& settingsFile,
                                         std::shared_ptr<models::ApiKeyStore> keys, QWidget* parent)
    : QDialog(parent), m_settingsFile(settingsFile), m_keys(std::move(keys))
{
    setWindowTitle(tr("Model settings"));
    buildUi();
    // Qt's own parts (the table's corner button, the default model's text field) get names too.
    AccessibleParts::name(this);
    Result<models::ModelSettings> loaded = models::ModelSettings::load(settingsFile);
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
    fillList();
    fillRoutes();
    m_defaultModel->setEditText(m_settings.defaultModel);
    // The models every configured endpoint serves, for the default model (in the background).
    models::ModelCatalog* catalog = models::ModelCatalog::instance();
    addModelChoices(catalog->models(QString()));
    connect(catalog, &models::ModelCatalog::modelsChanged, this,
            [this](const QString& folder, const QStringList& names) {
                if (folder.isEmpty())
                    addModelChoices(names);
            });
    // Which endpoints already have a key in the keyring (read in the background).
    for (const models::EndpointSetting& e : m_settings.endpoints) {
        const QString name = e.name;
        m_keys->lookupAsync(name, this, [this, name](Result<QString> key) {
            if (!key) {
                m_message->showMessage(
                    tr("The desktop keyring cannot be used: a key typed here is kept for this "
                       "session only, unless you choose to store it in a file only you can read. "
                       "(%1)")
                        .arg(key.error().message),
                    MessageBar::Kind::Information);
                updateKeyState();
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
    body->addLayout(buildEndpointList(), 1);
    body->addLayout(buildEndpointForm(), 2);
    top->addLayout(buildGlobalSettings());

    auto* box = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Close, this);
    top->addWidget(box);

    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        storeEdits();
        showEndpoint(row);
    });
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
    // Every control says what it is to a screen reader (and to the journey tests).
    const std::pair<QWidget*, QString> names[] = {
        {m_list, tr("Endpoints")},         {m_name, tr("Endpoint name")},
        {m_baseUrl, tr("Base URL")},       {m_apiKey, tr("API key")},
        {m_keyEnv, tr("Key variable")},    {m_models, tr("Models the endpoint serves")},
        {m_remove, tr("Remove endpoint")}, {m_test, tr("Test connection")},
        {m_forgetKey, tr("Forget key")},   {m_removeRoute, tr("Remove mapping")}};
    for (const auto& [widget, name] : names)
        widget->setAccessibleName(name);
    resize(760, 600);
}

// The endpoints, with Add and Remove below.
QLayout* ModelSettingsDialog::buildEndpointList()
{
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
    add->setAccessibleName(tr("Add endpoint"));
    connect(add, &QPushButton::clicked, this, &ModelSettingsDialog::addEndpoint);
    return left;
}

// The chosen endpoint: name, base URL, key (typed or from a variable), the connection test and
// the models it serves.
QLayout* ModelSettingsDialog::buildEndpointForm()
{
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
    // Only without a keyring, and only when ticked: the user agrees to a file on disk.
    m_keyToFile =
        new QCheckBox(tr("Store the key in a file only you can read (%1)")
                          .arg(QDir::toNativeSeparators(m_keys ? m_keys->keyFile() : QString())),
                      this);
    m_keyToFile->setObjectName(QStringLiteral("keyToFile"));
    m_keyToFile->setAccessibleName(tr("Store the key in a file"));
    m_keyToFile->setToolTip(tr("Without a desktop keyring, a key is otherwise kept only until "
                               "Hako closes. The file is readable by your user account only."));
    m_keyToFile->setVisible(false);
    connect(m_keyToFile, &QCheckBox::toggled, this, [this] { updateKeyState(); });
    m_keyEnv = new QLineEdit(this);
    m_keyEnv->setObjectName(QStringLiteral("keyEnv"));
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
    form->addRow(QString(), m_keyToFile);
    form->addRow(tr("Key variable"), m_keyEnv);
    form->addRow(m_test, m_testState);
    form->addRow(tr("Models"), m_models);
    return form;
}

// For the whole configuration: the default model and model names mapped to endpoints.
QLayout* ModelSettingsDialog::buildGlobalSettings()
{
    auto* global = new QFormLayout;
    m_defaultModel = new QComboBox(this);
    m_defaultModel->setObjectName(QStringLiteral("defaultModel"));
    m_defaultModel->setEditable(true);
    m_defaultModel->setInsertPolicy(QComboBox::NoInsert);
    m_defaultModel->lineEdit()->setPlaceholderText(
        QString::fromLatin1(models::ModelConfig::kFallbackDefaultModel));
    m_defaultModel->setToolTip(
        tr("Programs that say `model: default` use this model; the examples do. Empty: %1.")
            .arg(QLatin1String(models::ModelConfig::kFallbackDefaultModel)));
    m_defaultModel->setAccessibleName(tr("Default model"));
    global->addRow(tr("Default model"), m_defaultModel);
    auto* defaultHelp = new QLabel(
        tr("Used by programs that say <code>model: default</code> (the examples do)."), this);
    defaultHelp->setWordWrap(true);
    defaultHelp->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    global->addRow(QString(), defaultHelp);
    m_routes = new QTableWidget(0, 3, this);
    m_routes->setObjectName(QStringLiteral("modelRoutes"));
    m_routes->setAccessibleName(tr("Model names sent to an endpoint"));
    m_routes->setHorizontalHeaderLabels(
        {tr("Model name in programs"), tr("Endpoint"), tr("Model on the server")});
    m_routes->horizontalHeader()->setStretchLastSection(true);
    m_routes->verticalHeader()->hide();
    m_routes->setToolTip(tr("A name (or a glob such as vllm/*) that programs use, the endpoint it "
                            "goes to, and the name that server knows (empty: the same name, "
                            "without a prefix ending in /*)"));
    m_routes->setMaximumHeight(120);
    m_routes->setColumnWidth(0, 200);
    m_routes->setColumnWidth(1, 120);
    auto* routeButtons = new QVBoxLayout;
    auto* addRoute = new QPushButton(tr("Map a name"), this);
    addRoute->setObjectName(QStringLiteral("addRoute"));
    m_removeRoute = new QPushButton(tr("Remove mapping"), this);
    m_removeRoute->setObjectName(QStringLiteral("removeRoute"));
    routeButtons->addWidget(addRoute);
    routeButtons->addWidget(m_removeRoute);
    routeButtons->addStretch(1);
    auto* routeRow = new QHBoxLayout;
    routeRow->addWidget(m_routes, 1);
    routeRow->addLayout(routeButtons);
    global->addRow(tr("Model names"), routeRow);
    addRoute->setAccessibleName(tr("Map a model name"));
    connect(addRoute, &QPushButton::clicked, this, [this] {
        const int row = m_routes->rowCount();
        m_routes->insertRow(row);
        QString endpoint;
        for (const models::EndpointSetting& e : m_settings.endpoints) {
            if (!e.builtIn)
                endpoint = e.name;
        }
        m_routes->setItem(row, 0, new QTableWidgetItem);
        m_routes->setItem(row, 1, new QTableWidgetItem(endpoint));
        m_routes->setItem(row, 2, new QTableWidgetItem);
        m_routes->setCurrentCell(row, 0);
        m_routes->editItem(m_routes->item(row, 0));
    });
    connect(m_removeRoute, &QPushButton::clicked, this, [this] {
        if (m_routes->currentRow() >= 0)
            m_routes->removeRow(m_routes->currentRow());
    });
    return global;
}

void ModelSettingsDialog::fillRoutes()
{
    m_routes->setRowCount(0);
    for (const models::ModelRoute& r : m_settings.routes) {
        const int row = m_routes->rowCount();
        m_routes->insertRow(row);
        m_routes->setItem(row, 0, new QTableWidgetItem(r.name));
        m_routes->setItem(row, 1, new QTableWidgetItem(r.endpoint));
        m_routes->setItem(row, 2, new QTableWidgetItem(r.model));
    }
}

void ModelSettingsDialog::addModelChoices(const QStringList& names)
{
    const QString chosen = m_defaultModel->currentText();
    for (const QString& n : names) {
        if (m_defaultModel->findText(n) < 0)
            m_defaultModel->addItem(n);
    }
    m_defaultModel->setEditText(chosen);
}

void ModelSettingsDialog::storeGlobalEdits()
{
    m_settings.defaultModel = m_defaultModel->currentText().trimmed();
    m_settings.routes.clear();
    for (int row = 0; row < m_routes->rowCount(); ++row) {
        auto cell = [this, row](int column) {
            const QTableWidgetItem* item = m_routes->item(row, column);
            return item ? item->text().trimmed() : QString();
        };
        models::ModelRoute r{cell(0), cell(1), cell(2)};
        if (r.name.isEmpty() && r.endpoint.isEmpty() && r.model.isEmpty())
            continue;
        m_settings.routes.append(r);
    }
    // A default model named after one of the file's endpoints (`gpu/llama`, as "Test connection"
    // offers it) goes there: map that prefix unless a mapping already covers the name.
    const QString d = m_settings.defaultModel;
    const int slash = d.indexOf(QLatin1Char('/'));
    if (slash <= 0)
        return;
    const QString endpoint = d.left(slash);
    bool isFileEndpoint = false;
    for (const models::EndpointSetting& e : m_settings.endpoints)
        isFileEndpoint = isFileEndpoint || (!e.builtIn && e.name == endpoint);
    if (!isFileEndpoint)
        return;
    for (const models::ModelRoute& r : m_settings.routes) {
        if (globMatch(r.name.toStdString(), d.toStdString()))
            return;
    }
    m_settings.routes.append({endpoint + QStringLiteral("/*"), endpoint, QString()});
    fillRoutes();
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
    for (QWidget* w : std::initializer_list<QWidget*>{m_name, m_baseUrl, m_apiKey, m_keyEnv, m_test,
                                                      m_forgetKey})
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
}

void ModelSettingsDialog::updateKeyState()
{
    if (m_current < 0 || m_current >= m_settings.endpoints.size())
        return;
    const models::EndpointSetting& e = m_settings.endpoints[m_current];
    const bool keyring = m_keys->available();
    const auto place = m_keys->placeOf(e.name);
    using Place = models::ApiKeyStore::Place;
    const QString file = QDir::toNativeSeparators(m_keys->keyFile());
    m_keyToFile->setVisible(!keyring);
    QString state;
    if (m_typedKeys.contains(e.name)) {
        const bool remove = m_typedKeys.value(e.name).isEmpty();
        if (keyring)
            state = remove ? tr("The key will be removed from the desktop keyring on Save.")
                           : tr("The new key will be stored in the desktop keyring on Save.");
        else if (remove)
            state = tr("The key will be forgotten on Save.");
        else if (m_keyToFile->isChecked())
            state = tr("On Save the key will be stored in %1, which only you can read.").arg(file);
        else
            state = tr("On Save the key will be kept for this session only; it is not saved "
                       "anywhere.");
    } else if (place == Place::Session) {
        state = tr("A key is kept for this session only.");
    } else if (place == Place::File) {
        state = tr("A key is stored in %1, which only you can read.").arg(file);
    } else if (m_storedKeys.contains(e.name)) {
        state = tr("A key is stored in the desktop keyring.");
    } else if (!e.apiKeyEnv.isEmpty() &&
               QProcessEnvironment::systemEnvironment().contains(e.apiKeyEnv)) {
        state = tr("The key comes from the environment variable %1.").arg(e.apiKeyEnv);
    } else {
        state = tr("No key (none is needed for Ollama and most local servers).");
    }
    if (!keyring)
        state += QLatin1Char(' ') + tr("The desktop keyring is not available.");
    m_apiKey->setPlaceholderText(place == Place::Session         ? tr("(kept for this session)")
                                 : place == Place::File          ? tr("(stored in a file)")
                                 : m_storedKeys.contains(e.name) ? tr("(stored in the keyring)")
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
    whenReady(this, QtConcurrent::run([config, cancel] {
                  models::OpenAiProvider provider(config);
                  return provider.listModels(cancel);
              }),
              [this, name = e.name, prefix = prefixFor(e)](Result<QStringList> models) {
                  m_test->setEnabled(true);
                  if (!models) {
                      m_testState->setText(tr("Failed: %1").arg(models.error().message));
                      Q_EMIT connectionTested(name, {}, models.error().message);
                      return;
                  }
                  m_testState->setText(tr("Connected: %n model(s).", nullptr, int(models->size())));
                  m_models->addItems(*models);
                  QStringList choices;
                  for (const QString& m : *models)
                      choices.append(prefix + m);
                  addModelChoices(choices);
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
    storeGlobalEdits();
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
    m_keyWriteError.clear();
    m_keyNotes.clear();
    if (!m_keys->available()) {
        keepKeysWithoutKeyring();
        finishSave(m_keyWriteError);
        return;
    }
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
            // A key given for the session, or in the file, would hide the keyring's.
            m_keys->setSessionKey(name, QString());
            if (m_keys->placeOf(name) == models::ApiKeyStore::Place::File)
                (void)m_keys->storeInFile(name, QString());
            if (error.isEmpty()) {
                m_typedKeys.remove(name);
                if (key.isEmpty())
                    m_storedKeys.remove(name);
                else
                    m_storedKeys.insert(name, key);
            } else if (!key.isEmpty()) {
                // The keyring refused it: the key still works in this window.
                m_keys->setSessionKey(name, key);
                m_typedKeys.remove(name);
                m_keyNotes << tr("The desktop keyring did not take the key of %1 (%2); it is "
                                 "kept for this session only.")
                                  .arg(name, error);
            } else if (m_keyWriteError.isEmpty()) {
                m_keyWriteError = tr("The key of %1 was not removed: %2").arg(name, error);
            }
            if (--m_pendingKeyWrites == 0)
                finishSave(m_keyWriteError);
        });
    }
}

void ModelSettingsDialog::keepKeysWithoutKeyring()
{
    using Place = models::ApiKeyStore::Place;
    const QString file = QDir::toNativeSeparators(m_keys->keyFile());
    for (auto it = m_typedKeys.constBegin(); it != m_typedKeys.constEnd(); ++it) {
        const QString& name = it.key();
        const QString& key = it.value();
        if (key.isEmpty()) {
            m_keys->setSessionKey(name, QString());
            if (m_keys->placeOf(name) == Place::File) {
                if (Result<bool> removed = m_keys->storeInFile(name, QString()); !removed) {
                    m_keyWriteError = tr("The key of %1 was not removed from %2: %3")
                                          .arg(name, file, removed.error().message);
                    continue;
                }
            }
            m_storedKeys.remove(name);
            m_keyNotes << tr("The key of %1 was forgotten.").arg(name);
        } else if (m_keyToFile->isChecked()) {
            if (Result<bool> stored = m_keys->storeInFile(name, key); !stored) {
                m_keyWriteError =
                    tr("The key of %1 was not stored: %2").arg(name, stored.error().message);
                continue;
            }
            m_keys->setSessionKey(name, QString());
            m_storedKeys.insert(name, key);
            m_keyNotes
                << tr("The key of %1 is stored in %2, which only you can read.").arg(name, file);
        } else {
            m_keys->setSessionKey(name, key);
            m_storedKeys.insert(name, key);
            m_keyNotes << tr("The key of %1 is kept for this session only (there is no desktop "
                             "keyring); it is not saved anywhere.")
                              .arg(name);
        }
    }
    if (m_keyWriteError.isEmpty())
        m_typedKeys.clear();
}

void ModelSettingsDialog::finishSave(const QString& error)
{
    // Completion, the prompt cards and the next dialog ask the endpoints of the new
    // configuration (with the keys just given) at once.
    models::ModelCatalog::instance()->invalidate();
    updateKeyState();
    if (!error.isEmpty()) {
        m_message->showMessage(error);
        Q_EMIT saveFailed(error);
        return;
    }
    QStringList text{tr("Saved to %1.").arg(m_settings.file())};
    text << m_keyNotes;
    m_message->showMessage(text.join(QLatin1Char(' ')), MessageBar::Kind::Information);
    Q_EMIT saved();
}

} // namespace hako
