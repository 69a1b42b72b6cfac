#include "core/docs/docbindings.h"

#include "core/docs/documentsession.h"

namespace hako::docs {

namespace {

// Arguments as command words: strings as they are, numbers in Python form.
QString word(const pdl::Value& v)
{
    return QString::fromStdString(v.isString() ? v.asString() : v.str());
}

pdl::Value commandCall(const std::shared_ptr<DocumentSession>& session, const char* name,
                       const pdl::CallArgs& args)
{
    QStringList words{QString::fromLatin1(name)};
    for (const pdl::Value& v : args.positional)
        words.append(word(v));
    if (const pdl::Value* page = args.kw("page"))
        words << QStringLiteral("page") << word(*page);
    return pdl::Value(session->execute(words.join(QLatin1Char(' '))).output.toStdString());
}

} // namespace

pdl::Value makeDocumentBindings(std::shared_ptr<DocumentSession> session)
{
    pdl::Dict doc;
    for (const char* name : {"search", "show", "answer", "rank", "memo"}) {
        doc.set(name, pdl::Value(pdl::makeCallable(std::string("doc.") + name,
                                                   [session, name](const pdl::CallArgs& a) {
                                                       return commandCall(session, name, a);
                                                   })));
    }
    doc.set("run", pdl::Value(pdl::makeCallable("doc.run", [session](const pdl::CallArgs& a) {
                if (a.positional.empty())
                    throw pdl::EvalError("doc.run() needs a command line");
                return pdl::Value(
                    session->execute(word(a.positional.front())).output.toStdString());
            })));
    doc.set("cost", pdl::Value(pdl::makeCallable("doc.cost", [session](const pdl::CallArgs&) {
                return pdl::Value(int64_t(session->totalCost()));
            })));
    doc.set("submitted",
            pdl::Value(pdl::makeCallable("doc.submitted", [session](const pdl::CallArgs&) {
                const QString answer = session->answer();
                return answer.isEmpty() ? pdl::Value() : pdl::Value(answer.toStdString());
            })));
    doc.set("last", pdl::Value(pdl::makeCallable("doc.last", [session](const pdl::CallArgs&) {
                const QList<TranscriptEntry> entries = session->transcript();
                if (entries.isEmpty())
                    return pdl::Value();
                const TranscriptEntry& e = entries.last();
                pdl::Dict d;
                d.set("input", pdl::Value(e.input.toStdString()));
                d.set("output", pdl::Value(e.output.toStdString()));
                d.set("cost", pdl::Value(int64_t(e.cost)));
                d.set("total_cost", pdl::Value(int64_t(e.totalCost)));
                return pdl::Value(std::move(d));
            })));
    return pdl::Value(std::move(doc));
}

} // namespace hako::docs
