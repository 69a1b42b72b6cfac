#include "widgets/eval/experimentform.h"

#include "widgets/common/accessibleparts.h"
#include "widgets/common/messagebar.h"

#include <QAbstractItemView>
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

namespace hako {

namespace {

const char* kPrefix = "eval/form/";

QString key(const char* name)
{
    return QLatin1String(kPrefix) + QLatin1String(name);
}

} // namespace

ExperimentForm::ExperimentForm(QWidget* parent)
    : QWidget(parent), m_messages(new MessageBar(this)), m_program(new QLineEdit(this)),
      m_dataset(new QLabel(this)), m_exact(new QCheckBox(tr("Same as the reference"), this)),
      m_contains(new QCheckBox(tr("Contains the reference"), this)),
      m_similar(new QCheckBox(tr("Close to the reference (80% alike)"), this)),
      m_json(new QCheckBox(tr("Is valid JSON"), this)),
      m_length(new QCheckBox(tr("At most this many characters:"), this)),
      m_maxChars(new QSpinBox(this)),
      m_judge(new QCheckBox(tr("A judge model checks that:"), this)),
      m_criterion(new QLineEdit(this)), m_judgeModel(new QComboBox(this)),
      m_concurrency(new QSpinBox(this)), m_run(new QPushButton(tr("&Run Experiment"), this)),
      m_stop(new QPushButton(tr("Stop"), this)), m_progress(new QProgressBar(this))
{
    setObjectName(QStringLiteral("experimentForm"));
    m_program->setAccessibleName(tr("Program to test"));
    m_program->setPlaceholderText(tr("the program each example runs through"));
    auto* browse = new QPushButton(tr("Choose…"), this);
    browse->setAccessibleName(tr("Choose the program"));
    m_dataset->setAccessibleName(tr("Dataset to run"));
    m_dataset->setWordWrap(true);
    m_exact->setObjectName(QStringLiteral("exact_match"));
    m_contains->setObjectName(QStringLiteral("contains"));
    m_similar->setObjectName(QStringLiteral("levenshtein"));
    m_json->setObjectName(QStringLiteral("is_json"));
    m_length->setObjectName(QStringLiteral("length_chars"));
    m_judge->setObjectName(QStringLiteral("criteria"));
    for (QCheckBox* box : {m_exact, m_contains, m_similar, m_json, m_length, m_judge})
        box->setAccessibleName(box->text().remove(QLatin1Char('&')).remove(QLatin1Char(':')));
    m_exact->setToolTip(tr("Passes when the output is the example's reference, letter for letter "
                           "(spaces at the ends ignored)"));
    m_similar->setToolTip(tr("Passes when at most a fifth of the characters differ from the "
                             "reference (edit distance)"));
    m_length->setToolTip(tr("Counts characters, so Japanese text is counted as it reads"));
    m_maxChars->setRange(1, 1000000);
    m_maxChars->setAccessibleName(tr("Most characters"));
    m_criterion->setAccessibleName(tr("What the judge checks"));
    m_criterion->setPlaceholderText(
        tr("e.g. the answer is polite / 50文字以上200文字以内に収まっているか"));
    m_judgeModel->setEditable(true);
    m_judgeModel->setAccessibleName(tr("Judge model"));
    m_judgeModel->view()->setAccessibleName(tr("Judge models"));
    m_judgeModel->setToolTip(tr("The model that judges (empty: the default model)"));
    m_concurrency->setRange(1, 64);
    m_concurrency->setAccessibleName(tr("Examples at a time"));
    m_run->setAccessibleName(tr("Run Experiment"));
    m_run->setToolTip(tr("Runs every example of the dataset through the program and checks "
                         "each output (Ctrl+Shift+E)"));
    m_run->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    m_stop->setAccessibleName(tr("Stop Experiment"));
    m_stop->setEnabled(false);
    m_progress->setAccessibleName(tr("Experiment progress"));
    m_progress->setFormat(tr("%v of %m examples"));
    m_progress->hide();

    // The action first, where a short dock still shows it; the checks below.
    auto* programRow = new QHBoxLayout;
    programRow->addWidget(new QLabel(tr("Program:"), this));
    programRow->addWidget(m_program, 1);
    programRow->addWidget(browse);
    programRow->addSpacing(12);
    programRow->addWidget(new QLabel(tr("Examples at a time:"), this));
    programRow->addWidget(m_concurrency);
    programRow->addWidget(m_run);
    programRow->addWidget(m_stop);
    auto* datasetRow = new QHBoxLayout;
    datasetRow->addWidget(m_dataset, 1);
    datasetRow->addWidget(m_progress);
    auto* checks = new QGridLayout;
    checks->addWidget(m_exact, 0, 0);
    checks->addWidget(m_contains, 0, 1);
    checks->addWidget(m_similar, 0, 2);
    checks->addWidget(m_json, 1, 0);
    auto* lengthRow = new QHBoxLayout;
    lengthRow->addWidget(m_length);
    lengthRow->addWidget(m_maxChars);
    lengthRow->addStretch(1);
    checks->addLayout(lengthRow, 1, 1, 1, 2);
    auto* judgeRow = new QHBoxLayout;
    judgeRow->addWidget(m_judge);
    judgeRow->addWidget(m_criterion, 2);
    auto* judgeModelLabel = new QLabel(tr("with"), this);
    judgeRow->addWidget(judgeModelLabel);
    judgeRow->addWidget(m_judgeModel, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->setSpacing(4);
    layout->addWidget(m_messages);
    layout->addLayout(programRow);
    layout->addLayout(datasetRow);
    layout->addLayout(checks);
    layout->addLayout(judgeRow);

    QSettings settings;
    m_exact->setChecked(settings.value(key("exact"), true).toBool());
    m_contains->setChecked(settings.value(key("contains"), false).toBool());
    m_similar->setChecked(settings.value(key("similar"), false).toBool());
    m_json->setChecked(settings.value(key("json"), false).toBool());
    m_length->setChecked(settings.value(key("length"), false).toBool());
    m_maxChars->setValue(settings.value(key("maxChars"), 200).toInt());
    m_judge->setChecked(settings.value(key("judge"), false).toBool());
    m_criterion->setText(settings.value(key("criterion")).toString());
    m_judgeModel->setEditText(settings.value(key("judgeModel")).toString());
    m_concurrency->setValue(settings.value(key("concurrency"), 4).toInt());
    setDatasetName(QString());

    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Program to Test"), QFileInfo(m_program->text()).absolutePath(),
            tr("PDL programs (*.pdl *.yaml *.yml);;All files (*)"));
        if (!path.isEmpty())
            m_program->setText(path);
    });
    connect(m_run, &QPushButton::clicked, this, [this] {
        remember();
        Q_EMIT runRequested();
    });
    connect(m_stop, &QPushButton::clicked, this, &ExperimentForm::stopRequested);
    // The parts Qt adds inside these controls get names for screen readers too.
    AccessibleParts::name(this);
}

