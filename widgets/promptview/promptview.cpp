#include "widgets/promptview/promptview.h"

#include "core/models/tokencounter.h"
#include "core/pdl/analysis/plainerror.h"
#include "core/playground/inputtable.h"
#include "core/playground/programname.h"
#include "core/util/textlength.h"
#include "widgets/common/thememanager.h"
#include "widgets/editor/pdleditor.h"
#include "widgets/promptview/inputsform.h"
#include "widgets/promptview/promptcard.h"
#include "widgets/promptview/promptmessageedit.h"
#include "widgets/promptview/promptnamefield.h"
#include "widgets/promptview/promptvalueedit.h"

#include <QAccessible>
#include <QApplication>
#include <QComboBox>
#include <QCryptographicHash>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QShortcut>
#include <QSpinBox>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace hako {

using playground::PromptDoc;
using playground::PromptDocItem;

struct PromptView::TextBinding {
    int index = -1; ///< position in the document's pre-order
    PromptDocItem item;
    QString model; ///< the model of the card the text belongs to ("" outside one)
    PromptMessageEdit* edit = nullptr;
    QLabel* length = nullptr; ///< "42 characters" under the text
    bool trailingNewline = false;
    QTimer* timer = nullptr;
};

namespace {

void flatten(const QList<PromptDocItem>& items, QList<const PromptDocItem*>& out)
{
    for (const PromptDocItem& i : items) {
        out << &i;
        flatten(i.children, out);
    }
}

QString settingsKey(const QString& path)
{
    return QStringLiteral("promptView/inputs/") +
           QString::fromLatin1(
               QCryptographicHash::hash(path.toUtf8(), QCryptographicHash::Sha1).toHex());
}

// The named input sets of the program at `path`.
/// `x` in a core sentence → “x” in bold for people.
QString richSentence(const QString& sentence)
{
    QString html = sentence.toHtmlEscaped();
    static const QRegularExpression code(QStringLiteral("`([^`]*)`"));
    html.replace(code, QStringLiteral("<b>\\1</b>"));
    return html;
}

QString plainSentence(const QString& sentence)
{
    QString s = sentence;
    static const QRegularExpression code(QStringLiteral("`([^`]*)`"));
    return s.replace(code, QStringLiteral("“\\1”"));
}

QString roleTitle(const QString& role)
{
    if (role == QLatin1String("system"))
        return PromptView::tr("Instructions (system)");
    if (role == QLatin1String("assistant"))
        return PromptView::tr("Model says (assistant)");
    if (role == QLatin1String("user") || role.isEmpty())
        return PromptView::tr("You say (user)");
    return role;
}

QString roleColor(const QString& role, bool dark)
{
    if (role == QLatin1String("system"))
        return dark ? QStringLiteral("#c4b5fd") : QStringLiteral("#6d28d9");
    if (role == QLatin1String("assistant"))
        return dark ? QStringLiteral("#6ee7b7") : QStringLiteral("#047857");
    return dark ? QStringLiteral("#93c5fd") : QStringLiteral("#1d4ed8");
}

// The view's look: light cards on a grey page, or their dark counterparts.
QString contentStyle(bool dark)
{
    if (dark)
        return QStringLiteral(
            "QWidget#promptContent { background: #181b20; }"
            "QFrame#promptCard { background: #22272e; border: 1px solid #3d444d; "
            "border-radius: 8px; }"
            "QFrame#promptSection { border-left: 3px solid #4b5563; }"
            "QLabel#promptRole { font-weight: 600; }"
            "QLabel#promptNote { color: #b0b8c1; }"
            "QLabel#promptLength { color: #9aa4af; }"
            "QLabel#promptReply { background: #12261b; border: 1px solid #2f6f46; "
            "border-radius: 6px; padding: 6px; }"
            "QLabel#promptReplyError { background: #2d1518; color: #fca5a5; border: 1px solid "
            "#7f1d1d; border-radius: 6px; padding: 6px; }");
    return QStringLiteral(
        "QWidget#promptContent { background: #f6f7f9; }"
        "QFrame#promptCard { background: white; border: 1px solid #d5d9e0; border-radius: 8px; }"
        "QFrame#promptSection { border-left: 3px solid #cbd5e1; }"
        "QLabel#promptRole { font-weight: 600; }"
        "QLabel#promptNote { color: #4b5563; }"
        "QLabel#promptLength { color: #6b7280; }"
        "QLabel#promptReply { background: #f0fdf4; border: 1px solid #bbf7d0; border-radius: 6px;"
        " padding: 6px; }"
        "QLabel#promptReplyError { background: #fef2f2; color: #991b1b; border: 1px solid "
        "#fecaca; border-radius: 6px; padding: 6px; }");
}

QString errorStyle(bool dark)
{
    return dark ? QStringLiteral("QLabel { background: #3b2f0b; color: #fde68a; "
                                 "padding: 6px 10px; border-bottom: 1px solid #b45309; }")
                : QStringLiteral("QLabel { background: #fef3c7; color: #78350f; "
                                 "padding: 6px 10px; border-bottom: 1px solid #f59e0b; }");
}

} // namespace

