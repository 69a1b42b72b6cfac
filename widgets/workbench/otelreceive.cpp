#include "widgets/workbench/otelreceive.h"

#include "core/eval/onlineeval.h"
#include "core/models/modelconfig.h"
#include "core/otel/otellivefeed.h"
#include "core/otel/otlpreceiver.h"
#include "core/otel/runtable.h"
#include "core/pdl/trace/tracemodel.h"
#include "core/promptlog/promptlog.h"
#include "core/run/runenvironment.h"
#include "core/workbench/receivedspans.h"
#include "core/workbench/runarchive.h"
#include "core/workbench/workbenchcontext.h"
#include "widgets/otel/otelrunlist.h"
#include "widgets/workbench/tracedocks.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QPointer>
#include <QSettings>

namespace hako {

OtelReceive::OtelReceive(WorkbenchContext* context, TraceDocks* traces, QObject* parent)
    : QObject(parent), m_context(context), m_traces(traces),
      m_action(new QAction(tr("Receive &OpenTelemetry"), this)),
      m_evaluate(new QAction(tr("&Evaluate Received Calls…"), this)),
      m_model(new pdl::TraceModel(this))
{
    m_evaluate->setCheckable(true);
    m_evaluate->setChecked(
        !QSettings().value(QLatin1String(evaluationSetting())).toString().isEmpty());
    m_evaluate->setToolTip(tr("Choose an online evaluation file (evaluators, sample, filter): "
                              "its evaluators score the received calls as they arrive; uncheck "
                              "to stop"));
    connect(m_evaluate, &QAction::triggered, this, &OtelReceive::chooseEvaluationFile);
    m_action->setCheckable(true);
    m_action->setToolTip(tr("Listen on 127.0.0.1 (port: setting otel/receiverPort, default 4318) "
                            "for the spans of agent runs (OTLP/HTTP) and show them live in the "
                            "trace panes"));
    connect(m_action, &QAction::toggled, this, [this](bool on) { on ? start() : stop(); });
}

OtelReceive::~OtelReceive()
{
    stop();
}

quint16 OtelReceive::listeningPort() const
{
    return m_receiver ? m_receiver->port() : 0;
}

void OtelReceive::start()
{
    if (m_receiver)
        return;
    otel::ReceiverOptions options;
    options.port = quint16(
        m_port >= 0 ? m_port : QSettings().value(QLatin1String(portSetting()), 4318).toInt());
    m_receiver = std::make_unique<otel::OtlpReceiver>(options);
    m_feed = new otel::OtelLiveFeed(m_model, this);
    std::shared_ptr<promptlog::PromptLog> log = m_context->promptLog();
    otel::OtelLiveFeed* feed = m_feed;
    m_online = log ? makeOnlineEvaluator() : nullptr;
    // On the receiver's thread: the LLM spans are committed to the prompt log before the
    // request is answered (200 means kept, as with `hako serve`; a log that cannot be written
    // answers 503 and the exporter sends again, the calls' uids keeping retries single), then
    // all spans go to the feed (thread-safe; applied on the GUI thread in batches).
    // The whole traces are kept too (Show in Trace on a received call opens its run), and the
    // logged calls are offered to the online evaluator (which never blocks this thread).
    if (log)
        m_receiver->setStoringSink(
            [log, online = m_online, self = QPointer<OtelReceive>(this)](
                const std::vector<otel::Span>& spans, const QByteArray& json) -> QString {
                const RunArchive archive;
                const KeptSpans kept = keepReceivedSpans(*log, spans, json, &archive, online.get());
                if (kept.logError)
                    return tr("the prompt log cannot be written: %1").arg(kept.logError->message);
                if (!kept.archived)
                    QMetaObject::invokeMethod(self, [self, why = kept.archiveError] {
                        if (self)
                            Q_EMIT self->statusMessage(
                                tr("The received traces cannot be kept: %1").arg(why), 10000);
                    });
                return {};
            });
    m_runs = std::make_shared<otel::RunCollector>(); // the Runs list's rows (thread-safe)
    m_receiver->setSink([feed, runs = m_runs](std::vector<otel::Span>&& spans) {
        runs->add(spans);
        feed->push(std::move(spans));
    });
    connect(m_receiver.get(), &otel::OtlpReceiver::requestRejected, this,
            [this](int status, const QString& reason) {
                Q_EMIT statusMessage(
                    tr("OpenTelemetry: refused a request (%1): %2").arg(status).arg(reason), 8000);
            });
    Result<quint16> port = m_receiver->start();
    if (!port) {
        const QString why = port.error().message;
        m_receiver.reset();
        delete m_feed;
        m_feed = nullptr;
        QSignalBlocker block(m_action);
        m_action->setChecked(false);
        Q_EMIT statusMessage(tr("Cannot receive OpenTelemetry: %1").arg(why), 10000);
        return;
    }
    m_traces->showTrace(m_model);
    connect(m_feed, &otel::OtelLiveFeed::tracesChanged, this, &OtelReceive::listRuns);
    listRuns();
    Q_EMIT statusMessage(tr("Receiving OpenTelemetry on http://127.0.0.1:%1/v1/traces").arg(*port),
                         0);
}

std::shared_ptr<eval::OnlineEvaluator> OtelReceive::makeOnlineEvaluator()
{
    const QString path = QSettings().value(QLatin1String(evaluationSetting())).toString();
    if (path.isEmpty())
        return nullptr;
    Result<eval::OnlineEvalConfig> config = eval::OnlineEvalConfig::load(path);
    std::shared_ptr<promptlog::PromptLog> log = m_context->promptLog();
    if (!config || !log) {
        if (!config)
            Q_EMIT statusMessage(
                tr("Received calls are not evaluated: %1").arg(config.error().toString()), 10000);
        return nullptr;
    }
    eval::EvaluatorContext context;
    RunEnvironment env;
    env.baseFolder = QFileInfo(path).absolutePath();
    if (auto provider = env.composeProvider())
        context.models = *provider;
    context.judgeModel =
        config->judgeModel.isEmpty() ? QStringLiteral("default") : config->judgeModel;
    // The evaluator keeps a raw pointer to the log: the shared pointer held alongside keeps
    // it alive as long as the evaluator.
    auto made = eval::OnlineEvaluator::create(std::move(*config), log.get(), context);
    if (!made) {
        Q_EMIT statusMessage(tr("Received calls are not evaluated: %1").arg(made.error().message),
                             10000);
        return nullptr;
    }
    std::unique_ptr<eval::OnlineEvaluator> owned = std::move(made).value();
    std::shared_ptr<eval::OnlineEvaluator> online(owned.release(),
                                                  [log](eval::OnlineEvaluator* e) { delete e; });
    return online;
}

bool OtelReceive::setEvaluationFile(const QString& path)
{
    if (!path.isEmpty()) {
        Result<eval::OnlineEvalConfig> config = eval::OnlineEvalConfig::load(path);
        if (!config) {
            Q_EMIT statusMessage(config.error().toString(), 10000);
            m_evaluate->setChecked(
                !QSettings().value(QLatin1String(evaluationSetting())).toString().isEmpty());
            return false;
        }
    }
    QSettings().setValue(QLatin1String(evaluationSetting()), path);
    m_evaluate->setChecked(!path.isEmpty());
    Q_EMIT statusMessage(path.isEmpty() ? tr("Received calls are no longer evaluated")
                                        : tr("Received calls are evaluated with %1 (the calls "
                                             "received from now on)")
                                              .arg(QFileInfo(path).fileName()),
                         6000);
    if (m_receiver) { // listen again with the new choice
        stop();
        start();
    }
    return true;
}

void OtelReceive::chooseEvaluationFile()
{
    if (!m_evaluate->isChecked()) {
        setEvaluationFile(QString());
        return;
    }
    const QString path = QFileDialog::getOpenFileName(
        m_traces->runList()->window(), tr("Evaluate Received Calls"),
        QSettings().value(QLatin1String(evaluationSetting())).toString(),
        tr("Online evaluation (*.yaml *.yml);;All files (*)"));
    if (path.isEmpty()) {
        m_evaluate->setChecked(false);
        return;
    }
    setEvaluationFile(path);
}

void OtelReceive::listRuns()
{
    if (!m_feed || !m_receiver)
        return;
    const std::vector<otel::RunRow> runs = m_runs->rows();
    const QString address = QStringLiteral("http://127.0.0.1:%1/v1/traces").arg(m_receiver->port());
    const QString heading = runs.empty()
                                ? tr("Listening on %1 — no runs received yet.").arg(address)
                                : tr("Listening on %1 — %n run(s) received; pick one to show it.",
                                     nullptr, int(runs.size()))
                                      .arg(address);
    otel::OtelLiveFeed* feed = m_feed;
    m_traces->showRuns(
        heading, runs, feed->shownTrace(),
        [this, feed](const QString& id) {
            if (feed != m_feed)
                return;
            feed->follow(id.toStdString());
            m_traces->showTrace(m_model);
            listRuns();
        },
        [this, feed](const QString& id) {
            return feed == m_feed ? feed->assembler().build(id.toStdString()) : pdl::TracePtr();
        });
}

void OtelReceive::stop()
{
    if (!m_receiver)
        return;
    m_receiver->stop();
    m_receiver.reset();
    m_online.reset();
    if (m_feed) {
        m_feed->flush();
        delete m_feed;
        m_feed = nullptr;
    }
    m_traces->runList()->heading()->setText(
        tr("Not receiving OpenTelemetry; the runs below were received before."));
    Q_EMIT statusMessage(tr("Stopped receiving OpenTelemetry"), 4000);
}

} // namespace hako