void ExperimentForm::setProgramPath(const QString& path)
{
    m_program->setText(path);
}

QString ExperimentForm::programPath() const
{
    return m_program->text().trimmed();
}

void ExperimentForm::setDatasetName(const QString& name)
{
    m_dataset->setText(name.isEmpty()
                           ? tr("Dataset: the one in the Datasets pane (none yet — add examples "
                                "there, or from the Prompt Log)")
                           : tr("Dataset: %1 (the one in the Datasets pane); each output is "
                                "checked by:")
                                 .arg(name));
}

QList<eval::EvaluatorSpec> ExperimentForm::evaluators() const
{
    QList<eval::EvaluatorSpec> specs;
    auto add = [&specs](const QString& type, const QJsonObject& options = {},
                        std::optional<double> threshold = std::nullopt) {
        eval::EvaluatorSpec spec;
        spec.type = type;
        spec.options = options;
        spec.threshold = threshold;
        specs << spec;
    };
    if (m_exact->isChecked())
        add(QStringLiteral("exact_match"));
    if (m_contains->isChecked())
        add(QStringLiteral("contains"));
    if (m_similar->isChecked())
        add(QStringLiteral("levenshtein"), {}, 0.8);
    if (m_json->isChecked())
        add(QStringLiteral("is_json"));
    if (m_length->isChecked())
        add(QStringLiteral("length_chars"), {{QStringLiteral("max"), m_maxChars->value()}});
    if (m_judge->isChecked() && !m_criterion->text().trimmed().isEmpty())
        add(QStringLiteral("criteria"),
            {{QStringLiteral("criteria"), m_criterion->text().trimmed()}});
    return specs;
}

QString ExperimentForm::judgeModel() const
{
    return m_judgeModel->currentText().trimmed();
}

int ExperimentForm::concurrency() const
{
    return m_concurrency->value();
}

void ExperimentForm::setRunning(bool running)
{
    m_run->setEnabled(!running);
    m_stop->setEnabled(running);
    m_progress->setVisible(running);
    if (running)
        m_progress->setRange(0, 0);
}

void ExperimentForm::setProgress(int done, int total)
{
    m_progress->setRange(0, total);
    m_progress->setValue(done);
}

QCheckBox* ExperimentForm::check(const QString& type) const
{
    return findChild<QCheckBox*>(type);
}

void ExperimentForm::remember() const
{
    QSettings settings;
    settings.setValue(key("exact"), m_exact->isChecked());
    settings.setValue(key("contains"), m_contains->isChecked());
    settings.setValue(key("similar"), m_similar->isChecked());
    settings.setValue(key("json"), m_json->isChecked());
    settings.setValue(key("length"), m_length->isChecked());
    settings.setValue(key("maxChars"), m_maxChars->value());
    settings.setValue(key("judge"), m_judge->isChecked());
    settings.setValue(key("criterion"), m_criterion->text());
    settings.setValue(key("judgeModel"), m_judgeModel->currentText());
    settings.setValue(key("concurrency"), m_concurrency->value());
}

} // namespace hako
