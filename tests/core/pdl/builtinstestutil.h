#pragma once

// Shared by tst_filters, tst_jinjatests and tst_methods: decodes the generated cases of
// builtins_cases.inc (real Jinja2/Python results) and runs them through builtins.h.

#include "core/pdl/expr/builtins.h"

#include <nlohmann/json.hpp>

#include <QTest>

#include <cmath>
#include <functional>

#include "builtins_cases.inc"

namespace hako::pdl::testutil {

/// The generator's JSON encoding: {"__tuple__": [...]}, {"__dict__": [[k, v], ...]},
/// {"__float__": "inf"}.
inline Value decode(const nlohmann::ordered_json& j)
{
    if (j.is_object()) {
        if (j.contains("__tuple__")) {
            List items;
            for (const auto& x : j["__tuple__"])
                items.push_back(decode(x));
            return Value::tuple(std::move(items));
        }
        if (j.contains("__float__")) {
            std::string s = j["__float__"];
            if (s == "nan")
                return Value(std::nan(""));
            return Value(s[0] == '-' ? -INFINITY : INFINITY);
        }
        Dict d;
        if (j.contains("__dict__")) {
            for (const auto& kv : j["__dict__"])
                d.set(decode(kv[0]), decode(kv[1]));
        } else {
            for (auto it = j.begin(); it != j.end(); ++it)
                d.set(Value(it.key()), decode(it.value()));
        }
        return Value(std::move(d));
    }
    if (j.is_array()) {
        List items;
        for (const auto& x : j)
            items.push_back(decode(x));
        return Value(std::move(items));
    }
    return Value::fromJson(nlohmann::json::parse(j.dump()));
}

inline Value decode(const char* text)
{
    return decode(nlohmann::ordered_json::parse(text));
}

inline CallArgs decodeArgs(const char* args, const char* kwargs)
{
    CallArgs call;
    for (const auto& x : nlohmann::ordered_json::parse(args))
        call.positional.push_back(decode(x));
    auto kw = nlohmann::ordered_json::parse(kwargs);
    for (auto it = kw.begin(); it != kw.end(); ++it)
        call.keyword.emplace_back(it.key(), decode(it.value()));
    return call;
}

/// Adds one QTest row per case: (value, args, kwargs, name, expected).
inline void addRows(const BuiltinCase* begin, const BuiltinCase* end)
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("kwargs");
    QTest::addColumn<QString>("expected");
    int i = 0;
    for (const BuiltinCase* c = begin; c != end; ++c, ++i) {
        QByteArray tag =
            QByteArray::number(i) + " " + c->name + " " + QByteArray(c->value).left(40);
        QTest::newRow(tag.constData()) << QString::fromUtf8(c->name) << QString::fromUtf8(c->value)
                                       << QString::fromUtf8(c->args) << QString::fromUtf8(c->kwargs)
                                       << QString::fromUtf8(c->expected);
    }
}

/// Runs `fn` and compares with Python's repr (or checks it throws for "!ERR ...").
inline void check(const std::function<Value()>& fn, const QString& expected)
{
    bool wantError = expected.startsWith(QLatin1String("!ERR"));
    std::string got;
    bool threw = false;
    try {
        Value v = fn();
        got = v.isUndefined() ? "<undefined>" : v.repr();
    } catch (const EvalError& e) {
        threw = true;
        got = std::string("!ERR ") + e.what();
    }
    if (wantError) {
        QVERIFY2(threw, qPrintable(QStringLiteral("expected an error (%1), got %2")
                                       .arg(expected, QString::fromStdString(got))));
        return;
    }
    QCOMPARE(QString::fromStdString(got), expected);
}

} // namespace hako::pdl::testutil
