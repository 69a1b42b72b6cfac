#pragma once

#include <QObject>

#include <memory>

class QAction;

namespace hako {

class TraceDocks;
class WorkbenchContext;

namespace eval {
class OnlineEvaluator;
}
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
/// `service:…`). Each received trace is also kept whole (RunArchive::appendRequest()), so the
/// Prompt log's Show in Trace opens a received call's run later. Evaluate Received Calls…
/// chooses an online evaluation file (as `hako serve --evaluate` reads; remembered in the
/// setting `otel/onlineEvaluation`): its evaluators score the chosen share of the received
/// calls, off the receiver's thread, as the calls' scores in the prompt log. GUI thread; the
/// receiver runs on its own thread.
class OtelReceive : public QObject {
    Q_OBJECT
public:
    OtelReceive(WorkbenchContext* context, TraceDocks* traces, QObject* parent = nullptr);
    ~OtelReceive() override;

    /// The checkable menu action.
    QAction* action() const { return m_action; }
    /// Evaluate Received Calls…: checked while an online evaluation file is chosen.
    QAction* evaluateAction() const { return m_evaluate; }
    /// The settings key of the online evaluation file (empty: none).
    static const char* evaluationSetting() { return "otel/onlineEvaluation"; }
    /// Uses the online evaluation file `path` (empty: none) from now on and remembers it;
    /// false with the file's error in the status bar when it cannot be used.
    bool setEvaluationFile(const QString& path);
    /// The online evaluator while receiving with one (tests wait on it).
    eval::OnlineEvaluator* onlineEvaluator() const { return m_online.get(); }
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
    void chooseEvaluationFile();
    /// The evaluator of the remembered file, or null (the file's error in the status bar).
    std::shared_ptr<eval::OnlineEvaluator> makeOnlineEvaluator();

    WorkbenchContext* m_context;
    TraceDocks* m_traces;
    QAction* m_action;
    QAction* m_evaluate;
    pdl::TraceModel* m_model;
    int m_port = -1; ///< -1: the setting's
    void listRuns();
    std::unique_ptr<otel::OtlpReceiver> m_receiver;
    otel::OtelLiveFeed* m_feed = nullptr;
    std::shared_ptr<otel::RunCollector> m_runs; ///< the runs received (rows for the Runs list)
    /// Shared with the receiver's storing sink, which offers it the calls it logged.
    std::shared_ptr<eval::OnlineEvaluator> m_online;
};

} // namespace hako
