// Every interactive control of the window has a name a screen reader can say: walks every
// pane, dock and toolbar of MainWindow (and the dialogs it opens) through Qt's accessibility
// interfaces — what AT-SPI reads — and fails on a button, text field, list box or spin box
// whose name is empty.
#include "core/models/apikeystore.h"
#include "core/workbench/templatecatalog.h"
#include "isolatedsettings.h"
#include "widgets/common/aboutplugins.h"
#include "widgets/editor/editorpane.h"
#include "widgets/settings/modelsettingsdialog.h"
#include "widgets/templates/templatedialog.h"
#include "widgets/workbench/mainwindow.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace hako;

namespace {

bool interactive(QWidget* w)
{
    if (qobject_cast<QLineEdit*>(w)) {
        // A spin box's text field is not a control of its own for a screen reader (an
        // editable combo box's is).
        return !qobject_cast<QAbstractSpinBox*>(w->parentWidget());
    }
    return qobject_cast<QAbstractButton*>(w) || qobject_cast<QComboBox*>(w) ||
           qobject_cast<QAbstractSpinBox*>(w);
}

// Where a control sits, for the failure message: its class and the classes above it.
QString path(QWidget* w)
{
    QStringList parts;
    for (QObject* o = w; o && parts.size() < 6; o = o->parent()) {
        QString part = QString::fromLatin1(o->metaObject()->className());
        if (!o->objectName().isEmpty())
            part += QLatin1Char('#') + o->objectName();
        parts.prepend(part);
    }
    return parts.join(QStringLiteral(" > "));
}

// Named as a screen reader needs it: an accessible name, a button's own text, or a label
// whose buddy it is. A tooltip is not a name (Orca reads it, if at all, as a description).
bool named(QWidget* w, const QSet<QWidget*>& buddies)
{
    if (!w->accessibleName().trimmed().isEmpty() || buddies.contains(w))
        return true;
    if (auto* b = qobject_cast<QAbstractButton*>(w))
        return !b->text().remove(QLatin1Char('&')).trimmed().isEmpty();
    return false;
}

QStringList unnamed(QWidget* root)
{
    QSet<QWidget*> buddies;
    for (QLabel* label : root->findChildren<QLabel*>())
        if (label->buddy())
            buddies.insert(label->buddy());
    QStringList out;
    int controls = 0;
    for (QWidget* w : root->findChildren<QWidget*>()) {
        controls += interactive(w) ? 1 : 0;
        // Qt's own parts (a toolbar's extension button, a scroll area's corner) are Qt's.
        if (!interactive(w))
            continue;
        if (!named(w, buddies))
            out << QStringLiteral("%1 (tooltip '%2')").arg(path(w), w->toolTip());
    }
    qInfo("%s: %d interactive controls", root->metaObject()->className(), controls);
    return out;
}

// A keyring that has nothing and answers at once.
class NoKeys : public models::ISecretBackend {
public:
    void read(const QString&, std::function<void(models::SecretReply)> done) override
    {
        done(models::SecretReply{});
    }
    void write(const QString&, const QString&, std::function<void(QString)> done) override
    {
        done(QString());
    }
};

// A program whose Prompt view has every kind of card and input.
const char* kProgram = R"(description: Translate
defs:
  target_language: English
  text: |
    Thank you for your order.
  count: 3
text:
- def: translation
  model: default
  input:
    array:
    - role: system
      content: Translate into ${ target_language }.
    - role: user
      content: ${ text }
  parameters:
    temperature: 0
    max_tokens: 200
    stop: ["END"]
- "${ translation }\n"
- lang: python
  code: |
    result = 1
)";

void reportMissing(const QStringList& missing)
{
    for (const QString& m : missing)
        qWarning("without an accessible name: %s", qPrintable(m));
}

} // namespace

class TestAccessibleNames : public QObject {
    Q_OBJECT

    std::unique_ptr<testing::IsolatedSettings> m_settings;

private Q_SLOTS:
    void initTestCase()
    {
        m_settings =
            std::make_unique<testing::IsolatedSettings>(QStringLiteral("tst_accessiblenames"));
    }

    void everyControlOfTheWindowHasAName()
    {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QStringList missing = unnamed(&window);
        reportMissing(missing);
        QCOMPARE(missing.size(), 0);
    }

    void everyControlOfThePromptViewHasAName()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("translate.pdl"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kProgram);
        f.close();
        EditorPane pane(nullptr);
        pane.resize(900, 900);
        pane.show();
        QVERIFY(pane.openFile(path));
        pane.setPromptMode(true);
        QTRY_VERIFY(pane.findChildren<QComboBox*>().size() > 0);
        const QStringList missing = unnamed(&pane);
        reportMissing(missing);
        QCOMPARE(missing.size(), 0);
    }

    void everyControlOfTheDialogsHasAName()
    {
        QTemporaryDir dir;
        QStringList missing;
        ModelSettingsDialog models(
            dir.filePath(QStringLiteral("hako-models.yaml")),
            std::make_shared<models::ApiKeyStore>(std::make_shared<NoKeys>()));
        models.show();
        missing << unnamed(&models);
        TemplateDialog templates(TemplateCatalog(), QStringLiteral("en"));
        templates.show();
        missing << unnamed(&templates);
        AboutPlugins plugins({});
        plugins.show();
        missing << unnamed(&plugins);
        reportMissing(missing);
        QCOMPARE(missing.size(), 0);
    }
};

QTEST_MAIN(TestAccessibleNames)
#include "tst_accessiblenames.moc"
