#include "core/playground/promptdoc.h"

#include "core/pdl/check/scopeanalysis.h"
#include "core/pdl/parser/programparser.h"
#include "core/pdl/parser/yamlvalue.h"
#include "core/pdl/valuejson.h"
#include "core/playground/yamlemit_p.h"
#include "core/playground/yamlsource_p.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <nlohmann/json.hpp>

#include <set>

namespace hako::playground {

using pdl::YamlValue;
using namespace detail;

namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

/// An expression as people read it: `${ questions }` → `questions`.
QString exprText(const pdl::Expr& e)
{
    if (!e.present)
        return {};
    QString s = e.value.isString() ? qs(e.value.asString()) : qs(e.value.str());
    s = s.trimmed();
    if (s.startsWith(QLatin1String("${")) && s.endsWith(QLatin1Char('}')) &&
        s.indexOf(QLatin1String("${"), 2) < 0)
        s = s.mid(2, s.size() - 3).trimmed();
    return s;
}

QString code(const QString& s)
{
    return QLatin1Char('`') + s + QLatin1Char('`');
}

/// A literal text block (a bare string or `data: "…"`): its value and the scalar's span.
struct TextScalar {
    QString text;
    SourceSpan span;
};

std::optional<TextScalar> textScalar(const pdl::Block& block)
{
    const auto* data = block.as<pdl::DataBlock>();
    if (!data)
        return std::nullopt;
    if (!block.node) {
        // A bare scalar: the parser keeps no node, the block's span is the scalar's.
        if (!data->data.value.isString())
            return std::nullopt;
        return TextScalar{qs(data->data.value.asString()),
                          data->data.span.isValid() ? data->data.span : block.span};
    }
    const YamlValue* node = block.node->isMapping() ? block.node->value("data") : nullptr;
    if (!node || !node->isString())
        return std::nullopt;
    return TextScalar{qs(node->scalar().asString()), node->span()};
}

/// True when a model block's `input` is written in a shape saveToProgram rewrites in place (none,
/// a string, a list or `array:` of strings and `{role, content}` messages, or one message), so
/// that editParameter() leaves it alone.
bool inputIsMessages(const YamlValue* input)
{
    if (!input || input->isString())
        return true;
    auto isMessage = [](const YamlValue& m) {
        if (m.isString())
            return true;
        if (!m.isMapping())
            return false;
        for (const auto& e : m.entries()) {
            if (e.name != "role" && e.name != "content")
                return false;
        }
        const YamlValue* content = m.value("content");
        const YamlValue* role = m.value("role");
        return content && content->isString() && (!role || role->isString());
    };
    const YamlValue* list = input->isSequence() ? input : nullptr;
    if (input->isMapping() && input->entries().size() == 1 && input->value("array") &&
        input->value("array")->isSequence())
        list = input->value("array");
    if (list) {
        for (const YamlValue& item : list->items()) {
            if (!isMessage(item))
                return false;
        }
        return true;
    }
    return input->isMapping() && input->find("content") && isMessage(*input);
}

class Builder {
public:
    PromptDoc doc;

    /// `name`: the `defs` key the block is under (its heading when it has no `def`).
    void visit(const pdl::BlockPtr& block, QList<PromptDocItem>& out, const QString& role,
               const QString& name = {})
    {
        visitBlock(block, out, role, name);
        if (block)
            visitOutput(*block, out, role);
    }

    // The output format a step asks for (a `spec:` of names and types) as a Value, then the
    // call that fixes a reply that does not match it (`fallback:`).
    void visitOutput(const pdl::Block& b, QList<PromptDocItem>& out, const QString& role)
    {
        const YamlValue* spec = b.node && b.node->isMapping() ? b.node->value("spec") : nullptr;
        PromptDocItem item;
        if (spec && spec->isMapping()) {
            for (const auto& e : spec->entries()) {
                if (!e.value.isString()) {
                    item.list.clear(); // nested or typed otherwise: for the YAML view
                    break;
                }
                item.list << qs(e.name) + QStringLiteral(": ") + qs(e.value.scalar().asString());
            }
        }
        if (!item.list.isEmpty()) {
            item.kind = PromptDocItem::Kind::Value;
            item.valueType = PromptDocItem::ValueType::Fields;
            item.span = item.textSpan = spec->span();
            item.id = PromptDoc::blockId(item.span);
            item.heading =
                b.def ? QCoreApplication::translate("hako::playground::PromptDoc",
                                                    "%1 — output format")
                            .arg(qs(*b.def))
                      : QCoreApplication::translate("hako::playground::PromptDoc", "Output format");
            item.text = item.list.join(QLatin1Char('\n'));
            out << item;
        }
        if (b.fallback)
            visit(b.fallback, out, role);
    }

