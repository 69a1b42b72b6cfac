#include "widgets/trace/annotationdialog.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QToolButton>
#include <QVBoxLayout>

namespace hako {

AnnotationDialog::AnnotationDialog(const pdl::Annotation& existing, const QString& title,
                                   QWidget* parent)
    : QDialog(parent), m_existing(existing), m_up(new QToolButton(this)),
      m_down(new QToolButton(this)), m_score(new QComboBox(this)), m_note(new QPlainTextEdit(this)),
      m_save(nullptr), m_remove(nullptr)
{
    setWindowTitle(tr("Annotate %1").arg(title));
    setAccessibleName(tr("Annotate block"));
    // Words beside the signs: a system without an emoji font still reads them.
    m_up->setText(tr("✓ Good"));
    m_down->setText(tr("✗ Bad"));
    m_up->setAccessibleName(tr("Thumbs up"));
    m_down->setAccessibleName(tr("Thumbs down"));
    m_up->setToolTip(tr("This block did well"));
    m_down->setToolTip(tr("This block went wrong"));
    auto* thumbs = new QButtonGroup(this);
    for (QToolButton* b : {m_up, m_down}) {
        b->setCheckable(true);
        thumbs->addButton(b);
    }
    m_score->setEditable(true);
    m_score->addItem(QString());
    m_score->addItems(configuredLabels());
    m_score->setAccessibleName(tr("Score or label"));
    m_score->setToolTip(tr("A number (0.8) or a label; leave empty to score with the thumbs"));
    m_note->setAccessibleName(tr("Note"));
    m_note->setPlaceholderText(tr("What was wrong, or the answer it should have given"));
    m_note->setTabChangesFocus(true);

    if (existing.kind == pdl::ScoreKind::Thumbs && !existing.time.isNull())
        (existing.value.toBool() ? m_up : m_down)->setChecked(true);
    else if (existing.kind != pdl::ScoreKind::Thumbs)
        m_score->setCurrentText(existing.scoreText());
    m_note->setPlainText(existing.note);

    auto* thumbRow = new QHBoxLayout;
    thumbRow->addWidget(m_up);
    thumbRow->addWidget(m_down);
    thumbRow->addStretch();
    auto* form = new QFormLayout;
    form->addRow(tr("Thumbs:"), thumbRow);
    form->addRow(tr("Score or label:"), m_score);
    form->addRow(tr("Note:"), m_note);

    auto* buttons = new QDialogButtonBox(this);
    m_save = buttons->addButton(tr("Save"), QDialogButtonBox::AcceptRole);
    m_save->setAccessibleName(tr("Save annotation"));
    m_remove = buttons->addButton(tr("Remove"), QDialogButtonBox::DestructiveRole);
    m_remove->setAccessibleName(tr("Remove annotation"));
    m_remove->setEnabled(!existing.time.isNull());
    buttons->addButton(QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_remove, &QPushButton::clicked, this, [this] {
        Q_EMIT removeRequested();
        reject();
    });
    // A typed score and the thumbs are one choice: picking one clears the other.
    connect(m_score, &QComboBox::currentTextChanged, this, [this, thumbs](const QString& text) {
        if (!text.trimmed().isEmpty() && thumbs->checkedButton()) {
            thumbs->setExclusive(false);
            m_up->setChecked(false);
            m_down->setChecked(false);
            thumbs->setExclusive(true);
        }
        updateSave();
    });
    connect(thumbs, &QButtonGroup::buttonClicked, this, [this] {
        m_score->setCurrentText(QString());
        updateSave();
    });

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
    updateSave();
}

QStringList AnnotationDialog::configuredLabels()
{
    const QStringList labels =
        QSettings().value(QStringLiteral("annotations/labels")).toStringList();
    if (!labels.isEmpty())
        return labels;
    return {QStringLiteral("correct"), QStringLiteral("incorrect"), QStringLiteral("wrong tool"),
            QStringLiteral("incomplete")};
}

bool AnnotationDialog::hasScore() const
{
    return m_up->isChecked() || m_down->isChecked() || !m_score->currentText().trimmed().isEmpty();
}

void AnnotationDialog::updateSave()
{
    m_save->setEnabled(hasScore());
}

pdl::Annotation AnnotationDialog::annotation() const
{
    pdl::Annotation a = m_existing;
    a.time = QDateTime::currentDateTimeUtc();
    a.note = m_note->toPlainText().trimmed();
    const QString score = m_score->currentText().trimmed();
    bool isNumber = false;
    const double number = score.toDouble(&isNumber);
    if (m_up->isChecked() || m_down->isChecked()) {
        a.kind = pdl::ScoreKind::Thumbs;
        a.value = m_up->isChecked();
    } else if (isNumber) {
        a.kind = pdl::ScoreKind::Number;
        a.value = number;
    } else {
        a.kind = pdl::ScoreKind::Label;
        a.value = score;
    }
    return a;
}

} // namespace hako
