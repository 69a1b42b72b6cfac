#pragma once

#include <QObject>
#include <QString>

namespace hako {

/// The bus every workbench pane talks to: holds the current program (and, later, run and trace
/// node) and broadcasts changes. Lives on the GUI thread; panes ignore signals whose `origin`
/// is themselves.
class WorkbenchContext : public QObject {
    Q_OBJECT
public:
    explicit WorkbenchContext(QObject* parent = nullptr);

    /// Absolute path of the program being edited; empty for an unsaved new program.
    QString currentProgram() const { return m_currentProgram; }

    /// Sets the current program; emits currentProgramChanged only when the path changes.
    /// `origin` identifies the sender so it can ignore its own echo (may be null).
    void setCurrentProgram(const QString& path, QObject* origin = nullptr);

Q_SIGNALS:
    void currentProgramChanged(const QString& path, QObject* origin);

private:
    QString m_currentProgram;
};

} // namespace hako
