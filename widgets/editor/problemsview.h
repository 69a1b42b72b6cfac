#pragma once

#include "core/util/diagnostic.h"

#include <QTreeWidget>

#include <vector>

namespace hako {

/// The Problems list: one row per diagnostic (severity icon, message, line:column), in source
/// order. Activating a row (double-click, Enter) emits problemActivated with its span so the
/// editor can jump there. GUI thread only.
class ProblemsView : public QTreeWidget {
    Q_OBJECT
public:
    explicit ProblemsView(QWidget* parent = nullptr);

    /// Replaces the rows (keeps the selected row's position where possible).
    void setDiagnostics(const std::vector<Diagnostic>& diagnostics);
    const std::vector<Diagnostic>& diagnostics() const { return m_diagnostics; }
    /// "2 errors, 1 warning" (or "No problems").
    QString summary() const;
    /// "1 error, 3 warnings" (in the interface's language).
    static QString countText(int errors, int warnings);

Q_SIGNALS:
    void problemActivated(const hako::SourceSpan& span);

private:
    std::vector<Diagnostic> m_diagnostics;
};

} // namespace hako
