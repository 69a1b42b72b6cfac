#pragma once

#include <QFuture>
#include <QFutureWatcher>
#include <QObject>

#include <type_traits>
#include <utility>

namespace hako {

/// Calls `then(result)` on `context`'s thread once `future` has finished: always later, from the
/// event loop, and never once `context` is gone.
///
/// This is how every pane and model takes the answer of background work. QFuture::then(context,
/// …) is not: when the work has already finished by the time the continuation is attached (a
/// worker preempted the GUI thread for a moment), it runs the continuation at once, inside the
/// call that started the work, and whatever that call does next overwrites what the answer just
/// showed (a token count that appeared and was wiped by "counting…"). Here the answer always
/// arrives after the starting call has returned, so "start, then show that it started" is safe.
///
/// `context` must live on the calling thread (the watcher that waits is its child).
template <typename T, typename F>
void whenReady(QObject* context, QFuture<T> future, F&& then)
{
    auto* watcher = new QFutureWatcher<T>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, watcher,
                     [watcher, then = std::forward<F>(then)]() mutable {
                         watcher->deleteLater();
                         if constexpr (std::is_void_v<T>) {
                             then();
                         } else {
                             // A cancelled job has no result: nothing to hand on.
                             if (watcher->future().resultCount() == 0)
                                 return;
                             then(watcher->result());
                         }
                     });
    watcher->setFuture(std::move(future));
}

} // namespace hako
