#include "core/pdl/code/codetrust.h"

#include <QDir>
#include <QFileInfo>
#include <QSet>
#include <QSettings>

namespace hako::pdl::code {

namespace {

const QString kFoldersKey = QStringLiteral("codeTrust/folders");

QString normalisedPath(const QString& path)
{
    QFileInfo info(path);
    QString canonical = info.canonicalFilePath();
    return QDir::cleanPath(canonical.isEmpty() ? info.absoluteFilePath() : canonical);
}

bool isInside(const QString& path, const QString& folder)
{
    if (path == folder || folder == QLatin1String("/"))
        return true;
    return path.startsWith(folder + QLatin1Char('/'));
}

class Walker {
public:
    enum class Looking { Code, Hosts };
    Walker(const ProgramLoader& loader, std::vector<CodeSite>& sites, Looking looking)
        : m_loader(loader), m_sites(sites), m_looking(looking)
    {}

    void program(const Program& p)
    {
        QString key = normalisedPath(p.file);
        if (m_seen.contains(key))
            return;
        m_seen.insert(key);
        QString saved = m_folder;
        m_folder = QFileInfo(p.file).absolutePath();
        block(p.root);
        m_folder = saved;
    }

private:
    void block(const BlockPtr& b)
    {
        if (!b)
            return;
        for (const auto& [_, d] : b->defs)
            block(d);
        block(b->fallback);
        block(b->parser.pdl);

        if (auto* list = dynamic_cast<const ListBlockBase*>(b.get()))
            for (const BlockPtr& c : list->children)
                block(c);
        if (auto* loop = dynamic_cast<const LoopBlockBase*>(b.get()))
            block(loop->body);

        switch (b->kind) {
        case BlockKind::Code: {
            auto* code = b->as<CodeBlock>();
            block(code->code);
            switch (code->lang) {
            case CodeBlock::Lang::Python:
            case CodeBlock::Lang::IPython:
                add(CodeSite::Kind::Python, *b);
                break;
            case CodeBlock::Lang::Command:
                add(CodeSite::Kind::Command, *b);
                break;
            case CodeBlock::Lang::Pdl:
                add(CodeSite::Kind::Pdl, *b);
                break;
            case CodeBlock::Lang::Jinja:
                break;
            }
            break;
        }
        case BlockKind::Args:
            add(CodeSite::Kind::Command, *b);
            break;
        case BlockKind::Model:
            block(b->as<ModelBlock>()->input);
            modelHost(*b->as<ModelBlock>());
            break;
        case BlockKind::Object: {
            auto* o = b->as<ObjectBlock>();
            for (const auto& [_, f] : o->fields)
                block(f);
            for (const BlockPtr& item : o->items)
                block(item);
            break;
        }
        case BlockKind::Message:
            block(b->as<MessageBlock>()->content);
            break;
        case BlockKind::If: {
            auto* i = b->as<IfBlock>();
            block(i->then);
            block(i->elseBlock);
            break;
        }
        case BlockKind::Match:
            for (const MatchCase& c : b->as<MatchBlock>()->cases)
                block(c.then);
            break;
        case BlockKind::Function:
            block(b->as<FunctionBlock>()->returns);
            break;
        case BlockKind::Include:
            included(b->as<IncludeBlock>()->include, false, *b);
            break;
        case BlockKind::Import:
            included(b->as<ImportBlock>()->import, true, *b);
            break;
        case BlockKind::Error:
            block(b->as<ErrorBlock>()->program);
            break;
        default:
            break;
        }
    }

    void included(const std::string& path, bool isImport, const Block& at)
    {
        QString file = QString::fromStdString(path);
        if (isImport && !file.endsWith(QLatin1String(".pdl")))
            file += QLatin1String(".pdl");
        if (QFileInfo(file).isRelative())
            file = QDir(m_folder).filePath(file);
        std::shared_ptr<const Program> loaded = m_loader ? m_loader(file) : nullptr;
        if (!loaded || !loaded->root) {
            CodeSite site{CodeSite::Kind::Include, at.span, path};
            m_sites.push_back(std::move(site));
            return;
        }
        program(*loaded);
    }

    void add(CodeSite::Kind kind, const Block& b)
    {
        if (m_looking == Looking::Code)
            m_sites.push_back({kind, b.span, {}});
    }

    void modelHost(const ModelBlock& m)
    {
        if (m_looking != Looking::Hosts || !m.parameters)
            return;
        const Value& p = m.parameters.value;
        if (!p.isDict()) {
            // A template such as `${ params }`: whatever it holds is known only at run time.
            if (!p.isNull())
                m_sites.push_back({CodeSite::Kind::Host, m.span, {}});
            return;
        }
        for (const char* key : {"base_url", "api_base"}) {
            const Value* url = p.asDict().find(key);
            if (!url)
                continue;
            std::string text = url->isString() ? url->asString() : std::string();
            if (text.find("${") != std::string::npos || text.find("{{") != std::string::npos)
                text.clear();
            m_sites.push_back({CodeSite::Kind::Host, m.span, text});
        }
    }

    const ProgramLoader& m_loader;
    std::vector<CodeSite>& m_sites;
    Looking m_looking;
    QSet<QString> m_seen;
    QString m_folder;
};

} // namespace

std::vector<CodeSite> findCodeSites(const Program& program, const ProgramLoader& loader)
{
    std::vector<CodeSite> sites;
    Walker(loader, sites, Walker::Looking::Code).program(program);
    return sites;
}

std::vector<CodeSite> findModelHosts(const Program& program, const ProgramLoader& loader)
{
    std::vector<CodeSite> sites;
    Walker(loader, sites, Walker::Looking::Hosts).program(program);
    return sites;
}

bool programRunsCode(const Program& program, const ProgramLoader& loader)
{
    return !findCodeSites(program, loader).empty();
}

CodeTrustStore::CodeTrustStore(QSettings* settings) : m_settings(settings) {}

QStringList CodeTrustStore::trustedFolders() const
{
    return m_settings->value(kFoldersKey).toStringList();
}

bool CodeTrustStore::isTrusted(const QString& programFile) const
{
    if (programFile.isEmpty())
        return false;
    const QString folder = normalisedPath(QFileInfo(programFile).absolutePath());
    for (const QString& trusted : trustedFolders())
        if (isInside(folder, trusted))
            return true;
    return false;
}

void CodeTrustStore::trustFolder(const QString& folder)
{
    QStringList folders = trustedFolders();
    const QString path = normalisedPath(folder);
    if (folders.contains(path))
        return;
    folders.append(path);
    m_settings->setValue(kFoldersKey, folders);
}

bool CodeTrustStore::revokeFolder(const QString& folder)
{
    QStringList folders = trustedFolders();
    bool removed = folders.removeAll(normalisedPath(folder)) > 0;
    if (removed)
        m_settings->setValue(kFoldersKey, folders);
    return removed;
}

bool CodeTrustStore::needsConfirmation(const Program& program, const ProgramLoader& loader) const
{
    return !isTrusted(program.file) && programRunsCode(program, loader);
}

} // namespace hako::pdl::code