PromptView::PromptView(QWidget* parent)
    : QWidget(parent), m_error(new QLabel(this)), m_scroll(new QScrollArea(this))
{
    setObjectName(QStringLiteral("promptView"));
    setAccessibleName(tr("Prompt view"));
    // A count arrived: the texts of that model's cards show it.
    connect(models::TokenCounter::instance(), &models::TokenCounter::counted, this,
            [this](const QString&, const QString& model) {
                for (const auto& b : std::as_const(m_texts))
                    if (b->model == model)
                        updateLength(*b);
            });
    m_error->setWordWrap(true);
    m_error->setVisible(false);
    m_error->setObjectName(QStringLiteral("promptViewError"));
    m_dark = ThemeManager::isDark(QApplication::palette());
    m_error->setStyleSheet(errorStyle(m_dark));
    m_error->setAccessibleName(tr("YAML problem"));
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setAccessibleName(tr("Prompt document"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_name = new PromptNameField(this);
    connect(m_name, &PromptNameField::renamed, this, [this](const QString& name) {
        if (m_editor)
            applyEdits(playground::setProgramName(m_editor->text(), name));
    });
    layout->addWidget(m_error);
    layout->addWidget(m_name);
    layout->addWidget(m_scroll, 1);
    setFocusProxy(m_scroll);

    m_refresh.setSingleShot(true);
    m_refresh.setInterval(250);
    connect(&m_refresh, &QTimer::timeout, this, &PromptView::startBuild);

    auto zoomBy = [this](int d) {
        setZoom(m_zoom + d);
    };
    for (const QKeySequence& k :
         {QKeySequence(Qt::CTRL | Qt::Key_Equal), QKeySequence(Qt::CTRL | Qt::Key_Plus)}) {
        auto* s = new QShortcut(k, this, [zoomBy] { zoomBy(1); });
        s->setContext(Qt::WidgetWithChildrenShortcut);
    }
    auto* out =
        new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Minus), this, [zoomBy] { zoomBy(-1); });
    out->setContext(Qt::WidgetWithChildrenShortcut);
    rebuild();
}

PromptView::~PromptView() = default;

void PromptView::setEditor(PdlEditor* editor)
{
    if (m_editor)
        disconnect(m_editor, nullptr, this, nullptr);
    m_editor = editor;
    if (m_editor) {
        connect(m_editor, &QsciScintilla::textChanged, this, [this] {
            if (!m_applying)
                scheduleRefresh();
        });
        connect(m_editor, &PdlEditor::breakpointsChanged, this, &PromptView::showBreakpoints);
    }
    m_dirty = true;
    scheduleRefresh();
}

