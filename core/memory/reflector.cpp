#include "core/memory/reflector.h"

#include "core/memory/hashembedding.h"
#include "core/pdl/model/modelprovider.h"

#include <QRegularExpression>

#include <algorithm>

namespace hako::memory {

Reflector::Reflector(std::shared_ptr<MemoryStore> store, models::IModelProvider* provider,
                     ReflectionOptions options)
    : m_store(std::move(store)), m_provider(provider), m_options(std::move(options))
{}

int64_t Reflector::accumulatedImportance() const
{
    return m_store->importanceSinceLastReflection(m_options.agent);
}

Result<int64_t> Reflector::addInsight(const QString& text, const std::vector<int64_t>& evidence,
                                      const MemorySource& source, int importance,
                                      const ChangeContext& ctx, const CancelToken& cancel)
{
    for (int64_t id : evidence) {
        if (auto r = m_store->get(id); !r)
            return makeError(QStringLiteral("insight evidence: %1").arg(r.error().message));
    }
    MemoryRecord r;
    r.agent = m_options.agent;
    r.kind = Kind::Insight;
    r.text = text;
    r.importance = std::clamp(importance, 1, 10);
    r.importanceSource = ImportanceSource::Default;
    r.evidence = evidence;
    r.source = source;
    if (m_provider && !m_options.embeddingModel.isEmpty()) {
        auto v = embedOne(*m_provider, m_options.embeddingModel, text, cancel);
        if (!v)
            return v.error();
        r.embeddingModel = m_options.embeddingModel;
        r.embedding = std::move(v.value());
    }
    return m_store->add(std::move(r), ctx);
}

std::vector<Reflector::ParsedInsight> Reflector::parseInsights(const QString& reply)
{
    static const QRegularExpression line(
        QStringLiteral(
            "^\\s*(?:\\d+[.)]\\s*|[-*]\\s*)?(.+?)\\s*\\(because of ([\\d,\\s]+)\\)\\s*\\.?\\s*$"),
        QRegularExpression::CaseInsensitiveOption);
    std::vector<ParsedInsight> out;
    for (const QString& l : reply.split(QLatin1Char('\n'))) {
        const auto m = line.match(l);
        if (!m.hasMatch())
            continue;
        ParsedInsight p;
        p.text = m.captured(1).trimmed();
        for (const QString& n : m.captured(2).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            bool ok = false;
            const int v = n.trimmed().toInt(&ok);
            if (ok)
                p.statements.push_back(v);
        }
        if (!p.text.isEmpty())
            out.push_back(std::move(p));
    }
    return out;
}

Result<std::vector<int64_t>> Reflector::reflect(bool force, const ChangeContext& ctx,
                                                const CancelToken& cancel)
{
    std::vector<int64_t> created;
    if (!force && !isDue())
        return created;
    if (!m_provider || m_options.chatModel.isEmpty())
        return makeError(QStringLiteral("reflection needs a chat model"));
    MemoryFilter f;
    f.agent = m_options.agent;
    f.state = State::Active;
    auto all = m_store->list(f);
    if (!all)
        return all.error();
    // The memories since the last reflection, newest last, at most maxStatements of them.
    std::vector<MemoryRecord> since;
    for (auto it = all->rbegin(); it != all->rend(); ++it) {
        if (it->kind == Kind::Reflection)
            break;
        if (it->kind == Kind::Observation || it->kind == Kind::Chat || it->kind == Kind::Insight)
            since.push_back(*it);
        if (int(since.size()) >= m_options.maxStatements)
            break;
    }
    std::reverse(since.begin(), since.end());
    if (since.empty())
        return created;
    QString prompt;
    for (size_t i = 0; i < since.size(); ++i)
        prompt += QStringLiteral("%1. %2\n").arg(i + 1).arg(since[i].text);
    prompt += QStringLiteral("\nWhat %1 high-level insights can you infer from the above "
                             "statements? Answer one per line, as: insight (because of 1, 5, 3)")
                  .arg(m_options.maxInsights);
    const models::ChatRequest req =
        models::ChatRequest::userText(m_options.chatModel.toStdString(), prompt.toStdString());
    auto reply = m_provider->chat(req, {}, cancel);
    if (!reply)
        return makeError(QStringLiteral("reflection with '%1': %2")
                             .arg(m_options.chatModel, reply.error().message));
    const auto insights = parseInsights(QString::fromStdString(reply->content));
    for (const ParsedInsight& p : insights) {
        if (int(created.size()) >= m_options.maxInsights)
            break;
        MemoryRecord r;
        r.agent = m_options.agent;
        r.kind = Kind::Reflection;
        r.text = p.text;
        int importance = 1;
        for (int n : p.statements) {
            if (n >= 1 && n <= int(since.size())) {
                r.evidence.push_back(since[size_t(n - 1)].id);
                importance = std::max(importance, since[size_t(n - 1)].importance);
            }
        }
        r.importance = importance;
        r.importanceSource = ImportanceSource::Default;
        r.source.runId = ctx.runId;
        r.source.nodeId = ctx.nodeId;
        if (!m_options.embeddingModel.isEmpty()) {
            auto v = embedOne(*m_provider, m_options.embeddingModel, p.text, cancel);
            if (!v)
                return v.error();
            r.embeddingModel = m_options.embeddingModel;
            r.embedding = std::move(v.value());
        }
        ChangeContext c = ctx;
        if (c.reason.isEmpty())
            c.reason = QStringLiteral("reflection over %1 memories").arg(since.size());
        auto id = m_store->add(std::move(r), c);
        if (!id)
            return id.error();
        created.push_back(*id);
    }
    return created;
}

} // namespace hako::memory
