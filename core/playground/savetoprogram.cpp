#include "core/playground/savetoprogram.h"

#include "core/pdl/parser/programparser.h"
#include "core/pdl/parser/yamlvalue.h"
#include "core/pdl/promptidentity.h"
#include "core/pdl/valuejson.h"
#include "core/playground/yamlemit_p.h"
#include "core/playground/yamlsource_p.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <nlohmann/json.hpp>

#include <algorithm>

namespace hako::playground {

using pdl::YamlValue;
using namespace detail;

namespace {

bool contains(const SourceSpan& outer, int line, int column)
{
    auto before = [](int l1, int c1, int l2, int c2) {
        return l1 < l2 || (l1 == l2 && c1 <= c2);
    };
    return before(outer.line, outer.column, line, column) &&
           before(line, column, outer.endLine, outer.endColumn);
}

void collectModelBlocks(const YamlValue& node, std::vector<const YamlValue*>& out)
{
    if (node.isMapping()) {
        if (node.find("model"))
            out.push_back(&node);
        for (const auto& e : node.entries())
            collectModelBlocks(e.value, out);
    } else if (node.isSequence()) {
        for (const auto& item : node.items())
            collectModelBlocks(item, out);
    }
}

const YamlValue* findBlock(const YamlValue& root, const SourceSpan& span)
{
    std::vector<const YamlValue*> blocks;
    collectModelBlocks(root, blocks);
    const YamlValue* best = nullptr;
    for (const YamlValue* b : blocks) {
        if (b->span().line == span.line && b->span().column == span.column)
            return b;
        if (contains(b->span(), span.line, span.column) &&
            (!best || contains(best->span(), b->span().line, b->span().column)))
            best = b;
    }
    return best;
}

/// One message of a block's input as written.
struct SourceMessage {
    const YamlValue* node = nullptr;    ///< the item (mapping or scalar)
    const YamlValue* role = nullptr;    ///< the role's value, when written
    const YamlValue* content = nullptr; ///< the content's value (a string scalar)
    const YamlValue::Entry* contentEntry = nullptr;
    PromptMessage message;
};

/// How a block's input is written.
struct SourceInput {
    enum class Shape { None, Scalar, List, Message, Other };
    Shape shape = Shape::None;
    const YamlValue::Entry* entry = nullptr; ///< `input: …`
    const YamlValue* list = nullptr;         ///< the sequence of messages (List)
    std::vector<SourceMessage> messages;
};

std::optional<SourceMessage> readMessage(const YamlValue& item)
{
    SourceMessage m;
    m.node = &item;
    if (item.isString()) {
        m.content = &item;
        m.message.content = QString::fromStdString(item.scalar().asString());
        return m;
    }
    if (!item.isMapping())
        return std::nullopt;
    for (const auto& e : item.entries()) {
        if (e.name != "role" && e.name != "content")
            return std::nullopt;
    }
    const YamlValue::Entry* content = item.find("content");
    if (!content || !content->value.isString())
        return std::nullopt;
    m.content = &content->value;
    m.contentEntry = content;
    m.message.content = QString::fromStdString(content->value.scalar().asString());
    if (const YamlValue* role = item.value("role")) {
        if (!role->isString())
            return std::nullopt;
        m.role = role;
        m.message.role = QString::fromStdString(role->scalar().asString());
    }
    return m;
}

SourceInput readInput(const YamlValue& block)
{
    SourceInput in;
    in.entry = block.find("input");
    if (!in.entry)
        return in;
    const YamlValue& v = in.entry->value;
    in.shape = SourceInput::Shape::Other;
    if (v.isString()) {
        in.shape = SourceInput::Shape::Scalar;
        SourceMessage m;
        m.node = &v;
        m.content = &v;
        m.message.content = QString::fromStdString(v.scalar().asString());
        in.messages.push_back(m);
        return in;
    }
    const YamlValue* list = nullptr;
    if (v.isSequence())
        list = &v;
    else if (v.isMapping() && v.entries().size() == 1 && v.value("array") &&
             v.value("array")->isSequence())
        list = v.value("array");
    if (list) {
        std::vector<SourceMessage> messages;
        for (const YamlValue& item : list->items()) {
            auto m = readMessage(item);
            if (!m)
                return in;
            messages.push_back(*m);
        }
        in.shape = SourceInput::Shape::List;
        in.list = list;
        in.messages = std::move(messages);
        return in;
    }
    if (v.isMapping() && v.find("content")) {
        if (auto m = readMessage(v)) {
            in.shape = SourceInput::Shape::Message;
            in.messages.push_back(*m);
        }
    }
    return in;
}

class EditBuilder {
public:
    explicit EditBuilder(const Source& src) : m_src(src) {}

