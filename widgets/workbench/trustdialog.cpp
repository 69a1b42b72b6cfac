#include "widgets/workbench/trustdialog.h"

#include "core/run/runtrust.h"

#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>

namespace hako {

TrustDialog::TrustDialog(const QString& file, const RunTrustCheck& check, QWidget* parent)
    : QMessageBox(QMessageBox::Warning, tr("Run Code?"), QString(), QMessageBox::NoButton, parent)
{
    const QString name = file.isEmpty() ? tr("This program") : QFileInfo(file).fileName();
    setText(tr("%1 comes from a folder you have not trusted and would run:").arg(name));
    QString list;
    for (const QString& line : check.describe())
        list += QStringLiteral("<li>%1</li>").arg(line.toHtmlEscaped());
    setTextFormat(Qt::RichText);
    setInformativeText(
        tr("<ul>%1</ul><p>Run it only if you trust where it comes from. Trusting the folder %2 "
           "lets every program in it run without asking.</p>")
            .arg(list, QDir::toNativeSeparators(check.folder).toHtmlEscaped()));
    m_once = addButton(tr("Run Once"), QMessageBox::AcceptRole);
    m_trustFolder = addButton(tr("Trust Folder and Run"), QMessageBox::AcceptRole);
    m_trustFolder->setEnabled(!file.isEmpty());
    setDefaultButton(addButton(QMessageBox::Cancel));
    // QMessageBox wraps at a narrow width; Japanese, which breaks between any two characters,
    // then splits words such as フォルダー across lines. Give the texts room for a sentence.
    for (const char* label : {"qt_msgbox_label", "qt_msgbox_informativelabel"})
        if (auto* l = findChild<QLabel*>(QLatin1String(label)))
            l->setMinimumWidth(28 * fontMetrics().height());
}

TrustDialog::Choice TrustDialog::ask()
{
    exec();
    return clickedButton() == m_once          ? Choice::RunOnce
           : clickedButton() == m_trustFolder ? Choice::TrustFolder
                                              : Choice::Cancel;
}

} // namespace hako
