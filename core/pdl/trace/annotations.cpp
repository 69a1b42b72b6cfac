#include "core/pdl/trace/annotations.h"

#include "core/pdl/trace/tracemodel.h"
#include "core/pdl/trace/tracesource.h"
#include "core/pdl/valuejson.h"
#include "core/util/outputfile.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <vector>

namespace hako::pdl {

namespace {

constexpr int kFormatVersion = 1;
const char kFormat[] = "hako-annotations";

QString tr(const char* text)
{
    return QCoreApplication::translate("hako::pdl::Annotations", text);
}

QString numberText(double v)
{
    return QString::number(v, 'g', 6);
}

} // namespace

QString scoreKindName(ScoreKind kind)
{
    switch (kind) {
    case ScoreKind::Thumbs:
        return QStringLiteral("thumbs");
    case ScoreKind::Number:
        return QStringLiteral("number");
    case ScoreKind::Label:
        break;
    }
    return QStringLiteral("label");
}

QString Annotation::marker() const
{
    // ✓ and ✗ are in the fonts every desktop has (DejaVu, Noto CJK); 👍 and 👎 need an emoji
    // font, and without one read as empty boxes.
    if (kind == ScoreKind::Thumbs)
        return value.toBool() ? QStringLiteral("✓") : QStringLiteral("✗");
    return scoreText();
}

QString Annotation::scoreText() const
{
    switch (kind) {
    case ScoreKind::Thumbs:
        return value.toBool() ? QStringLiteral("up") : QStringLiteral("down");
    case ScoreKind::Number:
        return numberText(value.toDouble());
    case ScoreKind::Label:
        break;
    }
    return value.toString();
}

QJsonObject Annotation::toJson() const
{
    QJsonObject o{{QStringLiteral("node"), nodeId},
                  {QStringLiteral("kind"), scoreKindName(kind)},
                  {QStringLiteral("value"), value},
                  {QStringLiteral("time"), time.toUTC().toString(Qt::ISODateWithMs)}};
    if (!note.isEmpty())
        o.insert(QStringLiteral("note"), note);
    if (!author.isEmpty())
        o.insert(QStringLiteral("author"), author);
    return o;
}

Result<Annotation> Annotation::fromJson(const QJsonObject& o)
{
    Annotation a;
    a.nodeId = o.value(QStringLiteral("node")).toString();
    if (a.nodeId.isEmpty())
        return makeError(tr("An annotation names no block (\"node\")."));
    const QString kind = o.value(QStringLiteral("kind")).toString();
    a.value = o.value(QStringLiteral("value"));
    if (kind == QLatin1String("thumbs") && a.value.isBool())
        a.kind = ScoreKind::Thumbs;
    else if (kind == QLatin1String("number") && a.value.isDouble())
        a.kind = ScoreKind::Number;
    else if (kind == QLatin1String("label") && a.value.isString())
        a.kind = ScoreKind::Label;
    else
        return makeError(tr("The annotation of %1 has no valid score.").arg(a.nodeId));
    a.note = o.value(QStringLiteral("note")).toString();
    a.author = o.value(QStringLiteral("author")).toString();
    a.time = QDateTime::fromString(o.value(QStringLiteral("time")).toString(), Qt::ISODateWithMs);
    return a;
}

bool Annotation::operator==(const Annotation& other) const
{
    return nodeId == other.nodeId && kind == other.kind && value == other.value &&
           note == other.note && author == other.author && time == other.time;
}

QString annotationsPath(const QString& tracePath)
{
    return tracePath + QStringLiteral(".annotations.json");
}

Result<Annotations> readAnnotations(const QString& tracePath)
{
    const QString path = annotationsPath(tracePath);
    QFile file(path);
    if (!file.exists())
        return Annotations();
    if (!file.open(QIODevice::ReadOnly))
        return makeError(tr("Cannot read the annotations %1: %2").arg(path, file.errorString()));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    const QJsonObject root = doc.object();
    if (doc.isNull() || !doc.isObject() ||
        root.value(QStringLiteral("format")).toString() != QLatin1String(kFormat) ||
        !root.value(QStringLiteral("annotations")).isArray())
        return makeError(
            tr("%1 is not a file of Hako annotations; it was left as it is.").arg(path));
    Annotations out;
    for (const QJsonValue& v : root.value(QStringLiteral("annotations")).toArray()) {
        Result<Annotation> a = Annotation::fromJson(v.toObject());
        if (!a)
            return makeError(QStringLiteral("%1: %2").arg(path, a.error().message));
        out.insert(a->nodeId, *a);
    }
    return out;
}

Result<bool> writeAnnotations(const QString& tracePath, const Annotations& annotations)
{
    const QString path = annotationsPath(tracePath);
    if (annotations.isEmpty()) {
        if (QFile::exists(path) && !QFile::remove(path))
            return makeError(tr("Cannot remove the annotations %1").arg(path));
        return true;
    }
    // Sorted by node so that the file diffs well.
    QStringList ids = annotations.keys();
    ids.sort();
    QJsonArray list;
    for (const QString& id : ids)
        list.append(annotations.value(id).toJson());
    const QJsonObject root{{QStringLiteral("format"), QLatin1String(kFormat)},
                           {QStringLiteral("version"), kFormatVersion},
                           {QStringLiteral("annotations"), list}};
    // The output-file rule: atomic, private (notes may quote prompts and replies).
    QString error;
    if (!writeOutputFile(path, QJsonDocument(root).toJson(QJsonDocument::Indented), &error))
        return makeError(tr("Cannot write the annotations %1: %2").arg(path, error));
    return true;
}

QByteArray exportAnnotationsJsonl(const Annotations& annotations, const TraceModel& model)
{
    QByteArray out;
    std::vector<const TraceItem*> stack;
    if (model.root())
        stack.push_back(model.root());
    while (!stack.empty()) {
        const TraceItem* item = stack.back();
        stack.pop_back();
        for (auto it = item->children.rbegin(); it != item->children.rend(); ++it)
            stack.push_back(it->get());
        const auto found = annotations.constFind(QString::fromStdString(item->node.id));
        if (found == annotations.cend())
            continue;
        QJsonObject line = found->toJson();
        line.insert(QStringLiteral("block_kind"),
                    QString::fromLatin1(blockKindName(item->node.kind)));
        line.insert(QStringLiteral("label"), item->label());
        line.insert(QStringLiteral("input"), item->node.kind == BlockKind::Model
                                                 ? toQJsonValue(item->node.modelInput)
                                                 : QJsonValue());
        line.insert(QStringLiteral("output"), item->resultText());
        out += QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n';
    }
    return out;
}

AnnotationQuery AnnotationQuery::take(QStringList& words)
{
    AnnotationQuery q;
    for (auto it = words.begin(); it != words.end();) {
        if (*it == QLatin1String("annotated"))
            q.annotated = true;
        else if (it->startsWith(QLatin1String("score:")) && it->size() > 6)
            q.scores.append(it->mid(6));
        else if (it->startsWith(QLatin1String("note:")) && it->size() > 5)
            q.noteWords.append(it->mid(5));
        else {
            ++it;
            continue;
        }
        it = words.erase(it);
    }
    return q;
}

namespace {

bool scoreMatches(const Annotation& a, const QString& wanted)
{
    if (a.kind == ScoreKind::Number &&
        (wanted.startsWith(QLatin1Char('>')) || wanted.startsWith(QLatin1Char('<')))) {
        bool ok = false;
        const double bound = wanted.mid(1).toDouble(&ok);
        const double v = a.value.toDouble();
        return ok && (wanted.startsWith(QLatin1Char('>')) ? v > bound : v < bound);
    }
    if (a.kind == ScoreKind::Number) {
        bool ok = false;
        const double w = wanted.toDouble(&ok);
        return ok && qFuzzyCompare(1.0 + w, 1.0 + a.value.toDouble());
    }
    if (a.kind == ScoreKind::Thumbs) {
        const QString mark = wanted == QStringLiteral("👍")   ? QStringLiteral("✓")
                             : wanted == QStringLiteral("👎") ? QStringLiteral("✗")
                                                             : wanted;
        if (mark == QStringLiteral("✓") || mark == QStringLiteral("✗"))
            return mark == a.marker();
    }
    return a.scoreText().compare(wanted, Qt::CaseInsensitive) == 0;
}

} // namespace

bool AnnotationQuery::matches(const Annotation* a) const
{
    if (isEmpty())
        return true;
    if (!a)
        return false;
    for (const QString& s : scores)
        if (!scoreMatches(*a, s))
            return false;
    for (const QString& w : noteWords)
        if (!a->note.contains(w, Qt::CaseInsensitive))
            return false;
    return true;
}

} // namespace hako::pdl
