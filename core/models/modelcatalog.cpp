#include "core/models/modelcatalog.h"

#include "core/models/apikeystore.h"
#include "core/models/modelconfig.h"
#include "core/models/modelrouter.h"
#include "core/util/whenready.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QPointer>
#include <QtConcurrent>

namespace hako::models {

QString ModelCatalog::folderKey(const QString& dir)
{
    if (dir.isEmpty())
        return dir;
    const QFileInfo info(dir);
    const QString c = info.canonicalFilePath();
    return c.isEmpty() ? info.absoluteFilePath() : c;
}

ModelCatalog::ModelCatalog(QObject* parent) : QObject(parent), m_lister(&listModelChoices) {}

void ModelCatalog::setLister(NameLister lister)
{
    m_lister = [lister = std::move(lister)](const QString& dir, const CancelToken& cancel) {
        QList<ModelChoice> out;
        for (const QString& name : lister(dir, cancel))
            out.append({name, QString(), QString()});
        return out;
    };
}

ModelCatalog::~ModelCatalog()
{
    // A listing still running finds the token cancelled and its answer is dropped (the
    // continuation is bound to this object's lifetime).
    m_cancel.cancel();
}

ModelCatalog* ModelCatalog::instance()
{
    static QPointer<ModelCatalog> catalog;
    if (!catalog)
        catalog = new ModelCatalog(QCoreApplication::instance());
    return catalog;
}

QStringList ModelCatalog::listConfigured(const QString& workspaceDir, const CancelToken& cancel)
{
    Result<ModelConfig> config =
        ModelConfig::load(workspaceDir, QProcessEnvironment::systemEnvironment(),
                          ApiKeyStore::system(), ModelConfig::userFile());
    if (!config)
        return {};
    ModelRouter router(std::move(config.value()));
    Result<QStringList> names = router.listModels(cancel);
    return names ? *names : QStringList();
}

QStringList ModelCatalog::models(const QString& workspaceDir)
{
    return choiceNames(choices(workspaceDir));
}

QList<ModelChoice> ModelCatalog::choices(const QString& workspaceDir)
{
    const QString k = folderKey(workspaceDir);
    Entry& e = m_entries[k];
    const bool stale =
        !e.asked.isValid() || e.asked.secsTo(QDateTime::currentDateTimeUtc()) > m_maxAgeS;
    if (stale && !e.pending) {
        e.pending = true;
        e.asked = QDateTime::currentDateTimeUtc();
        const LatestJob::Ticket ticket = e.listing.start();
        const Lister lister = m_lister;
        const CancelToken cancel = m_cancel;
        whenReady(this, QtConcurrent::run([lister, k, cancel] { return lister(k, cancel); }),
                  [this, k, ticket](const QList<ModelChoice>& choices) {
                      auto it = m_entries.find(k);
                      // invalidate() since: a newer request answers instead.
                      if (it == m_entries.end() || !it->listing.isCurrent(ticket))
                          return;
                      it->pending = false;
                      it->choices = choices;
                      Q_EMIT modelsChanged(k, choiceNames(choices));
                  });
    }
    return e.choices;
}

void ModelCatalog::invalidate()
{
    m_entries.clear();
    Q_EMIT invalidated();
}

} // namespace hako::models
