#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <cstdio>
#include <string_view>

namespace hako {

/// The command line's one way to print: `text` to `stream` as UTF-8, all of it (a NUL inside
/// too), flushed at once so that what a subcommand prints keeps its order with the streamed
/// output of a running program and with stderr.
void writeText(FILE* stream, const QString& text);
/// As above, for bytes that are already UTF-8 (a program's streamed output).
void writeText(FILE* stream, std::string_view utf8);

/// A plain-text table: columns padded to their widest cell (`right`: which hold numbers, set
/// flush right), the header first, a line each.
QString table(const QStringList& header, const QList<QStringList>& rows, const QList<bool>& right);

} // namespace hako