    void replace(qsizetype from, qsizetype to, const QString& text)
    {
        if (m_src.text().mid(from, to - from) != text)
            m_edits.append(TextEdit{from, to - from, text});
    }
    void insert(qsizetype at, const QString& text) { m_edits.append(TextEdit{at, 0, text}); }

    /// Rewrites a scalar value to `text`, keeping its style when it can.
    void replaceScalar(const YamlValue& node, const QString& text, int keyColumn, bool flow)
    {
        if (node.isString() && QString::fromStdString(node.scalar().asString()) == text)
            return;
        const qsizetype end = m_src.end(node);
        // Text after the value on its line (a comment, a flow comma) would become part of a
        // block scalar's content: then no block (indent 0 rules it out).
        const bool restOfLine =
            !m_src.text().mid(end, m_src.lineEnd(end) - end).trimmed().isEmpty();
        const int indent = restOfLine ? 0 : blockIndent(m_src, node, keyColumn);
        const QString value = scalar(text, styleOf(m_src, node), indent, flow);
        replace(m_src.start(node), end, value);
    }

    /// Rewrites the value of `entry` to the JSON value `value`.
    void replaceValue(const YamlValue::Entry& entry, const QJsonValue& value, bool flow)
    {
        const YamlValue& node = entry.value;
        if (pdl::toQJsonValue(node.toValue()) == value)
            return;
        if (value.isString() && node.isScalar()) {
            replaceScalar(node, value.toString(), Source::column(entry.key), flow);
            return;
        }
        if (!node.isScalar() && !m_src.isFlow(node)) {
            // A block collection (on the lines below its key) becomes a flow value after it.
            replace(afterColon(entry.key), m_src.end(node),
                    QLatin1Char(' ') + flowValue(value, flow));
            return;
        }
        replace(m_src.start(node), m_src.end(node), flowValue(value, flow));
    }

    /// Just after the `:` that follows `key`.
    qsizetype afterColon(const YamlValue& key) const
    {
        qsizetype i = m_src.end(key);
        const QString& t = m_src.text();
        while (i < t.size() && t.at(i) == QLatin1Char(' '))
            ++i;
        return i < t.size() && t.at(i) == QLatin1Char(':') ? i + 1 : m_src.end(key);
    }

