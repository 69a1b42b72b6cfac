#include "core/util/bulkmemory.h"

#include <dlfcn.h>

#include <atomic>
#include <mutex>

#if __has_include(<mimalloc.h>)
#include <mimalloc.h>
#define HAKO_HAVE_MIMALLOC_OPTIONS 1
#endif

namespace hako {

namespace {

#ifdef HAKO_HAVE_MIMALLOC_OPTIONS
using OptionSet = void (*)(mi_option_t, long);
using OptionGet = long (*)(mi_option_t);

// mimalloc's option functions when it is the process's allocator (the executables link it;
// nothing here links it, so a process without it gets null).
struct Allocator {
    OptionSet set = nullptr;
    OptionGet get = nullptr;
};

const Allocator& allocator()
{
    static const Allocator a = [] {
        Allocator r;
        r.set = reinterpret_cast<OptionSet>(dlsym(RTLD_DEFAULT, "mi_option_set"));
        r.get = reinterpret_cast<OptionGet>(dlsym(RTLD_DEFAULT, "mi_option_get"));
        if (!r.set || !r.get)
            r = {};
        return r;
    }();
    return a;
}
#endif

std::mutex scopesMutex;
int scopes = 0;
long before = 0; // the setting when the first scope began (an environment's choice is kept)

} // namespace

BulkAllocationScope::BulkAllocationScope()
{
#ifdef HAKO_HAVE_MIMALLOC_OPTIONS
    const Allocator& a = allocator();
    if (!a.set)
        return;
    std::lock_guard lock(scopesMutex);
    if (scopes++ == 0) {
        before = a.get(mi_option_large_os_pages);
        a.set(mi_option_large_os_pages, 1);
    }
#endif
}

BulkAllocationScope::~BulkAllocationScope()
{
#ifdef HAKO_HAVE_MIMALLOC_OPTIONS
    const Allocator& a = allocator();
    if (!a.set)
        return;
    std::lock_guard lock(scopesMutex);
    if (--scopes == 0)
        a.set(mi_option_large_os_pages, before);
#endif
}

bool BulkAllocationScope::available()
{
#ifdef HAKO_HAVE_MIMALLOC_OPTIONS
    return allocator().set != nullptr;
#else
    return false;
#endif
}

bool BulkAllocationScope::active()
{
#ifdef HAKO_HAVE_MIMALLOC_OPTIONS
    const Allocator& a = allocator();
    return a.get && a.get(mi_option_large_os_pages) != 0;
#else
    return false;
#endif
}

} // namespace hako
