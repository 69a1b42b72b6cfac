#include "widgets/promptview/promptcard.h"

#include "widgets/promptview/promptview.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace hako {

using playground::PromptDocItem;

namespace {

// Stop texts as a person types them: `"\n\n", "END"` (JSON strings, separated by commas).
QString stopText(const QJsonValue& stop)
{
    if (stop.isUndefined() || stop.isNull())
        return {};
    const QByteArray json = QJsonDocument(QJsonArray{stop}).toJson(QJsonDocument::Compact);
    QString s = QString::fromUtf8(json.mid(1, json.size() - 2));
    if (stop.isArray())
        s = s.mid(1, s.size() - 2);
    return s;
}

// What the person typed as the YAML's value; a lone text stays a text when it was one.
QJsonValue parseStop(const QString& text, const QJsonValue& before)
{
    const QString t = text.trimmed();
    if (t.isEmpty())
        return QJsonValue();
    QJsonParseError err;
    const QJsonDocument doc =
        QJsonDocument::fromJson((QLatin1Char('[') + t + QLatin1Char(']')).toUtf8(), &err);
    QJsonArray a;
    if (err.error == QJsonParseError::NoError && doc.isArray())
        a = doc.array();
    else
        a = QJsonArray{t};
    if (a.size() == 1 && a.at(0).isString() && before.isString())
        return a.at(0);
    return a;
}

} // namespace

PromptCard::PromptCard(const PromptDocItem& item, const QStringList& modelNames, QWidget* parent)
    : QFrame(parent), m_item(item), m_modelNames(modelNames)
{
    setObjectName(QStringLiteral("promptCard"));
    setAccessibleName(tr("Model call %1").arg(displayName()));
    m_layout = new QVBoxLayout(this);
    m_layout->setContentsMargins(14, 10, 14, 12);
    m_layout->setSpacing(8);
    m_paramTimer = new QTimer(this);
    m_paramTimer->setSingleShot(true);
    m_paramTimer->setInterval(500);
    connect(m_paramTimer, &QTimer::timeout, this, &PromptCard::commitPending);
    buildHeader();
    buildSettings();
    if (item.usesContext) {
        auto* note = new QLabel(tr("Sends everything above as the prompt."), this);
        note->setObjectName(QStringLiteral("promptNote"));
        note->setWordWrap(true);
        m_layout->addWidget(note);
    }
    if (!item.usesContext && item.children.isEmpty()) {
        auto* note =
            new QLabel(tr("The prompt is computed by the program — see the YAML view."), this);
        note->setObjectName(QStringLiteral("promptNote"));
        m_layout->addWidget(note);
    }
    m_reply = new QLabel(this);
    m_reply->setWordWrap(true);
    m_reply->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    // A label's name is its text (the reply, read by a screen reader); its role in words:
    m_reply->setAccessibleDescription(tr("Reply of %1").arg(displayName()));
    m_reply->setVisible(false);
    m_layout->addWidget(m_reply);
}

QString PromptCard::displayName() const
{
    return m_item.heading.isEmpty() ? tr("model call at line %1").arg(m_item.span.line)
                                    : m_item.heading;
}

void PromptCard::buildHeader()
{
    const QString name = displayName();
    m_heading = new QLabel(m_item.heading.isEmpty() ? tr("Model call") : m_item.heading, this);
    m_heading->setObjectName(QStringLiteral("promptHeading"));
    m_heading->setTextInteractionFlags(Qt::NoTextInteraction);
    auto* header = new QHBoxLayout;
    header->addWidget(m_heading, 1);
    // The author tries this prompt's variants where she is, with the program's inputs.
    m_try = new QToolButton(this);
    m_try->setText(tr("Try in Playground"));
    m_try->setToolTip(tr("Open this prompt in the playground with the inputs above, to try "
                         "variants side by side"));
    m_try->setAccessibleName(tr("Try %1 in the playground").arg(name));
    connect(m_try, &QToolButton::clicked, this, &PromptCard::tryInPlaygroundRequested);
    header->addWidget(m_try);
    // The card's breakpoint: Debug Program (F6) pauses before this call (the editor's
    // breakpoint on the block's first line, the same red dot).
    m_pause = new QToolButton(this);
    m_pause->setCheckable(true);
    m_pause->setText(tr("Pause Here"));
    m_pause->setToolTip(tr("Debug Program (F6) pauses before this model call"));
    m_pause->setAccessibleName(tr("Pause before %1").arg(name));
    connect(m_pause, &QToolButton::toggled, this, &PromptCard::pauseToggled);
    header->addWidget(m_pause);
    buildActions(header);
    m_layout->addLayout(header);
}

