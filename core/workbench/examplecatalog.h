#pragma once

#include "core/util/diagnostic.h"

#include <QList>
#include <QString>

namespace hako {

/// One example program shipped with Hako.
struct ExampleInfo {
    QString fileName;        ///< `chatbot.pdl`
    QString title;           ///< from the `# title:` line (else the file name)
    bool needsModel = false; ///< `# needs: model`
    QString description;     ///< the other leading comment lines, joined
};

/// The example programs in a folder (the application's `:/examples` resource): each `*.pdl`
/// file's leading comments give its title, whether it needs a model, and a description. Examples
/// are opened from a writable copy so that they can be edited, run (relative reads find their
/// data files) and saved. Thread-safe (no shared state).
class ExampleCatalog {
public:
    explicit ExampleCatalog(QString sourceDir = QStringLiteral(":/examples"));

    /// The examples, those that run without a model first, each group sorted by title.
    QList<ExampleInfo> examples() const;

    /// Copies the whole example folder into `targetDir` (created if needed), leaving files the
    /// user changed there alone unless `overwrite`, and returns the path of `fileName` in it.
    Result<QString> materialize(const QString& fileName, const QString& targetDir,
                                bool overwrite = false) const;

    /// Reads the header of one example's text.
    static ExampleInfo parseHeader(const QString& fileName, const QString& text);

private:
    QString m_sourceDir;
};

} // namespace hako
