#pragma once

#include <QString>
#include <QStringList>

namespace hako::reports {

/// The company a report is about, read from the text of its first pages (the first 10 are
/// looked at): the name written most often with its legal form — 株式会社ハコ, ハコ食品株式会社,
/// (株)ハコ, Hako Co., Ltd., Hako Inc., Hako Corporation —, the earliest on a tie. Empty when
/// no page names one. Pure; any thread.
QString detectCompany(const QStringList& pages);

/// Whether two ways of writing a company name mean the same company: equal, or one containing
/// the other, once the legal form (株式会社, (株), Inc., Co., Ltd., …), spaces and case are set
/// aside. Empty names match nothing.
bool sameCompany(const QString& a, const QString& b);

} // namespace hako::reports
