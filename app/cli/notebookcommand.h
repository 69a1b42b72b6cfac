#pragma once

#include <QStringList>

namespace hako {
/// `hako notebook run FILE.ipynb`: runs every `%%pdl` cell of a Jupyter notebook in order, each
/// seeing the variables and context the earlier ones left, and writes the outputs back into the
/// file (atomically). `hako notebook new FILE.ipynb` writes an empty notebook for PDL.
int notebookCommand(const QStringList& args);
} // namespace hako
