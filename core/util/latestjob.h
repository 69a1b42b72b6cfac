#pragma once

#include <QtGlobal>

namespace hako {

/// "The newest request wins": a pane or model that starts background work (an analysis, a query,
/// a layout) and may start another before the first answers keeps one LatestJob. start() hands
/// out a ticket for the new request and makes every older ticket stale; when an answer arrives,
/// isCurrent(ticket) says whether it still belongs on screen. invalidate() makes every ticket
/// handed out so far stale (the pane was cleared, its input changed) without starting anything.
///
/// Threading: a LatestJob belongs to its owner's thread (usually the GUI thread): start(),
/// isCurrent(), invalidate() and current() are called there only. A Ticket is a small value,
/// safe to copy into a worker lambda or across threads, but compare it only back on the owner's
/// thread, where the answer is delivered (QFuture::then(this, …), a queued invokeMethod). Tickets
/// are unique across all trackers of the process, so a ticket of a tracker that was replaced is
/// never current for its successor.
class LatestJob {
public:
    /// One request's identity. A default-constructed ticket is never current.
    class Ticket {
    public:
        Ticket() = default;
        friend bool operator==(Ticket, Ticket) = default;

    private:
        friend class LatestJob;
        explicit Ticket(quint64 serial) : m_serial(serial) {}
        quint64 m_serial = 0;
    };

    LatestJob();

    /// A ticket for a new request; every ticket handed out before is stale from now on.
    Ticket start();
    /// Whether `ticket` is the newest one handed out (and not invalidated since).
    bool isCurrent(Ticket ticket) const { return ticket.m_serial != 0 && ticket == m_current; }
    /// Makes every ticket handed out so far stale; nothing new is started.
    void invalidate() { start(); }
    /// The current ticket without starting anything: for answers requested on behalf of the
    /// present state (a table's page loaded for its current query), stale after the next
    /// start() or invalidate().
    Ticket current() const { return m_current; }

private:
    Ticket m_current;
};

} // namespace hako
