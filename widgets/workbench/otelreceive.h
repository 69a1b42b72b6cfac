#pragma once

#include <QObject>

#include <memory>

class QAction;

namespace hako {

class TraceDocks;
class WorkbenchContext;

namespace otel {
class OtelLiveFeed;
class RunCollector;
class OtlpReceiver;
} // namespace otel
namespace pdl {
class TraceModel;
}

/// Traces › Receive OpenTelemetry: while checked, an OTLP/HTTP receiver listens on
/// 127.0.0.1 at the port of the setting `otel/receiverPort` (default 4318; `POST /v1/traces`,
/// JSON or protobuf); the spans of agent runs of any framework appear live in the trace panes
/// (the newest run, or the one picked in the Runs dock, which lists every run received and
/// says where it listens), and every LLM span is a call in the prompt log (tags `otel`,
/// `service:…`). GUI thread; the receiver runs on its own thread.
class OtelReceive : public QObject {
    Q_OBJECT
public:
    OtelReceive(WorkbenchContext* context, TraceDocks* traces, QObject* parent = nullptr);
    ~OtelReceive() override;

    /// The checkable menu action.
    QAction* action() const { return m_action; }
    /// Where it listens (tests use 0: a free port), instead of the setting. Before the action
    /// is checked.
    void setPort(quint16 port) { m_port = port; }
    /// The settings key of the port listened on (an integer; 0 picks a free port).
    static const char* portSetting() { return "otel/receiverPort"; }
    /// The port listened on (0 when not receiving).
    quint16 listeningPort() const;
    pdl::TraceModel* traceModel() const { return m_model; }

Q_SIGNALS:
    void statusMessage(const QString& text, int timeout);

private:
    void start();
    void stop();

    WorkbenchContext* m_context;
    TraceDocks* m_traces;
    QAction* m_action;
    pdl::TraceModel* m_model;
    int m_port = -1; ///< -1: the setting's
    void listRuns();
    std::unique_ptr<otel::OtlpReceiver> m_receiver;
    otel::OtelLiveFeed* m_feed = nullptr;
    std::shared_ptr<otel::RunCollector> m_runs; ///< the runs received (rows for the Runs list)
};

} // namespace hako
