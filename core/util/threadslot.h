#pragma once

namespace hako {

/// This thread's `T`, made by the thread's first get() and freed when the thread ends, reached
/// through an initial-exec thread-local pointer: an offset from the thread pointer rather than
/// a `__tls_get_addr` call, for what a hot path reaches for every item (the interpreter's spare
/// id buffers for every block, the OpenTelemetry string pool for every string of every span).
/// A pointer takes 8 bytes of the static TLS space every library shares; `T` itself lives on
/// the heap. Use a `T` of its own per use (a type in an unnamed namespace): the slot is per
/// type.
template <class T> class ThreadSlot {
public:
    static T& get()
    {
        if (!s_item) [[unlikely]]
            make();
        return *s_item;
    }

private:
    struct Owner {
        ~Owner()
        {
            delete s_item;
            s_item = nullptr;
        }
    };
    static void make()
    {
        static thread_local Owner owner;
        (void)owner; // constructed here: frees the item when the thread ends
        s_item = new T;
    }
    static inline thread_local T* s_item [[gnu::tls_model("initial-exec")]] = nullptr;
};

} // namespace hako