    Result<QList<TextEdit>> finish()
    {
        // At one offset an insertion goes before a replacement that starts there.
        std::stable_sort(m_edits.begin(), m_edits.end(), [](const TextEdit& a, const TextEdit& b) {
            return a.offset < b.offset || (a.offset == b.offset && a.length == 0 && b.length > 0);
        });
        for (qsizetype i = 1; i < m_edits.size(); ++i) {
            if (m_edits[i - 1].offset + m_edits[i - 1].length > m_edits[i].offset)
                return makeError(QObject::tr("internal error: overlapping edits at %1+%2 "
                                             "and %3+%4")
                                     .arg(m_edits[i - 1].offset)
                                     .arg(m_edits[i - 1].length)
                                     .arg(m_edits[i].offset)
                                     .arg(m_edits[i].length));
        }
        return m_edits;
    }

private:
    const Source& m_src;
    QList<TextEdit> m_edits;
};

QString pad(int n)
{
    return QString(std::max(0, n), QLatin1Char(' '));
}

/// Messages as a flow sequence `[{role: …, content: …}, …]`.
QString flowMessages(const QList<PromptMessage>& messages)
{
    QStringList items;
    for (const PromptMessage& m : messages) {
        items << QStringLiteral("{role: %1, content: %2}")
                     .arg(scalar(m.role, ScalarStyle::Plain, 0, true),
                          scalar(m.content, ScalarStyle::Plain, 0, true));
    }
    return QLatin1Char('[') + items.join(QStringLiteral(", ")) + QLatin1Char(']');
}

/// One message as block sequence lines (`- role: …` at `dashColumn`), without a leading or
/// trailing newline.
QString blockMessage(const PromptMessage& m, int dashColumn)
{
    return pad(dashColumn) + QStringLiteral("- role: ") +
           scalar(m.role, ScalarStyle::Plain, 0, false) + QLatin1Char('\n') + pad(dashColumn + 2) +
           QStringLiteral("content: ") +
           scalar(m.content, ScalarStyle::Plain, dashColumn + 4, false);
}

/// The value of `input:` as the array form: for a block context, starting with a newline
/// (the key at `keyColumn`).
QString inputValue(const QList<PromptMessage>& messages, int keyColumn, bool flow)
{
    if (flow)
        return QStringLiteral("{array: ") + flowMessages(messages) + QLatin1Char('}');
    QString out = QLatin1Char('\n') + pad(keyColumn + 2) + QStringLiteral("array:");
    for (const PromptMessage& m : messages)
        out += QLatin1Char('\n') + blockMessage(m, keyColumn + 2);
    return out;
}

/// Where a new entry goes after `node`'s value in a block mapping: the end of its last line
/// (after any comment there).
qsizetype afterLine(const Source& src, const YamlValue& value)
{
    return src.lineEnd(src.end(value) > 0 ? src.end(value) - 1 : 0);
}

// The model block at `blockSpan` in `root`, or an error naming the place.
Result<const YamlValue*> modelBlockAt(const YamlValue& root, const SourceSpan& blockSpan)
{
    if (const YamlValue* block = findBlock(root, blockSpan))
        return block;
    return makeError(QObject::tr("no model block at line %1, column %2")
                         .arg(blockSpan.line)
                         .arg(blockSpan.column),
                     blockSpan);
}

} // namespace

namespace {

// The prompt's identity and names as a run of the program logs them (the runner's call site).
void withIdentity(PlaygroundPrompt& p, const QString& sourceText, const SourceSpan& blockSpan)
{
    const pdl::ParseResult parsed = pdl::parseProgramText(sourceText.toUtf8(), blockSpan.file);
    if (!parsed.program)
        return;
    const pdl::ProgramIdentity identity =
        pdl::readProgramIdentity(sourceText.split(QLatin1Char('\n')), *parsed.program,
                                 QFileInfo(blockSpan.file).absoluteFilePath());
    p.programId = identity.id;
    p.programName = identity.name;
    if (const pdl::PromptIdentity* prompt = identity.find(blockSpan)) {
        p.promptId = prompt->id;
        p.name = prompt->name;
    }
}

} // namespace

Result<PlaygroundPrompt> promptFromSource(const QString& sourceText, const SourceSpan& blockSpan)
{
    Result<YamlValue> root = pdl::loadYaml(sourceText.toUtf8(), blockSpan.file);
    if (!root)
        return root.error();
    Result<const YamlValue*> found = modelBlockAt(*root, blockSpan);
    if (!found)
        return found.error();
    const YamlValue* block = *found;
    PlaygroundPrompt p;
    const YamlValue* model = block->value("model");
    p.model = model->isString() ? QString::fromStdString(model->scalar().asString())
                                : pdl::toQJsonValue(model->toValue()).toVariant().toString();
    if (const YamlValue* def = block->value("def"); def && def->isString())
        p.name = QString::fromStdString(def->scalar().asString());
    else if (const YamlValue* d = block->value("description"); d && d->isString())
        p.name = QString::fromStdString(d->scalar().asString()).section(QLatin1Char('\n'), 0, 0);
    if (const YamlValue* params = block->value("parameters")) {
        if (!params->isMapping() && !params->isNull())
            return makeError(QObject::tr("the block's parameters are an expression; the "
                                         "playground edits a parameters mapping"),
                             params->span());
        if (params->isMapping())
            p.parameters =
                PromptParameters::fromJson(pdl::toQJsonValue(params->toValue()).toObject());
    }
    const SourceInput in = readInput(*block);
    if (in.shape == SourceInput::Shape::Other)
        return makeError(QObject::tr("the block's input is not a text or a list of {role, "
                                     "content} messages"),
                         in.entry->value.span());
    for (const SourceMessage& m : in.messages)
        p.messages << m.message;
    withIdentity(p, sourceText, blockSpan);
    return p;
}

namespace {

// The block's `parameters` made `wanted`: entries edited, removed and added in place, or written
// out when there are none; an error when they cannot be edited in place.
std::optional<Diagnostic> editParameters(EditBuilder& edits, const Source& src,
                                         const QString& sourceText, const YamlValue& block,
                                         const QJsonObject& wanted)
{
    const bool blockFlow = src.isFlow(block);
    const YamlValue::Entry* modelEntry = block.find("model");
    const int keyColumn = Source::column(modelEntry->key);
    const YamlValue::Entry* paramsEntry = block.find("parameters");
    if (paramsEntry && paramsEntry->value.isMapping()) {
        const YamlValue& params = paramsEntry->value;
        const bool flow = src.isFlow(params);
        const auto& entries = params.entries();
        const size_t n = entries.size();
        auto removed = [&](size_t i) {
            return !wanted.contains(QString::fromStdString(entries[i].name));
        };
        // Entries from `tail` on are all removed (n when the last one stays).
        size_t tail = n;
        while (tail > 0 && removed(tail - 1))
            --tail;
        QStringList added;
        for (auto it = wanted.begin(); it != wanted.end(); ++it) {
            if (!params.find(it.key().toStdString()))
                added << it.key();
        }
        auto entryText = [&](const QString& k, bool inFlow) -> QString {
            return scalar(k, ScalarStyle::Plain, 0, inFlow) + QStringLiteral(": ") +
                   flowValue(wanted.value(k), inFlow);
        };
        for (size_t i = 0; i < n; ++i) {
            const auto& e = entries[i];
            if (!removed(i)) {
                edits.replaceValue(e, wanted.value(QString::fromStdString(e.name)), flow);
                continue;
            }
            const qsizetype keyStart = src.start(e.key);
            if (flow) {
                // Up to the next key; a removed tail goes from the end of the last kept value.
                if (i < tail)
                    edits.replace(keyStart, src.start(entries[i + 1].key), QString());
                else if (i == tail)
                    edits.replace(tail > 0 ? src.end(entries[tail - 1].value) : keyStart,
                                  src.end(entries.back().value), QString());
            } else {
                if (!src.firstOnLine(keyStart))
                    return makeError(QObject::tr("cannot remove the parameter %1 written on the "
                                                 "line of another key; remove it in the editor")
                                         .arg(QString::fromStdString(e.name)),
                                     e.key.span());
                const qsizetype from = src.lineStart(keyStart);
                qsizetype to = afterLine(src, e.value);
                if (to < sourceText.size())
                    ++to;
                edits.replace(from, to, QString());
            }
        }
        if (!added.isEmpty()) {
            QStringList parts;
            for (const QString& k : added)
                parts << entryText(k, flow);
            if (flow) {
                if (tail == 0)
                    edits.insert(n == 0 ? src.start(params) + 1 : src.end(entries.back().value),
                                 parts.join(QStringLiteral(", ")));
                else
                    edits.insert(src.end(entries.back().value),
                                 QStringLiteral(", ") + parts.join(QStringLiteral(", ")));
            } else {
                const QString indent = pad(Source::column(entries.front().key));
                if (tail == 0) {
                    // Every entry goes: the new ones take the place of the first.
                    edits.insert(src.lineStart(src.start(entries.front().key)),
                                 indent + parts.join(QLatin1Char('\n') + indent) +
                                     QLatin1Char('\n'));
                } else {
                    edits.insert(afterLine(src, entries[tail - 1].value),
                                 QLatin1Char('\n') + indent +
                                     parts.join(QLatin1Char('\n') + indent));
                }
            }
        }
    } else if (paramsEntry && !paramsEntry->value.isNull()) {
        if (pdl::toQJsonValue(paramsEntry->value.toValue()) != QJsonValue(wanted))
            return makeError(QObject::tr("the block's parameters are an expression; edit them "
                                         "in the editor"),
                             paramsEntry->value.span());
    } else if (!wanted.isEmpty()) {
        // No parameters (or `parameters:` with nothing): write them out.
        QString text;
        if (blockFlow) {
            QStringList parts;
            for (auto it = wanted.begin(); it != wanted.end(); ++it)
                parts << scalar(it.key(), ScalarStyle::Plain, 0, true) + QStringLiteral(": ") +
                             flowValue(it.value(), true);
            const QString value =
                QLatin1Char('{') + parts.join(QStringLiteral(", ")) + QLatin1Char('}');
            if (paramsEntry)
                edits.replace(src.start(paramsEntry->value), src.end(paramsEntry->value), value);
            else
                edits.insert(src.end(modelEntry->value), QStringLiteral(", parameters: ") + value);
        } else {
            for (auto it = wanted.begin(); it != wanted.end(); ++it)
                text += QLatin1Char('\n') + pad(keyColumn + 2) +
                        scalar(it.key(), ScalarStyle::Plain, 0, false) + QStringLiteral(": ") +
                        flowValue(it.value(), false);
            if (paramsEntry) {
                edits.insert(src.end(paramsEntry->key) + 1, text);
            } else {
                edits.insert(afterLine(src, modelEntry->value), QLatin1Char('\n') + pad(keyColumn) +
                                                                    QStringLiteral("parameters:") +
                                                                    text);
            }
        }
    }

    return std::nullopt;
}

// The block's input made the messages `want`, keeping its shape (a text, a message, a list)
// where it can; an error when they cannot be edited in place.
std::optional<Diagnostic> editMessages(EditBuilder& edits, const Source& src,
                                       const QString& sourceText, const YamlValue& block,
                                       const QList<PromptMessage>& want)
{
    const bool blockFlow = src.isFlow(block);
    const int keyColumn = Source::column(block.find("model")->key);
    const SourceInput in = readInput(block);
    auto replaceWholeInput = [&] {
        const YamlValue& v = in.entry->value;
        const QString value = inputValue(want, Source::column(in.entry->key), blockFlow);
        if (blockFlow)
            edits.replace(src.start(v), src.end(v), value);
        else
            edits.replace(edits.afterColon(in.entry->key), src.end(v), value);
    };
    switch (in.shape) {
    case SourceInput::Shape::None:
        if (!want.isEmpty()) {
            const auto& last = block.entries().back();
            if (blockFlow)
                edits.insert(src.end(last.value),
                             QStringLiteral(", input: ") + inputValue(want, 0, true));
            else
                edits.insert(afterLine(src, last.value), QLatin1Char('\n') + pad(keyColumn) +
                                                             QStringLiteral("input:") +
                                                             inputValue(want, keyColumn, false));
        }
        break;
    case SourceInput::Shape::Scalar:
        if (want.size() == 1 && want.front().role == QLatin1String("user"))
            edits.replaceScalar(in.entry->value, want.front().content,
                                Source::column(in.entry->key), blockFlow);
        else if (want != QList<PromptMessage>{in.messages.front().message})
            replaceWholeInput();
        break;
    case SourceInput::Shape::Message:
    case SourceInput::Shape::List: {
        if (want.isEmpty() || (in.shape == SourceInput::Shape::Message && want.size() != 1) ||
            (in.shape == SourceInput::Shape::List && in.messages.empty())) {
            QList<PromptMessage> have;
            for (const auto& m : in.messages)
                have << m.message;
            if (have != want)
                replaceWholeInput();
            break;
        }
        const size_t common = std::min(in.messages.size(), size_t(want.size()));
        for (size_t i = 0; i < common; ++i) {
            const SourceMessage& m = in.messages[i];
            const PromptMessage& w = want.at(qsizetype(i));
            const bool itemFlow = m.node->isMapping() && src.isFlow(*m.node);
            if (m.node->isScalar()) {
                // A bare string item is a user message.
                if (w.role == QLatin1String("user"))
                    edits.replaceScalar(*m.node, w.content, Source::column(*m.node), itemFlow);
                else
                    edits.replace(src.start(*m.node), src.end(*m.node),
                                  QStringLiteral("{role: %1, content: %2}")
                                      .arg(scalar(w.role, ScalarStyle::Plain, 0, true),
                                           scalar(w.content, ScalarStyle::Plain, 0, true)));
                continue;
            }
            const int contentColumn = Source::column(m.contentEntry->key);
            if (m.role) {
                edits.replaceScalar(*m.role, w.role, contentColumn, itemFlow);
            } else if (w.role != QLatin1String("user")) {
                const qsizetype at = src.start(m.contentEntry->key);
                edits.insert(
                    at,
                    QStringLiteral("role: ") + scalar(w.role, ScalarStyle::Plain, 0, itemFlow) +
                        (itemFlow ? QStringLiteral(", ") : QLatin1Char('\n') + pad(contentColumn)));
            }
            edits.replaceScalar(*m.content, w.content, contentColumn, itemFlow);
        }
        if (in.shape == SourceInput::Shape::Message)
            break;
        const YamlValue& list = *in.list;
        const bool listFlow = src.isFlow(list);
        const auto& items = list.items();
        if (size_t(want.size()) > in.messages.size()) {
            const QList<PromptMessage> more = want.mid(qsizetype(in.messages.size()));
            if (listFlow) {
                QString text = flowMessages(more);
                edits.insert(src.end(items.back()),
                             QStringLiteral(", ") + text.mid(1, text.size() - 2));
            } else {
                const int dash = Source::column(list);
                QString text;
                for (const PromptMessage& m : more)
                    text += QLatin1Char('\n') + blockMessage(m, dash);
                edits.insert(afterLine(src, items.back()), text);
            }
        } else if (size_t(want.size()) < in.messages.size()) {
            const size_t first = size_t(want.size());
            if (listFlow) {
                edits.replace(src.end(items[first - 1]), src.end(items.back()), QString());
            } else {
                // From the line of the first removed item's dash to the end of the last one.
                qsizetype dash = src.start(items[first]);
                while (dash > 0 && sourceText.at(dash - 1) != QLatin1Char('-'))
                    --dash;
                const qsizetype from = src.lineStart(dash);
                if (!src.firstOnLine(dash - 1))
                    return makeError(QObject::tr("cannot remove messages written on one line; "
                                                 "remove them in the editor"),
                                     items[first].span());
                qsizetype to = afterLine(src, items.back());
                if (to < sourceText.size())
                    ++to;
                edits.replace(from, to, QString());
            }
        }
        break;
    }
    case SourceInput::Shape::Other:
        replaceWholeInput();
        break;
    }
    return std::nullopt;
}

} // namespace

Result<QList<TextEdit>> saveToProgram(const QString& sourceText, const SourceSpan& blockSpan,
                                      const PlaygroundPrompt& edited)
{
    Result<YamlValue> root = pdl::loadYaml(sourceText.toUtf8(), blockSpan.file);
    if (!root)
        return root.error();
    Result<const YamlValue*> found = modelBlockAt(*root, blockSpan);
    if (!found)
        return found.error();
    const YamlValue* block = *found;
    const Source src(sourceText);
    EditBuilder edits(src);
    // The model.
    const YamlValue::Entry* modelEntry = block->find("model");
    edits.replaceScalar(modelEntry->value, edited.model, Source::column(modelEntry->key),
                        src.isFlow(*block));

    if (std::optional<Diagnostic> error =
            editParameters(edits, src, sourceText, *block, edited.parameters.toJson()))
        return *error;
    if (std::optional<Diagnostic> error =
            editMessages(edits, src, sourceText, *block, edited.messages))
        return *error;
    return edits.finish();
}

QString applyEdits(const QString& text, const QList<TextEdit>& edits)
{
    QString out = text;
    for (qsizetype i = edits.size() - 1; i >= 0; --i)
        out.replace(edits[i].offset, edits[i].length, edits[i].replacement);
    return out;
}

} // namespace hako::playground
