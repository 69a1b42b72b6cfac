// Help → About plugins: every plugin the manager examined, its metadata, and loaded or why not.
#include "core/util/pluginmanager.h"
#include "widgets/common/aboutplugins.h"

#include <QDir>
#include <QLabel>
#include <QTreeWidget>
#include <QtTest>

using namespace hako;

class TestAboutPlugins : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void showsMetadataAndErrors()
    {
        PluginInfo ok;
        ok.file = QStringLiteral("/opt/hako/plugins/libhako_openai_provider.so");
        ok.id = QStringLiteral("openai");
        ok.name = QStringLiteral("OpenAI-compatible endpoints");
        ok.description = QStringLiteral("Chat, streaming and embeddings");
        ok.version = QStringLiteral("0.1.0");
        ok.kind = QStringLiteral("openai");
        ok.loaded = true;
        PluginInfo bad;
        bad.file = QStringLiteral("/opt/hako/plugins/libold.so");
        bad.id = QStringLiteral("old");
        bad.error = QStringLiteral("built for interface io.github.hako.ModelProviderPlugin/0.9");
        AboutPlugins view({ok, bad});
        QTreeWidget* tree = view.tree();
        QCOMPARE(tree->topLevelItemCount(), 2);
        QTreeWidgetItem* first = tree->topLevelItem(0);
        QCOMPARE(first->text(0), ok.name);
        QCOMPARE(first->text(1), QStringLiteral("openai"));
        QCOMPARE(first->text(2), QStringLiteral("0.1.0"));
        QCOMPARE(first->text(3), QStringLiteral("loaded"));
        QStringList details;
        for (int i = 0; i < first->childCount(); ++i)
            details << first->child(i)->text(0) + QLatin1Char('=') + first->child(i)->text(1);
        QCOMPARE(details, (QStringList{QStringLiteral("Id=openai"),
                                       QStringLiteral("Description=Chat, streaming and embeddings"),
                                       QStringLiteral("File=") + ok.file}));
        QVERIFY(!first->isExpanded());
        QTreeWidgetItem* second = tree->topLevelItem(1);
        QCOMPARE(second->text(0), QStringLiteral("old")); // no name: the id
        QCOMPARE(second->text(3), QStringLiteral("not loaded"));
        QVERIFY(second->isExpanded()); // the reason is in view at once
        bool sawError = false;
        for (int i = 0; i < second->childCount(); ++i)
            sawError |= second->child(i)->text(0) == QLatin1String("Load error") &&
                        second->child(i)->text(1) == bad.error;
        QVERIFY(sawError);
        QCOMPARE(view.findChild<QLabel*>(QStringLiteral("summary"))->text(),
                 QStringLiteral("1 of 2 plugin(s) loaded."));
    }

    void noPlugins()
    {
        AboutPlugins view({});
        QCOMPARE(view.tree()->topLevelItemCount(), 0);
        QVERIFY(view.findChild<QLabel*>(QStringLiteral("summary"))
                    ->text()
                    .contains(QLatin1String("HAKO_PLUGIN_PATH")));
    }

    void realPluginsOfTheBuild()
    {
        const QString dir = QStringLiteral(HAKO_BINARY_DIR "/lib/hako/plugins");
        if (QDir(dir).entryList(QDir::Files).isEmpty())
            QSKIP("the provider plugins are not built (build the hako target first)");
        PluginManager manager;
        manager.scan({dir});
        AboutPlugins view(manager.plugins());
        QStringList loaded;
        for (int i = 0; i < view.tree()->topLevelItemCount(); ++i) {
            QTreeWidgetItem* item = view.tree()->topLevelItem(i);
            if (item->text(3) == QLatin1String("loaded"))
                loaded << item->text(1);
        }
        loaded.sort();
        // The PDF extractor is loaded by the same manager as every other plugin.
        QCOMPARE(loaded, QStringList{QStringLiteral("pdf")});
        const QString shots = qEnvironmentVariable("HAKO_SCREENSHOT_DIR");
        if (!shots.isEmpty()) {
            view.show();
            QVERIFY(QTest::qWaitForWindowExposed(&view));
            view.grab().save(shots + QStringLiteral("/aboutplugins.png"));
        }
    }
};

QTEST_MAIN(TestAboutPlugins)
#include "tst_aboutplugins.moc"