void PromptCard::buildActions(QHBoxLayout* header)
{
    const QString name = displayName();
    auto button = [&](const QString& text, const QString& accessible, const QString& tip) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setAccessibleName(accessible);
        b->setToolTip(tip);
        header->addWidget(b);
        return b;
    };
    m_up = button(tr("Up"), tr("Move %1 up").arg(name), tr("Run this prompt one step earlier"));
    m_down = button(tr("Down"), tr("Move %1 down").arg(name), tr("Run this prompt one step later"));
    m_rename = button(tr("Rename\u2026"), tr("Rename %1").arg(name),
                      tr("Give this prompt's result another name; every place that uses it "
                         "follows"));
    m_remove = button(tr("Remove"), tr("Remove %1").arg(name), tr("Remove this prompt"));
    connect(m_up, &QToolButton::clicked, this, [this] { Q_EMIT moveRequested(-1); });
    connect(m_down, &QToolButton::clicked, this, [this] { Q_EMIT moveRequested(+1); });
    connect(m_rename, &QToolButton::clicked, this, &PromptCard::renameRequested);
    connect(m_remove, &QToolButton::clicked, this, &PromptCard::removeRequested);
}

void PromptCard::focusAction(int delta)
{
    QToolButton* b = delta < 0 ? m_up : delta > 0 ? m_down : m_rename;
    b->setFocus(Qt::OtherFocusReason);
}

void PromptCard::buildSettings()
{
    const QString name = displayName();
    // Two rows, so that a narrow pane (docks around the editor) still shows every label whole.
    auto* grid = new QGridLayout;
    grid->setHorizontalSpacing(8);
    grid->setVerticalSpacing(6);
    auto* modelLabel = new QLabel(tr("&Model"), this);
    m_model = new QComboBox(this);
    m_model->setEditable(true);
    m_model->setInsertPolicy(QComboBox::NoInsert);
    m_model->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_model->setMinimumContentsLength(16);
    setModelNames(m_modelNames);
    m_model->setEnabled(m_item.modelEditable);
    m_model->setAccessibleName(tr("Model of %1").arg(name));
    // The text field a screen reader reaches inside the editable combo box says the same.
    m_model->lineEdit()->setAccessibleName(m_model->accessibleName());
    modelLabel->setBuddy(m_model);
    grid->addWidget(modelLabel, 0, 0);
    grid->addWidget(m_model, 0, 1, 1, 3);
    connect(m_model, &QComboBox::activated, this, &PromptCard::announceModel);
    connect(m_model->lineEdit(), &QLineEdit::editingFinished, this, &PromptCard::announceModel);

    auto* tempLabel = new QLabel(tr("&Temperature"), this);
    m_temperature = new QDoubleSpinBox(this);
    m_temperature->setRange(-0.1, 2.0);
    m_temperature->setSingleStep(0.1);
    m_temperature->setDecimals(2);
    m_temperature->setSpecialValueText(tr("default"));
    m_temperature->setAccessibleName(tr("Temperature of %1").arg(name));
    m_temperature->setToolTip(tr("Lower is more predictable, higher is more varied"));
    m_temperature->setEnabled(m_item.parametersEditable);
    tempLabel->setBuddy(m_temperature);
    grid->addWidget(tempLabel, 1, 0);
    grid->addWidget(m_temperature, 1, 1);

    auto* maxLabel = new QLabel(tr("Max &tokens"), this);
    m_maxTokens = new QSpinBox(this);
    m_maxTokens->setRange(0, 1000000);
    m_maxTokens->setSingleStep(64);
    m_maxTokens->setSpecialValueText(tr("default"));
    m_maxTokens->setAccessibleName(tr("Maximum reply length in tokens of %1").arg(name));
    m_maxTokens->setToolTip(tr("The longest reply the model may write, in tokens"));
    m_maxTokens->setEnabled(m_item.parametersEditable);
    maxLabel->setBuddy(m_maxTokens);
    grid->addWidget(maxLabel, 1, 2);
    grid->addWidget(m_maxTokens, 1, 3);

    auto* stopLabel = new QLabel(tr("&Stop at"), this);
    m_stop = new QLineEdit(this);
    m_stop->setPlaceholderText(tr("nothing"));
    m_stop->setAccessibleName(tr("Stop texts of %1").arg(name));
    m_stop->setToolTip(tr("The reply ends where one of these texts would appear (in quotes, "
                          "separated by commas; \\n is a line break)"));
    m_stop->setEnabled(m_item.parametersEditable);
    stopLabel->setBuddy(m_stop);
    grid->addWidget(stopLabel, 1, 4);
    grid->addWidget(m_stop, 1, 5);
    grid->setColumnStretch(5, 1);
    // Room for the last glyph, which some font renderings draw past the measured advance.
    for (QLabel* l : {modelLabel, tempLabel, maxLabel, stopLabel})
        l->setContentsMargins(0, 0, 3, 0);
    m_layout->addLayout(grid);
    setItem(m_item);

    // Numbers are announced after a pause in typing (each arrow press is not an edit).
    connect(m_temperature, &QDoubleSpinBox::valueChanged, this, [this] {
        m_pendingParameter = QStringLiteral("temperature");
        m_paramTimer->start();
    });
    connect(m_maxTokens, &QSpinBox::valueChanged, this, [this] {
        m_pendingParameter = QStringLiteral("maxTokens");
        m_paramTimer->start();
    });
    connect(m_stop, &QLineEdit::editingFinished, this, [this] {
        const QJsonValue v = parseStop(m_stop->text(), m_item.stop);
        if (v != m_item.stop)
            Q_EMIT parameterChanged(m_item.stopKey, v);
    });
}

