#pragma once

#include <QList>
#include <QObject>

class QDockWidget;
class QMainWindow;
class QSettings;
class QTimer;

namespace hako {

/// Keeps a main window's geometry and dock layout in the settings — restored at start, written
/// shortly after every change (so that a crash or a kill keeps it) and at close — and lays the
/// docks out on a first start (no saved layout): a window of most of the screen where the editor
/// and the trace panes take most of the room, the bottom panes (console and its tabs) a strip.
/// GUI thread; watches the window it is given.
class DockLayout : public QObject {
    Q_OBJECT
public:
    /// The docks whose shares a first start sets.
    struct Shares {
        QDockWidget* trace = nullptr;  ///< right column, top: the boxes
        QDockWidget* detail = nullptr; ///< right column, below the boxes
        QDockWidget* bottom = nullptr; ///< the bottom strip (the console and its tabs)
    };

    /// `settings` is not owned.
    DockLayout(QMainWindow* window, QSettings* settings);

    /// Restores the saved geometry and layout, once every dock exists; on a first start sizes
    /// the window to the screen and gives `shares` their room when it is first shown. From now
    /// on every change of the layout is saved shortly after.
    void restore(const Shares& shares);
    /// Whether restore() found no saved layout.
    bool isFirstStart() const { return m_firstStart; }
    /// Writes the geometry and layout now (nothing when unchanged).
    void save();
    /// Gives `dock` (at the bottom) at least `share` of the window's height: a pane that comes
    /// forward with something to read (a document, a memory store) is not left a strip.
    void makeRoom(QDockWidget* dock, double share = 0.4);

    /// The fraction of the window's height the bottom strip gets on a first start.
    static constexpr double kBottomShare = 0.2;
    /// The fraction of the right column the boxes get on a first start (the detail the rest).
    static constexpr double kTraceShare = 0.62;
    /// The fraction of the window's width the right column gets on a first start.
    static constexpr double kRightShare = 0.45;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void applyShares();
    void saveSoon();

    QMainWindow* m_window;
    QSettings* m_settings;
    QTimer* m_timer;
    Shares m_shares;
    bool m_firstStart = false;
    bool m_sharesPending = false;
};

} // namespace hako
