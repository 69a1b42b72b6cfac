#pragma once

#include "core/util/diagnostic.h"

#include <QList>
#include <QMap>
#include <QString>

namespace hako {

/// One input of a template: a name the program defines in `defs:` with a sample value, which
/// the user changes.
struct TemplateInput {
    QString name;        ///< the `defs` name, e.g. `text`
    QString explanation; ///< one line, in the catalog's language
};

/// One template program (File › New from Template), with its texts in one language.
struct TemplateInfo {
    QString id; ///< `summarize`
    /// The program in the requested language (`summarize.ja.pdl`), else the English one
    /// (`summarize.pdl`); relative to the catalog's folder.
    QString fileName;
    /// Every language's program by language ("en" included): templates.json's `file` and its
    /// `files` object, e.g. `"files": {"ja": "summarize.ja.pdl"}`.
    QMap<QString, QString> fileNames;
    QString title;       ///< in the requested language (English when missing)
    QString description; ///< likewise
    QList<TemplateInput> inputs;
    bool needsDocument = false; ///< works on a document (a file or pasted text)
    bool needsMemory = false;   ///< needs a memory store (`hako run --memory`)
};

/// The template programs in a folder (the application's `:/templates` resource), described by
/// the folder's `templates.json`: for each template its id, its English program (`file`) and
/// the same program in other languages (`files`: language → file, same inputs), title and
/// description in English and Japanese, the inputs a user fills and whether it needs a document
/// or a memory store. Reads the folder on every call (it is small); thread-safe (no shared
/// state).
class TemplateCatalog {
public:
    explicit TemplateCatalog(QString folder = QStringLiteral(":/templates"));

    QString folder() const { return m_folder; }

    /// The templates in templates.json order, with texts in `language` ("en", "ja"; a missing
    /// text falls back to English). An error names templates.json and says what is wrong when
    /// the file is missing or malformed.
    Result<QList<TemplateInfo>> templates(const QString& language = QStringLiteral("en")) const;

    /// The program text of template `id` (UTF-8) in `language` ("en", "ja"): its file for that
    /// language, the English one when templates.json names none. An error when there is no such
    /// template or the file cannot be read.
    Result<QString> programText(const QString& id,
                                const QString& language = QStringLiteral("en")) const;

    /// The interface language for the templates' texts: the `HAKO_LANGUAGE` environment
    /// variable, else `setting` (the `ui/language` QSettings value, may be empty), else the
    /// system locale; "ja" for Japanese, otherwise "en".
    static QString interfaceLanguage(const QString& setting = QString());

private:
    QString m_folder;
};

} // namespace hako
