#pragma once

#include "core/models/modelchoices.h"
#include "core/util/cancel.h"
#include "core/util/latestjob.h"

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QStringList>

#include <functional>

namespace hako::models {

/// The models every configured endpoint serves, as `hako models` finds them (each name with the
/// prefix that routes back to its endpoint), asked in the background and cached per workspace
/// folder: what completion after `model:`, the prompt cards' model picker and the model settings
/// offer. By default only names that reach a server that answered, each with why
/// (listModelChoices()). The configuration is the user's hako-models.yaml plus the workspace's,
/// read anew on every refresh.
///
/// Threading: use from the GUI thread; the endpoints are asked on the global thread pool, one
/// request per folder at a time, and the answer arrives as modelsChanged() on this object's
/// thread. Endpoints that cannot be reached simply contribute nothing.
class ModelCatalog : public QObject {
    Q_OBJECT
public:
    /// Lists the models of `workspaceDir`'s configuration (blocking; called on a worker thread).
    /// Replaceable for tests.
    using Lister =
        std::function<QList<ModelChoice>(const QString& workspaceDir, const CancelToken&)>;
    /// A lister of bare names (each offered without a reason).
    using NameLister = std::function<QStringList(const QString& workspaceDir, const CancelToken&)>;

    explicit ModelCatalog(QObject* parent = nullptr);
    ~ModelCatalog() override;

    /// The application's catalog (created on first use, owned by the application object).
    static ModelCatalog* instance();

    /// The names known for `workspaceDir` now (possibly none yet). Asks the endpoints when
    /// nothing is cached or the cache is older than maxAge(); the answer comes as modelsChanged().
    QStringList models(const QString& workspaceDir);
    /// The same, each name with why it is offered (for tooltips).
    QList<ModelChoice> choices(const QString& workspaceDir);
    /// Forgets every cached answer (after the settings changed); the next models() asks again.
    /// Emits invalidated(), so that other caches of the model settings forget too.
    void invalidate();

    void setMaxAgeSeconds(int seconds) { m_maxAgeS = seconds; }
    int maxAgeSeconds() const { return m_maxAgeS; }
    void setLister(Lister lister) { m_lister = std::move(lister); }
    void setLister(NameLister lister);

    /// The folder as modelsChanged() names it (canonical).
    static QString folderKey(const QString& dir);

    /// Every name the endpoints list, reachable or not: ModelRouter::listModels over
    /// ModelConfig::load(dir, environment, keyring, user file). (The default lister is
    /// listModelChoices().)
    static QStringList listConfigured(const QString& workspaceDir, const CancelToken& cancel);

Q_SIGNALS:
    /// The endpoints of `workspaceDir`'s configuration answered (with the names they serve).
    void modelsChanged(const QString& workspaceDir, const QStringList& names);
    /// The model settings changed (invalidate()).
    void invalidated();

private:
    struct Entry {
        QList<ModelChoice> choices;
        QDateTime asked;
        bool pending = false;
        LatestJob listing; ///< an entry made again after invalidate() drops older answers
    };
    QHash<QString, Entry> m_entries;
    int m_maxAgeS = 300;
    Lister m_lister;
    CancelToken m_cancel;
};

} // namespace hako::models
