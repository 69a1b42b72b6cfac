#pragma once

#include "core/workbench/templatecatalog.h"

#include <QDialog>
#include <QList>

class QDialogButtonBox;
class QLabel;
class QListWidget;
class QPushButton;
class QStackedWidget;

namespace hako {

/// File › New from Template…: the templates of a TemplateCatalog with their titles,
/// descriptions and inputs in the interface language (TemplateCatalog::interfaceLanguage); the
/// first is selected; Create (Return, or a double-click on a title) accepts the dialog and
/// selectedId() says which one. Shows an empty state (and disables Create) when there are none
/// or templates.json cannot be read. GUI thread.
class TemplateDialog : public QDialog {
    Q_OBJECT
public:
    /// Lists `catalog`'s templates with texts in `language` ("en", "ja").
    TemplateDialog(const TemplateCatalog& catalog, const QString& language,
                   QWidget* parent = nullptr);

    /// The id of the selected template (empty when none).
    QString selectedId() const;
    /// The selected template's description (title, inputs…); null when none.
    const TemplateInfo* selectedTemplate() const;

private:
    void showDetails();
    /// The dialog's own words in its language.
    QString ui(const char* english, const char* japanese) const;

    QList<TemplateInfo> m_templates;
    QString m_language;
    QStackedWidget* m_stack = nullptr;
    QListWidget* m_list = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_description = nullptr;
    QLabel* m_inputsHeading = nullptr;
    QLabel* m_inputs = nullptr;
    QLabel* m_needs = nullptr;
    QLabel* m_empty = nullptr;
    QPushButton* m_create = nullptr;
};

} // namespace hako