    void visitBlock(const pdl::BlockPtr& block, QList<PromptDocItem>& out, const QString& role,
                    const QString& name)
    {
        if (!block)
            return;
        const pdl::Block& b = *block;
        const QString myRole = b.role ? qs(*b.role) : role;
        for (const auto& [name, def] : b.defs)
            visitDef(qs(name), def, out, myRole);

        PromptDocItem item;
        item.span = b.span;
        item.id = PromptDoc::blockId(b.span);
        item.heading = b.def ? qs(*b.def) : name;

        if (const auto s = textScalar(b)) {
            item.kind = PromptDocItem::Kind::Paragraph;
            item.role = myRole;
            setText(item, *s);
            out << item;
            return;
        }
        using K = pdl::BlockKind;
        if (describeList(b, item, out, myRole))
            return;
        if (b.kind == K::Empty)
            return; // only defs, already shown
        item.kind = PromptDocItem::Kind::Section;
        if (!describeFlow(b, item, myRole))
            describeStep(b, item);
        // What the author wrote about the block says more than its kind.
        if (b.description && !b.description->empty() && item.kind == PromptDocItem::Kind::Section)
            item.sentence = qs(*b.description).section(QLatin1Char('\n'), 0, 0).trimmed() +
                            QStringLiteral(" — ") + item.sentence;
        out << item;
    }

    // Texts, lists, objects, messages and model blocks: shown as what they build; false for
    // every other kind.
    bool describeList(const pdl::Block& b, PromptDocItem& item, QList<PromptDocItem>& out,
                      const QString& myRole)
    {
        using K = pdl::BlockKind;
        switch (b.kind) {
        case K::Text:
        case K::LastOf:
        case K::Array:
        case K::Sequence: {
            const auto& children = static_cast<const pdl::ListBlockBase&>(b).children;
            if (!item.heading.isEmpty()) {
                item.kind = PromptDocItem::Kind::Section;
                item.label = QCoreApplication::translate("hako::playground::PromptDoc", "Text");
                item.sentence = QCoreApplication::translate("hako::playground::PromptDoc",
                                                            "Builds the text saved as %1.")
                                    .arg(code(item.heading));
                for (const auto& c : children)
                    visit(c, item.children, myRole);
                out << item;
            } else {
                for (const auto& c : children)
                    visit(c, out, myRole);
            }
            return true;
        }
        case K::Object: {
            const auto& o = static_cast<const pdl::ObjectBlock&>(b);
            for (const auto& f : o.fields)
                visit(f.second, out, myRole);
            for (const auto& c : o.items)
                visit(c, out, myRole);
            return true;
        }
        case K::Message: {
            const auto& m = static_cast<const pdl::MessageBlock&>(b);
            const auto s = m.content ? textScalar(*m.content) : std::nullopt;
            if (s) {
                item.kind = PromptDocItem::Kind::Message;
                item.role = myRole.isEmpty() ? QStringLiteral("user") : myRole;
                setText(item, *s);
                out << item;
                return true;
            }
            item.kind = PromptDocItem::Kind::Section;
            item.label = QCoreApplication::translate("hako::playground::PromptDoc", "Message");
            item.sentence = QCoreApplication::translate("hako::playground::PromptDoc",
                                                        "A %1 message built from the steps inside.")
                                .arg(myRole);
            visit(m.content, item.children, myRole);
            out << item;
            return true;
        }
        case K::Model:
            visitModel(static_cast<const pdl::ModelBlock&>(b), item, myRole);
            out << item;
            return true;
        default:
            return false;
        }
    }

