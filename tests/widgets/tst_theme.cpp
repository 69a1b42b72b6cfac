// Settings › Theme: the dark palette and the editor's colours are readable (WCAG contrast,
// measured), a theme applies at once to live widgets (the editor, the message bar, the Prompt
// view's chips) without recreating them, the choice is remembered, and every pane asks the same
// isDark(). With HAKO_SCREENSHOT_DIR set, the test saves an editor in both themes as PNG files.
#include "core/pdl/interp/tracenode.h"
#include "core/pdl/programcheck.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/workbench/workbenchcontext.h"
#include "isolatedsettings.h"
#include "widgets/common/blockkindcolor.h"
#include "widgets/common/messagebar.h"
#include "widgets/common/thememanager.h"
#include "widgets/editor/editorcolor.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/editor/pdllexer.h"
#include "widgets/promptview/promptmessageedit.h"
#include "widgets/trace/boxpainter.h"
#include "widgets/trace/nodedetailview.h"

#include <QApplication>
#include <QDir>
#include <QMenu>
#include <QPointer>
#include <QSettings>
#include <QSignalSpy>
#include <QStyle>
#include <QTest>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <memory>

using namespace hako;

namespace {

using Theme = ThemeManager::Theme;

const char* const kSample = R"(# Summarise a document, then check the summary.
description: Summary with a check
defs:
  doc: &doc
    read: ./report.txt
    message: "Which file?"
  limit: 120
text:
- "Summarise in ${ limit } words: ${ doc }"
- def: summary
  model: default
  parameters:
    temperature: 0.2
    stop: ["\n\n", '---']
- if: ${ summary | length > limit }
  then: !!str too long
  else: *doc
- lastOf:
  - |
    Summary: ${ summary }
    {# a template comment #}
  - ${ undefinedName + 1 }
---
)";

QColor fromScintilla(long bgr)
{
    return QColor(int(bgr & 0xff), int((bgr >> 8) & 0xff), int((bgr >> 16) & 0xff));
}

QColor styleFore(PdlEditor& e, int style)
{
    return fromScintilla(e.SendScintilla(QsciScintillaBase::SCI_STYLEGETFORE, style));
}

QColor styleBack(PdlEditor& e, int style)
{
    return fromScintilla(e.SendScintilla(QsciScintillaBase::SCI_STYLEGETBACK, style));
}

QString ratioText(const QColor& a, const QColor& b)
{
    return QStringLiteral("%1 on %2: %3:1")
        .arg(a.name(), b.name())
        .arg(ThemeManager::contrastRatio(a, b), 0, 'f', 2);
}

} // namespace

class TestTheme : public QObject {
    Q_OBJECT

    std::unique_ptr<testing::IsolatedSettings> m_settings;
    ThemeManager* m_theme = nullptr;

    void saveScreenshot(QWidget* w, const QString& name)
    {
        const QString dir = qEnvironmentVariable("HAKO_SCREENSHOT_DIR");
        if (dir.isEmpty())
            return;
        QDir().mkpath(dir);
        const QString path = QDir(dir).filePath(name + QStringLiteral(".png"));
        QVERIFY2(w->grab().save(path), qPrintable(path));
        qInfo("screenshot: %s", qPrintable(path));
    }

    static void showAndSettle(QWidget* w)
    {
        w->resize(760, 560);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w));
        QCoreApplication::processEvents();
    }

    // An editor showing kSample with everything the table colours: a diagnostic, both kinds of
    // breakpoint, the paused line, a matched brace.
    static void fill(PdlEditor& editor)
    {
        editor.setDocumentText(QString::fromUtf8(kSample));
        editor.setReport(std::make_shared<const pdl::ProgramReport>(
            pdl::analyzeProgramText(QByteArray(kSample), QStringLiteral("sample.pdl"))));
        editor.setBreakpointLines({10});
        editor.setBreakpointCondition(16, QStringLiteral("limit > 100"));
        editor.setPausedLine(11);
        editor.setCursorPosition(14, 10);
    }

