#pragma once

#include <QString>

namespace hako {

/// `text` as an IPv4 or IPv6 address in its usual written form ("127.0.0.1", "::1"; IPv6 in
/// lower case and shortened), or "" when it is not an address. No name is looked up. Pure.
QString canonicalIpAddress(const QString& text);

/// Whether `address` (an IP address, or "localhost") reaches only this machine: 127.0.0.0/8,
/// ::1, or an IPv4 loopback address mapped into IPv6. Pure.
bool isLoopbackAddress(const QString& address);

/// `address` as a URL writes its host: IPv6 in brackets ("[::1]"), anything else as it is. Pure.
QString urlHost(const QString& address);

} // namespace hako
