#pragma once

#include "widgets/editor/pdleditor.h"

#include <QFrame>

class QLabel;
class QLineEdit;
class QToolButton;
class QPushButton;
class QWidget;

namespace hako {

/// The non-modal find/replace strip under the editor: search text, match case / whole word /
/// regular expression toggles, next/previous, Replace and Replace All. Escape closes it and
/// returns focus to the editor.
class FindBar : public QFrame {
    Q_OBJECT
public:
    explicit FindBar(PdlEditor* editor, QWidget* parent = nullptr);

    /// Shows the bar in find mode (replace row hidden), seeded with the editor's selection.
    void showFind();
    /// Shows the bar with the replace row.
    void showReplace();
    /// Hides the bar and gives focus back to the editor.
    void close();

    bool findNext();
    bool findPrevious();
    bool replace();
    int replaceAll();

    QString findText() const;
    void setFindText(const QString& text);
    QString replaceText() const;
    void setReplaceText(const QString& text);
    FindOptions options() const;
    void setOptions(const FindOptions& options);
    bool isReplaceVisible() const;
    /// The status line ("No matches", "3 replaced", …) for the last operation.
    QString status() const;

private:
    void seedFromSelection();
    void setStatus(const QString& text, bool problem = false);

    PdlEditor* m_editor;
    QLineEdit* m_find;
    QLineEdit* m_replace;
    QToolButton* m_matchCase;
    QToolButton* m_wholeWord;
    QToolButton* m_regex;
    QLabel* m_status;
    QWidget* m_replaceRow;
};

} // namespace hako
