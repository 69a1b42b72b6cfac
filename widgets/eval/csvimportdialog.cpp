#include "widgets/eval/csvimportdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QTableWidget>
#include <QVBoxLayout>

namespace hako {

using eval::CsvColumn;

eval::CsvPreview CsvImportDialog::proposed(eval::CsvPreview preview)
{
    for (const CsvColumn& c : preview.columns)
        if (c.role == CsvColumn::Role::Reference || c.role == CsvColumn::Role::Expected)
            return preview;
    static const QRegularExpression answer(
        QStringLiteral("期待|正解|模範|参照|回答例|expected|answer|reference"),
        QRegularExpression::CaseInsensitiveOption);
    for (CsvColumn& c : preview.columns)
        if (c.role == CsvColumn::Role::Input && answer.match(c.header).hasMatch()) {
            c.role = CsvColumn::Role::Reference;
            break;
        }
    return preview;
}

CsvImportDialog::CsvImportDialog(const eval::CsvPreview& preview, QWidget* parent)
    : QDialog(parent), m_preview(preview), m_table(new QTableWidget(this))
{
    setWindowTitle(tr("Import a CSV File"));
    setAccessibleName(tr("Import a CSV file"));
    auto* what = new QLabel(tr("%n row(s), read as %1. Check what each column becomes, then "
                               "Import.",
                               nullptr, preview.rowCount)
                                .arg(preview.encoding),
                            this);
    what->setWordWrap(true);
    m_table->setAccessibleName(tr("Columns of the file"));
    m_table->setColumnCount(3);
    m_table->setHorizontalHeaderLabels({tr("Column"), tr("Becomes"), tr("First values")});
    m_table->setRowCount(int(preview.columns.size()));
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    for (int r = 0; r < preview.columns.size(); ++r) {
        const CsvColumn& column = preview.columns[r];
        auto* header = new QTableWidgetItem(column.header);
        header->setFlags(Qt::ItemIsEnabled);
        m_table->setItem(r, 0, header);
        auto* role = new QComboBox(m_table);
        role->addItem(tr("an input"), int(CsvColumn::Role::Input));
        role->addItem(tr("the reference answer"), int(CsvColumn::Role::Reference));
        role->addItem(tr("a note (metadata)"), int(CsvColumn::Role::Metadata));
        role->addItem(tr("nothing (left out)"), int(CsvColumn::Role::Ignored));
        const int at = role->findData(int(column.role));
        // Roles only a file can give (an id, promptfoo's assertion) are kept as they are.
        if (at < 0)
            role->addItem(column.role == CsvColumn::Role::Id ? tr("the example's id")
                                                             : tr("a promptfoo assertion"),
                          int(column.role));
        role->setCurrentIndex(std::max(0, role->findData(int(column.role))));
        role->setAccessibleName(tr("What column %1 becomes").arg(column.header));
        // The cell under the choice holds its text too: a screen reader reading the table
        // (which does not reach widgets inside cells) hears what each column becomes.
        auto* chosen = new QTableWidgetItem(role->currentText());
        chosen->setFlags(Qt::ItemIsEnabled);
        m_table->setItem(r, 1, chosen);
        connect(role, &QComboBox::currentTextChanged, m_table,
                [chosen](const QString& text) { chosen->setText(text); });
        m_table->setCellWidget(r, 1, role);
        QStringList values;
        for (const QStringList& row : preview.rows)
            if (r < row.size())
                values << row[r].simplified().left(40);
        auto* sample = new QTableWidgetItem(values.join(QStringLiteral(" · ")));
        sample->setFlags(Qt::ItemIsEnabled);
        m_table->setItem(r, 2, sample);
    }
    m_table->resizeColumnsToContents();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Import"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(what);
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);
    resize(720, 360);
}

QList<CsvColumn> CsvImportDialog::columns() const
{
    QList<CsvColumn> out = m_preview.columns;
    for (int r = 0; r < out.size(); ++r) {
        auto* role = qobject_cast<QComboBox*>(m_table->cellWidget(r, 1));
        if (!role)
            continue;
        out[r].role = CsvColumn::Role(role->currentData().toInt());
        if (out[r].name.isEmpty())
            out[r].name = out[r].header.trimmed();
    }
    return out;
}

} // namespace hako