void PromptView::setFilePath(const QString& path)
{
    m_filePath = path;
    m_inputValues =
        path.isEmpty()
            ? QJsonObject()
            : QJsonDocument::fromJson(QSettings().value(settingsKey(path)).toString().toUtf8())
                  .object();
    rebuildInputs();
}

void PromptView::setModelNames(const QStringList& names)
{
    m_modelNames = names;
    for (PromptCard* c : std::as_const(m_cards))
        c->setModelNames(names);
}

void PromptView::setExternalNames(const QStringList& names)
{
    if (names == m_externalNames)
        return;
    m_externalNames = names;
    m_dirty = true;
    scheduleRefresh();
}

QStringList PromptView::inputNames() const
{
    QStringList names;
    for (const auto& i : m_doc.inputs)
        names << i.name;
    return names;
}

QJsonObject PromptView::inputValues() const
{
    QJsonObject out;
    // Before the view was first shown (or while the text changed since) the inputs are not
    // known yet: every value remembered for the file is given.
    const QStringList names = m_dirty ? m_inputValues.keys() : inputNames();
    for (const QString& name : names) {
        const QJsonValue value = m_inputValues.value(name);
        if (!value.isString()) { // a number or a list from its field, as it is
            if (!value.isUndefined() && !value.isNull())
                out.insert(name, value);
            continue;
        }
        out.insert(name, playground::inputValueFromText(value.toString()));
    }
    return out;
}

void PromptView::setReplies(const QHash<QString, PromptReply>& replies)
{
    m_replies = replies;
    showReplies();
}

void PromptView::showEvent(QShowEvent* e)
{
    QWidget::showEvent(e);
    if (m_dirty || (m_editor && m_editor->text() != m_docText))
        refreshNow();
}

void PromptView::scheduleRefresh()
{
    m_dirty = true;
    if (isVisible())
        m_refresh.start();
}

void PromptView::startBuild()
{
    if (!m_editor)
        return;
    const QString text = m_editor->text();
    const LatestJob::Ticket ticket = m_latest.start();
    const QString file = m_filePath;
    const QStringList names = m_externalNames;
    auto* watcher = new QFutureWatcher<Result<PromptDoc>>(this);
    connect(watcher, &QFutureWatcher<Result<PromptDoc>>::finished, this,
            [this, watcher, ticket, text] {
                watcher->deleteLater();
                // Latest wins: an older parse that finishes late is dropped.
                if (m_latest.isCurrent(ticket))
                    apply(watcher->result(), text);
            });
    watcher->setFuture(
        QtConcurrent::run([text, file, names] { return PromptDoc::build(text, file, names); }));
}

void PromptView::refreshNow()
{
    m_refresh.stop();
    m_latest.invalidate();
    const QString text = m_editor ? m_editor->text() : QString();
    apply(PromptDoc::build(text, m_filePath, m_externalNames), text);
}

void PromptView::apply(const Result<PromptDoc>& doc, const QString& text)
{
    m_dirty = false;
    if (!doc) {
        m_yamlError = true;
        // What is wrong in plain words when it is a common mistake (a colon in a text, an
        // unclosed `${`), and where.
        const pdl::PlainError plain = pdl::plainRunError(doc.error(), nullptr);
        m_error->setText(plain.detail.isEmpty()
                             ? tr("The YAML has an error on line %1 — fix it in the YAML view.")
                                   .arg(doc.error().span.line)
                             : tr("Line %1: %2. Fix it in the YAML view (Ctrl+Shift+Y).")
                                   .arg(doc.error().span.line)
                                   .arg(plain.text));
        m_error->setToolTip(doc.error().message);
        m_error->setVisible(true);
        if (m_content)
            m_content->setEnabled(false);
        return;
    }
    m_yamlError = false;
    m_error->setVisible(false);
    m_name->showName(playground::programName(text).text,
                     m_filePath.isEmpty() ? QString() : QFileInfo(m_filePath).completeBaseName());
    const QStringList inputsBefore = inputNames();
    m_doc = *doc;
    m_docText = text;
    const QString s = shape(m_doc);
    if (s == m_docShape && m_content)
        updateInPlace();
    else
        rebuild();
    if (inputNames() != inputsBefore)
        rebuildInputs();
    m_content->setEnabled(true);
    Q_EMIT documentChanged();
}

