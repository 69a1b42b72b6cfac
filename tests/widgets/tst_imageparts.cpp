// Images in model messages as a person sees them: the trace's Detail pane shows the image as a
// thumbnail with its size, the Prompt log's call view likewise, the playground keeps it beside
// the message text; and no text anywhere in these panes shows the image's base64.
#include "core/models/modelrouter.h"
#include "core/pdl/interp/interpreter.h"
#include "core/pdl/trace/tracefeed.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/pdl/valuejson.h"
#include "core/promptlog/callrecord.h"
#include "core/workbench/workbenchcontext.h"
#include "tests/support/openaitestserver.h"
#include "widgets/common/contentparts.h"
#include "widgets/playground/varianteditor.h"
#include "widgets/promptlog/promptlogpane.h"
#include "widgets/trace/nodedetailview.h"
#include "widgets/trace/tracetreeview.h"
#include "widgets/trace/variablesview.h"

#include <QAbstractButton>
#include <QFile>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSplitter>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTreeView>
#include <QtConcurrent/QtConcurrentRun>

using namespace hako;
using namespace hako::pdl;

namespace {

QByteArray pageBytes()
{
    QFile f(QStringLiteral(HAKO_TEST_DATA_DIR "/images/page1.png"));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QString pageUrl()
{
    return QStringLiteral("data:image/png;base64,") + QString::fromLatin1(pageBytes().toBase64());
}

// Every text of a model, all rows and columns at any depth (display and tooltip).
void modelTexts(QAbstractItemModel* model, const QModelIndex& parent, QStringList& out,
                int depth = 0)
{
    if (depth > 8)
        return;
    while (model->canFetchMore(parent))
        model->fetchMore(parent);
    for (int r = 0; r < model->rowCount(parent); ++r) {
        for (int c = 0; c < model->columnCount(parent); ++c) {
            const QModelIndex i = model->index(r, c, parent);
            out << i.data(Qt::DisplayRole).toString() << i.data(Qt::ToolTipRole).toString();
        }
        modelTexts(model, model->index(r, 0, parent), out, depth + 1);
    }
}

// The texts a person can read in `root`: labels, buttons, text fields and views.
QStringList visibleTexts(QWidget* root)
{
    QStringList out;
    for (QWidget* w : root->findChildren<QWidget*>()) {
        if (auto* l = qobject_cast<QLabel*>(w))
            out << l->text() << l->toolTip() << l->accessibleName();
        else if (auto* b = qobject_cast<QAbstractButton*>(w))
            out << b->text() << b->toolTip();
        else if (auto* e = qobject_cast<QLineEdit*>(w))
            out << e->text();
        else if (auto* p = qobject_cast<QPlainTextEdit*>(w))
            out << p->toPlainText();
        else if (auto* t = qobject_cast<QTextEdit*>(w))
            out << t->toPlainText() << t->toHtml();
        else if (auto* v = qobject_cast<QAbstractItemView*>(w); v && v->model())
            modelTexts(v->model(), v->rootIndex(), out);
    }
    return out;
}

// Base64 shows as a long run of its alphabet; `data:image` as itself.
QString firstBase64(const QStringList& texts)
{
    static const QRegularExpression run(QStringLiteral("[A-Za-z0-9+/=]{120,}"));
    for (const QString& t : texts) {
        if (t.contains(QLatin1String("data:image")) || t.contains(QLatin1String(";base64")))
            return t.left(200);
        const QRegularExpressionMatch m = run.match(t);
        if (m.hasMatch())
            return m.captured().left(200);
    }
    return {};
}

// The thumbnail a rich-text view shows for the first image of its document.
QImage firstThumbnail(QTextBrowser* browser)
{
    static const QRegularExpression img(QStringLiteral("<img src=\"(hako-image:[^\"]+)\""));
    const QRegularExpressionMatch m = img.match(browser->toHtml());
    if (!m.hasMatch())
        return {};
    return browser->loadResource(QTextDocument::ImageResource, QUrl(m.captured(1))).value<QImage>();
}

} // namespace

class TestImageParts : public QObject {
    Q_OBJECT

