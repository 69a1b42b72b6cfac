#include "widgets/start/startpage.h"

#include "core/library/promptlibrary.h"
#include "core/models/apikeystore.h"
#include "core/models/modelconfig.h"
#include "core/models/modelsettings.h"
#include "core/models/openaiprovider.h"
#include "core/util/cancel.h"
#include "core/util/whenready.h"
#include "core/workbench/filekind.h"
#include "core/workbench/recentfiles.h"

#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFrame>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QProcessEnvironment>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSettings>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace hako {

namespace {

const char* kShowKey = "ui/showStartPage";
/// The endpoint "Use This Server" kept (its name; never its key).
const char* kServerKey = "startPage/connectedServer";
/// How many recent prompts the page lists.
constexpr int kRecentShown = 5;

// Asks an OpenAI-compatible server for its models, quickly (a start page must not wait long).
Result<QStringList> listModels(models::EndpointConfig config)
{
    config.connectTimeoutMs = 3000;
    config.idleTimeoutMs = 5000;
    config.deadlineMs = 8000;
    config.maxRetries = 0;
    models::OpenAiProvider provider(config);
    return provider.listModels(CancelToken());
}

Result<QStringList> listModels(const QString& name, const QString& baseUrl, const QString& key)
{
    models::EndpointConfig config;
    config.name = name;
    config.baseUrl = baseUrl;
    config.apiKey = key;
    return listModels(config);
}

// The models of endpoint `name` of the settings `file`, with the key the configuration gives it
// (keyring, session, key file, environment). Blocking: for a worker thread.
Result<QStringList> listEndpoint(const QString& file, const QString& name,
                                 const std::shared_ptr<models::ApiKeyStore>& keys)
{
    Result<models::ModelConfig> config =
        models::ModelConfig::load(QString(), QProcessEnvironment::systemEnvironment(), keys, file);
    if (!config)
        return config.error();
    for (const models::ModelConfig::Listed& listed : config->listedEndpoints())
        if (listed.endpoint.name == name)
            return listModels(listed.endpoint);
    return makeError(QStringLiteral("endpoint '%1' is not in %2").arg(name, file));
}

QString withV1(QString url)
{
    url = url.trimmed();
    while (url.endsWith(QLatin1Char('/')))
        url.chop(1);
    if (!url.isEmpty() && !url.endsWith(QLatin1String("/v1")) && QUrl(url).path().isEmpty())
        url += QStringLiteral("/v1");
    return url;
}

QString someModels(const QStringList& models)
{
    QStringList shown = models.mid(0, 5);
    QString text = shown.join(QStringLiteral(", "));
    if (models.size() > shown.size())
        text += QStringLiteral(", …");
    return text;
}

QPushButton* journeyButton(const QString& title, const QString& text, QWidget* parent)
{
    auto* button = new QPushButton(parent);
    button->setText(title + QLatin1Char('\n') + text);
    button->setAccessibleName(title);
    button->setAccessibleDescription(text);
    button->setMinimumHeight(64);
    button->setStyleSheet(QStringLiteral("QPushButton { text-align: left; padding: 8px 12px; }"));
    return button;
}

} // namespace

