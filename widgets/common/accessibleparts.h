#pragma once

#include <QCoreApplication>

class QWidget;

namespace hako {

/// Names the controls Qt adds inside Hako's widgets, which a screen reader otherwise announces
/// as a nameless button or text field: a line edit's clear button ("Clear"), a table's corner
/// button ("Select All"), an editable combo box's text field (the combo box's own name or its
/// label's), the menu bar's and tool bars' overflow buttons.
///
/// Walks `root` and its children as they are at the call: call it at the end of a constructor
/// and after building controls later (cards, rows). Names already set are kept. GUI thread.
class AccessibleParts {
    Q_DECLARE_TR_FUNCTIONS(hako::AccessibleParts)
public:
    static void name(QWidget* root);
};

} // namespace hako
