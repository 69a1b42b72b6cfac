#pragma once

namespace hako {

/// While one of these is alive, the process's allocator takes the memory it newly asks the
/// system for in huge (2 MB) pages where the kernel allows them (transparent huge pages in
/// `madvise` mode, Debian's default), instead of 4 KB pages. For work that allocates hundreds of
/// megabytes at once (opening a large trace or OpenTelemetry file): the kernel then faults in
/// and clears a page once per 2 MB instead of once per 4 KB, which on a virtual machine is a
/// large part of such a load (1,000,000 spans: 20.9 s -> 11.5 s). Scopes nest and may overlap
/// on several threads; the last one to end switches back, so that the small allocations of
/// ordinary work (an interpreter loop) keep small pages. Only mimalloc, the executables'
/// allocator, knows the setting; with another allocator this does nothing.
class BulkAllocationScope {
public:
    BulkAllocationScope();
    ~BulkAllocationScope();
    BulkAllocationScope(const BulkAllocationScope&) = delete;
    BulkAllocationScope& operator=(const BulkAllocationScope&) = delete;

    /// True when the process's allocator takes the hint (mimalloc is loaded).
    static bool available();
    /// True while some scope is alive and the allocator takes the hint.
    static bool active();
};

} // namespace hako
