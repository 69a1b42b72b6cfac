#pragma once

#include <QList>
#include <QPoint>
#include <QString>

namespace hako {

/// Text as the Documents pane's hit list and transcript show it while ruby is read (an Aozora
/// Bunko text with Ruby on): every line laid out as the document view lays it out
/// (docs::layoutRubyLine: `《reading》`, `｜` markers and `［＃…］` notes removed), and `marks`
/// (ranges [x, y) into `text`) moved along with the text. Pure; any thread.
QString rubyFreeText(const QString& text, QList<QPoint>* marks = nullptr);

} // namespace hako
