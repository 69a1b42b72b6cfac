#include "widgets/templates/templatedialog.h"

#include <QDialogButtonBox>
#include <QFont>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace hako {

namespace {

QLabel* wrappingLabel(QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setWordWrap(true);
    label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

} // namespace

TemplateDialog::TemplateDialog(const TemplateCatalog& catalog, const QString& language,
                               QWidget* parent)
    : QDialog(parent), m_language(language)
{
    setObjectName(QStringLiteral("templateDialog"));
    setWindowTitle(tr("New from Template"));
    setAccessibleName(tr("New from Template"));
    const Result<QList<TemplateInfo>> listed = catalog.templates(language);
    if (listed)
        m_templates = *listed;

    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("templateList"));
    m_list->setAccessibleName(tr("Templates"));
    m_list->setAccessibleDescription(tr("Choose a template, then press Create"));
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setUniformItemSizes(true);
    for (const TemplateInfo& t : m_templates) {
        auto* item = new QListWidgetItem(t.title, m_list);
        item->setData(Qt::UserRole, t.id);
        item->setToolTip(t.description);
    }
    // Wide enough for the longest title, so that none is cut.
    m_list->setMinimumWidth(std::max(200, m_list->sizeHintForColumn(0) + 32));

    auto* details = new QWidget(this);
    auto* detailsLayout = new QVBoxLayout(details);
    detailsLayout->setContentsMargins(12, 0, 0, 0);
    m_title = wrappingLabel(details);
    m_title->setObjectName(QStringLiteral("templateTitle"));
    m_title->setAccessibleName(tr("Template title"));
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.2);
    m_title->setFont(titleFont);
    m_description = wrappingLabel(details);
    m_description->setObjectName(QStringLiteral("templateDescription"));
    m_description->setAccessibleName(tr("Template description"));
    m_inputsHeading =
        new QLabel(tr("What to change (in defs: at the top of the program):"), details);
    m_inputsHeading->setWordWrap(true);
    m_inputsHeading->setAccessibleName(tr("Inputs heading"));
    m_inputs = wrappingLabel(details);
    m_inputs->setObjectName(QStringLiteral("templateInputs"));
    m_inputs->setAccessibleName(tr("Template inputs"));
    m_inputs->setTextFormat(Qt::RichText);
    m_needs = wrappingLabel(details);
    m_needs->setObjectName(QStringLiteral("templateNeeds"));
    m_needs->setAccessibleName(tr("What the template needs"));
    detailsLayout->addWidget(m_title);
    detailsLayout->addWidget(m_description);
    detailsLayout->addSpacing(8);
    detailsLayout->addWidget(m_inputsHeading);
    detailsLayout->addWidget(m_inputs);
    detailsLayout->addSpacing(8);
    detailsLayout->addWidget(m_needs);
    detailsLayout->addStretch(1);

    auto* scroll = new QScrollArea(this);
    scroll->setWidget(details);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setAccessibleName(tr("Template details"));

    auto* browser = new QWidget(this);
    auto* browserLayout = new QHBoxLayout(browser);
    browserLayout->setContentsMargins(0, 0, 0, 0);
    browserLayout->addWidget(m_list);
    browserLayout->addWidget(scroll, 1);

    m_empty =
        new QLabel(listed ? tr("No templates are installed.")
                          : tr("The templates cannot be shown: %1").arg(listed.error().message),
                   this);
    m_empty->setObjectName(QStringLiteral("templatesEmpty"));
    m_empty->setAccessibleName(tr("No templates"));
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);

    m_stack = new QStackedWidget(this);
    m_stack->addWidget(browser);
    m_stack->addWidget(m_empty);
    m_stack->setCurrentWidget(m_templates.isEmpty() ? static_cast<QWidget*>(m_empty) : browser);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_create = buttons->addButton(tr("&Create"), QDialogButtonBox::AcceptRole);
    m_create->setObjectName(QStringLiteral("createButton"));
    m_create->setAccessibleName(tr("Create"));
    m_create->setAccessibleDescription(tr("Opens the selected template as a new, unsaved program"));
    m_create->setDefault(true);
    m_create->setEnabled(!m_templates.isEmpty());
    QPushButton* cancel = buttons->button(QDialogButtonBox::Cancel);
    cancel->setAccessibleName(tr("Cancel"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_stack, 1);
    layout->addWidget(buttons);

    connect(m_list, &QListWidget::currentRowChanged, this, &TemplateDialog::showDetails);
    // Return reaches Create (the default button); a double-click on a title creates too.
    connect(m_list, &QListWidget::itemDoubleClicked, this, [this] {
        if (selectedTemplate())
            accept();
    });
    if (!m_templates.isEmpty())
        m_list->setCurrentRow(0);
    m_list->setFocus();
    showDetails();
    resize(760, 440);
}

const TemplateInfo* TemplateDialog::selectedTemplate() const
{
    const int row = m_list->currentRow();
    return row >= 0 && row < m_templates.size() ? &m_templates[row] : nullptr;
}

QString TemplateDialog::selectedId() const
{
    const TemplateInfo* t = selectedTemplate();
    return t ? t->id : QString();
}

void TemplateDialog::showDetails()
{
    const TemplateInfo* t = selectedTemplate();
    m_create->setEnabled(t != nullptr);
    for (QWidget* w : {static_cast<QWidget*>(m_title), static_cast<QWidget*>(m_description),
                       static_cast<QWidget*>(m_inputsHeading), static_cast<QWidget*>(m_inputs)})
        w->setVisible(t != nullptr);
    if (!t) {
        m_needs->clear();
        return;
    }
    m_title->setText(t->title);
    m_description->setText(t->description);
    QStringList rows;
    for (const TemplateInput& in : t->inputs)
        rows << QStringLiteral("<tr><td style=\"padding-right:10px\"><code>%1</code></td>"
                               "<td>%2</td></tr>")
                    .arg(in.name.toHtmlEscaped(), in.explanation.toHtmlEscaped());
    m_inputs->setText(QStringLiteral("<table>%1</table>").arg(rows.join(QString())));
    m_inputsHeading->setVisible(!t->inputs.isEmpty());
    m_inputs->setVisible(!t->inputs.isEmpty());
    QStringList needs;
    if (t->needsMemory)
        needs << tr("Needs a memory store: open one in the Memory pane, or run it with "
                    "hako run --memory STORE.");
    if (t->needsDocument)
        needs << tr("Works on a text: paste it into the program, or name a file.");
    needs << tr("Uses the default model of Settings › Model Endpoints.");
    m_needs->setText(needs.join(QLatin1Char('\n')));
}

} // namespace hako
