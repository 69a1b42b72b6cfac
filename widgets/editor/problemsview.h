#pragma once

#include "core/util/diagnostic.h"

#include <QTreeWidget>

#include <functional>
#include <vector>

namespace hako {

/// The Problems list: one row per diagnostic, in source order — a severity icon and the
/// problem in plain words in the interface's language (pdl::plainDiagnostic: what is wrong and
/// what to do; the checker's own wording in the tooltip), and where it is: "Line 4, column 17",
/// or the card and field of the Prompt view when a place resolver names one. Activating a row
/// (double-click, Enter) emits problemActivated with its span so the editor can jump there.
/// GUI thread only.
class ProblemsView : public QTreeWidget {
    Q_OBJECT
public:
    /// Names the place of a span in the view the user sees ("Model call “summary” › Input");
    /// empty to show the line and column.
    using PlaceResolver = std::function<QString(const SourceSpan&)>;

    explicit ProblemsView(QWidget* parent = nullptr);

    /// Replaces the rows (keeps the selected row's position where possible).
    void setDiagnostics(const std::vector<Diagnostic>& diagnostics);
    const std::vector<Diagnostic>& diagnostics() const { return m_diagnostics; }
    /// "2 errors, 1 warning" (or "No problems").
    QString summary() const;
    /// "1 error, 3 warnings" (in the interface's language).
    static QString countText(int errors, int warnings);
    /// "Error", "Warning", "Note" in the interface's language.
    static QString severityText(Severity severity);

    /// Sets what names the places (null: line and column only) and shows the rows again.
    void setPlaceResolver(PlaceResolver resolver);
    /// Asks the resolver again for every row (the view shown or the document changed).
    void refreshPlaces();

Q_SIGNALS:
    void problemActivated(const hako::SourceSpan& span);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void showRows();
    QString placeOf(const Diagnostic& d) const;
    static QString lineColumn(const SourceSpan& span);

    std::vector<Diagnostic> m_diagnostics;
    PlaceResolver m_resolver;
};

} // namespace hako
