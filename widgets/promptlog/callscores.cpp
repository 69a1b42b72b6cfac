#include "widgets/promptlog/callscores.h"

#include "widgets/promptlog/timechart.h"
#include "widgets/trace/annotationdialog.h"

#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

#include <cmath>

namespace hako {

using namespace promptlog;

std::optional<CallFilter::Scored> takeScoreWords(QString& text)
{
    static const QStringList pass = {QStringLiteral("score:✓"), QStringLiteral("score:pass"),
                                     QStringLiteral("score:up")};
    static const QStringList fail = {QStringLiteral("score:✗"), QStringLiteral("score:fail"),
                                     QStringLiteral("score:down")};
    std::optional<CallFilter::Scored> scored;
    QStringList kept;
    for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString w = word.toLower();
        if (w == QLatin1String("scored"))
            scored = CallFilter::Scored::Any;
        else if (pass.contains(w))
            scored = CallFilter::Scored::Passed;
        else if (fail.contains(w))
            scored = CallFilter::Scored::Failed;
        else
            kept.append(word);
    }
    if (scored)
        text = kept.join(QLatin1Char(' '));
    return scored;
}

QString scoresHtml(const QList<CallScore>& scores)
{
    if (scores.isEmpty())
        return {};
    QString html =
        QStringLiteral("<p><b>%1</b></p><ul>").arg(QObject::tr("Scores").toHtmlEscaped());
    for (const CallScore& s : scores) {
        const QString who = s.source == ScoreSource::Human
                                ? (s.author.isEmpty() ? QObject::tr("a person") : s.author)
                            : s.source == ScoreSource::Online ? QObject::tr("online evaluation")
                                                              : QObject::tr("an experiment");
        const QString name =
            s.name == QLatin1String("human") ? QString() : s.name + QLatin1Char(' ');
        html += QStringLiteral("<li><b>%1%2</b> — %3, %4")
                    .arg(name.toHtmlEscaped(), s.text().toHtmlEscaped(), who.toHtmlEscaped(),
                         QDateTime::fromMSecsSinceEpoch(s.createdAt)
                             .toLocalTime()
                             .toString(QStringLiteral("yyyy-MM-dd HH:mm")));
        if (!s.note.isEmpty())
            html += QStringLiteral("<br>%1").arg(s.note.toHtmlEscaped());
        html += QStringLiteral("</li>");
    }
    return html + QStringLiteral("</ul>");
}

CallScore scoreFromAnnotation(const pdl::Annotation& a, const QString& callUid)
{
    CallScore s;
    s.callUid = callUid;
    s.name = QStringLiteral("human");
    s.source = ScoreSource::Human;
    s.note = a.note;
    s.author = a.author;
    s.createdAt = a.time.isValid() ? a.time.toMSecsSinceEpoch() : 0;
    switch (a.kind) {
    case pdl::ScoreKind::Thumbs:
        s.kind = ScoreValueKind::Bool;
        s.number = a.value.toBool() ? 1 : 0;
        s.passed = a.value.toBool();
        break;
    case pdl::ScoreKind::Number:
        s.kind = ScoreValueKind::Number;
        s.number = a.value.toDouble();
        break;
    case pdl::ScoreKind::Label:
        s.kind = ScoreValueKind::Label;
        s.label = a.value.toString();
        break;
    }
    return s;
}

pdl::Annotation annotationFromScore(const CallScore& s)
{
    pdl::Annotation a;
    a.note = s.note;
    a.author = s.author;
    a.time = QDateTime::fromMSecsSinceEpoch(s.createdAt, Qt::UTC);
    switch (s.kind) {
    case ScoreValueKind::Bool:
        a.kind = pdl::ScoreKind::Thumbs;
        a.value = s.number.value_or(0) >= 0.5;
        break;
    case ScoreValueKind::Number:
        a.kind = pdl::ScoreKind::Number;
        a.value = s.number.value_or(0);
        break;
    case ScoreValueKind::Label:
        a.kind = pdl::ScoreKind::Label;
        a.value = s.label;
        break;
    }
    return a;
}

AnnotationDialog* openCallAnnotation(QWidget* parent, const CallRecord& call,
                                     const QList<CallScore>& scores,
                                     std::function<void(std::optional<CallScore>)> save)
{
    pdl::Annotation start;
    for (const CallScore& s : scores)
        if (s.source == ScoreSource::Human && s.name == QLatin1String("human"))
            start = annotationFromScore(s);
    start.nodeId = call.uid;
    auto* dialog = new AnnotationDialog(start, call.promptName, parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const QString uid = call.uid;
    QObject::connect(dialog, &QDialog::accepted, dialog,
                     [dialog, uid, save] { save(scoreFromAnnotation(dialog->annotation(), uid)); });
    QObject::connect(dialog, &AnnotationDialog::removeRequested, dialog,
                     [save] { save(std::nullopt); });
    dialog->open();
    return dialog;
}

ScoreChartPanel::ScoreChartPanel(QWidget* parent)
    : QWidget(parent), m_evaluator(new QComboBox(this)),
      m_chart(new TimeChart(tr("Mean score"), this)), m_empty(new QLabel(this))
{
    m_evaluator->setAccessibleName(tr("Scores of"));
    m_evaluator->setToolTip(tr("The evaluator (or people's annotations) whose scores the chart "
                               "shows"));
    m_empty->setAccessibleName(tr("Scores status"));
    m_empty->setWordWrap(true);
    m_empty->setText(tr("No scores yet — annotate a call (select it, then Annotate…) or let "
                        "online evaluation score the calls that arrive."));
    auto* label = new QLabel(tr("S&cores of:"), this);
    label->setBuddy(m_evaluator);
    auto* row = new QHBoxLayout;
    row->addWidget(label);
    row->addWidget(m_evaluator);
    row->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(m_chart, 1);
    layout->addWidget(m_empty);
    connect(m_evaluator, &QComboBox::currentIndexChanged, this, &ScoreChartPanel::showChosen);
    setSeries({}, {});
}

void ScoreChartPanel::setSeries(const QList<ScoreSeries>& series, const QStringList& labels)
{
    m_series = series;
    m_labels = labels;
    const QString chosen = m_evaluator->currentData().toString();
    {
        const QSignalBlocker block(m_evaluator);
        m_evaluator->clear();
        for (const ScoreSeries& s : series)
            m_evaluator->addItem(
                s.name == QLatin1String("human") ? tr("People (annotations)") : s.name, s.name);
        const int again = m_evaluator->findData(chosen);
        m_evaluator->setCurrentIndex(again >= 0 ? again : 0);
    }
    const bool none = series.isEmpty();
    m_empty->setVisible(none);
    m_chart->setVisible(!none);
    m_evaluator->setEnabled(!none);
    showChosen();
}

void ScoreChartPanel::showChosen()
{
    const int i = m_evaluator->currentIndex();
    if (i < 0 || i >= m_series.size()) {
        m_chart->setValues({}, {}, {});
        return;
    }
    QList<double> means(m_series[i].mean.begin(), m_series[i].mean.end());
    m_chart->setValues(means, m_labels, [](double v) { return QLocale().toString(v, 'f', 2); });
}

} // namespace hako
