#pragma once
// Between HttpServer (hako_util) and its sockets in the module libhako_net (core/net), which
// links QtNetwork: only a process that serves loads it.

#include "core/util/diagnostic.h"

#include <QObject>

namespace hako {

class HttpServer;

/// An HttpServer's listening socket and connections, living on the server's thread.
class HttpServerEngine : public QObject {
public:
    ~HttpServerEngine() override;
    /// Binds and listens; the bound port, or why not.
    virtual Result<quint16> listen() = 0;
    /// Stops listening and drops every connection.
    virtual void shutdown() = 0;
};

/// The module's entry: a new engine for `owner` (not yet moved to the server's thread).
using HttpServerEngineFactory = HttpServerEngine* (*)(HttpServer* owner);
inline constexpr const char* kNetModuleFile = "libhako_net.so";
inline constexpr const char* kServerEngineEntry = "hakoNetServerEngine";

} // namespace hako
