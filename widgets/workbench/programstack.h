#pragma once

#include <QHash>
#include <QStackedWidget>

#include <functional>

namespace hako {

class EditorPane;
class ProgramTabs;
class RunController;

/// A pane with one page per open program (its console, its Problems list, its outline), made
/// by a function when the program is added, shown while it is current and deleted with the
/// program when it is closed. GUI thread only.
class ProgramStack : public QStackedWidget {
    Q_OBJECT
public:
    using Maker = std::function<QWidget*(EditorPane* editor, RunController* run)>;
    /// Makes the pages of the programs already open, then follows `tabs`.
    ProgramStack(ProgramTabs* tabs, Maker make, QWidget* parent = nullptr);

    /// The page of `editor`'s program (null when none).
    QWidget* pageOf(const EditorPane* editor) const { return m_pages.value(editor); }

private:
    void add(EditorPane* editor, RunController* run);
    Maker m_make;
    QHash<const EditorPane*, QWidget*> m_pages;
};

} // namespace hako