QString PromptView::shape(const PromptDoc& doc)
{
    QString out;
    std::function<void(const QList<PromptDocItem>&, int)> walk =
        [&](const QList<PromptDocItem>& items, int depth) {
            for (const PromptDocItem& i : items) {
                out += QStringLiteral("%1|%2|%3|%4|%5|%6|%7|%8|%9;")
                           .arg(int(i.kind))
                           .arg(depth)
                           .arg(i.heading, i.role, i.label, i.sentence)
                           .arg(i.editable)
                           .arg(i.modelEditable)
                           .arg(i.usesContext) +
                       QString::number(int(i.valueType));
                walk(i.children, depth + 1);
            }
        };
    walk(doc.items, 0);
    return out;
}

void PromptView::updateInPlace()
{
    QList<const PromptDocItem*> items;
    flatten(m_doc.items, items);
    for (const auto& b : std::as_const(m_texts)) {
        if (b->index < 0 || b->index >= items.size())
            continue;
        b->item = *items[b->index];
        b->edit->setOrigins(m_doc.origins);
        QString display = b->item.text;
        b->trailingNewline = display.endsWith(QLatin1Char('\n'));
        if (b->trailingNewline)
            display.chop(1);
        // Text being typed stays as the user has it (its edit is on its way); a change that
        // came from elsewhere (the YAML, undo) shows even in the focused card.
        if (!b->timer->isActive())
            b->edit->setTextQuietly(display);
    }
    for (PromptCard* c : std::as_const(m_cards)) {
        if (c->index < 0 || c->index >= items.size())
            continue;
        c->setItem(*items[c->index]);
    }
    for (PromptValueEdit* v : std::as_const(m_values)) {
        if (v->index >= 0 && v->index < items.size())
            v->setItem(*items[v->index]);
    }
    showBreakpoints();
}

void PromptView::rebuild()
{
    // Keep the keyboard focus on the same field when the structure changed elsewhere.
    int focusText = -1;
    int focusPos = 0;
    for (const auto& b : std::as_const(m_texts)) {
        if (b->edit->hasFocus()) {
            focusText = b->index;
            focusPos = b->edit->textCursor().position();
        }
    }
    const int scroll = m_scroll->verticalScrollBar() ? m_scroll->verticalScrollBar()->value() : 0;
    m_texts.clear();
    m_cards.clear();
    m_values.clear();
    m_headings.clear();
    m_inputsBox = nullptr;
    if (QWidget* old = m_scroll->takeWidget())
        old->deleteLater();
    m_content = new QWidget;
    m_content->setObjectName(QStringLiteral("promptContent"));
    m_content->setStyleSheet(contentStyle(m_dark));
    auto* layout = new QVBoxLayout(m_content);
    layout->setContentsMargins(16, 12, 16, 16);
    layout->setSpacing(12);

    m_inputsBox = new InputsForm(m_content);
    connect(m_inputsBox, &InputsForm::valuesChanged, this, [this] {
        m_inputValues = m_inputsBox->values();
        saveInputs();
    });
    layout->addWidget(m_inputsBox);

    int index = 0;
    std::function<void(const QList<PromptDocItem>&, QVBoxLayout*, QWidget*, int)> add =
        [&](const QList<PromptDocItem>& items, QVBoxLayout* into, QWidget* parent, int depth) {
            Q_UNUSED(add);
            for (const PromptDocItem& item : items)
                into->addWidget(makeItem(item, parent, depth));
        };
    m_buildIndex = &index;
    add(m_doc.items, layout, m_content, 0);
    m_buildIndex = nullptr;
    if (m_doc.items.isEmpty()) {
        auto* empty = new QLabel(tr("This program has no prompts yet. Write one in the YAML "
                                    "view (Ctrl+Shift+Y)."),
                                 m_content);
        empty->setObjectName(QStringLiteral("promptNote"));
        layout->addWidget(empty);
    } else {
        auto* add = new QPushButton(tr("Add Prompt"), m_content);
        add->setAccessibleName(tr("Add Prompt"));
        add->setToolTip(tr("Add a model call after the last step; it can use the results "
                           "above"));
        connect(add, &QPushButton::clicked, this, &PromptView::addPrompt);
        layout->addWidget(add, 0, Qt::AlignLeft);
    }
    layout->addStretch(1);
    m_scroll->setWidget(m_content);
    m_docShape = shape(m_doc);
    rebuildInputs();
    applyZoom();
    showReplies();
    if (m_scroll->verticalScrollBar())
        m_scroll->verticalScrollBar()->setValue(scroll);
    for (const auto& b : std::as_const(m_texts)) {
        if (b->index == focusText) {
            b->edit->setFocus();
            QTextCursor c = b->edit->textCursor();
            c.setPosition(std::min(focusPos, int(b->edit->toPlainText().size())));
            b->edit->setTextCursor(c);
        }
    }
}

