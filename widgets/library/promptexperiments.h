#pragma once

#include "core/util/latestjob.h"

#include <QTreeWidget>

#include <functional>
#include <memory>

namespace hako {

namespace eval {
class EvalStore;
}

/// The experiments one prompt of the library ran in (any version, any dataset), newest first:
/// name, the prompt version, the dataset version, when, how it ended and the share of passing
/// scores. Activating a row asks to show that experiment. The store is read off the GUI thread;
/// the newest request wins. GUI thread only.
class PromptExperiments : public QTreeWidget {
    Q_OBJECT
public:
    explicit PromptExperiments(QWidget* parent = nullptr);

    /// Where the experiments are read (asked each time a prompt is shown; may give null).
    void setStoreSource(std::function<std::shared_ptr<eval::EvalStore>()> source);
    /// Lists the experiments of the prompt `promptKey` (LibraryPrompt::key()); "" clears.
    void showPrompt(const QString& promptKey);
    /// Lists the current prompt's experiments again.
    void reload() { showPrompt(m_promptKey); }

Q_SIGNALS:
    void experimentOpenRequested(const QString& experimentId);

protected:
    void showEvent(QShowEvent* event) override;

private:
    std::function<std::shared_ptr<eval::EvalStore>()> m_source;
    QString m_promptKey;
    LatestJob m_latest;
    bool m_stale = false; ///< asked while hidden: read when shown (start-up opens no store)
};

} // namespace hako
