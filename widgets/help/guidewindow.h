#pragma once

#include <QWidget>

class QTextBrowser;

namespace hako {

/// Help › User Guide: the user guide that ships inside Hako (`:/guide/guide.<lang>.html`, its
/// pictures beside it), in the interface's language (English when there is no guide in it),
/// readable offline. A window of its own, beside the workbench, not modal. GUI thread only.
class GuideWindow : public QWidget {
    Q_OBJECT
public:
    /// The guide in `language` ("ja", "en"; empty: the interface's language).
    explicit GuideWindow(const QString& language = QString(), QWidget* parent = nullptr);

    /// The view showing the guide.
    QTextBrowser* browser() const { return m_browser; }
    /// The resource the guide was read from (`qrc:/guide/guide.ja.html`).
    static QString guideSource(const QString& language);

private:
    QTextBrowser* m_browser;
};

} // namespace hako
