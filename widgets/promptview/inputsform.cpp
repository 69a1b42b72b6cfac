#include "widgets/promptview/inputsform.h"

#include "core/util/outputfile.h"
#include "widgets/promptview/promptmessageedit.h"

#include <QComboBox>
#include <QCryptographicHash>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QSettings>
#include <QToolButton>

namespace hako {

using Kind = playground::PromptDocInput::Kind;

namespace {

QString shownText(const QJsonValue& v)
{
    if (v.isString())
        return v.toString();
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 15);
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (v.isArray()) {
        QStringList items;
        for (const QJsonValue& item : v.toArray())
            items << (item.isString()
                          ? item.toString()
                          : QString::fromUtf8(
                                QJsonDocument(QJsonArray{item}).toJson(QJsonDocument::Compact))
                                .mid(1)
                                .chopped(1));
        return items.join(QLatin1Char('\n'));
    }
    if (v.isObject())
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    return QString();
}

// What a number field holds: a number when it reads as one (an integer stays one), else the
// text as typed (the run sees it and can say what is wrong).
QJsonValue numberValue(const QString& text)
{
    bool ok = false;
    const qlonglong i = text.trimmed().toLongLong(&ok);
    if (ok)
        return QJsonValue(i);
    const double d = text.trimmed().toDouble(&ok);
    return ok ? QJsonValue(d) : QJsonValue(text);
}

QJsonValue listValue(const QString& text)
{
    QJsonArray items;
    for (const QString& line : text.split(QLatin1Char('\n')))
        if (!line.trimmed().isEmpty())
            items.append(line);
    return items;
}

} // namespace

InputsForm::InputsForm(QWidget* parent) : QGroupBox(tr("Inputs"), parent)
{
    setAccessibleName(tr("Inputs"));
}

void InputsForm::setInputs(const QList<playground::PromptDocInput>& inputs,
                           const QJsonObject& values)
{
    m_inputs = inputs;
    m_values = values;
    rebuild();
}

void InputsForm::setSetsKey(const QString& key)
{
    m_setsKey = key;
    updateSetControls();
}

void InputsForm::setValue(const QString& name, const QJsonValue& value)
{
    if (value.isNull() || (value.isString() && value.toString().isEmpty()))
        m_values.remove(name);
    else
        m_values.insert(name, value);
    Q_EMIT valuesChanged();
}

void InputsForm::rebuild()
{
    delete layout();
    for (QWidget* w : findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly))
        delete w;
    m_sets = nullptr;
    m_deleteSet = nullptr;
    m_status = nullptr;
    auto* form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    auto* intro = new QLabel(
        tr("Values this program needs. They are kept for this file and used when you run it."),
        this);
    intro->setWordWrap(true);
    intro->setObjectName(QStringLiteral("promptNote"));
    form->addRow(intro);

    for (const playground::PromptDocInput& input : std::as_const(m_inputs))
        addInputRow(form, input);
    addSetsRow(form);
    updateSetControls();
}

