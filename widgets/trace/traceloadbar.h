#pragma once

#include <QPointer>
#include <QWidget>

class QLabel;
class QProgressBar;
class QToolButton;

namespace hako {
class MessageBar;
namespace pdl {
class TraceLoader;
}

/// The strip a trace pane shows above itself while a trace file loads: file name, a progress
/// bar and Cancel (saying so while the panes already show the start of a large file); afterwards a
/// non-modal message for a damaged file (what is shown and where the damage is) or a failure.
/// Hidden when there is nothing to say. Follows one TraceLoader (not owned). GUI thread.
class TraceLoadBar : public QWidget {
    Q_OBJECT
public:
    explicit TraceLoadBar(pdl::TraceLoader* loader, QWidget* parent = nullptr);

    QProgressBar* progressBar() const { return m_progress; }
    QToolButton* cancelButton() const { return m_cancel; }
    MessageBar* messageBar() const { return m_message; }

private:
    QPointer<pdl::TraceLoader> m_loader;
    QWidget* m_loading;
    QLabel* m_label;
    QProgressBar* m_progress;
    QToolButton* m_cancel;
    MessageBar* m_message;
    bool m_preview = false; ///< the panes show the start of the file being loaded
};

} // namespace hako
