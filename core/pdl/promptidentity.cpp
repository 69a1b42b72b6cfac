#include "core/pdl/promptidentity.h"

#include "core/pdl/ast/block.h"
#include "core/pdl/check/blockwalk_p.h"
#include "core/pdl/parser/yamlvalue.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <functional>

namespace hako::pdl {

namespace {

const QString kMarker = QStringLiteral("# hako-prompt: ");

QString withoutCr(const QString& line)
{
    return line.endsWith(QLatin1Char('\r')) ? line.chopped(1) : line;
}

bool isCommentLine(const QString& line)
{
    const QString t = line.trimmed();
    return t.startsWith(QLatin1Char('#'));
}

QString leadingSpace(const QString& line)
{
    qsizetype n = 0;
    while (n < line.size() && line[n] == QLatin1Char(' '))
        ++n;
    return line.left(n);
}

// The UTF-16 index of 1-based code-point column `column` of `line`.
qsizetype utf16Index(const QString& line, int column)
{
    qsizetype i = 0;
    for (int c = 1; c < column && i < line.size(); ++c)
        i += (line[i].isHighSurrogate() && i + 1 < line.size()) ? 2 : 1;
    return i;
}

// Where a block's id comment goes: directly above line `line` (0-based), indented `indent`.
struct Anchor {
    int line = -1;
    QString indent;
    bool valid() const { return line >= 0; }
};

// The anchor above the token at `at`, when only indentation (and list dashes, with
// `allowDashes`) precede it on its line; otherwise, with `inlineOk`, above the whole line.
Anchor anchorAt(const QStringList& lines, const SourceSpan& at, bool allowDashes, bool inlineOk)
{
    if (!at.isValid() || at.line > lines.size())
        return {};
    const QString line = withoutCr(lines[at.line - 1]);
    const QString prefix = line.left(utf16Index(line, at.column));
    static const QRegularExpression dashes(QStringLiteral("^( *)(?:- +)*$"));
    const QRegularExpressionMatch m = dashes.match(prefix);
    if (m.hasMatch() && (allowDashes || m.capturedLength(0) == m.capturedLength(1)))
        return {at.line - 1, m.captured(1)};
    if (inlineOk)
        return {at.line - 1, leadingSpace(line)};
    return {};
}

// The nearest id in the run of comment lines directly above line `line`, skipping `skip`.
int idLineAbove(const QStringList& lines, int line, int skip)
{
    for (int i = line - 1; i >= 0 && i < lines.size() && isCommentLine(lines[i]); --i)
        if (i != skip && !promptIdInLine(lines[i]).isEmpty())
            return i;
    return -1;
}

// One model block's places: its primary anchor (where a missing id is written) and the
// anchor of its first line (read too). `shared`: an earlier block has the same primary anchor
// (several blocks on one line), so this one cannot have an id of its own.
struct Slot {
    const Block* block = nullptr;
    Anchor primary;
    Anchor first;
    bool shared = false;
};

std::vector<Slot> slotsOf(const QStringList& lines, const std::vector<const Block*>& blocks)
{
    std::vector<Slot> slots;
    QSet<int> used;
    for (const Block* b : blocks) {
        Slot s;
        s.block = b;
        s.first = anchorAt(lines, b->span, true, true);
        const SourceSpan key = b->fieldSpan("model");
        if (key.isValid() && key.line != b->span.line)
            s.primary = anchorAt(lines, key, false, false);
        if (!s.primary.valid())
            s.primary = s.first;
        s.shared = !s.primary.valid() || used.contains(s.primary.line);
        if (s.primary.valid())
            used.insert(s.primary.line);
        slots.push_back(s);
    }
    return slots;
}

// The 0-based line holding the block's written id, -1 when none.
int slotIdLine(const QStringList& lines, const Slot& s, int programLine)
{
    if (s.shared)
        return -1;
    int at = idLineAbove(lines, s.primary.line, programLine);
    if (at < 0 && s.first.valid() && s.first.line != s.primary.line)
        at = idLineAbove(lines, s.first.line, programLine);
    return at;
}

QString firstLine(const std::optional<std::string>& text)
{
    if (!text)
        return {};
    return QString::fromStdString(*text).section(QLatin1Char('\n'), 0, 0).trimmed();
}

QString pathHash(const QString& filePath)
{
    const QString absolute =
        filePath.isEmpty() ? QString() : QFileInfo(filePath).absoluteFilePath();
    return QString::fromLatin1(
        QCryptographicHash::hash(absolute.toUtf8(), QCryptographicHash::Sha256).toHex().left(12));
}

} // namespace

QString newPromptId()
{
    const quint64 n = QRandomGenerator::system()->generate64();
    return QStringLiteral("%1").arg(n & 0xFFFFFFFFFFFFull, 12, 16, QLatin1Char('0'));
}

bool isPromptId(const QString& text)
{
    static const QRegularExpression re(QStringLiteral("^[0-9a-f]{12}$"));
    return re.match(text).hasMatch();
}

bool isDerivedPromptId(const QString& id)
{
    return id.startsWith(QLatin1Char('~'));
}

QString promptIdInLine(const QString& line)
{
    static const QRegularExpression re(QStringLiteral("^\\s*# hako-prompt: ([0-9a-f]{12})\\s*$"));
    const QRegularExpressionMatch m = re.match(line);
    return m.hasMatch() ? m.captured(1) : QString();
}

int programPromptIdLine(const QStringList& lines)
{
    for (int i = 0; i < lines.size(); ++i) {
        QString t = lines[i].trimmed();
        if (i == 0 && t.startsWith(QChar(0xFEFF)))
            t = t.mid(1).trimmed();
        if (t.isEmpty())
            continue;
        if (!t.startsWith(QLatin1Char('#')))
            return -1;
        if (!promptIdInLine(t).isEmpty())
            return i;
    }
    return -1;
}

QString programPromptId(const QStringList& lines)
{
    const int at = programPromptIdLine(lines);
    return at < 0 ? QString() : promptIdInLine(lines[at].trimmed().remove(QChar(0xFEFF)));
}

QString blockPromptId(const QStringList& lines, const SourceSpan& blockSpan,
                      const SourceSpan& modelKey)
{
    Slot s;
    s.first = anchorAt(lines, blockSpan, true, true);
    if (modelKey.isValid() && modelKey.line != blockSpan.line)
        s.primary = anchorAt(lines, modelKey, false, false);
    if (!s.primary.valid())
        s.primary = s.first;
    if (!s.primary.valid())
        return {};
    const int at = slotIdLine(lines, s, programPromptIdLine(lines));
    return at < 0 ? QString() : promptIdInLine(lines[at]);
}

QString programDisplayName(const Program& program, const QString& filePath)
{
    if (program.root) {
        const QString d = firstLine(program.root->description);
        if (!d.isEmpty())
            return d;
    }
    const QString base = QFileInfo(filePath).completeBaseName();
    return base.isEmpty() ? QStringLiteral("untitled") : base;
}

QString promptDisplayName(const Block& block, const QString& programName, int ordinal)
{
    const QString d = firstLine(block.description);
    if (!d.isEmpty())
        return d;
    if (block.def && !block.def->empty())
        return QString::fromStdString(*block.def);
    return QStringLiteral("%1 #%2").arg(programName).arg(ordinal);
}

std::vector<const Block*> modelBlocks(const Program& program)
{
    std::vector<const Block*> out;
    std::function<void(const BlockPtr&)> walk = [&](const BlockPtr& b) {
        if (b->kind == BlockKind::Model)
            out.push_back(b.get());
        detail::forEachChildBlock(*b, [&](const BlockPtr& c, const std::string&) { walk(c); });
    };
    if (program.root)
        walk(program.root);
    std::stable_sort(out.begin(), out.end(), [](const Block* a, const Block* b) {
        return std::pair(a->span.line, a->span.column) < std::pair(b->span.line, b->span.column);
    });
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

const PromptIdentity* ProgramIdentity::find(const SourceSpan& span) const
{
    for (const PromptIdentity& p : prompts)
        if (p.span.line == span.line && p.span.column == span.column)
            return &p;
    return nullptr;
}

ProgramIdentity readProgramIdentity(const QStringList& lines, const Program& program,
                                    const QString& filePath)
{
    ProgramIdentity out;
    const QString derived = QLatin1Char('~') + pathHash(filePath);
    const int programLine = programPromptIdLine(lines);
    out.id = programLine < 0 ? derived : programPromptId(lines);
    out.name = programDisplayName(program, filePath);
    const std::vector<const Block*> blocks = modelBlocks(program);
    QSet<QString> seen;
    int ordinal = 0;
    for (const Slot& s : slotsOf(lines, blocks)) {
        PromptIdentity p;
        p.span = s.block->span;
        p.ordinal = ++ordinal;
        p.name = promptDisplayName(*s.block, out.name, p.ordinal);
        const int at = slotIdLine(lines, s, programLine);
        p.id = at < 0 ? QString() : promptIdInLine(lines[at]);
        if (p.id.isEmpty() || seen.contains(p.id))
            p.id = derived + QLatin1Char('.') + QString::number(p.ordinal);
        seen.insert(p.id);
        out.prompts.push_back(std::move(p));
    }
    return out;
}

namespace {

std::vector<PromptIdLine> wantedLines(const QStringList& lines, const Program& parsed)
{
    std::vector<PromptIdLine> inserts;
    const int programLine = programPromptIdLine(lines);
    QSet<QString> seen;
    if (programLine < 0)
        inserts.push_back({0, kMarker + newPromptId()});
    else
        seen.insert(programPromptId(lines));
    for (const Slot& s : slotsOf(lines, modelBlocks(parsed))) {
        if (s.shared)
            continue;
        const int at = slotIdLine(lines, s, programLine);
        const QString id = at < 0 ? QString() : promptIdInLine(lines[at]);
        if (!id.isEmpty() && !seen.contains(id)) {
            seen.insert(id);
            continue;
        }
        QString fresh = newPromptId();
        while (seen.contains(fresh))
            fresh = newPromptId();
        seen.insert(fresh);
        inserts.push_back({s.primary.line, s.primary.indent + kMarker + fresh});
    }
    std::stable_sort(inserts.begin(), inserts.end(),
                     [](const PromptIdLine& a, const PromptIdLine& b) { return a.line < b.line; });
    return inserts;
}

QString withLines(const QString& source, const std::vector<PromptIdLine>& inserts)
{
    QStringList lines = source.split(QLatin1Char('\n'));
    const QString eol =
        lines.first().endsWith(QLatin1Char('\r')) ? QStringLiteral("\r") : QString();
    const bool bom = lines.first().startsWith(QChar(0xFEFF));
    if (bom)
        lines.first().remove(0, 1);
    for (auto it = inserts.rbegin(); it != inserts.rend(); ++it)
        lines.insert(it->line, it->text + eol);
    if (bom)
        lines.first().prepend(QChar(0xFEFF));
    return lines.join(QLatin1Char('\n'));
}

} // namespace

std::vector<PromptIdLine> missingPromptIdLines(const QString& source, const Program& parsed)
{
    if (source.contains(QLatin1Char('\r')) && !source.contains(QLatin1Char('\n')))
        return {}; // old Mac line endings: the parser's lines are not ours
    const std::vector<PromptIdLine> inserts = wantedLines(source.split(QLatin1Char('\n')), parsed);
    if (inserts.empty())
        return {};
    // The comments must not change what the YAML says; a layout they cannot go into (a block
    // starting inside a multi-line scalar's line, say) keeps the text as it is.
    const Result<YamlValue> before = loadYaml(source.toUtf8(), parsed.file);
    const Result<YamlValue> after = loadYaml(withLines(source, inserts).toUtf8(), parsed.file);
    if (!before || !after || !(before->toValue() == after->toValue()))
        return {};
    return inserts;
}

QString ensurePromptIds(const QString& source, const Program& parsed)
{
    const std::vector<PromptIdLine> inserts = missingPromptIdLines(source, parsed);
    return inserts.empty() ? source : withLines(source, inserts);
}

} // namespace hako::pdl
