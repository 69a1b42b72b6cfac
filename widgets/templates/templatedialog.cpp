#include "widgets/templates/templatedialog.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QFont>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <algorithm>

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

QString TemplateDialog::ui(const char* english, const char* japanese) const
{
    // Until Hako's Japanese translation ships, the dialog's own words follow the templates'
    // language, so that a Japanese list does not sit in an English frame.
    return m_language == QLatin1String("ja") ? QString::fromUtf8(japanese) : tr(english);
}

TemplateDialog::TemplateDialog(const TemplateCatalog& catalog, const QString& language,
                               QWidget* parent)
    : QDialog(parent), m_language(language)
{
    setObjectName(QStringLiteral("templateDialog"));
    setWindowTitle(ui("New from Template", "テンプレートから新規作成"));
    setAccessibleName(windowTitle());
    const Result<QList<TemplateInfo>> listed = catalog.templates(language);
    if (listed)
        m_templates = *listed;

    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("templateList"));
    m_list->setAccessibleName(ui("Templates", "テンプレート"));
    m_list->setAccessibleDescription(
        ui("Choose a template, then press Create", "テンプレートを選んで「作成」を押します"));
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setUniformItemSizes(true);
    m_list->setSpacing(2);
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
    m_title->setAccessibleName(ui("Template title", "テンプレート名"));
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.2);
    m_title->setFont(titleFont);
    m_description = wrappingLabel(details);
    m_description->setObjectName(QStringLiteral("templateDescription"));
    m_description->setAccessibleName(ui("Template description", "テンプレートの説明"));
    m_inputsHeading = wrappingLabel(details);
    m_inputsHeading->setText(
        ui("The program opens in the Prompt view: change these inputs at the top to your own "
           "text, then press Run.",
           "プログラムはプロンプト表示で開きます。先頭にある次の入力を自分の文章に書き換えてから、"
           "「実行」を押してください。"));
    m_inputsHeading->setAccessibleName(m_inputsHeading->text());
    m_inputs = wrappingLabel(details);
    m_inputs->setObjectName(QStringLiteral("templateInputs"));
    m_inputs->setAccessibleName(ui("Inputs to change", "書き換える入力"));
    m_inputs->setTextFormat(Qt::RichText);
    m_needs = wrappingLabel(details);
    m_needs->setObjectName(QStringLiteral("templateNeeds"));
    m_needs->setAccessibleName(ui("What the template needs", "必要なもの"));
    detailsLayout->addWidget(m_title);
    detailsLayout->addWidget(m_description);
    detailsLayout->addSpacing(8);
    detailsLayout->addWidget(m_inputsHeading);
    detailsLayout->addWidget(m_inputs);
    detailsLayout->addSpacing(8);
    detailsLayout->addWidget(m_needs);
    detailsLayout->addStretch(1);

    auto* browser = new QWidget(this);
    auto* browserLayout = new QHBoxLayout(browser);
    browserLayout->setContentsMargins(0, 0, 0, 0);
    browserLayout->addWidget(m_list);
    browserLayout->addWidget(details, 1);

    m_empty = new QLabel(
        listed ? ui("No templates are installed.", "テンプレートがインストールされていません。")
               : ui("The templates cannot be shown:", "テンプレートを表示できません：") +
                     QLatin1Char(' ') + listed.error().message,
        this);
    m_empty->setObjectName(QStringLiteral("templatesEmpty"));
    m_empty->setAccessibleName(ui("No templates", "テンプレートなし"));
    m_empty->setWordWrap(true);
    m_empty->setAlignment(Qt::AlignCenter);

    m_stack = new QStackedWidget(this);
    m_stack->addWidget(browser);
    m_stack->addWidget(m_empty);
    m_stack->setCurrentWidget(m_templates.isEmpty() ? static_cast<QWidget*>(m_empty) : browser);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_create = buttons->addButton(ui("&Create", "作成(&C)"), QDialogButtonBox::AcceptRole);
    m_create->setObjectName(QStringLiteral("createButton"));
    m_create->setAccessibleName(ui("Create", "作成"));
    m_create->setAccessibleDescription(
        ui("Opens the selected template as a new, unsaved program",
           "選んだテンプレートを、まだ保存していない新しいプログラムとして開きます"));
    m_create->setDefault(true);
    m_create->setEnabled(!m_templates.isEmpty());
    QPushButton* cancel = buttons->button(QDialogButtonBox::Cancel);
    cancel->setText(ui("Cancel", "キャンセル"));
    cancel->setAccessibleName(cancel->text());
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
    resize(720, 380);
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
        rows << QStringLiteral("<tr><td style=\"padding-right:12px\"><code>%1</code></td>"
                               "<td>%2</td></tr>")
                    .arg(in.name.toHtmlEscaped(), in.explanation.toHtmlEscaped());
    m_inputs->setText(QStringLiteral("<table>%1</table>").arg(rows.join(QString())));
    m_inputsHeading->setVisible(!t->inputs.isEmpty());
    m_inputs->setVisible(!t->inputs.isEmpty());
    QStringList needs;
    if (t->needsMemory)
        needs << ui("Needs a memory store: open one in the Memory pane, or run it with "
                    "hako run --memory STORE.",
                    "記憶ストアが必要です。メモリーパネルで開くか、hako run --memory STORE "
                    "で実行してください。");
    if (t->needsDocument)
        needs << ui("Works on a text: paste it into the program, or name a file.",
                    "文章はプログラムに貼り付けるか、ファイル名で指定します。");
    needs << ui("Uses the default model of Settings › Model Endpoints.",
                "モデルは「設定 › モデルエンドポイント」の既定のモデルを使います。");
    m_needs->setText(needs.join(QLatin1Char('\n')));
}

} // namespace hako
