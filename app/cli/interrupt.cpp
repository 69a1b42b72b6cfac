#include "cli/interrupt.h"

#include <atomic>
#include <csignal>

#include <unistd.h>

namespace hako {

namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
constexpr int kSignalCount = int(sizeof(kSignals) / sizeof(kSignals[0]));

// What the handler sees. Lock-free atomics only: the handler may run on any thread, at any
// instruction.
std::atomic<const CancelToken*> g_token{nullptr};
std::atomic<int> g_received{0};
static_assert(std::atomic<const CancelToken*>::is_always_lock_free);
static_assert(std::atomic<int>::is_always_lock_free);

void onSignal(int signalNumber)
{
    const int earlier = g_received.exchange(signalNumber);
    const CancelToken* token = g_token.load();
    if (earlier != 0 || token == nullptr) {
        // Asked twice: the person does not want to wait for the clean stop.
        struct sigaction dfl = {};
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        sigaction(signalNumber, &dfl, nullptr);
        raise(signalNumber);
        _exit(128 + signalNumber); // only reached when the default action is to ignore
    }
    token->cancel();
    static const char kMessage[] = "\nhako: stopping: writing what was done (signal again to "
                                   "quit at once)\n";
    ssize_t ignored = write(STDERR_FILENO, kMessage, sizeof(kMessage) - 1);
    (void)ignored;
}

} // namespace

struct InterruptGuard::Saved {
    struct sigaction previous[kSignalCount];
    const CancelToken* previousToken = nullptr;
    int previousReceived = 0;
};

InterruptGuard::InterruptGuard(CancelToken token, bool restartSystemCalls)
    : m_token(std::move(token)), m_saved(new Saved)
{
    m_saved->previousToken = g_token.exchange(&m_token);
    m_saved->previousReceived = g_received.exchange(0);
    struct sigaction action = {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    // The handled signals are blocked while one of them is handled, so the "second signal"
    // test above never races a first one still inside the handler.
    for (int s : kSignals)
        sigaddset(&action.sa_mask, s);
    // SA_RESTART: a poll in a model call is not failed by the signal; cancellation reaches it
    // through the token.
    action.sa_flags = restartSystemCalls ? SA_RESTART : 0;
    for (int i = 0; i < kSignalCount; ++i)
        sigaction(kSignals[i], &action, &m_saved->previous[i]);
}

InterruptGuard::~InterruptGuard()
{
    for (int i = 0; i < kSignalCount; ++i)
        sigaction(kSignals[i], &m_saved->previous[i], nullptr);
    g_token.store(m_saved->previousToken);
    g_received.store(m_saved->previousReceived);
    delete m_saved;
}

int InterruptGuard::receivedSignal() const
{
    return g_received.load();
}

} // namespace hako
