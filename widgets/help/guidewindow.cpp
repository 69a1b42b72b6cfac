#include "widgets/help/guidewindow.h"

#include "widgets/common/languagemanager.h"

#include <QFile>
#include <QKeySequence>
#include <QShortcut>
#include <QTextBrowser>
#include <QTextDocument>
#include <QUrl>
#include <QVBoxLayout>

namespace hako {

QString GuideWindow::guideSource(const QString& language)
{
    QString lang = language;
    if (lang.isEmpty())
        lang = LanguageManager::instance() ? LanguageManager::instance()->effectiveLanguage()
                                           : QStringLiteral("en");
    const QString localized = QStringLiteral(":/guide/guide.%1.html").arg(lang);
    return QStringLiteral("qrc") +
           (QFile::exists(localized) ? localized : QStringLiteral(":/guide/guide.en.html"));
}

GuideWindow::GuideWindow(const QString& language, QWidget* parent)
    : QWidget(parent, Qt::Window), m_browser(new QTextBrowser(this))
{
    setObjectName(QStringLiteral("guideWindow"));
    setWindowTitle(tr("Hako User Guide"));
    setAccessibleName(tr("User guide"));
    setAttribute(Qt::WA_DeleteOnClose);
    m_browser->setAccessibleName(tr("User guide text"));
    m_browser->setOpenExternalLinks(false);
    m_browser->document()->setDocumentMargin(16);
    // Offline: the guide and its pictures are resources; nothing is fetched.
    m_browser->setSource(QUrl(guideSource(language)));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_browser);
    auto* close = new QShortcut(QKeySequence::Close, this);
    connect(close, &QShortcut::activated, this, &QWidget::close);
    resize(820, 760);
}

} // namespace hako