// One input's label and field, the field's kind from the input's (a text with line breaks gets
// a multi-line field); every edit goes into the values.
void InputsForm::addInputRow(QFormLayout* form, const playground::PromptDocInput& input)
{
    const QJsonValue value = m_values.value(input.name);
    const QString text = shownText(value);
    const QString name = input.name;
    QWidget* field = nullptr;
    QWidget* focus = nullptr;
    Kind kind = input.kind;
    if (kind == Kind::Text && text.contains(QLatin1Char('\n')))
        kind = Kind::LongText;
    switch (kind) {
    case Kind::LongText: {
        auto* edit = new PromptMessageEdit(this);
        edit->setTextQuietly(text);
        connect(edit, &PromptMessageEdit::edited, this,
                [this, edit, name] { setValue(name, edit->toPlainText()); });
        field = focus = edit;
        break;
    }
    case Kind::List: {
        auto* edit = new QPlainTextEdit(text, this);
        edit->setPlaceholderText(tr("One item per line"));
        edit->setTabChangesFocus(true);
        edit->setFixedHeight(edit->fontMetrics().lineSpacing() * 4 + 12);
        connect(edit, &QPlainTextEdit::textChanged, this,
                [this, edit, name] { setValue(name, listValue(edit->toPlainText())); });
        field = focus = edit;
        break;
    }
    case Kind::Number: {
        auto* edit = new QLineEdit(text, this);
        edit->setPlaceholderText(tr("A number"));
        connect(edit, &QLineEdit::textEdited, this,
                [this, name](const QString& t) { setValue(name, numberValue(t)); });
        field = focus = edit;
        break;
    }
    case Kind::File: {
        auto* row = new QWidget(this);
        auto* h = new QHBoxLayout(row);
        h->setContentsMargins(0, 0, 0, 0);
        auto* edit = new QLineEdit(text, row);
        edit->setPlaceholderText(tr("A file's path"));
        auto* choose = new QToolButton(row);
        choose->setText(tr("Choose…"));
        choose->setAccessibleName(tr("Choose a file for %1").arg(name));
        h->addWidget(edit, 1);
        h->addWidget(choose);
        connect(edit, &QLineEdit::textEdited, this,
                [this, name](const QString& t) { setValue(name, t); });
        connect(choose, &QToolButton::clicked, this, [this, edit, name] {
            const std::optional<QString> path =
                m_askFile ? m_askFile()
                          : std::optional<QString>(QFileDialog::getOpenFileName(
                                this, tr("Choose a File for %1").arg(name), edit->text()));
            if (!path || path->isEmpty())
                return;
            edit->setText(*path);
            setValue(name, *path);
        });
        field = row;
        focus = edit;
        break;
    }
    case Kind::Text: {
        auto* edit = new QLineEdit(text, this);
        connect(edit, &QLineEdit::textEdited, this,
                [this, name](const QString& t) { setValue(name, t); });
        field = focus = edit;
        break;
    }
    }
    focus->setAccessibleName(tr("Input %1").arg(name));
    focus->setToolTip(tr("Used on line %1").arg(input.uses.value(0).line));
    auto* label = new QLabel(name, this);
    label->setBuddy(focus);
    form->addRow(label, field);
}

