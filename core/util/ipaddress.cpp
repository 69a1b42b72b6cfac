#include "core/util/ipaddress.h"

#include <arpa/inet.h>

#include <cstring>

namespace hako {

namespace {

struct Parsed {
    int family = 0; ///< AF_INET, AF_INET6, or 0: not an address
    unsigned char bytes[16] = {};
};

Parsed parse(const QString& text)
{
    Parsed p;
    const QByteArray latin = text.trimmed().toLatin1();
    if (latin.isEmpty() || latin.size() > 64)
        return p;
    if (inet_pton(AF_INET, latin.constData(), p.bytes) == 1)
        p.family = AF_INET;
    else if (inet_pton(AF_INET6, latin.constData(), p.bytes) == 1)
        p.family = AF_INET6;
    return p;
}

} // namespace

QString canonicalIpAddress(const QString& text)
{
    const Parsed p = parse(text);
    if (!p.family)
        return {};
    char out[INET6_ADDRSTRLEN] = {};
    if (!inet_ntop(p.family, p.bytes, out, sizeof out))
        return {};
    return QString::fromLatin1(out);
}

bool isLoopbackAddress(const QString& address)
{
    if (address.trimmed().compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    const Parsed p = parse(address);
    if (p.family == AF_INET)
        return p.bytes[0] == 127;
    if (p.family != AF_INET6)
        return false;
    static const unsigned char loopback6[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (std::memcmp(p.bytes, loopback6, 16) == 0)
        return true;
    return std::memcmp(p.bytes, mapped, 12) == 0 && p.bytes[12] == 127;
}

QString urlHost(const QString& address)
{
    return address.contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(address) : address;
}

} // namespace hako
