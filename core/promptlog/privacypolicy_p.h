#pragma once

#include <QStringView>

namespace hako::promptlog {

/// Whether a text could hold anything a redaction rule replaces (an '@'; '+' or '(' before a
/// digit, or a digit with '.' or '-' and another digit after it; a key's prefix such as `sk-`,
/// `AKIA` or `ghp_`; a credential's name such as "token" in any case). A text without any of
/// them skips the rules' regular expression. Exposed for its test.
bool mayHoldSecrets(QStringView text);

} // namespace hako::promptlog
