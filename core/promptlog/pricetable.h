#pragma once

#include "core/util/diagnostic.h"

#include <QList>
#include <QString>

#include <cstdint>
#include <optional>

namespace hako::promptlog {

/// What calls to models cost, per million tokens, keyed by model-name globs (`gpt-4o-mini*`,
/// `ollama/*`); the first entry whose glob matches the model wins. A plain value; the file is a
/// small JSON document the user edits:
///
///     {"currency": "USD",
///      "models": [{"match": "gpt-4o-mini*", "input": 0.15, "output": 0.60,
///                  "cached_input": 0.075},
///                 {"match": "ollama/*", "input": 0, "output": 0}]}
struct PriceTable {
    struct Entry {
        QString match; ///< a glob over the model name as the program names it
        double inputPerMillion = 0;
        double outputPerMillion = 0;
        std::optional<double> cachedInputPerMillion; ///< defaults to the input price
        bool operator==(const Entry&) const = default;
    };
    QString currency = QStringLiteral("USD");
    QList<Entry> entries;

    /// The entry pricing `model`, or none.
    const Entry* find(const QString& model) const;
    /// The cost of a call: none when the model has no price or the server reported no token
    /// counts. Cached prompt tokens are part of `promptTokens` and priced as cached.
    std::optional<double> cost(const QString& model, std::optional<int64_t> promptTokens,
                               std::optional<int64_t> completionTokens,
                               std::optional<int64_t> cachedTokens) const;

    /// `prices.json` in the user's configuration folder.
    static QString defaultPath();
    /// Reads a table; a missing file is the empty table (every cost unknown).
    static Result<PriceTable> load(const QString& path);
    /// Writes the table atomically.
    Result<bool> save(const QString& path) const;
    bool operator==(const PriceTable&) const = default;
};

} // namespace hako::promptlog