void PromptCard::announceModel()
{
    const QString model = m_model->currentText().trimmed();
    if (!model.isEmpty() && model != m_item.model)
        Q_EMIT modelChosen(model);
}

void PromptCard::setItem(const PromptDocItem& item)
{
    m_item = item;
    if (m_paramTimer->isActive())
        return;
    if (!m_model->hasFocus() && m_model->currentText() != m_item.model) {
        QSignalBlocker block(m_model);
        m_model->setCurrentText(m_item.model);
    }
    {
        QSignalBlocker block(m_temperature);
        m_temperature->setValue(m_item.temperature.isDouble() ? m_item.temperature.toDouble()
                                                              : m_temperature->minimum());
    }
    {
        QSignalBlocker block(m_maxTokens);
        m_maxTokens->setValue(m_item.maxTokens.isDouble() ? m_item.maxTokens.toInt() : 0);
    }
    if (!m_stop->hasFocus())
        m_stop->setText(stopText(m_item.stop));
}

void PromptCard::setModelNames(const QStringList& names)
{
    m_modelNames = names;
    const QString current =
        m_model->currentText().isEmpty() ? m_item.model : m_model->currentText();
    QStringList all = names;
    if (!all.contains(current))
        all.prepend(current);
    QSignalBlocker block(m_model);
    m_model->clear();
    m_model->addItems(all);
    m_model->setCurrentText(current);
}

void PromptCard::setPaused(bool on)
{
    QSignalBlocker block(m_pause);
    m_pause->setChecked(on);
}

void PromptCard::setReply(const PromptReply* r)
{
    if (!r) {
        m_reply->setVisible(false);
        return;
    }
    if (!r->error.isEmpty()) {
        m_reply->setObjectName(QStringLiteral("promptReplyError"));
        m_reply->setText(tr("This call failed: %1").arg(r->error));
    } else {
        m_reply->setObjectName(QStringLiteral("promptReply"));
        QStringList facts;
        if (r->tokens >= 0)
            facts << tr("%1 tokens").arg(r->tokens);
        if (r->ms >= 0)
            facts << tr("%1 s").arg(QString::number(double(r->ms) / 1000.0, 'f', 1));
        m_reply->setText(
            (facts.isEmpty() ? tr("Reply:") : tr("Reply (%1):").arg(facts.join(tr(", ")))) +
            QLatin1Char('\n') + r->text);
    }
    m_reply->style()->unpolish(m_reply);
    m_reply->style()->polish(m_reply);
    m_reply->setVisible(true);
}

void PromptCard::addBody(QWidget* widget)
{
    m_layout->insertWidget(m_layout->indexOf(m_reply), widget);
}

void PromptCard::commitPending()
{
    if (m_pendingParameter.isEmpty())
        return;
    m_paramTimer->stop();
    const QString which = std::exchange(m_pendingParameter, QString());
    if (which == QLatin1String("temperature")) {
        const double t = m_temperature->value();
        Q_EMIT parameterChanged(QStringLiteral("temperature"),
                                t < 0 ? QJsonValue() : QJsonValue(t));
    } else {
        const int n = m_maxTokens->value();
        Q_EMIT parameterChanged(m_item.maxTokensKey, n <= 0 ? QJsonValue() : QJsonValue(n));
    }
}

} // namespace hako
