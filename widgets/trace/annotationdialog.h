#pragma once

#include "core/pdl/trace/annotations.h"

#include <QDialog>

class QComboBox;
class QPlainTextEdit;
class QPushButton;
class QToolButton;

namespace hako {

/// The small editor of one block's annotation: thumbs up or down, or a number or label (the
/// labels offered come from the settings, `annotations/labels`), and a note. accept() when the
/// user saves; removeRequested() when they remove the annotation. GUI thread.
class AnnotationDialog : public QDialog {
    Q_OBJECT
public:
    /// `existing` fills the editor (its nodeId is kept); `title` names the block.
    AnnotationDialog(const pdl::Annotation& existing, const QString& title,
                     QWidget* parent = nullptr);

    /// The annotation as edited (time: now); kind Number when the score is a number, Label
    /// when it is other text, else Thumbs.
    pdl::Annotation annotation() const;
    /// Whether what is entered makes a score (thumbs chosen, or a number or label typed).
    bool hasScore() const;

    QToolButton* thumbsUp() const { return m_up; }
    QToolButton* thumbsDown() const { return m_down; }
    QComboBox* scoreField() const { return m_score; }
    QPlainTextEdit* noteField() const { return m_note; }
    QPushButton* saveButton() const { return m_save; }
    QPushButton* removeButton() const { return m_remove; }

    /// The labels offered in the score field (settings `annotations/labels`, else a default set).
    static QStringList configuredLabels();

Q_SIGNALS:
    void removeRequested();

private:
    void updateSave();

    pdl::Annotation m_existing;
    QToolButton* m_up;
    QToolButton* m_down;
    QComboBox* m_score;
    QPlainTextEdit* m_note;
    QPushButton* m_save;
    QPushButton* m_remove;
};

} // namespace hako