QWidget* PromptView::makeItem(const PromptDocItem& item, QWidget* parent, int depth)
{
    const int index = m_buildIndex ? (*m_buildIndex)++ : -1;
    QWidget* w = nullptr;
    switch (item.kind) {
    case PromptDocItem::Kind::Card: {
        PromptCard* card = makeCard(item, parent);
        card->index = index;
        w = card;
        break;
    }
    case PromptDocItem::Kind::Section:
        w = makeSection(item, parent, depth);
        break;
    case PromptDocItem::Kind::Value:
        if (item.valueType != PromptDocItem::ValueType::Text) {
            w = makeValue(item, parent);
            m_values.back()->index = index;
            break;
        }
        [[fallthrough]];
    default:
        w = makeText(item, parent, QString());
        m_texts.back()->index = index;
        // A text of only line breaks (`- "\n"`) separates outputs; it says nothing to a reader.
        if (item.kind == PromptDocItem::Kind::Paragraph && item.heading.isEmpty() &&
            !item.text.isEmpty() && item.text.trimmed().isEmpty())
            w->setVisible(false);
        break;
    }
    return w;
}

void PromptView::updateLength(TextBinding& b)
{
    // Its length as a person counts it (日本語 is 3 characters), and in tokens when the card's
    // model has a tokenizer (TokenCounter: a server on this machine that has one).
    const QString plain = b.edit->toPlainText();
    const qsizetype n = characterCount(plain);
    QString text = n == 1 ? tr("1 character") : tr("%1 characters").arg(n);
    if (!b.model.isEmpty()) {
        const QString folder =
            m_filePath.isEmpty() ? QDir::currentPath() : QFileInfo(m_filePath).absolutePath();
        if (const std::optional<int> tokens =
                models::TokenCounter::instance()->count(folder, b.model, plain))
            text += QStringLiteral(" · ") +
                    (*tokens == 1 ? tr("1 token") : tr("%1 tokens").arg(*tokens));
    }
    b.length->setText(text);
    b.length->setAccessibleName(text);
}

