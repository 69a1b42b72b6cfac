#pragma once

#include "core/eval/datasetio.h"

#include <QDialog>

class QTableWidget;

namespace hako {

/// Import… of a CSV file, before anything is added: how the file was read (its encoding, its
/// number of rows) and, for each column, its first values and what it becomes — an input, the
/// reference answer, a note (metadata) or nothing — which the person may change. GUI thread.
class CsvImportDialog : public QDialog {
    Q_OBJECT
public:
    CsvImportDialog(const eval::CsvPreview& preview, QWidget* parent = nullptr);

    /// The columns with the roles chosen.
    QList<eval::CsvColumn> columns() const;
    QTableWidget* table() const { return m_table; }

    /// The preview with its columns' roles as a person most likely means them: when no column
    /// is the reference, a column whose header says "expected answer" (期待/正解/模範/参照/
    /// 回答例, expected/answer/reference in any case) becomes it. Pure.
    static eval::CsvPreview proposed(eval::CsvPreview preview);

private:
    eval::CsvPreview m_preview;
    QTableWidget* m_table;
};

} // namespace hako