StartPage::StartPage(QWidget* parent)
    : QWidget(parent), m_ollamaState(new QLabel), m_url(new QLineEdit), m_key(new QLineEdit),
      m_test(new QPushButton(tr("&Test"))), m_use(new QPushButton(tr("&Use This Server"))),
      m_serverState(new QLabel),
      m_showAtStart(new QCheckBox(tr("Show this page when Hako starts without a file"))),
      m_keyToFile(new QCheckBox), m_connectedState(new QLabel), m_recentList(new QVBoxLayout),
      m_keys(models::ApiKeyStore::system())
{
    setObjectName(QStringLiteral("startPage"));
    setAccessibleName(tr("Getting started"));
    auto* title = new QLabel(tr("Welcome to Hako"));
    QFont big = title->font();
    big.setPointSizeF(big.pointSizeF() * 1.8);
    big.setBold(true);
    title->setFont(big);
    auto* subtitle = new QLabel(tr("Write prompts, run them, and see what the model was asked "
                                   "and answered. Where would you like to start?"));
    subtitle->setWordWrap(true);

    auto* write = journeyButton(tr("Write a prompt"),
                                tr("Start from a template: summarise, classify, translate, "
                                   "extract JSON, chat…"),
                                this);
    auto* debug = journeyButton(tr("Debug a run"),
                                tr("Open an example program, run it (F5) and click its boxes "
                                   "to see what each step did"),
                                this);
    auto* explore =
        journeyButton(tr("Explore a document"),
                      tr("Open a text or PDF and search it the way a model does"), this);
    connect(write, &QPushButton::clicked, this, &StartPage::writePromptRequested);
    connect(debug, &QPushButton::clicked, this, &StartPage::debugRunRequested);
    connect(explore, &QPushButton::clicked, this, &StartPage::exploreDocumentRequested);
    auto* journeys = new QVBoxLayout;
    journeys->setSpacing(8);
    journeys->addWidget(write);
    journeys->addWidget(debug);
    journeys->addWidget(explore);

    QGroupBox* models = buildModelsBox();

    m_showAtStart->setChecked(showAtStart());
    m_showAtStart->setAccessibleName(m_showAtStart->text());
    connect(m_showAtStart, &QCheckBox::toggled, this,
            [](bool on) { QSettings().setValue(QLatin1String(kShowKey), on); });

    auto* toEditor = new QPushButton(tr("Go to the &Editor"));
    toEditor->setAccessibleName(tr("Go to the Editor"));
    connect(toEditor, &QPushButton::clicked, this, &StartPage::closeRequested);
    auto* titleRow = new QHBoxLayout;
    titleRow->addWidget(title, 1);
    titleRow->addWidget(toEditor, 0, Qt::AlignTop);

    auto* content = new QWidget;
    content->setMaximumWidth(860);
    auto* column = new QVBoxLayout(content);
    column->setSpacing(14);
    column->addLayout(titleRow);
    column->addWidget(subtitle);
    column->addLayout(journeys);
    auto* recent = new QGroupBox(tr("Recent prompts"));
    recent->setAccessibleName(tr("Recent prompts"));
    recent->setLayout(m_recentList);
    m_recentBox = recent;
    m_recentList->setSpacing(4);
    column->addWidget(recent);
    column->addWidget(models);
    column->addWidget(m_showAtStart);
    column->addStretch(1);
    auto* centre = new QWidget;
    auto* centring = new QHBoxLayout(centre);
    centring->addStretch(1);
    centring->addWidget(content, 4);
    centring->addStretch(1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(centre);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setAccessibleName(tr("Getting started"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);
    setFocusProxy(write);
}

// Connect a model: the connected server, Ollama, a server to test and keep.
QGroupBox* StartPage::buildModelsBox()
{
    auto* models = new QGroupBox(tr("Connect a model"));
    models->setAccessibleName(tr("Connect a model"));
    m_ollamaState->setWordWrap(true);
    m_ollamaState->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_ollamaState->setAccessibleDescription(tr("Ollama on this computer"));
    auto* again = new QPushButton(tr("Look Again"));
    again->setAccessibleName(tr("Look for Ollama again"));
    connect(again, &QPushButton::clicked, this, &StartPage::probeOllama);
    m_url->setAccessibleName(tr("Server URL"));
    m_url->setPlaceholderText(tr("https://api.openai.com/v1 or http://localhost:8000/v1"));
    m_key->setAccessibleName(tr("API key"));
    m_key->setPlaceholderText(tr("API key (if the server needs one)"));
    m_key->setEchoMode(QLineEdit::Password);
    m_url->setMinimumWidth(120);
    m_key->setMinimumWidth(80);
    m_test->setAccessibleName(tr("Test the server"));
    m_use->setAccessibleName(tr("Use This Server"));
    m_use->setToolTip(tr("Keep this server in your model settings, its key in the keyring, "
                         "and make its first model the default"));
    m_use->setEnabled(false);
    m_serverState->setWordWrap(true);
    m_serverState->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_serverState->setAccessibleDescription(tr("What the server answered"));
    auto* settingsButton = new QPushButton(tr("All Model Settings…"));
    settingsButton->setAccessibleName(tr("All Model Settings"));
    connect(settingsButton, &QPushButton::clicked, this, &StartPage::modelSettingsRequested);
    connect(m_test, &QPushButton::clicked, this, &StartPage::testServer);
    connect(m_url, &QLineEdit::returnPressed, this, &StartPage::testServer);
    connect(m_use, &QPushButton::clicked, this, &StartPage::useServer);
    connect(m_url, &QLineEdit::textEdited, this, [this] { m_use->setEnabled(false); });
    m_connectedState->setWordWrap(true);
    m_connectedState->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_connectedState->setAccessibleName(tr("Connected server"));
    // Shown only without a desktop keyring; the file is written only when this is ticked.
    m_keyToFile->setAccessibleName(tr("Store the key in a file"));
    describeKeyFile();
    m_keyToFile->setVisible(false);
    auto* grid = new QGridLayout(models);
    m_connectedCaption = new QLabel(tr("Connected:"));
    grid->addWidget(m_connectedCaption, 0, 0);
    grid->addWidget(m_connectedState, 0, 1, 1, 3);
    grid->addWidget(new QLabel(tr("Ollama:")), 1, 0);
    grid->addWidget(m_ollamaState, 1, 1, 1, 2);
    grid->addWidget(again, 1, 3);
    grid->addWidget(new QLabel(tr("Or a server:")), 2, 0);
    grid->addWidget(m_url, 2, 1);
    grid->addWidget(m_key, 2, 2);
    grid->addWidget(m_test, 2, 3);
    grid->addWidget(m_keyToFile, 3, 1, 1, 3);
    grid->addWidget(m_serverState, 4, 1, 1, 2);
    grid->addWidget(m_use, 4, 3);
    grid->addWidget(settingsButton, 5, 3);
    grid->setColumnStretch(1, 2);
    grid->setColumnStretch(2, 1);
    return models;
}

StartPage::~StartPage() = default;

bool StartPage::showAtStart()
{
    return QSettings().value(QLatin1String(kShowKey), true).toBool();
}

void StartPage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    refresh();
    if (!m_probed)
        probeOllama();
}

void StartPage::setKeyStore(std::shared_ptr<models::ApiKeyStore> keys)
{
    m_keys = std::move(keys);
    describeKeyFile();
}

void StartPage::describeKeyFile()
{
    // The path goes in the tooltip: in the label it widened the page past a small window.
    m_keyToFile->setText(tr("Store the key in a file only you can read"));
    m_keyToFile->setToolTip(tr("There is no desktop keyring: without this, the key is kept only "
                               "until Hako closes. The file (%1) is readable by your user "
                               "account only.")
                                .arg(QDir::toNativeSeparators(m_keys->keyFile())));
}

void StartPage::refresh()
{
    fillRecent();
    checkConnectedServer();
    // Whether there is a keyring decides whether the file choice is offered.
    m_keys->lookupAsync(QStringLiteral("openai"), this, [this](const Result<QString>&) {
        m_keyToFile->setVisible(!m_keys->available());
    });
}

QList<QPushButton*> StartPage::recentButtons() const
{
    QList<QPushButton*> out;
    for (int i = 0; i < m_recentList->count(); ++i)
        if (auto* b = qobject_cast<QPushButton*>(m_recentList->itemAt(i)->widget()))
            out.append(b);
    return out;
}

void StartPage::fillRecent()
{
    while (QLayoutItem* item = m_recentList->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    QSettings settings;
    int shown = 0;
    for (const QString& path : RecentFiles(&settings).files()) {
        if (shown == kRecentShown)
            break;
        if (detectFileKind(path) != FileKind::Program)
            continue;
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            continue;
        // Its name: the program's description, else the file's name.
        const QString name = library::describeProgram(file.read(64 * 1024), path).name;
        const QString where = QDir::toNativeSeparators(QFileInfo(path).absolutePath());
        auto* button =
            journeyButton(name, QFileInfo(path).fileName() + QStringLiteral(" — ") + where, this);
        button->setMinimumHeight(48);
        button->setAccessibleName(tr("Open %1").arg(name));
        button->setToolTip(QDir::toNativeSeparators(path));
        connect(button, &QPushButton::clicked, this,
                [this, path] { Q_EMIT openRecentRequested(path); });
        m_recentList->addWidget(button);
        ++shown;
    }
    if (m_recentBox)
        m_recentBox->setVisible(shown > 0);
}

void StartPage::checkConnectedServer()
{
    const QString file =
        m_settingsFile.isEmpty() ? models::ModelConfig::userFile() : m_settingsFile;
    const QString name = QSettings().value(QLatin1String(kServerKey)).toString();
    QString baseUrl;
    if (Result<models::ModelSettings> loaded = models::ModelSettings::load(file); loaded)
        for (const models::EndpointSetting& e : loaded->endpoints)
            if (!e.builtIn && !name.isEmpty() && e.name == name)
                baseUrl = e.baseUrl;
    const LatestJob::Ticket ticket = m_connectedCheck.start();
    // Nothing connected yet: the steps below say what to do.
    m_connectedState->setVisible(!baseUrl.isEmpty());
    if (m_connectedCaption)
        m_connectedCaption->setVisible(!baseUrl.isEmpty());
    if (baseUrl.isEmpty()) {
        m_connectedState->clear();
        return;
    }
    m_connectedState->setText(tr("%1 (%2): asking for its models …").arg(name, baseUrl));
    QPointer<StartPage> self(this);
    whenReady(
        this,
        QtConcurrent::run([file, name, keys = m_keys] { return listEndpoint(file, name, keys); }),
        [this, self, ticket, name, baseUrl](Result<QStringList> models) {
            if (!self || !m_connectedCheck.isCurrent(ticket))
                return;
            if (!models) {
                m_connectedState->setText(
                    tr("%1 (%2) does not answer now. Is the server running? (%3)")
                        .arg(name, baseUrl, models.error().message));
                Q_EMIT connectedServerChecked({}, models.error().message);
                return;
            }
            m_connectedState->setText(tr("%1 (%2): %n model(s): %3", nullptr, int(models->size()))
                                          .arg(name, baseUrl, someModels(*models)));
            Q_EMIT connectedServerChecked(*models, QString());
        });
}

void StartPage::probeOllama()
{
    m_probed = true;
    const QString base = withV1(QProcessEnvironment::systemEnvironment().value(
        QStringLiteral("OLLAMA_API_BASE"), QStringLiteral("http://localhost:11434")));
    m_ollamaState->setText(tr("Looking for Ollama at %1 …").arg(base));
    QPointer<StartPage> self(this);
    whenReady(
        this,
        QtConcurrent::run([base] { return listModels(QStringLiteral("ollama"), base, QString()); }),
        [this, self, base](Result<QStringList> models) {
            if (!self)
                return;
            if (!models) {
                m_ollamaState->setText(
                    tr("Ollama is not running on this computer (nothing answered at %1). Start it "
                       "with `ollama serve`, or use a server below.")
                        .arg(base));
                Q_EMIT ollamaProbed({}, models.error().message);
            } else if (models->isEmpty()) {
                m_ollamaState->setText(tr("Ollama is running but has no models yet: `ollama pull "
                                          "granite3.2:8b` fetches one."));
                Q_EMIT ollamaProbed({}, QString());
            } else {
                m_ollamaState->setText(tr("Ollama is running with %n model(s): %1. Programs use "
                                          "them as ollama/NAME.",
                                          nullptr, int(models->size()))
                                           .arg(someModels(*models)));
                Q_EMIT ollamaProbed(*models, QString());
            }
        });
}

void StartPage::testServer()
{
    const QString base = withV1(m_url->text());
    if (base.isEmpty() || !QUrl(base).isValid() ||
        !QUrl(base).scheme().startsWith(QLatin1String("http"))) {
        m_serverState->setText(tr("Type the server's address, starting with http:// or "
                                  "https://."));
        Q_EMIT serverTested({}, m_serverState->text());
        return;
    }
    const LatestJob::Ticket ticket = m_latest.start();
    m_use->setEnabled(false);
    m_test->setEnabled(false);
    m_serverState->setText(tr("Asking %1 …").arg(base));
    const QString key = m_key->text().trimmed();
    QPointer<StartPage> self(this);
    whenReady(this, QtConcurrent::run([base, key] {
                  return listModels(QStringLiteral("server"), base, key);
              }),
              [this, self, ticket](Result<QStringList> models) {
                  if (!self || !m_latest.isCurrent(ticket))
                      return;
                  m_test->setEnabled(true);
                  if (!models) {
                      m_serverModels.clear();
                      m_serverState->setText(
                          tr("The server did not answer: %1").arg(models.error().message));
                      Q_EMIT serverTested({}, models.error().message);
                      return;
                  }
                  m_serverModels = *models;
                  m_serverState->setText(
                      tr("Connected: %n model(s) answered: %1.", nullptr, int(models->size()))
                          .arg(someModels(*models)));
                  m_use->setEnabled(!models->isEmpty());
                  Q_EMIT serverTested(*models, QString());
              });
}

bool StartPage::useServer()
{
    if (m_serverModels.isEmpty())
        return false;
    const QString file =
        m_settingsFile.isEmpty() ? models::ModelConfig::userFile() : m_settingsFile;
    Result<models::ModelSettings> loaded = models::ModelSettings::load(file);
    if (!loaded) {
        m_serverState->setText(
            tr("Your model settings cannot be read: %1").arg(loaded.error().toString()));
        return false;
    }
    models::ModelSettings settings = *loaded;
    // A name of its own: the host, made unique among the endpoints.
    QString base = QUrl(withV1(m_url->text())).host().section(QLatin1Char('.'), 0, 0);
    base.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_-]")), QStringLiteral("_"));
    if (base.isEmpty() || base == QLatin1String("localhost") || base == QLatin1String("127"))
        base = QStringLiteral("server");
    QString name = base;
    auto taken = [&settings](const QString& n) {
        for (const models::EndpointSetting& e : settings.endpoints)
            if (e.name == n)
                return true;
        return false;
    };
    for (int n = 2; taken(name); ++n)
        name = base + QString::number(n);
    models::EndpointSetting endpoint;
    endpoint.name = name;
    endpoint.baseUrl = withV1(m_url->text());
    endpoint.defaultModel = m_serverModels.first();
    settings.endpoints.append(endpoint);
    if (settings.defaultModel.isEmpty())
        settings.defaultModel = name + QLatin1Char('/') + m_serverModels.first();
    if (const QString problem = settings.check(); !problem.isEmpty()) {
        m_serverState->setText(problem);
        return false;
    }
    if (Result<bool> saved = settings.save(); !saved) {
        m_serverState->setText(
            tr("Your model settings cannot be saved: %1").arg(saved.error().message));
        return false;
    }
    QSettings().setValue(QLatin1String(kServerKey), name);
    m_serverState->setText(
        tr("Programs can now use %1/%2 (and `model: default`).").arg(name, m_serverModels.first()));
    if (const QString key = m_key->text().trimmed(); !key.isEmpty())
        keepKey(name, key);
    m_use->setEnabled(false);
    Q_EMIT modelsChanged();
    checkConnectedServer();
    return true;
}

void StartPage::keepKey(const QString& name, const QString& key)
{
    // At once for this session, so that the model lists asked next already use it.
    m_keys->setSessionKey(name, key);
    const QString said = m_serverState->text();
    if (m_keys->available()) {
        m_keys->storeAsync(name, key, this, [this, name, said](const QString& error) {
            if (error.isEmpty()) {
                m_keys->setSessionKey(name, QString()); // the keyring has it
                return;
            }
            m_serverState->setText(said + QLatin1Char(' ') +
                                   tr("The desktop keyring did not take its key (%1), so the key "
                                      "is kept for this session only.")
                                       .arg(error));
        });
        return;
    }
    QString where;
    if (!m_keyToFile->isChecked()) {
        where = tr("Its key is kept for this session only (there is no desktop keyring); it is "
                   "not saved anywhere.");
    } else if (Result<bool> stored = m_keys->storeInFile(name, key); stored) {
        m_keys->setSessionKey(name, QString());
        where = tr("Its key is stored in %1, which only you can read.")
                    .arg(QDir::toNativeSeparators(m_keys->keyFile()));
    } else {
        where = tr("Its key could not be stored in %1 (%2), so it is kept for this session "
                   "only.")
                    .arg(QDir::toNativeSeparators(m_keys->keyFile()), stored.error().message);
    }
    m_serverState->setText(said + QLatin1Char(' ') + where);
}

} // namespace hako