QWidget* PromptView::makeText(const PromptDocItem& item, QWidget* parent, const QString& owner)
{
    auto* box = new QWidget(parent);
    auto* v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(3);
    QString title;
    QString what;
    if (item.kind == PromptDocItem::Kind::Value) {
        title = item.heading;
        what = tr("Value %1").arg(item.heading);
    } else if (item.kind == PromptDocItem::Kind::Message || !owner.isEmpty()) {
        title = roleTitle(item.role);
        what = owner.isEmpty() ? tr("%1 message").arg(item.role)
                               : tr("%1 message of %2").arg(item.role, owner);
    } else if (!item.role.isEmpty() && item.role != QLatin1String("user")) {
        // A text said in another role (`role: system` around it) is that role's message.
        title = roleTitle(item.role);
        what = tr("%1 text at line %2").arg(item.role).arg(item.span.line);
        if (!item.heading.isEmpty())
            title = tr("%1 — %2").arg(item.heading, title);
    } else {
        title = item.heading.isEmpty() ? tr("Text") : item.heading;
        what = item.heading.isEmpty() ? tr("Text at line %1").arg(item.span.line)
                                      : tr("Text %1").arg(item.heading);
    }
    auto* label = new QLabel(title, box);
    label->setObjectName(QStringLiteral("promptRole"));
    if (item.kind == PromptDocItem::Kind::Message || !owner.isEmpty() ||
        (item.kind == PromptDocItem::Kind::Paragraph && !item.role.isEmpty() &&
         item.role != QLatin1String("user")))
        label->setStyleSheet(QStringLiteral("color: %1;").arg(roleColor(item.role, m_dark)));
    v->addWidget(label);
    auto* edit = new PromptMessageEdit(box);
    edit->setAccessibleName(what);
    label->setBuddy(edit);
    edit->setOrigins(m_doc.origins);
    edit->setReadOnly(!item.editable);
    v->addWidget(edit);
    // Its length as a person counts it (日本語 is 3 characters), updated as they type.
    auto* length = new QLabel(box);
    length->setObjectName(QStringLiteral("promptLength"));
    length->setAlignment(Qt::AlignRight);
    length->setAccessibleDescription(tr("Length of %1").arg(what));
    v->addWidget(length);
    auto b = std::make_shared<TextBinding>();
    b->item = item;
    b->edit = edit;
    b->length = length;
    // The binding may go (the view is rebuilt) before its widgets, which are deleted later.
    connect(edit, &PromptMessageEdit::textChanged, length,
            [this, binding = std::weak_ptr<TextBinding>(b)] {
                if (const auto live = binding.lock())
                    updateLength(*live);
            });
    QString display = item.text;
    b->trailingNewline = display.endsWith(QLatin1Char('\n'));
    if (b->trailingNewline)
        display.chop(1);
    edit->setTextQuietly(display);
    updateLength(*b);
    b->timer = new QTimer(edit);
    b->timer->setSingleShot(true);
    b->timer->setInterval(400);
    TextBinding* raw = b.get();
    connect(edit, &PromptMessageEdit::edited, b->timer, qOverload<>(&QTimer::start));
    connect(b->timer, &QTimer::timeout, this, [this, raw] { commitText(*raw); });
    connect(edit, &PromptMessageEdit::focusLost, this, [this, raw] {
        if (raw->timer->isActive()) {
            raw->timer->stop();
            commitText(*raw);
        }
    });
    m_texts << b;
    return box;
}

bool PromptView::event(QEvent* e)
{
    // Settings › Theme: the cards take the new look at once (their style sheets do not follow
    // the palette by themselves).
    if (e->type() == QEvent::ApplicationPaletteChange || e->type() == QEvent::PaletteChange) {
        const bool dark = ThemeManager::isDark(QApplication::palette());
        if (dark != m_dark) {
            m_dark = dark;
            m_error->setStyleSheet(errorStyle(m_dark));
            if (m_content) {
                commitPendingEdits();
                rebuild();
            }
        }
    }
    return QWidget::event(e);
}

void PromptView::showBreakpoints()
{
    const QList<int> lines = m_editor ? m_editor->breakpointLines() : QList<int>();
    for (PromptCard* c : std::as_const(m_cards))
        c->setPaused(lines.contains(c->item().span.line));
}

