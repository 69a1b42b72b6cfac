#pragma once

#include <QMessageBox>

namespace hako {

struct RunTrustCheck;

/// The question before a run that the trust rule (checkRunTrust, core) holds back: what the
/// program would do — code it runs, servers it sends requests to — and whether to run it once,
/// trust its folder and run, or cancel. Only shows the question; the rule is core's. GUI thread.
class TrustDialog : public QMessageBox {
    Q_OBJECT
public:
    /// The answer.
    enum class Choice { RunOnce, TrustFolder, Cancel };

    /// For the program `file` (empty for an unsaved program) and what `check` found.
    TrustDialog(const QString& file, const RunTrustCheck& check, QWidget* parent = nullptr);

    /// Shows the question modally and returns the answer.
    Choice ask();

private:
    QAbstractButton* m_once;
    QAbstractButton* m_trustFolder;
};

} // namespace hako