    // Conditions, choices, loops and functions: a sentence and the steps inside; false for
    // every other kind.
    bool describeFlow(const pdl::Block& b, PromptDocItem& item, const QString& myRole)
    {
        using K = pdl::BlockKind;
        switch (b.kind) {
        case K::If: {
            const auto& i = static_cast<const pdl::IfBlock&>(b);
            item.label = QCoreApplication::translate("hako::playground::PromptDoc", "Condition");
            item.sentence =
                QCoreApplication::translate("hako::playground::PromptDoc",
                                            "Runs only when %1; otherwise %2.")
                    .arg(code(exprText(i.condition)),
                         i.elseBlock
                             ? QCoreApplication::translate("hako::playground::PromptDoc",
                                                           "runs the part under “Otherwise”")
                             : QCoreApplication::translate("hako::playground::PromptDoc",
                                                           "does nothing"));
            visit(i.then, item.children, myRole);
            if (i.elseBlock) {
                PromptDocItem otherwise;
                otherwise.kind = PromptDocItem::Kind::Section;
                otherwise.span = i.elseBlock->span;
                otherwise.id = PromptDoc::blockId(otherwise.span);
                otherwise.label =
                    QCoreApplication::translate("hako::playground::PromptDoc", "Otherwise");
                otherwise.sentence = QCoreApplication::translate("hako::playground::PromptDoc",
                                                                 "Runs when %1 is not true.")
                                         .arg(code(exprText(i.condition)));
                visit(i.elseBlock, otherwise.children, myRole);
                item.children << otherwise;
            }
            break;
        }
        case K::Match: {
            const auto& m = static_cast<const pdl::MatchBlock&>(b);
            item.label = QCoreApplication::translate("hako::playground::PromptDoc", "Choice");
            item.sentence = QCoreApplication::translate("hako::playground::PromptDoc",
                                                        "Picks one of %1 cases depending on %2.")
                                .arg(m.cases.size())
                                .arg(code(exprText(m.match)));
            for (const auto& c : m.cases)
                visit(c.then, item.children, myRole);
            break;
        }
        case K::Repeat:
        case K::Map: {
            const auto& l = static_cast<const pdl::LoopBlockBase&>(b);
            const bool map = b.kind == K::Map;
            item.label = QCoreApplication::translate("hako::playground::PromptDoc", "Loop");
            QStringList lists;
            for (const auto& [var, e] : l.forVars)
                lists << code(exprText(e));
            if (!lists.isEmpty())
                item.sentence =
                    (map ? QCoreApplication::translate("hako::playground::PromptDoc",
                                                       "Runs for each item of %1, all at once.")
                         : QCoreApplication::translate("hako::playground::PromptDoc",
                                                       "Repeats for each item of %1."))
                        .arg(lists.join(
                            QCoreApplication::translate("hako::playground::PromptDoc", " and ")));
            else if (const auto* r = b.as<pdl::RepeatBlock>(); r && r->whileCond)
                item.sentence =
                    QCoreApplication::translate("hako::playground::PromptDoc", "Repeats while %1.")
                        .arg(code(exprText(r->whileCond)));
            else if (r && r->until)
                item.sentence =
                    QCoreApplication::translate("hako::playground::PromptDoc", "Repeats until %1.")
                        .arg(code(exprText(r->until)));
            else if (l.maxIterations)
                item.sentence =
                    QCoreApplication::translate("hako::playground::PromptDoc", "Repeats %1 times.")
                        .arg(exprText(l.maxIterations));
            else
                item.sentence = QCoreApplication::translate("hako::playground::PromptDoc",
                                                            "Repeats the steps inside.");
            visit(l.body, item.children, myRole);
            break;
        }
        case K::Function: {
            const auto& f = static_cast<const pdl::FunctionBlock&>(b);
            item.label = QCoreApplication::translate("hako::playground::PromptDoc", "Function");
            QStringList params;
            for (const auto& p : f.params)
                params << code(qs(p.first));
            item.sentence =
                params.isEmpty()
                    ? QCoreApplication::translate("hako::playground::PromptDoc",
                                                  "Defines the reusable step %1.")
                          .arg(code(item.heading))
                    : QCoreApplication::translate("hako::playground::PromptDoc",
                                                  "Defines the reusable step %1, given %2.")
                          .arg(code(item.heading), params.join(QStringLiteral(", ")));
            visit(f.returns, item.children, myRole);
            break;
        }
        default:
            return false;
        }
        return true;
    }