// Named sets of values: choose, save, delete, export as a data file; and the status line.
void InputsForm::addSetsRow(QFormLayout* form)
{
    auto* setsRow = new QWidget(this);
    auto* h = new QHBoxLayout(setsRow);
    h->setContentsMargins(0, 4, 0, 0);
    m_sets = new QComboBox(setsRow);
    m_sets->setAccessibleName(tr("Input set"));
    m_sets->setToolTip(tr("Fill the form with values saved under a name"));
    m_sets->setMinimumContentsLength(10);
    auto* save = new QPushButton(tr("Save Set…"), setsRow);
    save->setToolTip(tr("Keep these values under a name, to use them again"));
    save->setAccessibleName(tr("Save input set"));
    m_deleteSet = new QPushButton(tr("Delete Set"), setsRow);
    m_deleteSet->setAccessibleName(tr("Delete input set"));
    auto* exportButton = new QPushButton(tr("Export Data File…"), setsRow);
    exportButton->setAccessibleName(tr("Export inputs as a data file"));
    exportButton->setToolTip(
        tr("Write these values to a file for the command line: hako run -f FILE"));
    h->addWidget(m_sets, 1);
    h->addWidget(save);
    h->addWidget(m_deleteSet);
    h->addWidget(exportButton);
    form->addRow(tr("Sets"), setsRow);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setObjectName(QStringLiteral("promptNote"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->hide();
    form->addRow(m_status);
    connect(this, &InputsForm::message, m_status, [this](const QString& text, bool) {
        m_status->setText(text);
        m_status->setAccessibleName(text);
        m_status->show();
    });
    connect(m_sets, &QComboBox::activated, this,
            [this](int index) { loadSet(m_sets->itemData(index).toString()); });
    connect(save, &QPushButton::clicked, this, [this] {
        std::optional<QString> name;
        if (m_askSetName) {
            name = m_askSetName();
        } else {
            bool ok = false;
            const QString text =
                QInputDialog::getText(this, tr("Save Input Set"), tr("Name of this set of values:"),
                                      QLineEdit::Normal, m_sets->currentData().toString(), &ok);
            if (ok)
                name = text;
        }
        if (name && !name->trimmed().isEmpty())
            saveSet(name->trimmed());
    });
    connect(m_deleteSet, &QPushButton::clicked, this,
            [this] { deleteSet(m_sets->currentData().toString()); });
    connect(exportButton, &QPushButton::clicked, this, [this] {
        const std::optional<QString> path =
            m_askExport ? m_askExport()
                        : std::optional<QString>(QFileDialog::getSaveFileName(
                              this, tr("Export Data File"), QStringLiteral("inputs.json"),
                              tr("Data files (*.json *.yaml *.yml)")));
        if (!path || path->isEmpty())
            return;
        QString error;
        if (exportDataFile(*path, &error))
            Q_EMIT message(tr("Wrote %1: run it with  hako run -f %1  PROGRAM").arg(*path), false);
        else
            Q_EMIT message(tr("Could not write %1: %2").arg(*path, error), true);
    });
}

QString InputsForm::setsKeyFor(const QString& programPath)
{
    return QStringLiteral("promptView/inputSets/") +
           QString::fromLatin1(
               QCryptographicHash::hash(programPath.toUtf8(), QCryptographicHash::Sha1).toHex());
}

QList<QPair<QString, QJsonObject>> InputsForm::storedSets(const QString& programPath)
{
    QList<QPair<QString, QJsonObject>> out;
    if (programPath.isEmpty())
        return out;
    const QJsonObject all =
        QJsonDocument::fromJson(QSettings().value(setsKeyFor(programPath)).toString().toUtf8())
            .object();
    QStringList names = all.keys();
    names.sort(Qt::CaseInsensitive);
    for (const QString& name : names)
        out.append({name, all.value(name).toObject()});
    return out;
}

QJsonObject InputsForm::sets() const
{
    if (m_setsKey.isEmpty())
        return {};
    return QJsonDocument::fromJson(QSettings().value(m_setsKey).toString().toUtf8()).object();
}

void InputsForm::storeSets(const QJsonObject& sets)
{
    if (m_setsKey.isEmpty())
        return;
    QSettings().setValue(m_setsKey,
                         QString::fromUtf8(QJsonDocument(sets).toJson(QJsonDocument::Compact)));
    updateSetControls();
}

QStringList InputsForm::setNames() const
{
    QStringList names = sets().keys();
    names.sort(Qt::CaseInsensitive);
    return names;
}

void InputsForm::saveSet(const QString& name)
{
    QJsonObject all = sets();
    all.insert(name, m_values);
    storeSets(all);
    if (m_sets)
        m_sets->setCurrentIndex(m_sets->findData(name));
}

bool InputsForm::loadSet(const QString& name)
{
    const QJsonObject all = sets();
    if (!all.contains(name))
        return false;
    m_values = all.value(name).toObject();
    rebuild();
    if (m_sets)
        m_sets->setCurrentIndex(m_sets->findData(name));
    Q_EMIT valuesChanged();
    return true;
}

void InputsForm::deleteSet(const QString& name)
{
    QJsonObject all = sets();
    all.remove(name);
    storeSets(all);
}

void InputsForm::updateSetControls()
{
    if (!m_sets)
        return;
    const QString current = m_sets->currentData().toString();
    m_sets->clear();
    const QStringList names = setNames();
    if (names.isEmpty())
        m_sets->addItem(tr("(no saved sets)"), QString());
    for (const QString& n : names)
        m_sets->addItem(n, n);
    const int at = m_sets->findData(current);
    m_sets->setCurrentIndex(at >= 0 ? at : 0);
    m_sets->setEnabled(!names.isEmpty());
    m_deleteSet->setEnabled(!names.isEmpty());
    m_sets->parentWidget()->setVisible(!m_setsKey.isEmpty());
}

bool InputsForm::exportDataFile(const QString& path, QString* error) const
{
    // JSON is YAML too: `hako run -f` (and the reference's `--data-file`) reads it either way.
    QString why;
    if (!writeOutputFile(path, QJsonDocument(m_values).toJson(QJsonDocument::Indented), &why)) {
        if (error)
            *error = why;
        return false;
    }
    return true;
}

} // namespace hako