    testing::OpenAiTestServer m_server;
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_server.start());
        qputenv("OPENAI_BASE_URL", m_server.baseUrl().toUtf8());
        qputenv("OPENAI_API_KEY", "sk-test");
        QVERIFY(m_dir.isValid());
        QVERIFY(QFile::copy(QStringLiteral(HAKO_TEST_DATA_DIR "/images/page1.png"),
                            m_dir.filePath(QStringLiteral("page1.png"))));
    }

    void traceShowsThumbnailsNotBase64()
    {
        const QString path = m_dir.filePath(QStringLiteral("transcribe.pdl"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("text:\n"
                "- def: picture\n"
                "  data: ${ image_url('page1.png') }\n"
                "  contribute: []\n"
                "- role: user\n"
                "  content:\n"
                "    data:\n"
                "    - {type: text, text: \"Transcribe this page.\"}\n"
                "    - {type: image_url, image_url: {url: \"${ picture }\"}}\n"
                "- def: page\n"
                "  model: openai/vision\n");
        f.close();
        m_server.enqueueChat(testing::ScriptedReply::chat(QStringLiteral("# Page one")));

        WorkbenchContext context;
        TraceModel model;
        context.setTraceModel(&model);
        context.setCurrentProgram(path);
        QWidget window;
        auto* split = new QSplitter(&window);
        auto* tree = new TraceTreeView(&context, split);
        auto* detail = new NodeDetailView(&context, split);
        auto* variables = new VariablesView(&context, split);
        window.resize(1400, 700);
        split->resize(window.size());
        window.show();

        Result<std::shared_ptr<models::IModelProvider>> provider =
            models::createDefaultProvider(m_dir.path());
        QVERIFY(provider.ok());
        TraceFeed feed(&model);
        model.beginLiveRun(path);
        RunOptions options;
        options.models = *provider;
        options.trace = true;
        options.captureScope = true;
        options.observer = &feed;
        options.writeStdout = [](std::string_view) {
        };
        auto future = QtConcurrent::run([options, path] {
            Interpreter interp(options);
            return interp.runFile(path);
        });
        while (!future.isFinished())
            QTest::qWait(5);
        RunResult result = future.result();
        feed.flush();
        model.endLiveRun(result.trace);
        QVERIFY2(result.ok, qPrintable(result.error.message));

        // Every block in turn: nothing readable in any pane is base64.
        QString modelId;
        std::vector<const TraceItem*> items{model.root()};
        while (!items.empty()) {
            const TraceItem* item = items.back();
            items.pop_back();
            for (const auto& c : item->children)
                items.push_back(c.get());
            const QString id = QString::fromStdString(item->node.id);
            if (id.isEmpty())
                continue;
            if (item->node.kind == BlockKind::Model)
                modelId = id;
            context.setCurrentNode(id);
            tree->treeView()->expandAll();
            for (int tab = 0; tab < detail->tabs()->count(); ++tab)
                detail->tabs()->setCurrentIndex(tab);
            const QString leak = firstBase64(visibleTexts(&window));
            QVERIFY2(leak.isEmpty(), qPrintable(id + QStringLiteral(": ") + leak));
        }
        Q_UNUSED(variables);

        // The model block's summary shows the image as a thumbnail with its size.
        QVERIFY(!modelId.isEmpty());
        context.setCurrentNode(modelId);
        const QString summary = detail->summary()->toPlainText();
        QVERIFY2(summary.contains(QStringLiteral("Transcribe this page.")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("Image 1 of 1: PNG 160×220, 664 B")),
                 qPrintable(summary));
        const QImage thumb = firstThumbnail(detail->summary());
        QVERIFY(!thumb.isNull());
        QCOMPARE(thumb.size(), QSize(116, 160)); // 160×220 scaled into 160×160
        // Save… keeps the bytes: the trace itself still holds the image.
        QVERIFY(model.findById(modelId)->node.modelInput.json().find(pageUrl().toStdString()) !=
                std::string::npos);
    }

    void promptLogCallShowsThumbnail()
    {
        promptlog::CallRecord call;
        call.id = 7;
        call.model = QStringLiteral("vision");
        call.reply = QStringLiteral("# Page one");
        call.messages = QJsonArray{QJsonObject{
            {QStringLiteral("role"), QStringLiteral("user")},
            {QStringLiteral("content"),
             QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                    {QStringLiteral("text"), QStringLiteral("Read it")}},
                        QJsonObject{{QStringLiteral("type"), QStringLiteral("image_url")},
                                    {QStringLiteral("image_url"),
                                     QJsonObject{{QStringLiteral("url"), pageUrl()}}}}}}}};
        ContentBrowser browser;
        browser.setHtml(PromptLogPane::detailHtml(call));
        const QString text = browser.toPlainText();
        QVERIFY2(text.contains(QStringLiteral("Read it")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Image 1 of 1: PNG 160×220, 664 B")),
                 qPrintable(text));
        QVERIFY(!firstThumbnail(&browser).isNull());
        QVERIFY(firstBase64({browser.toHtml(), text}).isEmpty());
        // Copy as text: a placeholder.
        const QString copied = PromptLogPane::detailText(call);
        QVERIFY2(copied.contains(QStringLiteral("Read it\n[image: PNG 160×220, 664 B]")),
                 qPrintable(copied));
        QVERIFY(firstBase64({copied}).isEmpty());
    }

    void playgroundKeepsTheImage()
    {
        const QJsonObject image{
            {QStringLiteral("type"), QStringLiteral("image_url")},
            {QStringLiteral("image_url"), QJsonObject{{QStringLiteral("url"), pageUrl()}}}};
        playground::PlaygroundPrompt prompt;
        prompt.model = QStringLiteral("vision");
        playground::PromptMessage message;
        message.content = QStringLiteral("Read it");
        message.attachments = QJsonArray{image};
        prompt.messages = {message};
        VariantEditor editor(1);
        editor.setPrompt(prompt);
        editor.show();
        const auto strips = editor.findChildren<ImagePartsStrip*>();
        QCOMPARE(strips.size(), 1);
        QVERIFY(strips[0]->isVisible());
        QCOMPARE(strips[0]->thumbnails().size(), 1);
        QLabel* thumb = strips[0]->thumbnails()[0];
        QVERIFY(!thumb->pixmap().isNull());
        QCOMPARE(thumb->pixmap().size(), QSize(116, 160));
        QCOMPARE(thumb->accessibleName(), QStringLiteral("Image 1 of 1: PNG 160×220, 664 B"));
        QVERIFY(firstBase64(visibleTexts(&editor)).isEmpty());
        // Edited text is sent with the image still beside it.
        QPlainTextEdit* text = nullptr;
        for (QPlainTextEdit* e : editor.findChildren<QPlainTextEdit*>())
            if (e->accessibleName() == QStringLiteral("Variant 1 message 1 text"))
                text = e;
        QVERIFY(text);
        text->setPlainText(QStringLiteral("Now"));
        const playground::PlaygroundPrompt back = editor.prompt();
        QCOMPARE(back.messages.size(), 1);
        QCOMPARE(back.messages[0].content, QStringLiteral("Now"));
        QCOMPARE(back.messages[0].attachments, QJsonArray{image});
    }
};

QTEST_MAIN(TestImageParts)
#include "tst_imageparts.moc"