    // Any other step: what it does in a sentence.
    static void describeStep(const pdl::Block& b, PromptDocItem& item)
    {
        using K = pdl::BlockKind;
        switch (b.kind) {
        case K::Data:
            item.label = QCoreApplication::translate("hako::playground::PromptDoc", "Data");
            item.sentence = item.heading.isEmpty()
                                ? QCoreApplication::translate("hako::playground::PromptDoc",
                                                              "Holds a fixed value.")
                                : QCoreApplication::translate("hako::playground::PromptDoc",
                                                              "Holds a fixed value named %1.")
                                      .arg(code(item.heading));
            item.engineerOnly = true;
            break;
        case K::Call: {
            const auto& c = static_cast<const pdl::CallBlock&>(b);
            item.label = QCoreApplication::translate("hako::playground::PromptDoc", "Call");
            item.sentence = QCoreApplication::translate("hako::playground::PromptDoc",
                                                        "Runs the reusable step %1.")
                                .arg(code(exprText(c.call)));
            break;
        }
        case K::Code:
        case K::Args: {
            item.label = QCoreApplication::translate("hako::playground::PromptDoc", "Code");
            item.engineerOnly = true;
            const auto* c = b.as<pdl::CodeBlock>();
            const auto lang = c ? c->lang : pdl::CodeBlock::Lang::Command;
            using L = pdl::CodeBlock::Lang;
            item.sentence =
                lang == L::Python
                    ? QCoreApplication::translate("hako::playground::PromptDoc",
                                                  "Runs Python code — ask an engineer to "
                                                  "change it.")
                : lang == L::Jinja
                    ? QCoreApplication::translate("hako::playground::PromptDoc",
                                                  "Fills in a Jinja template — ask an "
                                                  "engineer to change it.")
                : lang == L::Pdl
                    ? QCoreApplication::translate("hako::playground::PromptDoc",
                                                  "Runs generated PDL — ask an engineer to "
                                                  "change it.")
                    : QCoreApplication::translate("hako::playground::PromptDoc",
                                                  "Runs a command on this computer — ask an "
                                                  "engineer to change it.");
            break;
        }
        case K::Read: {
            const auto& r = static_cast<const pdl::ReadBlock&>(b);
            item.label = QCoreApplication::translate("hako::playground::PromptDoc", "Read");
            if (r.read.value.isNull() || !r.read)
                item.sentence =
                    r.message
                        ? QCoreApplication::translate("hako::playground::PromptDoc",
                                                      "Asks you: “%1”")
                              .arg(qs(*r.message).trimmed())
                        : QCoreApplication::translate("hako::playground::PromptDoc",
                                                      "Asks you to type a value when it runs.");
            else
                item.sentence =
                    QCoreApplication::translate("hako::playground::PromptDoc", "Reads the file %1.")
                        .arg(code(exprText(r.read)));
            break;
        }
        case K::Include:
            item.label = QCoreApplication::translate("hako::playground::PromptDoc", "Include");
            item.sentence = QCoreApplication::translate("hako::playground::PromptDoc",
                                                        "Runs the program %1 here.")
                                .arg(code(qs(static_cast<const pdl::IncludeBlock&>(b).include)));
            item.engineerOnly = true;
            break;
        case K::Import:
            item.label = QCoreApplication::translate("hako::playground::PromptDoc", "Import");
            item.sentence = QCoreApplication::translate(
                "hako::playground::PromptDoc", "Loads the reusable steps of another program.");
            item.engineerOnly = true;
            break;
        case K::Get:
            item.label = QCoreApplication::translate("hako::playground::PromptDoc", "Value");
            item.sentence =
                QCoreApplication::translate("hako::playground::PromptDoc", "Uses the value of %1.")
                    .arg(code(qs(static_cast<const pdl::GetBlock&>(b).get)));
            break;
        case K::Aggregator:
            item.label = QCoreApplication::translate("hako::playground::PromptDoc", "Output");
            item.sentence = QCoreApplication::translate(
                "hako::playground::PromptDoc", "Collects results for a file or the console.");
            item.engineerOnly = true;
            break;
        default:
            item.label = QCoreApplication::translate("hako::playground::PromptDoc", "Step");
            item.sentence = QCoreApplication::translate("hako::playground::PromptDoc", "A %1 step.")
                                .arg(QLatin1String(pdl::blockKindName(b.kind)));
            break;
        }
    }

private:
    void setText(PromptDocItem& item, const TextScalar& s)
    {
        item.text = s.text;
        item.textSpan = s.span;
        item.editable = true;
    }

