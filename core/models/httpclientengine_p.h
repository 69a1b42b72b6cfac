#pragma once
// Between HttpTransport (hako_models) and its sockets in the module libhako_net (core/net),
// which links QtNetwork: only a process that makes a request loads it.

#include "core/models/httptransport.h"

#include <QObject>

namespace hako::models {

/// The transport's connections, living on the transport's thread; every call comes from there.
class HttpClientEngine : public QObject {
public:
    ~HttpClientEngine() override;
    virtual void start(const std::shared_ptr<HttpExchange>& ex,
                       const HttpTransport::Request& r) = 0;
    virtual void abort(const std::shared_ptr<HttpExchange>& ex) = 0;
    /// Every exchange still running finishes as cancelled.
    virtual void abortAll() = 0;
};

/// The module's entry: a new engine (not yet moved to the transport's thread).
using HttpClientEngineFactory = HttpClientEngine* (*)();
inline constexpr const char* kNetModuleFile = "libhako_net.so";
inline constexpr const char* kClientEngineEntry = "hakoNetClientEngine";

} // namespace hako::models