PromptCard* PromptView::makeCard(const PromptDocItem& item, QWidget* parent)
{
    auto* card = new PromptCard(item, m_modelNames, parent);
    m_cards << card;
    m_headings << card->heading();
    card->setPaused(m_editor && m_editor->breakpointLines().contains(item.span.line));
    connect(card, &PromptCard::pauseToggled, this, [this, card](bool on) {
        const int line = card->item().span.line;
        if (m_editor && line > 0 && m_editor->breakpointLines().contains(line) != on)
            m_editor->toggleBreakpoint(line);
    });
    connect(card, &PromptCard::modelChosen, this,
            [this, card](const QString& model) { commitModel(card, model); });
    connect(card, &PromptCard::parameterChanged, this,
            [this, card](const QString& key, const QJsonValue& value) {
                commitParameter(card, key, value);
            });
    connect(card, &PromptCard::moveRequested, this,
            [this, card](int delta) { movePrompt(card, delta); });
    connect(card, &PromptCard::renameRequested, this, [this, card] { renamePrompt(card); });
    connect(card, &PromptCard::removeRequested, this, [this, card] { removePrompt(card); });
    connect(card, &PromptCard::tryInPlaygroundRequested, this, [this, card] {
        commitPendingEdits();
        Q_EMIT tryInPlaygroundRequested(card->item().span);
    });
    const QString name = card->displayName();
    for (const PromptDocItem& child : item.children) {
        if (child.kind == PromptDocItem::Kind::Section) {
            card->addBody(makeItem(child, card, 1));
            continue;
        }
        const int index = m_buildIndex ? (*m_buildIndex)++ : -1;
        card->addBody(makeText(child, card, name));
        m_texts.back()->index = index;
        // The card's model counts its messages' tokens, when its server can.
        m_texts.back()->model = item.model;
        updateLength(*m_texts.back());
    }
    return card;
}

QWidget* PromptView::makeSection(const PromptDocItem& item, QWidget* parent, int depth)
{
    auto* box = new QWidget(parent);
    auto* v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(6);
    auto* header = new QHBoxLayout;
    auto* toggle = new QToolButton(box);
    toggle->setCheckable(true);
    toggle->setChecked(true);
    toggle->setArrowType(Qt::DownArrow);
    toggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toggle->setAutoRaise(true);
    toggle->setText(item.heading.isEmpty() ? item.label
                                           : tr("%1 %2").arg(item.label, item.heading));
    toggle->setAccessibleName(tr("%1: %2").arg(toggle->text(), plainSentence(item.sentence)));
    toggle->setAccessibleDescription(tr("Shows or hides the steps inside"));
    QFont bold = toggle->font();
    bold.setBold(true);
    toggle->setFont(bold);
    auto* sentence = new QLabel(richSentence(item.sentence), box);
    sentence->setTextFormat(Qt::RichText);
    sentence->setWordWrap(true);
    sentence->setObjectName(QStringLiteral("promptNote"));
    header->addWidget(toggle);
    header->addWidget(sentence, 1);
    v->addLayout(header);
    if (item.children.isEmpty()) {
        // Nothing inside to show or hide: a label that still takes focus and reads its sentence.
        toggle->setArrowType(Qt::NoArrow);
        toggle->setCheckable(false);
        toggle->setToolButtonStyle(Qt::ToolButtonTextOnly);
        toggle->setAccessibleDescription(QString());
        // The index of each child is counted by makeItem; a section itself is one item.
        return box;
    }
    auto* body = new QFrame(box);
    body->setObjectName(QStringLiteral("promptSection"));
    auto* bv = new QVBoxLayout(body);
    bv->setContentsMargins(14, 2, 0, 2);
    bv->setSpacing(10);
    for (const PromptDocItem& child : item.children)
        bv->addWidget(makeItem(child, body, depth + 1));
    v->addWidget(body);
    connect(toggle, &QToolButton::toggled, this, [toggle, body](bool on) {
        body->setVisible(on);
        toggle->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
    });
    return box;
}

