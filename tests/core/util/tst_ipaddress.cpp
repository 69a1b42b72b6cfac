// The servers' and the token counter's address rules (core/util/ipaddress), held to QtNetwork's
// QHostAddress (the oracle: what the servers used before the sockets moved into a module).
#include "core/util/ipaddress.h"

#include <QHostAddress>
#include <QRandomGenerator>
#include <QTest>

class TestIpAddress : public QObject {
    Q_OBJECT

    static QString randomIpv6(QRandomGenerator& rng)
    {
        QStringList groups;
        for (int i = 0; i < 8; ++i)
            groups << QString::number(rng.bounded(4) == 0 ? 0 : rng.bounded(0x10000), 16);
        QString text = groups.join(QLatin1Char(':'));
        if (rng.bounded(2))
            text = text.toUpper();
        return text;
    }

private Q_SLOTS:
    void agreesWithQHostAddressOnGeneratedAddresses()
    {
        QRandomGenerator rng(31);
        QStringList cases = {
            QStringLiteral("127.0.0.1"),        QStringLiteral("::1"),
            QStringLiteral("0.0.0.0"),          QStringLiteral("::"),
            QStringLiteral("::ffff:127.0.0.1"), QStringLiteral("::ffff:10.1.2.3"),
            QStringLiteral("fe80::1"),          QStringLiteral("2001:db8::8a2e:370:7334"),
            QStringLiteral("127.255.255.254"),  QStringLiteral("128.0.0.1")};
        for (int i = 0; i < 2000; ++i) {
            if (i % 2)
                cases << randomIpv6(rng);
            else
                cases << QStringLiteral("%1.%2.%3.%4")
                             .arg(rng.bounded(256) < 40 ? 127 : rng.bounded(256))
                             .arg(rng.bounded(256))
                             .arg(rng.bounded(256))
                             .arg(rng.bounded(256));
        }
        for (const QString& text : cases) {
            const QHostAddress oracle(text);
            QVERIFY2(!oracle.isNull(), qPrintable(text));
            QCOMPARE(hako::canonicalIpAddress(text), oracle.toString());
            QCOMPARE(hako::isLoopbackAddress(text), oracle.isLoopback());
        }
    }

    void refusesWhatIsNotAnAddress()
    {
        for (const char* text : {"", "localhost", "example.com", "256.1.1.1", "1.2.3.4.5",
                                 "::1::", "12345::", "1.2.3.4:80", "[::1]", "gggg::1", " "}) {
            QVERIFY2(QHostAddress(QString::fromLatin1(text)).isNull(), text);
            QVERIFY2(hako::canonicalIpAddress(QString::fromLatin1(text)).isEmpty(), text);
        }
    }

    void localhostIsLoopbackAndUrlsBracketIpv6()
    {
        QVERIFY(hako::isLoopbackAddress(QStringLiteral("localhost")));
        QVERIFY(hako::isLoopbackAddress(QStringLiteral("LocalHost")));
        QVERIFY(!hako::isLoopbackAddress(QStringLiteral("example.com")));
        QVERIFY(!hako::isLoopbackAddress(QStringLiteral("0.0.0.0")));
        QCOMPARE(hako::urlHost(QStringLiteral("::1")), QStringLiteral("[::1]"));
        QCOMPARE(hako::urlHost(QStringLiteral("127.0.0.1")), QStringLiteral("127.0.0.1"));
    }
};

QTEST_GUILESS_MAIN(TestIpAddress)
#include "tst_ipaddress.moc"
