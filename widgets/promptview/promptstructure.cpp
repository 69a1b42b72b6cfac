// The Prompt view's structure edits: `defs` lists, numbers and yes/no values, and prompts
// added, moved, renamed and removed (promptdocedit.h), each one undoable edit of the editor.
#include "core/pdl/analysis/rename.h"
#include "core/playground/promptdocedit.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/promptview/promptcard.h"
#include "widgets/promptview/promptvalueedit.h"
#include "widgets/promptview/promptview.h"

#include <QInputDialog>
#include <QJsonArray>
#include <QMessageBox>
#include <QPointer>
#include <QScrollArea>
#include <QTimer>

namespace hako {

using playground::PromptDocItem;

namespace {

/// The item at `index` of the document's pre-order (as the view counts while building).
const PromptDocItem* itemAt(const QList<PromptDocItem>& items, int& index)
{
    for (const PromptDocItem& i : items) {
        if (index-- == 0)
            return &i;
        if (const PromptDocItem* found = itemAt(i.children, index))
            return found;
    }
    return nullptr;
}

const PromptDocItem* itemAt(const playground::PromptDoc& doc, int index)
{
    return index < 0 ? nullptr : itemAt(doc.items, index);
}

/// The card's `def` name when its heading is one (not a description).
QString defName(const PromptDocItem& card)
{
    return pdl::checkVariableName(card.heading).isEmpty() ? card.heading : QString();
}

} // namespace

QWidget* PromptView::makeValue(const PromptDocItem& item, QWidget* parent)
{
    auto* edit = new PromptValueEdit(item, parent);
    m_values << edit;
    connect(edit, &PromptValueEdit::changed, this,
            [this, edit](const QJsonValue& value) { commitValue(edit, value); });
    return edit;
}

bool PromptView::ensureCurrent()
{
    if (!m_editor || m_yamlError)
        return false;
    if (m_editor->text() != m_docText)
        refreshNow(); // the YAML changed since: take the spans of the current text
    return !m_yamlError;
}

void PromptView::commitValue(PromptValueEdit* edit, const QJsonValue& value)
{
    const int index = edit->index;
    if (!ensureCurrent())
        return;
    const PromptDocItem* item = itemAt(m_doc, index);
    if (!item || item->kind != PromptDocItem::Kind::Value)
        return;
    const SourceSpan& at = item->textSpan;
    if (value.isArray()) {
        QStringList items;
        for (const QJsonValue& v : value.toArray())
            items << v.toString();
        if (item->valueType == PromptDocItem::ValueType::Fields)
            applyEdits(playground::replaceFields(m_editor->text(), at.line, at.column, items));
        else
            applyEdits(playground::replaceList(m_editor->text(), at.line, at.column, items));
    } else {
        applyEdits(playground::replaceFixedValue(m_editor->text(), at.line, at.column, value));
    }
}

void PromptView::addPrompt()
{
    if (!ensureCurrent())
        return;
    commitPendingEdits();
    QString model = QStringLiteral("default");
    QString previous;
    for (const PromptCard* c : std::as_const(m_cards)) {
        if (!c->item().model.isEmpty())
            model = c->item().model;
        if (!defName(c->item()).isEmpty())
            previous = defName(c->item());
    }
    const QString text = m_editor->text();
    const QString name = playground::freePromptName(text, QStringLiteral("prompt"));
    // What the author replaces: an instruction, and the previous prompt's result to work on.
    QString instruction = tr("Write here what the model should do.") + QLatin1Char('\n');
    if (!previous.isEmpty())
        instruction +=
            tr("The result of the prompt above: %1").arg(QStringLiteral("${ %1 }").arg(previous)) +
            QLatin1Char('\n');
    if (applyEdits(playground::addPrompt(text, name, model, instruction)))
        focusCard(name, int(m_cards.size()) - 1, 0);
}

void PromptView::movePrompt(PromptCard* card, int delta)
{
    const int index = card->index;
    const int position = int(m_cards.indexOf(card));
    commitPendingEdits();
    if (!ensureCurrent())
        return;
    const PromptDocItem* item = itemAt(m_doc, index);
    if (!item)
        return;
    const QString name = defName(*item);
    if (applyEdits(playground::movePrompt(m_editor->text(), item->span, delta)))
        focusCard(name, position + (delta < 0 ? -1 : 1), delta);
}

void PromptView::renamePrompt(PromptCard* card)
{
    const int index = card->index;
    commitPendingEdits();
    if (!ensureCurrent())
        return;
    const PromptDocItem* found = itemAt(m_doc, index);
    if (!found)
        return;
    const PromptDocItem item = *found;
    const QString text = m_editor->text();
    const QString current = defName(item).isEmpty()
                                ? playground::freePromptName(text, QStringLiteral("prompt"))
                                : defName(item);
    std::optional<QString> asked;
    if (m_askName) {
        asked = m_askName(current);
    } else {
        bool ok = false;
        const QString answer = QInputDialog::getText(
            this, tr("Rename Prompt"),
            tr("New name for the result of this prompt (every place that uses it follows):"),
            QLineEdit::Normal, current, &ok);
        if (ok)
            asked = answer;
    }
    if (!asked || asked->trimmed().isEmpty() || asked->trimmed() == defName(item))
        return;
    const QString chosen = asked->trimmed();
    if (m_editor->text() != text)
        return;
    if (applyEdits(playground::renamePrompt(text, item.span, chosen)))
        focusCard(chosen, -1, 0);
}

void PromptView::removePrompt(PromptCard* card)
{
    const int index = card->index;
    const int position = int(m_cards.indexOf(card));
    const QString shown = card->displayName();
    commitPendingEdits();
    if (!ensureCurrent())
        return;
    const PromptDocItem* found = itemAt(m_doc, index);
    if (!found)
        return;
    const PromptDocItem item = *found;
    const QString text = m_editor->text();
    const QList<int> users = playground::usesOfPromptResult(text, item.span);
    QStringList lines;
    for (int l : users)
        lines << QString::number(l);
    const QString question =
        users.isEmpty()
            ? tr("Remove the prompt “%1”?").arg(shown)
            : tr("Remove the prompt “%1”? Other steps use its result (line %2); they will "
                 "not find it any more.")
                  .arg(shown, lines.join(tr(", ")));
    const bool yes =
        m_confirm ? m_confirm(question)
                  : QMessageBox::question(this, tr("Remove Prompt"), question) == QMessageBox::Yes;
    if (!yes || !m_editor || m_editor->text() != text)
        return;
    if (applyEdits(playground::removePrompt(text, item.span)) && !m_cards.isEmpty())
        focusCard(QString(), std::clamp(position, 0, int(m_cards.size()) - 1), 0);
}

void PromptView::focusCard(const QString& heading, int index, int delta)
{
    PromptCard* target = nullptr;
    for (PromptCard* c : std::as_const(m_cards)) {
        if (!heading.isEmpty() && c->item().heading == heading)
            target = c;
    }
    if (!target && index >= 0 && index < m_cards.size())
        target = m_cards[index];
    if (!target)
        return;
    target->focusAction(delta);
    // After the new widgets are laid out: the card in sight.
    QTimer::singleShot(0, this, [this, card = QPointer<PromptCard>(target)] {
        if (card)
            m_scroll->ensureWidgetVisible(card, 0, 40);
    });
}

} // namespace hako
