#include "widgets/workbench/docklayout.h"

#include <QDockWidget>
#include <QEvent>
#include <QLayout>
#include <QMainWindow>
#include <QScreen>
#include <QSettings>
#include <QTimer>

namespace hako {

namespace {
const char* const kGeometryKey = "window/geometry";
const char* const kStateKey = "window/state";
} // namespace

DockLayout::DockLayout(QMainWindow* window, QSettings* settings)
    : QObject(window), m_window(window), m_settings(settings), m_timer(new QTimer(this))
{
    m_timer->setSingleShot(true);
    m_timer->setInterval(1500);
    connect(m_timer, &QTimer::timeout, this, &DockLayout::save);
}

void DockLayout::restore(const Shares& shares)
{
    m_shares = shares;
    // A minimum computed while the docks were being added side by side (before they were
    // tabbed) would widen the restored window: recompute it for the final arrangement.
    if (QLayout* layout = m_window->layout())
        layout->activate();
    if (!m_window->restoreGeometry(m_settings->value(QLatin1String(kGeometryKey)).toByteArray())) {
        // Most of the screen, not a fixed size that may not fit it.
        const QScreen* screen = m_window->screen();
        const QRect avail = screen ? screen->availableGeometry() : QRect(0, 0, 1280, 720);
        m_window->resize(QSize(avail.width() * 9 / 10, avail.height() * 9 / 10)
                             .boundedTo(QSize(1800, 1150))
                             .expandedTo(m_window->minimumSizeHint().boundedTo(avail.size())));
    }
    m_firstStart =
        !m_window->restoreState(m_settings->value(QLatin1String(kStateKey)).toByteArray());
    m_sharesPending = m_firstStart;
    for (QDockWidget* dock : m_window->findChildren<QDockWidget*>()) {
        connect(dock, &QDockWidget::visibilityChanged, this, &DockLayout::saveSoon);
        connect(dock, &QDockWidget::dockLocationChanged, this, &DockLayout::saveSoon);
        connect(dock, &QDockWidget::topLevelChanged, this, &DockLayout::saveSoon);
    }
    m_window->installEventFilter(this);
}

bool DockLayout::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != m_window)
        return false;
    switch (event->type()) {
    case QEvent::Show:
        // After the window has laid itself out at its shown size.
        if (m_sharesPending)
            QTimer::singleShot(0, this, &DockLayout::applyShares);
        break;
    case QEvent::Resize:
    case QEvent::Move:
        saveSoon();
        break;
    default:
        break;
    }
    return false;
}

void DockLayout::applyShares()
{
    if (!m_sharesPending)
        return;
    m_sharesPending = false;
    const int h = m_window->height();
    const int w = m_window->width();
    if (m_shares.trace && m_shares.detail)
        m_window->resizeDocks({m_shares.trace, m_shares.detail},
                              {int(h * kTraceShare), int(h * (1 - kTraceShare))}, Qt::Vertical);
    if (m_shares.bottom)
        m_window->resizeDocks({m_shares.bottom}, {int(h * kBottomShare)}, Qt::Vertical);
    if (m_shares.trace)
        m_window->resizeDocks({m_shares.trace}, {int(w * kRightShare)}, Qt::Horizontal);
}

void DockLayout::makeRoom(QDockWidget* dock, double share)
{
    const int wanted = int(m_window->height() * share);
    if (!dock->isFloating() && dock->height() < wanted)
        m_window->resizeDocks({dock}, {wanted}, Qt::Vertical);
}

void DockLayout::saveSoon()
{
    if (m_window->isVisible())
        m_timer->start();
}

void DockLayout::save()
{
    m_timer->stop();
    const QByteArray geometry = m_window->saveGeometry();
    const QByteArray state = m_window->saveState();
    if (m_settings->value(QLatin1String(kGeometryKey)).toByteArray() == geometry &&
        m_settings->value(QLatin1String(kStateKey)).toByteArray() == state)
        return;
    m_settings->setValue(QLatin1String(kGeometryKey), geometry);
    m_settings->setValue(QLatin1String(kStateKey), state);
    m_settings->sync();
}

} // namespace hako
