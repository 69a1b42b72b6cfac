#include "widgets/trace/traceloadbar.h"

#include "core/pdl/trace/traceloader.h"
#include "widgets/common/messagebar.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace hako {

TraceLoadBar::TraceLoadBar(pdl::TraceLoader* loader, QWidget* parent)
    : QWidget(parent), m_loader(loader), m_loading(new QWidget(this)), m_label(new QLabel(this)),
      m_progress(new QProgressBar(this)), m_cancel(new QToolButton(this)),
      m_message(new MessageBar(this))
{
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(true);
    m_progress->setMaximumHeight(m_label->sizeHint().height() + 4);
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop loading; what the panes show stays"));
    auto* row = new QHBoxLayout(m_loading);
    row->setContentsMargins(6, 2, 6, 2);
    row->addWidget(m_label);
    row->addWidget(m_progress, 1);
    row->addWidget(m_cancel);
    m_loading->hide();
    m_message->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_loading);
    layout->addWidget(m_message);
    hide();

    if (!m_loader)
        return;
    connect(m_cancel, &QToolButton::clicked, m_loader, &pdl::TraceLoader::cancel);
    connect(m_loader, &pdl::TraceLoader::loadStarted, this, [this](const QString& path) {
        m_label->setText(tr("Loading %1…").arg(QFileInfo(path).fileName()));
        m_label->setAccessibleName(m_label->text());
        m_preview = false;
        m_progress->setValue(0);
        m_message->clearMessage();
        m_message->hide();
        m_loading->show();
        show();
    });
    connect(m_loader, &pdl::TraceLoader::previewShown, this,
            [this](const QString& path, int blocks) {
                m_preview = true;
                m_label->setText(
                    tr("Showing the first %n block(s) of %1; reading the rest…", "", blocks)
                        .arg(QFileInfo(path).fileName()));
                m_label->setAccessibleName(m_label->text());
            });
    connect(m_loader, &pdl::TraceLoader::progress, this, [this](qint64 done, qint64 total) {
        if (total > 0)
            m_progress->setValue(int(done * 1000 / total));
    });
    auto finished = [this](const QString& message, MessageBar::Kind kind) {
        m_loading->hide();
        if (message.isEmpty()) {
            m_message->hide();
            hide();
            return;
        }
        m_message->showMessage(message, kind);
        m_message->show();
        show();
    };
    connect(m_loader, &pdl::TraceLoader::loaded, this,
            [finished](const QString&, const QString& warning) {
                finished(warning, MessageBar::Kind::Warning);
            });
    connect(m_loader, &pdl::TraceLoader::failed, this,
            [finished](const QString&, const QString& message) {
                finished(message, MessageBar::Kind::Error);
            });
    connect(m_loader, &pdl::TraceLoader::cancelled, this, [this, finished](const QString& path) {
        const QString name = QFileInfo(path).fileName();
        finished(m_preview ? tr("Loading %1 was cancelled: only its start is shown.").arg(name)
                           : tr("Loading %1 was cancelled.").arg(name),
                 MessageBar::Kind::Information);
    });
}

} // namespace hako
