#include "widgets/playground/varianteditor.h"

#include "core/pdl/valuejson.h"
#include "widgets/common/accessibleparts.h"
#include "widgets/common/contentparts.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <limits>

namespace hako {

using namespace playground;

namespace {
// A function, not a constant: a static string would be built before the translator is installed.
QString defaultText()
{
    return QObject::tr("(default)");
}
constexpr double kUnsetTemperature = -0.1;
constexpr double kUnsetTopP = -0.05;
} // namespace

VariantEditor::VariantEditor(int number, QWidget* parent) : QGroupBox(parent), m_number(number)
{
    auto* layout = new QVBoxLayout(this);

    auto* header = new QHBoxLayout;
    m_model = new QComboBox(this);
    m_model->setEditable(true);
    m_model->setInsertPolicy(QComboBox::NoInsert);
    m_model->setMinimumContentsLength(10);
    m_model->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_model->view()->setAccessibleName(tr("Models"));
    header->addWidget(m_model, 1);
    m_save = new QPushButton(tr("Save to Program"), this);
    m_save->setToolTip(tr("Write this variant's model, parameters and messages back into the "
                          "model block it came from"));
    m_copy = new QPushButton(tr("Copy as PDL"), this);
    m_copy->setToolTip(tr("Copy this variant as a PDL model block"));
    m_remove = new QPushButton(QStringLiteral("×"), this);
    m_remove->setToolTip(tr("Remove this variant"));
    // The buttons keep their words; the model's field gives way.
    for (QPushButton* b : {m_save, m_copy, m_remove}) {
        b->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
        header->addWidget(b);
    }
    m_remove->setFixedWidth(m_remove->fontMetrics().height() * 2);
    layout->addLayout(header);

    // The messages first (what people change most), then the parameters in two columns.
    m_rowsLayout = new QVBoxLayout;
    layout->addLayout(m_rowsLayout);
    m_addMessage = new QPushButton(tr("Add message"), this);
    layout->addWidget(m_addMessage, 0, Qt::AlignLeft);

    auto* form = new QGridLayout;
    int formCell = 0;
    auto addRow = [this, form, &formCell](const QString& label, QWidget* field) {
        auto* l = new QLabel(label, this);
        l->setBuddy(field);
        const int row = formCell / 2;
        const int column = (formCell % 2) * 2;
        form->addWidget(l, row, column);
        form->addWidget(field, row, column + 1);
        ++formCell;
    };
    form->setColumnStretch(1, 1);
    form->setColumnStretch(3, 1);
    m_temperature = new QDoubleSpinBox(this);
    m_temperature->setRange(kUnsetTemperature, 2.0);
    m_temperature->setSingleStep(0.1);
    m_temperature->setDecimals(2);
    m_temperature->setSpecialValueText(defaultText());
    m_temperature->setValue(kUnsetTemperature);
    addRow(tr("Temperature"), m_temperature);
    m_maxTokens = new QSpinBox(this);
    m_maxTokens->setRange(0, std::numeric_limits<int>::max());
    m_maxTokens->setSpecialValueText(defaultText());
    addRow(tr("Max tokens"), m_maxTokens);
    m_topP = new QDoubleSpinBox(this);
    m_topP->setRange(kUnsetTopP, 1.0);
    m_topP->setSingleStep(0.05);
    m_topP->setDecimals(2);
    m_topP->setSpecialValueText(defaultText());
    m_topP->setValue(kUnsetTopP);
    addRow(tr("Top p"), m_topP);
    m_stop = new QLineEdit(this);
    m_stop->setPlaceholderText(tr("comma separated, \\n for a new line"));
    addRow(tr("Stop"), m_stop);
    m_seed = new QSpinBox(this);
    m_seed->setRange(-1, std::numeric_limits<int>::max());
    m_seed->setSpecialValueText(tr("(none)"));
    m_seed->setValue(-1);
    addRow(tr("Seed"), m_seed);
    m_responseFormat = new QComboBox(this);
    m_responseFormat->addItem(defaultText(), QString());
    m_responseFormat->addItem(tr("Text"), QStringLiteral("text"));
    m_responseFormat->addItem(tr("JSON object"), QStringLiteral("json_object"));
    addRow(tr("Response format"), m_responseFormat);
    m_responseFormat->view()->setAccessibleName(tr("Response formats"));
    layout->addLayout(form);
    layout->addStretch(1);

    connect(m_model, &QComboBox::currentTextChanged, this, &VariantEditor::changed);
    connect(m_temperature, &QDoubleSpinBox::valueChanged, this, &VariantEditor::changed);
    connect(m_maxTokens, &QSpinBox::valueChanged, this, &VariantEditor::changed);
    connect(m_topP, &QDoubleSpinBox::valueChanged, this, &VariantEditor::changed);
    connect(m_stop, &QLineEdit::textChanged, this, &VariantEditor::changed);
    connect(m_seed, &QSpinBox::valueChanged, this, &VariantEditor::changed);
    connect(m_responseFormat, &QComboBox::currentIndexChanged, this, &VariantEditor::changed);
    connect(m_addMessage, &QPushButton::clicked, this, [this] {
        addMessage();
        m_rows.back().text->setFocus();
    });
    connect(m_remove, &QPushButton::clicked, this, &VariantEditor::removeRequested);
    connect(m_save, &QPushButton::clicked, this, &VariantEditor::saveRequested);
    connect(m_copy, &QPushButton::clicked, this, &VariantEditor::copyRequested);
    setNumber(number);
    // The parts Qt adds inside these controls get names for screen readers too.
    AccessibleParts::name(this);
}

void VariantEditor::setNumber(int number)
{
    m_number = number;
    setTitle(tr("Variant %1").arg(number));
    updateNames();
}

void VariantEditor::updateNames()
{
    const QString v = tr("Variant %1").arg(m_number);
    setAccessibleName(v);
    m_model->setAccessibleName(tr("%1 model").arg(v));
    m_temperature->setAccessibleName(tr("%1 temperature").arg(v));
    m_maxTokens->setAccessibleName(tr("%1 max tokens").arg(v));
    m_topP->setAccessibleName(tr("%1 top p").arg(v));
    m_stop->setAccessibleName(tr("%1 stop sequences").arg(v));
    m_seed->setAccessibleName(tr("%1 seed").arg(v));
    m_responseFormat->setAccessibleName(tr("%1 response format").arg(v));
    m_addMessage->setAccessibleName(tr("%1 add message").arg(v));
    m_remove->setAccessibleName(tr("Remove variant %1").arg(m_number));
    m_save->setAccessibleName(tr("%1 save to program").arg(v));
    m_copy->setAccessibleName(tr("%1 copy as PDL").arg(v));
    for (size_t i = 0; i < m_rows.size(); ++i) {
        const QString m = tr("%1 message %2").arg(v).arg(i + 1);
        m_rows[i].widget->setAccessibleName(m);
        m_rows[i].role->setAccessibleName(tr("%1 role").arg(m));
        m_rows[i].text->setAccessibleName(tr("%1 text").arg(m));
        m_rows[i].remove->setAccessibleName(tr("Remove %1").arg(m.toLower()));
        m_rows[i].images->setAccessibleName(tr("%1 images").arg(m));
    }
}

void VariantEditor::addMessage(const PromptMessage& message)
{
    Row row;
    row.widget = new QWidget(this);
    auto* h = new QHBoxLayout(row.widget);
    h->setContentsMargins(0, 0, 0, 0);
    auto* left = new QVBoxLayout;
    row.role = new QComboBox(row.widget);
    row.role->setEditable(true);
    row.role->addItems({QStringLiteral("system"), QStringLiteral("user"),
                        QStringLiteral("assistant"), QStringLiteral("developer"),
                        QStringLiteral("tool")});
    row.role->view()->setAccessibleName(tr("Roles"));
    row.role->setCurrentText(message.role);
    left->addWidget(row.role);
    row.remove = new QToolButton(row.widget);
    row.remove->setText(QStringLiteral("✕"));
    row.remove->setToolTip(tr("Remove this message"));
    left->addWidget(row.remove);
    left->addStretch(1);
    h->addLayout(left);
    row.text = new QPlainTextEdit(row.widget);
    row.text->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    row.text->setTabChangesFocus(true);
    row.text->setPlainText(message.content);
    row.text->setMinimumHeight(60);
    // The message's images as thumbnails under its text (sent again unchanged on Run).
    auto* right = new QVBoxLayout;
    right->addWidget(row.text, 1);
    row.attachments = message.attachments;
    row.images = new ImagePartsStrip(row.widget);
    row.images->setContent(pdl::fromQJsonValue(message.attachments));
    right->addWidget(row.images);
    h->addLayout(right, 1);
    m_rowsLayout->addWidget(row.widget);

    QWidget* w = row.widget;
    connect(row.role, &QComboBox::currentTextChanged, this, &VariantEditor::changed);
    connect(row.text, &QPlainTextEdit::textChanged, this, &VariantEditor::changed);
    connect(row.remove, &QToolButton::clicked, this, [this, w] {
        for (size_t i = 0; i < m_rows.size(); ++i) {
            if (m_rows[i].widget == w) {
                removeMessage(int(i));
                return;
            }
        }
    });
    m_rows.push_back(row);
    updateNames();
    Q_EMIT changed();
}

void VariantEditor::removeMessage(int index)
{
    if (index < 0 || size_t(index) >= m_rows.size())
        return;
    delete m_rows[size_t(index)].widget;
    m_rows.erase(m_rows.begin() + index);
    updateNames();
    Q_EMIT changed();
}

QComboBox* VariantEditor::roleCombo(int index) const
{
    return index >= 0 && size_t(index) < m_rows.size() ? m_rows[size_t(index)].role : nullptr;
}

QPlainTextEdit* VariantEditor::messageEdit(int index) const
{
    return index >= 0 && size_t(index) < m_rows.size() ? m_rows[size_t(index)].text : nullptr;
}

void VariantEditor::setModels(const QStringList& models)
{
    const QString current = m_model->currentText();
    const QSignalBlocker block(m_model);
    m_model->clear();
    m_model->addItems(models);
    m_model->setCurrentText(current);
}

void VariantEditor::setRemovable(bool removable)
{
    m_remove->setEnabled(removable);
}

void VariantEditor::setPrompt(const PlaygroundPrompt& prompt)
{
    {
        const QSignalBlocker b1(m_model), b2(m_temperature), b3(m_maxTokens), b4(m_topP),
            b5(m_stop), b6(m_seed), b7(m_responseFormat);
        m_model->setCurrentText(prompt.model);
        const PromptParameters& p = prompt.parameters;
        m_temperature->setValue(p.temperature.value_or(kUnsetTemperature));
        m_maxTokens->setValue(
            int(std::clamp<qint64>(p.maxTokens.value_or(0), 0, std::numeric_limits<int>::max())));
        m_topP->setValue(p.topP.value_or(kUnsetTopP));
        m_stop->setText(stopText(p.stop));
        m_seed->setValue(
            int(std::clamp<qint64>(p.seed.value_or(-1), -1, std::numeric_limits<int>::max())));
        m_extra = p.extra;
        m_customFormat = QJsonValue();
        // A custom format (a JSON schema) is kept as it came, under its own entry.
        while (m_responseFormat->count() > 3)
            m_responseFormat->removeItem(3);
        const QString type = p.responseFormat.toObject().value(QLatin1String("type")).toString();
        if (p.responseFormat.isUndefined() || p.responseFormat.isNull())
            m_responseFormat->setCurrentIndex(0);
        else if (p.responseFormat.toObject().size() == 1 && type == QLatin1String("text"))
            m_responseFormat->setCurrentIndex(1);
        else if (p.responseFormat.toObject().size() == 1 && type == QLatin1String("json_object"))
            m_responseFormat->setCurrentIndex(2);
        else {
            m_customFormat = p.responseFormat;
            m_responseFormat->addItem(tr("As given (%1)").arg(type.isEmpty() ? tr("custom") : type),
                                      QStringLiteral("custom"));
            m_responseFormat->setCurrentIndex(3);
        }
        m_name = prompt.name;
        m_promptId = prompt.promptId;
        m_programId = prompt.programId;
        m_programName = prompt.programName;
    }
    while (!m_rows.empty()) {
        delete m_rows.back().widget;
        m_rows.pop_back();
    }
    for (const PromptMessage& m : prompt.messages)
        addMessage(m);
    updateNames();
    Q_EMIT changed();
}

PlaygroundPrompt VariantEditor::prompt() const
{
    PlaygroundPrompt p;
    p.name = m_name;
    p.promptId = m_promptId;
    p.programId = m_programId;
    p.programName = m_programName;
    p.model = m_model->currentText().trimmed();
    PromptParameters& params = p.parameters;
    params.extra = m_extra;
    if (m_temperature->value() > kUnsetTemperature + 1e-9)
        params.temperature = m_temperature->value();
    if (m_maxTokens->value() > 0)
        params.maxTokens = m_maxTokens->value();
    if (m_topP->value() > kUnsetTopP + 1e-9)
        params.topP = m_topP->value();
    params.stop = parseStop(m_stop->text());
    if (m_seed->value() >= 0)
        params.seed = m_seed->value();
    const QString format = m_responseFormat->currentData().toString();
    if (format == QLatin1String("custom"))
        params.responseFormat = m_customFormat;
    else if (!format.isEmpty())
        params.responseFormat = QJsonObject{{QStringLiteral("type"), format}};
    for (const Row& row : m_rows)
        p.messages << PromptMessage{row.role->currentText().trimmed(), row.text->toPlainText(),
                                    row.attachments};
    return p;
}

QString VariantEditor::stopText(const QStringList& stop)
{
    QStringList parts;
    for (const QString& s : stop) {
        QString e;
        for (qsizetype i = 0; i < s.size(); ++i) {
            const QChar c = s.at(i);
            if (c == QLatin1Char('\\'))
                e += QLatin1String("\\\\");
            else if (c == QLatin1Char(','))
                e += QLatin1String("\\,");
            else if (c == QLatin1Char('\n'))
                e += QLatin1String("\\n");
            else if (c == QLatin1Char('\t'))
                e += QLatin1String("\\t");
            else if (c == QLatin1Char(' ') && (i == 0 || i == s.size() - 1))
                e += QLatin1String("\\ "); // blanks at the ends would be taken for separators
            else
                e += c;
        }
        parts << e;
    }
    return parts.join(QStringLiteral(", "));
}

QStringList VariantEditor::parseStop(const QString& text)
{
    QStringList out;
    // Each item as characters with whether they were escaped: blanks around the commas are
    // separators and trimmed, escaped ones (`\n`, `\t`, `\ `) are part of the string.
    QList<QPair<QChar, bool>> item;
    auto flush = [&] {
        qsizetype from = 0;
        qsizetype to = item.size();
        while (from < to && !item[from].second && item[from].first.isSpace())
            ++from;
        while (to > from && !item[to - 1].second && item[to - 1].first.isSpace())
            --to;
        QString s;
        for (qsizetype i = from; i < to; ++i)
            s += item[i].first;
        if (!s.isEmpty())
            out << s;
        item.clear();
    };
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == QLatin1Char('\\') && i + 1 < text.size()) {
            const QChar n = text.at(++i);
            item.append({n == QLatin1Char('n')   ? QChar(QLatin1Char('\n'))
                         : n == QLatin1Char('t') ? QChar(QLatin1Char('\t'))
                                                 : n,
                         true});
        } else if (c == QLatin1Char(',')) {
            flush();
        } else {
            item.append({c, false});
        }
    }
    flush();
    return out;
}

} // namespace hako