void PromptView::rebuildInputs()
{
    if (!m_inputsBox)
        return;
    m_inputsBox->setSetsKey(m_filePath.isEmpty() ? QString() : InputsForm::setsKeyFor(m_filePath));
    m_inputsBox->setInputs(m_doc.inputs, m_inputValues);
    m_inputsBox->setVisible(!m_doc.inputs.isEmpty());
}

void PromptView::saveInputs()
{
    if (!m_filePath.isEmpty())
        QSettings().setValue(
            settingsKey(m_filePath),
            QString::fromUtf8(QJsonDocument(m_inputValues).toJson(QJsonDocument::Compact)));
    Q_EMIT inputValuesChanged();
}

void PromptView::commitPendingEdits()
{
    for (const auto& b : QList(m_texts)) {
        if (b->timer->isActive()) {
            b->timer->stop();
            commitText(*b);
        }
    }
    for (PromptCard* c : QList(m_cards))
        c->commitPending();
    for (PromptValueEdit* v : QList(m_values))
        v->commitPending();
}

void PromptView::commitText(TextBinding& b)
{
    if (!m_editor || m_yamlError || !b.item.editable)
        return;
    const int index = b.index;
    const QString value =
        b.edit->toPlainText() + (b.trailingNewline ? QStringLiteral("\n") : QString());
    if (m_editor->text() != m_docText) {
        refreshNow(); // the YAML changed since: take the spans of the current text
        if (m_yamlError)
            return;
    }
    for (const auto& t : std::as_const(m_texts)) {
        if (t->index != index)
            continue;
        if (t->item.text == value)
            return;
        applyEdits(playground::replaceScalar(m_editor->text(), t->item.textSpan.line,
                                             t->item.textSpan.column, value));
        return;
    }
}

void PromptView::commitModel(PromptCard* card, const QString& model)
{
    if (!m_editor || m_yamlError || !card->item().modelEditable)
        return;
    if (m_editor->text() != m_docText)
        refreshNow();
    applyEdits(playground::replaceScalar(m_editor->text(), card->item().modelSpan.line,
                                         card->item().modelSpan.column, model));
}

void PromptView::commitParameter(PromptCard* card, const QString& name, const QJsonValue& value)
{
    if (!m_editor || m_yamlError || !card->item().parametersEditable)
        return;
    if (m_editor->text() != m_docText)
        refreshNow();
    applyEdits(playground::editParameter(m_editor->text(), card->item().span, name, value));
}

bool PromptView::applyEdits(const Result<QList<playground::TextEdit>>& edits)
{
    if (!edits) {
        m_error->setText(tr("This change could not be made here: %1").arg(edits.error().message));
        m_error->setVisible(true);
        Q_EMIT editFailed(edits.error().message);
        return false;
    }
    if (edits->isEmpty() || !m_editor)
        return true;
    QList<PdlEditor::TextReplacement> list;
    for (const playground::TextEdit& e : *edits)
        list << PdlEditor::TextReplacement{e.offset, e.length, e.replacement};
    m_applying = true;
    m_editor->applyTextEdits(list);
    m_applying = false;
    // The spans after this edit moved: the next edit needs the new ones right away.
    refreshNow();
    return true;
}

void PromptView::showReplies()
{
    for (PromptCard* c : std::as_const(m_cards)) {
        const auto it = m_replies.constFind(c->item().id);
        c->setReply(it == m_replies.constEnd() ? nullptr : &*it);
    }
}

void PromptView::setZoom(int steps)
{
    m_zoom = std::clamp(steps, -6, 24);
    applyZoom();
}

void PromptView::applyZoom()
{
    if (!m_content)
        return;
    QFont f = QApplication::font();
    const qreal base = f.pointSizeF() > 0 ? f.pointSizeF() : 10.0;
    f.setPointSizeF(std::max(5.0, base + m_zoom));
    m_content->setFont(f);
    QFont h = f;
    h.setPointSizeF(f.pointSizeF() * 1.3);
    h.setBold(true);
    for (QLabel* l : std::as_const(m_headings))
        l->setFont(h);
}

} // namespace hako