    void visitDef(const QString& name, const pdl::BlockPtr& def, QList<PromptDocItem>& out,
                  const QString& role)
    {
        if (!def)
            return;
        if (const auto s = textScalar(*def)) {
            PromptDocItem item;
            item.kind = PromptDocItem::Kind::Value;
            item.span = def->span;
            item.id = PromptDoc::blockId(def->span);
            item.heading = name;
            setText(item, *s);
            out << item;
            return;
        }
        if (fixedValue(name, *def, out))
            return;
        QList<PromptDocItem> inner;
        visit(def, inner, role, name);
        for (PromptDocItem& i : inner) {
            if (i.heading.isEmpty())
                i.heading = name;
        }
        out << inner;
    }

    // A `defs` entry that is a list of strings, a number or a bool (`data:` or bare): a Value
    // the view edits with a fitting control. False for anything else.
    bool fixedValue(const QString& name, const pdl::Block& def, QList<PromptDocItem>& out)
    {
        const auto* data = def.as<pdl::DataBlock>();
        if (!data || !def.defs.empty())
            return false;
        PromptDocItem item;
        item.kind = PromptDocItem::Kind::Value;
        item.span = def.span;
        item.id = PromptDoc::blockId(def.span);
        item.heading = name;
        const YamlValue* node =
            def.node && def.node->isMapping() ? def.node->value("data") : nullptr;
        if (node && node->isSequence()) {
            for (const YamlValue& i : node->items()) {
                if (!i.isString())
                    return false;
                item.list << qs(i.scalar().asString());
            }
            item.valueType = PromptDocItem::ValueType::List;
            item.textSpan = node->span();
            item.text = item.list.join(QLatin1Char('\n'));
            out << item;
            return true;
        }
        const pdl::Value& v = node ? node->scalar() : data->data.value;
        if ((node && !node->isScalar()) || !(v.isNumber() || v.isBool()))
            return false;
        item.valueType =
            v.isBool() ? PromptDocItem::ValueType::Bool : PromptDocItem::ValueType::Number;
        item.fixed = pdl::toQJsonValue(v);
        item.textSpan = node                        ? node->span()
                        : data->data.span.isValid() ? data->data.span
                                                    : def.span;
        item.text = qs(v.str());
        out << item;
        return true;
    }

    void visitModel(const pdl::ModelBlock& m, PromptDocItem& item, const QString& role)
    {
        item.kind = PromptDocItem::Kind::Card;
        item.label = QCoreApplication::translate("hako::playground::PromptDoc", "Model call");
        if (m.node)
            item.span = m.node->span();
        if (item.heading.isEmpty() && m.description)
            item.heading = qs(*m.description).section(QLatin1Char('\n'), 0, 0);
        const YamlValue* node = m.node.get();
        if (const YamlValue* model = node ? node->value("model") : nullptr) {
            item.model = model->isString()
                             ? qs(model->scalar().asString())
                             : pdl::toQJsonValue(model->toValue()).toVariant().toString();
            if (model->isString()) {
                item.modelSpan = model->span();
                item.modelEditable = true;
            }
        }
        const YamlValue* params = node ? node->value("parameters") : nullptr;
        item.parametersEditable = (!params || params->isNull() || params->isMapping()) && node &&
                                  inputIsMessages(node->value("input"));
        if (params && params->isMapping()) {
            const QJsonObject o = pdl::toQJsonValue(params->toValue()).toObject();
            item.temperature = o.value(QLatin1String("temperature"));
            for (const char* k : {"max_tokens", "max_new_tokens", "max_completion_tokens"}) {
                if (o.contains(QLatin1String(k))) {
                    item.maxTokensKey = QLatin1String(k);
                    item.maxTokens = o.value(QLatin1String(k));
                    break;
                }
            }
            item.stop = o.value(QLatin1String("stop"));
            if (item.stop.isUndefined() && o.contains(QLatin1String("stop_sequences"))) {
                item.stopKey = QStringLiteral("stop_sequences");
                item.stop = o.value(item.stopKey);
            }
        }
        item.usesContext = !m.input;
        if (m.input) {
            const QString inputRole = m.input->role ? qs(*m.input->role) : QStringLiteral("user");
            visit(m.input, item.children, inputRole);
            for (PromptDocItem& c : item.children) {
                if (c.kind == PromptDocItem::Kind::Paragraph && c.role.isEmpty())
                    c.role = QStringLiteral("user");
            }
        }
        (void)role;
    }
};

// The key of the YAML mapping entry on `line` whose value holds column `column` (`q` in
// `    q: ${ questions }`), and the key of the nearest line above with less indentation (`for`).
QPair<QString, QString> keysAround(const QStringList& lines, int line, int column)
{
    static const QRegularExpression keyRe(
        QStringLiteral("^(\\s*)(?:-\\s+)?([A-Za-z_][\\w]*)\\s*:"));
    if (line < 1 || line > lines.size())
        return {};
    const QString here = lines[line - 1].left(std::max(0, column - 1));
    const QRegularExpressionMatch m = keyRe.match(here);
    if (!m.hasMatch())
        return {};
    // Columns of the keys themselves (after a list item's `- `): a parent's is smaller.
    const qsizetype indent = m.capturedStart(2);
    for (int i = line - 2; i >= 0; --i) {
        const QRegularExpressionMatch p = keyRe.match(lines[i]);
        if (p.hasMatch() && p.capturedStart(2) < indent)
            return {m.captured(2), p.captured(2)};
        if (!lines[i].trimmed().isEmpty() && !p.hasMatch() &&
            lines[i].size() - lines[i].trimmed().size() < indent)
            break;
    }
    return {m.captured(2), QString()};
}

} // namespace

