#pragma once

#include "core/playground/promptdoc.h"

#include <QString>

namespace hako::playground {

/// Where a position of a program falls in the Prompt view: the item (a card, a value, a text,
/// a section) and, inside a card, the field. What the Problems pane shows instead of a line
/// and column while the Prompt view is shown.
struct PromptDocPlace {
    enum class Field {
        None,         ///< the item itself (a card's `def` line, a section's fields)
        Model,        ///< a card's model (`model:`)
        Parameters,   ///< a card's parameters (`parameters:`)
        Input,        ///< a card's input: a user message or the `input:` text
        Instructions, ///< a card's system message
        Message,      ///< a card's message of another role (`role`)
    };
    QString id;      ///< the item's PromptDocItem::id; empty when the position is in no item
    QString heading; ///< the item's heading ("" for none)
    PromptDocItem::Kind kind = PromptDocItem::Kind::Paragraph;
    int line = 0;  ///< the item's first line (what the view names an item without a heading by)
    QString label; ///< a section's label ("Loop", …)
    Field field = Field::None;
    QString role; ///< the message's role, for Field::Message

    bool isValid() const { return !id.isEmpty(); }
};

/// The item of `doc` (built from `text`) that holds 1-based `line` and `column` (code points):
/// the innermost card, value or text, else the innermost section; inside a card the field too
/// (from the card's messages and model, and the card's own key above the position in `text`
/// for `parameters:` and an `input:` the view does not show as messages). Invalid when the
/// position is in no item. Pure; thread-safe.
PromptDocPlace placeAt(const PromptDoc& doc, const QString& text, int line, int column);

/// The place as the Prompt view names it, translated: "Model call “summary” › Input",
/// "Value “tone”", "Text at line 4"; empty for an invalid place. Pure.
QString describePlace(const PromptDocPlace& place);

} // namespace hako::playground