private Q_SLOTS:
    void initTestCase()
    {
        qunsetenv("HAKO_THEME");
        m_settings = std::make_unique<testing::IsolatedSettings>(QStringLiteral("tst_theme"));
        QVERIFY(m_settings->isValid());
        m_theme = new ThemeManager(qApp);
        QCOMPARE(ThemeManager::instance(), m_theme);
    }

    void init() { m_theme->setPreference(Theme::Light); }

    void darkPaletteContrast()
    {
        const QPalette p = ThemeManager::darkPalette();
        QVERIFY(ThemeManager::isDark(p));
        struct Pair {
            QPalette::ColorGroup group;
            QPalette::ColorRole text;
            QPalette::ColorRole background;
        };
        const QList<Pair> pairs = {
            {QPalette::Active, QPalette::WindowText, QPalette::Window},
            {QPalette::Active, QPalette::Text, QPalette::Base},
            {QPalette::Active, QPalette::Text, QPalette::AlternateBase},
            {QPalette::Active, QPalette::ButtonText, QPalette::Button},
            {QPalette::Active, QPalette::Link, QPalette::Base},
            {QPalette::Active, QPalette::Link, QPalette::Window},
            {QPalette::Active, QPalette::LinkVisited, QPalette::Base},
            {QPalette::Active, QPalette::HighlightedText, QPalette::Highlight},
            {QPalette::Inactive, QPalette::HighlightedText, QPalette::Highlight},
            {QPalette::Disabled, QPalette::HighlightedText, QPalette::Highlight},
            {QPalette::Active, QPalette::ToolTipText, QPalette::ToolTipBase},
            {QPalette::Active, QPalette::PlaceholderText, QPalette::Base},
            {QPalette::Disabled, QPalette::WindowText, QPalette::Window},
            {QPalette::Disabled, QPalette::Text, QPalette::Base},
            {QPalette::Disabled, QPalette::ButtonText, QPalette::Button},
        };
        for (const Pair& pair : pairs) {
            const QColor fg = p.color(pair.group, pair.text);
            const QColor bg = p.color(pair.group, pair.background);
            QVERIFY2(
                ThemeManager::contrastRatio(fg, bg) >= 4.5,
                qPrintable(
                    QStringLiteral("role %1/%2: ").arg(int(pair.text)).arg(int(pair.background)) +
                    ratioText(fg, bg)));
        }
        // Disabled text reads as disabled: clearly dimmer than enabled text.
        QVERIFY(ThemeManager::contrastRatio(p.color(QPalette::Active, QPalette::Text),
                                            p.color(QPalette::Disabled, QPalette::Text)) > 2);
        QVERIFY(!ThemeManager::isDark(ThemeManager::lightPalette()));
        QCOMPARE(ThemeManager::contrastRatio(Qt::black, Qt::white), 21.0);
    }

    void editorColorTable_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }
    // Every text style is readable on the background and on the caret line (4.5:1), line
    // numbers on the margin (3:1), and the squiggles and dots stand out (3:1).
    void editorColorTable()
    {
        QFETCH(bool, dark);
        auto c = [dark](EditorColor role) {
            return editorColor(role, dark);
        };
        const QList<EditorColor> texts = {EditorColor::Text,
                                          EditorColor::Comment,
                                          EditorColor::Key,
                                          EditorColor::BlockKindKey,
                                          EditorColor::CommonFieldKey,
                                          EditorColor::QuotedString,
                                          EditorColor::Number,
                                          EditorColor::Operator,
                                          EditorColor::BlockText,
                                          EditorColor::DocumentDelimiter,
                                          EditorColor::TemplateComment,
                                          EditorColor::AnchorOrTag,
                                          EditorColor::BraceUnmatchedText};
        for (EditorColor role : texts) {
            for (EditorColor bg : {EditorColor::Background, EditorColor::CaretLine}) {
                QVERIFY2(ThemeManager::contrastRatio(c(role), c(bg)) >= 4.5,
                         qPrintable(QStringLiteral("%1 on %2: ")
                                        .arg(QLatin1String(editorColorName(role)),
                                             QLatin1String(editorColorName(bg))) +
                                    ratioText(c(role), c(bg))));
            }
        }
        for (EditorColor role : {EditorColor::Expression, EditorColor::ExpressionDelimiter})
            QVERIFY2(ThemeManager::contrastRatio(c(role), c(EditorColor::ExpressionBackground)) >=
                         4.5,
                     editorColorName(role));
        QVERIFY2(ThemeManager::contrastRatio(c(EditorColor::BraceMatchText),
                                             c(EditorColor::BraceMatchBackground)) >= 4.5,
                 "brace match");
        QVERIFY2(
            ThemeManager::contrastRatio(c(EditorColor::LineNumber),
                                        c(EditorColor::MarginBackground)) >= 3,
            qPrintable(ratioText(c(EditorColor::LineNumber), c(EditorColor::MarginBackground))));
        for (EditorColor role :
             {EditorColor::ErrorSquiggle, EditorColor::WarningSquiggle, EditorColor::Caret})
            QVERIFY2(ThemeManager::contrastRatio(c(role), c(EditorColor::Background)) >= 2.5,
                     editorColorName(role));
        for (EditorColor role : {EditorColor::ErrorMarker, EditorColor::WarningMarker,
                                 EditorColor::Breakpoint, EditorColor::ConditionalBreakpoint})
            QVERIFY2(ThemeManager::contrastRatio(c(role), c(EditorColor::MarginBackground)) >= 2.5,
                     editorColorName(role));
        // The main text stays readable on the paused line and in a selection.
        for (EditorColor bg : {EditorColor::PausedLine, EditorColor::Selection})
            QVERIFY2(ThemeManager::contrastRatio(c(EditorColor::Text), c(bg)) >= 4.5,
                     editorColorName(bg));
    }

    // Dark applied to the application: a new editor takes the dark column, and what Scintilla
    // really paints each lexer style with meets 4.5:1.
    void editorInDark()
    {
        QSignalSpy changed(m_theme, &ThemeManager::themeChanged);
        m_theme->setPreference(Theme::Dark);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.first().first().toBool(), true);
        QVERIFY(m_theme->isDarkInEffect());
        QCOMPARE(QApplication::style()->name().toLower(), QStringLiteral("fusion"));

        PdlEditor editor;
        fill(editor);
        showAndSettle(&editor);
        QVERIFY(editor.usesDarkColors());
        const QColor background = editorColor(EditorColor::Background, true);
        QCOMPARE(styleBack(editor, QsciScintillaBase::STYLE_DEFAULT), background);
        QCOMPARE(styleFore(editor, QsciScintillaBase::STYLE_DEFAULT),
                 editorColor(EditorColor::Text, true));
        for (int style = 0; style < PdlLexer::StyleCount; ++style) {
            const QColor fg = styleFore(editor, style);
            const QColor bg = styleBack(editor, style);
            QVERIFY2(ThemeManager::contrastRatio(fg, bg) >= 4.5,
                     qPrintable(editor.lexer()->description(style) + QStringLiteral(": ") +
                                ratioText(fg, bg)));
            QVERIFY2(bg == background || bg == editorColor(EditorColor::ExpressionBackground, true),
                     qPrintable(bg.name()));
        }
        // The pixels agree: the empty area right of the text is the dark background.
        const QImage image = editor.grab().toImage();
        QCOMPARE(image.pixelColor(image.width() - 30, image.height() - 30), background);
        saveScreenshot(&editor, QStringLiteral("theme-editor-dark"));
    }

    void editorInLight()
    {
        PdlEditor editor;
        fill(editor);
        showAndSettle(&editor);
        QVERIFY(!editor.usesDarkColors());
        for (int style = 0; style < PdlLexer::StyleCount; ++style) {
            const QColor fg = styleFore(editor, style);
            const QColor bg = styleBack(editor, style);
            QVERIFY2(ThemeManager::contrastRatio(fg, bg) >= 4.5,
                     qPrintable(editor.lexer()->description(style) + QStringLiteral(": ") +
                                ratioText(fg, bg)));
        }
        saveScreenshot(&editor, QStringLiteral("theme-editor-light"));
    }

    // Light → Dark → Light on one live editor: its colours follow at once, the widget is the
    // same, its text and breakpoints untouched.
    void switchLiveEditor()
    {
        auto* editor = new PdlEditor;
        QPointer<PdlEditor> guard(editor);
        fill(*editor);
        showAndSettle(editor);
        const QString text = editor->text();
        auto check = [&](bool dark) {
            QVERIFY(guard);
            // Qt delivers the new palette to widgets through the event loop.
            QTRY_COMPARE(editor->usesDarkColors(), dark);
            QCOMPARE(styleBack(*editor, QsciScintillaBase::STYLE_DEFAULT),
                     editorColor(EditorColor::Background, dark));
            QCOMPARE(styleFore(*editor, PdlLexer::Key), editorColor(EditorColor::Key, dark));
            QCOMPARE(styleBack(*editor, PdlLexer::Expression),
                     editorColor(EditorColor::ExpressionBackground, dark));
            QCOMPARE(styleBack(*editor, QsciScintillaBase::STYLE_LINENUMBER),
                     editorColor(EditorColor::MarginBackground, dark));
            QCOMPARE(styleFore(*editor, QsciScintillaBase::STYLE_LINENUMBER),
                     editorColor(EditorColor::LineNumber, dark));
            QCOMPARE(fromScintilla(editor->SendScintilla(QsciScintillaBase::SCI_INDICGETFORE,
                                                         PdlEditor::ErrorIndicator)),
                     editorColor(EditorColor::ErrorSquiggle, dark));
            QCOMPARE(fromScintilla(editor->SendScintilla(QsciScintillaBase::SCI_GETCARETLINEBACK)),
                     editorColor(EditorColor::CaretLine, dark));
            QTRY_COMPARE(
                editor->grab().toImage().pixelColor(editor->width() - 30, editor->height() - 30),
                editorColor(EditorColor::Background, dark));
            QCOMPARE(editor->text(), text);
            QCOMPARE(editor->breakpointLines(), QList<int>({10, 16}));
        };
        check(false);
        m_theme->setPreference(Theme::Dark);
        check(true);
        m_theme->setPreference(Theme::Light);
        check(false);
        delete editor;
    }

    // The message bar and the Prompt view's chips follow the palette too.
    void messageBarAndChips()
    {
        QWidget host;
        auto* layout = new QVBoxLayout(&host);
        auto* bar = new MessageBar(&host);
        auto* edit = new PromptMessageEdit(&host);
        layout->addWidget(bar);
        layout->addWidget(edit);
        layout->addStretch(1);
        edit->setPlainText(QStringLiteral("Hello ${ name }, summarise ${ doc }."));
        bar->showMessage(QStringLiteral("Something failed"), MessageBar::Kind::Error);
        showAndSettle(&host);
        host.resize(560, 160);
        const auto barColor = [bar] {
            return bar->palette().color(QPalette::Window).name();
        };
        QCOMPARE(barColor(), QStringLiteral("#fdecec"));
        QVERIFY(!edit->chipsAreDark());
        QSignalSpy edited(edit, &PromptMessageEdit::edited);
        m_theme->setPreference(Theme::Dark);
        // Qt delivers the new palette to widgets through the event loop.
        QTRY_COMPARE(barColor(), QStringLiteral("#3d1d21"));
        QTRY_VERIFY(edit->chipsAreDark());
        saveScreenshot(&host, QStringLiteral("theme-messagebar-dark"));
        m_theme->setPreference(Theme::Light);
        QTRY_COMPARE(barColor(), QStringLiteral("#fdecec"));
        QTRY_VERIFY(!edit->chipsAreDark());
        QCOMPARE(edited.count(), 0); // recolouring is not an edit
    }

    // The node detail pane builds its summary with the palette's colours: it rebuilds it when
    // the theme changes (here the error box's tint).
    void traceDetailFollows()
    {
        auto root = std::make_shared<pdl::TraceNode>();
        root->kind = pdl::BlockKind::Code;
        root->id = "code";
        root->error = "boom";
        WorkbenchContext context;
        pdl::TraceModel model;
        context.setTraceModel(&model);
        NodeDetailView detail(&context);
        showAndSettle(&detail);
        model.setTrace(root);
        context.setCurrentNode(QStringLiteral("code"));
        const auto html = [&detail] {
            return detail.summary()->toHtml();
        };
        QVERIFY2(html().contains(QLatin1String("#fde8e8")), qPrintable(html()));
        m_theme->setPreference(Theme::Dark);
        QTRY_VERIFY2(html().contains(QLatin1String("#5a2323")), qPrintable(html()));
        m_theme->setPreference(Theme::Light);
        QTRY_VERIFY(html().contains(QLatin1String("#fde8e8")));
    }

    // Anchors, aliases and tags have a style (and so a colour) of their own.
    void anchorsAndTags()
    {
        QByteArray styles;
        PdlLexer::styleLine("doc: &doc !!str text\n", 0, styles);
        QCOMPARE(int(styles.at(5)), int(PdlLexer::AnchorOrTag));
        QCOMPARE(int(styles.at(10)), int(PdlLexer::AnchorOrTag));
        QCOMPARE(int(styles.at(16)), int(PdlLexer::Default));
        PdlLexer::styleLine("- *doc\n", 0, styles);
        QCOMPARE(int(styles.at(2)), int(PdlLexer::AnchorOrTag));
        QCOMPARE(int(styles.at(5)), int(PdlLexer::AnchorOrTag));
    }

    // The choice is stored as `ui/theme`, offered checkable in Settings › Theme, and
    // HAKO_THEME overrides it.
    void rememberedAndMenu()
    {
        m_theme->setPreference(Theme::Dark);
        QCOMPARE(QSettings().value(QLatin1String(ThemeManager::kSettingsKey)).toString(),
                 QStringLiteral("dark"));
        {
            ThemeManager other;
            QCOMPARE(other.preference(), Theme::Dark);
            QCOMPARE(other.effectiveTheme(), Theme::Dark);
        }
        QMenu settings;
        QMenu* menu = m_theme->addThemeMenu(&settings);
        QCOMPARE(menu->objectName(), QStringLiteral("themeMenu"));
        auto* dark = menu->findChild<QAction*>(QStringLiteral("theme_dark"));
        auto* light = menu->findChild<QAction*>(QStringLiteral("theme_light"));
        auto* system = menu->findChild<QAction*>(QStringLiteral("theme_system"));
        QVERIFY(dark && light && system);
        QVERIFY(dark->isChecked() && !light->isChecked() && !system->isChecked());
        light->trigger();
        QVERIFY(light->isChecked() && !dark->isChecked());
        QCOMPARE(QSettings().value(QLatin1String(ThemeManager::kSettingsKey)).toString(),
                 QStringLiteral("light"));
        QVERIFY(!m_theme->isDarkInEffect());

        qputenv("HAKO_THEME", "dark");
        QCOMPARE(m_theme->effectiveTheme(), Theme::Dark);
        m_theme->apply();
        QVERIFY(m_theme->isDarkInEffect());
        qputenv("HAKO_THEME", "nonsense");
        QCOMPARE(m_theme->effectiveTheme(), Theme::Light);
        qunsetenv("HAKO_THEME");
        QSettings().setValue(QLatin1String(ThemeManager::kSettingsKey), QStringLiteral("Purple"));
        QCOMPARE(m_theme->preference(), Theme::System);
    }

    // Back to System: the platform's style and palette again.
    void backToSystem()
    {
        m_theme->setPreference(Theme::Dark);
        QVERIFY(m_theme->isDarkInEffect());
        QVERIFY(QCoreApplication::testAttribute(Qt::AA_SetPalette));
        m_theme->setPreference(Theme::System);
        // No palette of Hako's any more (the offscreen platform's own is light).
        QVERIFY(!QCoreApplication::testAttribute(Qt::AA_SetPalette));
        QVERIFY(!m_theme->isDarkInEffect());
    }

    // One isDark() for every pane: the theme's palettes, one-colour palettes (judged by their
    // base), the trace boxes' painter and the block-kind tints agree.
    void isDarkAgrees()
    {
        QVERIFY(ThemeManager::isDark(ThemeManager::darkPalette()));
        QVERIFY(!ThemeManager::isDark(ThemeManager::lightPalette()));
        for (bool dark : {false, true}) {
            QPalette plain;
            const QColor c = dark ? Qt::black : Qt::white;
            for (int role = 0; role < QPalette::NColorRoles; ++role)
                if (role != QPalette::NoRole)
                    plain.setColor(QPalette::ColorRole(role), c);
            QCOMPARE(ThemeManager::isDark(plain), dark);
            const QPalette themed =
                dark ? ThemeManager::darkPalette() : ThemeManager::lightPalette();
            pdl::BoxLayoutParams params;
            QCOMPARE(BoxPainter(plain, QFont(), QFont(), params).isDark(), dark);
            QCOMPARE(BoxPainter(themed, QFont(), QFont(), params).isDark(), dark);
            // The tint is mixed into the base: darker than the text on dark palettes.
            QCOMPARE(blockKindTint(pdl::BlockKind::Model, themed).lightnessF() <
                         themed.color(QPalette::Text).lightnessF(),
                     dark);
        }
        m_theme->setPreference(Theme::Dark);
        QVERIFY(ThemeManager::isDark(QApplication::palette()));
        PdlEditor editor;
        QVERIFY(editor.usesDarkColors());
        QCOMPARE(editor.usesDarkColors(), m_theme->isDarkInEffect());
    }

    void cleanupTestCase() { m_theme->setPreference(Theme::Light); }
};

QTEST_MAIN(TestTheme)
#include "tst_theme.moc"