PromptDocInput::Kind inferInputKind(const QString& name, const QList<SourceSpan>& uses,
                                    const QString& text)
{
    using Kind = PromptDocInput::Kind;
    const QStringList lines = text.split(QLatin1Char('\n'));
    const QString n = QRegularExpression::escape(name);
    // Uses inside an expression: what follows or surrounds the name.
    const QRegularExpression numeric(
        QStringLiteral("(\\b%1\\s*([-+*/%<>]|==|!=)\\s*[\\d(]|[\\d)]\\s*([-+*/%<>]|==|!=)\\s*%1\\b|"
                       "range\\(\\s*%1\\b|\\b%1\\s*\\|\\s*(int|float|round)\\b)")
            .arg(n));
    const QRegularExpression listy(
        QStringLiteral(
            "(\\b%1\\s*\\[|\\b%1\\s*\\|\\s*(join|length|first|last|sort|unique|map|select)\\b|"
            "\\bfor\\s+\\w+\\s+in\\s+%1\\b|\\blen\\(\\s*%1\\s*\\))")
            .arg(n));
    static const QRegularExpression numberKeys(QStringLiteral(
        "^(maxIterations|max_tokens|max_new_tokens|temperature|top_p|top_k|seed|n|index)$"));
    bool file = false, number = false, list = false;
    for (const SourceSpan& use : uses) {
        if (use.line < 1 || use.line > lines.size())
            continue;
        const QString line = lines[use.line - 1];
        const auto [key, parentKey] = keysAround(lines, use.line, use.column);
        if (key == QLatin1String("read") || key == QLatin1String("file"))
            file = true;
        if (parentKey == QLatin1String("for"))
            list = true;
        if (numberKeys.match(key).hasMatch())
            number = true;
        if (numeric.match(line).hasMatch())
            number = true;
        if (listy.match(line).hasMatch())
            list = true;
    }
    static const QRegularExpression fileName(QStringLiteral("(^|_)(file|path|filename)$"),
                                             QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression countName(
        QStringLiteral("^(n|count|num_\\w+|number_of_\\w+|max_\\w+|min_\\w+|\\w+_count|limit|"
                       "size|top_k|k|age|year)$"),
        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression longName(
        QStringLiteral("text|document|content|message|article|context|body|prompt|essay|story"),
        QRegularExpression::CaseInsensitiveOption);
    if (file || fileName.match(name).hasMatch())
        return Kind::File;
    if (list)
        return Kind::List;
    if (number || countName.match(name).hasMatch())
        return Kind::Number;
    if (longName.match(name).hasMatch())
        return Kind::LongText;
    return Kind::Text;
}

namespace {

void analyseInputs(PromptDoc& doc, const pdl::Program& program, const QByteArray& text,
                   const QStringList& externalNames)
{
    pdl::ScopeOptions options;
    options.externalNames = externalNames;
    const pdl::ScopeAnalysis scopes = pdl::analyzeScopes(program, text, options);
    QHash<QString, int> index;
    for (const pdl::VariableUse& use : scopes.uses) {
        if (use.definition >= 0)
            continue;
        const QString name = qs(use.name);
        auto it = index.find(name);
        if (it == index.end()) {
            it = index.insert(name, int(doc.inputs.size()));
            doc.inputs << PromptDocInput{name, {}};
            doc.origins.insert(name, QCoreApplication::translate(
                                         "hako::playground::PromptDoc",
                                         "an input of the program (fill it in at the top)"));
        }
        doc.inputs[*it].uses << use.span;
    }
    const QString source = QString::fromUtf8(text);
    for (PromptDocInput& input : doc.inputs)
        input.kind = inferInputKind(input.name, input.uses, source);
    for (const pdl::VariableDefinition& d : scopes.definitions) {
        const QString name = qs(d.name);
        if (doc.origins.contains(name))
            continue;
        if (d.kind == pdl::VariableKind::Builtin)
            doc.origins.insert(
                name, QCoreApplication::translate("hako::playground::PromptDoc", "built in: %1")
                          .arg(pdl::variableKindName(d.kind)));
        else if (d.span.isValid())
            doc.origins.insert(
                name, QCoreApplication::translate("hako::playground::PromptDoc", "%1 on line %2")
                          .arg(pdl::variableKindName(d.kind))
                          .arg(d.span.line));
        else
            doc.origins.insert(name, pdl::variableKindName(d.kind));
    }
}

// --- editing ---------------------------------------------------------------------------------

/// A scalar found by its start, with the indentation its parent gives and whether it sits in a
/// flow collection.
struct Found {
    const YamlValue* node = nullptr;
    int parentIndent = 0; ///< 0-based column of its key or of its sequence item
    bool flow = false;
};

bool isFlow(const Source& src, const YamlValue& n)
{
    const qsizetype s = src.start(n);
    return s < src.text().size() &&
           (src.text().at(s) == QLatin1Char('{') || src.text().at(s) == QLatin1Char('['));
}

void findScalar(const Source& src, const YamlValue& n, int line, int column, int parentIndent,
                bool flow, Found& found)
{
    if (found.node)
        return;
    if (n.isScalar()) {
        if (n.span().line == line && n.span().column == column)
            found = Found{&n, parentIndent, flow};
        return;
    }
    const bool f = flow || isFlow(src, n);
    if (n.isMapping()) {
        for (const auto& e : n.entries())
            findScalar(src, e.value, line, column, e.key.span().column - 1, f, found);
    } else {
        for (const auto& item : n.items())
            findScalar(src, item, line, column, std::max(0, item.span().column - 3), f, found);
    }
}

/// Reads the scalar at (line, column) of `text` back; nothing when the text is not YAML or no
/// string scalar starts there.
std::optional<QString> readBack(const QString& text, int line, int column)
{
    Result<YamlValue> root = pdl::loadYaml(text.toUtf8(), QString());
    if (!root)
        return std::nullopt;
    const Source src(text);
    Found f;
    findScalar(src, *root, line, column, 0, false, f);
    if (!f.node || !f.node->isString())
        return std::nullopt;
    return qs(f.node->scalar().asString());
}

const YamlValue* findMapping(const YamlValue& n, int line, int column)
{
    if (n.isMapping() && n.span().line == line && n.span().column == column)
        return &n;
    if (n.isMapping()) {
        for (const auto& e : n.entries()) {
            if (const YamlValue* m = findMapping(e.value, line, column))
                return m;
        }
    } else if (n.isSequence()) {
        for (const auto& item : n.items()) {
            if (const YamlValue* m = findMapping(item, line, column))
                return m;
        }
    }
    return nullptr;
}

} // namespace

QString PromptDoc::blockId(const SourceSpan& span)
{
    return QStringLiteral("%1:%2").arg(span.line).arg(span.column);
}

Result<PromptDoc> PromptDoc::build(const QString& text, const QString& fileName,
                                   const QStringList& externalNames)
{
    const QByteArray utf8 = text.toUtf8();
    pdl::ParseResult parsed = pdl::parseProgramText(utf8, fileName);
    if (!parsed.program) {
        for (const Diagnostic& d : parsed.diagnostics) {
            if (d.severity == Severity::Error)
                return d;
        }
        return makeError(QCoreApplication::translate("hako::playground::PromptDoc",
                                                     "the program cannot be read"));
    }
    Builder b;
    b.visit(parsed.program->root, b.doc.items, QStringLiteral("user"));
    analyseInputs(b.doc, *parsed.program, utf8, externalNames);
    return b.doc;
}

Result<QList<TextEdit>> replaceScalar(const QString& source, int line, int column,
                                      const QString& value)
{
    Result<YamlValue> root = pdl::loadYaml(source.toUtf8(), QString());
    if (!root)
        return root.error();
    const Source src(source);
    Found f;
    findScalar(src, *root, line, column, 0, false, f);
    if (!f.node)
        return makeError(QCoreApplication::translate("hako::playground::PromptDoc",
                                                     "no text starts at line %1, column %2")
                             .arg(line)
                             .arg(column));
    const YamlValue& node = *f.node;
    if (node.isString() && qs(node.scalar().asString()) == value)
        return QList<TextEdit>{};
    const qsizetype from = src.start(node);
    const qsizetype to = src.end(node);
    // Text after the value on its line (a comment, a flow comma) would become part of a block
    // scalar's content: then no block (indent 0 rules it out).
    const bool restOfLine = !source.mid(to, src.lineEnd(to) - to).trimmed().isEmpty();
    const int indent = restOfLine || f.flow ? 0 : blockIndent(src, node, f.parentIndent);
    const ScalarStyle style = styleOf(src, node);
    const bool crlf = source.contains(QLatin1String("\r\n"));

    QStringList candidates;
    // isPlainSafe refuses `${` (Copy as PDL keeps templates quoted); a plain scalar that
    // already holds templates may keep them, which the read-back check below confirms.
    if (style == ScalarStyle::Plain && !value.contains(QLatin1Char('\n')) &&
        isPlainSafe(QString(value).replace(QLatin1String("${"), QLatin1String("$(")), f.flow))
        candidates << value;
    QString written = scalar(value, style, indent, f.flow);
    if (crlf && written.startsWith(QLatin1Char('|')))
        written.replace(QLatin1Char('\n'), QLatin1String("\r\n"));
    candidates << written << doubleQuoted(value);
    for (const QString& c : candidates) {
        const QList<TextEdit> edits{TextEdit{from, to - from, c}};
        if (readBack(applyEdits(source, edits), line, column) == value)
            return edits;
    }
    return makeError(QCoreApplication::translate("hako::playground::PromptDoc",
                                                 "the new text could not be written at line %1")
                         .arg(line));
}

Result<QList<TextEdit>> editParameter(const QString& source, const SourceSpan& blockSpan,
                                      const QString& name, const QJsonValue& value)
{
    Result<PlaygroundPrompt> prompt = promptFromSource(source, blockSpan);
    if (!prompt)
        return makeError(QCoreApplication::translate(
                             "hako::playground::PromptDoc",
                             "the settings of this model call are written in a way the Prompt "
                             "view cannot change — use the YAML view"),
                         blockSpan);
    PlaygroundPrompt edited = *prompt;
    // Everything as written in `extra`, so that saveToProgram compares (and keeps) each other
    // parameter exactly as it is (a `stop` string stays a string).
    QJsonObject params;
    if (Result<YamlValue> root = pdl::loadYaml(source.toUtf8(), QString())) {
        if (const YamlValue* block = findMapping(*root, blockSpan.line, blockSpan.column)) {
            if (const YamlValue* p = block->value("parameters"); p && p->isMapping())
                params = pdl::toQJsonValue(p->toValue()).toObject();
        }
    }
    if (value.isUndefined() || value.isNull())
        params.remove(name);
    else
        params.insert(name, value);
    edited.parameters = PromptParameters();
    edited.parameters.extra = params;
    Result<QList<TextEdit>> edits = saveToProgram(source, blockSpan, edited);
    if (!edits)
        return edits;
    Result<PlaygroundPrompt> back = promptFromSource(applyEdits(source, *edits), blockSpan);
    QJsonObject backParams;
    if (Result<YamlValue> root = pdl::loadYaml(applyEdits(source, *edits).toUtf8(), QString())) {
        if (const YamlValue* block = findMapping(*root, blockSpan.line, blockSpan.column)) {
            if (const YamlValue* p = block->value("parameters"); p && p->isMapping())
                backParams = pdl::toQJsonValue(p->toValue()).toObject();
        }
    }
    if (!back || backParams != params)
        return makeError(QCoreApplication::translate("hako::playground::PromptDoc",
                                                     "the setting %1 could not be written")
                             .arg(name),
                         blockSpan);
    return edits;
}

} // namespace hako::playground
