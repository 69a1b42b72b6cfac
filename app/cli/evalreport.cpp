#include "cli/evalreport.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QXmlStreamWriter>

namespace hako {

namespace {

QString firstLine(const QString& s, int max = 100)
{
    QString t = s.section(QLatin1Char('\n'), 0, 0).simplified();
    return t.size() > max ? t.left(max - 1) + QStringLiteral("…") : t;
}

QString percent(double v)
{
    return QString::number(v * 100, 'f', 1) + QLatin1Char('%');
}

QString pad(const QString& s, int width)
{
    return s.leftJustified(width, QLatin1Char(' '));
}

QJsonObject aggregateJson(const eval::EvaluatorAggregate& a)
{
    return {{QStringLiteral("evaluator"), a.evaluator},
            {QStringLiteral("count"), a.count},
            {QStringLiteral("passed"), a.passed},
            {QStringLiteral("errors"), a.errors},
            {QStringLiteral("mean"), a.mean},
            {QStringLiteral("mean_ci"), QJsonArray{a.meanLow, a.meanHigh}},
            {QStringLiteral("pass_rate"), a.passRate},
            {QStringLiteral("pass_rate_ci"), QJsonArray{a.passLow, a.passHigh}}};
}

} // namespace

QByteArray EvalOutcome::junit() const
{
    const QList<eval::Example>& examples = dataset.examples;
    int tests = 0, failures = 0, errors = 0;
    for (const eval::ExampleResult& r : results) {
        for (const eval::Score& s : r.scores) {
            ++tests;
            if (s.error)
                ++errors;
            else if (!s.pass)
                ++failures;
        }
    }
    for (const EvalCheck& c : checks) {
        ++tests;
        failures += c.ok ? 0 : 1;
    }
    QByteArray out;
    QXmlStreamWriter w(&out);
    w.setAutoFormatting(true);
    w.writeStartDocument();
    w.writeStartElement(QStringLiteral("testsuites"));
    w.writeAttribute(QStringLiteral("name"), QStringLiteral("hako eval"));
    w.writeAttribute(QStringLiteral("tests"), QString::number(tests));
    w.writeAttribute(QStringLiteral("failures"), QString::number(failures));
    w.writeAttribute(QStringLiteral("errors"), QString::number(errors));
    w.writeAttribute(QStringLiteral("time"), QString::number(seconds, 'f', 3));
    w.writeStartElement(QStringLiteral("testsuite"));
    w.writeAttribute(QStringLiteral("name"), suite.name);
    w.writeAttribute(QStringLiteral("tests"), QString::number(tests));
    w.writeAttribute(QStringLiteral("failures"), QString::number(failures));
    w.writeAttribute(QStringLiteral("errors"), QString::number(errors));
    w.writeAttribute(QStringLiteral("skipped"), QStringLiteral("0"));
    w.writeAttribute(QStringLiteral("time"), QString::number(seconds, 'f', 3));
    w.writeStartElement(QStringLiteral("properties"));
    auto property = [&w](const QString& name, const QString& value) {
        w.writeStartElement(QStringLiteral("property"));
        w.writeAttribute(QStringLiteral("name"), name);
        w.writeAttribute(QStringLiteral("value"), value);
        w.writeEndElement();
    };
    property(QStringLiteral("experiment"), info.id);
    property(QStringLiteral("dataset"), info.dataset);
    property(QStringLiteral("dataset_version"), QString::number(info.datasetVersion));
    property(QStringLiteral("target"), info.target);
    if (!info.promptCommit.isEmpty())
        property(QStringLiteral("prompt_version"),
                 QStringLiteral("%1@%2").arg(info.promptName).arg(info.promptVersion));
    w.writeEndElement();
    for (const eval::ExampleResult& r : results) {
        const eval::Example* example =
            r.index >= 0 && r.index < examples.size() ? &examples[r.index] : nullptr;
        for (const eval::Score& s : r.scores) {
            w.writeStartElement(QStringLiteral("testcase"));
            w.writeAttribute(QStringLiteral("classname"),
                             suite.name + QLatin1Char('.') + s.evaluator);
            w.writeAttribute(QStringLiteral("name"),
                             QStringLiteral("example %1 (%2)").arg(r.index).arg(r.exampleId));
            w.writeAttribute(QStringLiteral("time"),
                             QString::number(r.run.latencyMs / 1000.0, 'f', 3));
            if (s.error || !s.pass) {
                w.writeStartElement(s.error ? QStringLiteral("error") : QStringLiteral("failure"));
                w.writeAttribute(QStringLiteral("message"), QStringLiteral("score %1: %2")
                                                                .arg(s.score, 0, 'f', 3)
                                                                .arg(firstLine(s.reasoning, 200)));
                w.writeAttribute(QStringLiteral("type"),
                                 s.error ? QStringLiteral("error") : QStringLiteral("threshold"));
                QString body = s.reasoning + QStringLiteral("\n\noutput:\n") + r.run.output;
                if (example)
                    body += QStringLiteral("\n\ninputs: ") +
                            QString::fromUtf8(
                                QJsonDocument(example->inputs).toJson(QJsonDocument::Compact));
                w.writeCharacters(body);
                w.writeEndElement();
            }
            w.writeEndElement();
        }
    }
    for (const EvalCheck& c : checks) {
        w.writeStartElement(QStringLiteral("testcase"));
        w.writeAttribute(QStringLiteral("classname"), suite.name + QStringLiteral(".requirements"));
        w.writeAttribute(QStringLiteral("name"), c.name);
        if (!c.ok) {
            w.writeStartElement(QStringLiteral("failure"));
            w.writeAttribute(QStringLiteral("message"), c.detail);
            w.writeAttribute(QStringLiteral("type"), QStringLiteral("requirement"));
            w.writeCharacters(c.detail);
            w.writeEndElement();
        }
        w.writeEndElement();
    }
    w.writeEndElement();
    w.writeEndElement();
    w.writeEndDocument();
    return out;
}

void EvalOutcome::judge(bool hasBaseline)
{
    // Figures and requirements.
    aggregates = eval::aggregate(results, evaluatorNames);
    comparison.reset();
    if (hasBaseline)
        comparison = eval::compareExperiments(baseline, results);
    checks.clear();
    double meanOfMeans = 0;
    for (const eval::EvaluatorAggregate& ag : aggregates) {
        const eval::EvaluatorSpec* spec = nullptr;
        for (const eval::EvaluatorSpec& s : suite.evaluators)
            if ((s.name.isEmpty() ? s.type : s.name) == ag.evaluator)
                spec = &s;
        meanOfMeans += ag.mean / aggregates.size();
        const double minPass = spec && spec->minPassRate ? *spec->minPassRate : 1.0;
        checks.append({QStringLiteral("%1 pass rate >= %2").arg(ag.evaluator, percent(minPass)),
                       ag.passRate + 1e-12 >= minPass,
                       QStringLiteral("%1: %2 of %3 passed (%4), needs %5")
                           .arg(ag.evaluator)
                           .arg(ag.passed)
                           .arg(ag.count)
                           .arg(percent(ag.passRate), percent(minPass))});
        if (spec && spec->minScore)
            checks.append({QStringLiteral("%1 mean >= %2").arg(ag.evaluator).arg(*spec->minScore),
                           ag.mean + 1e-12 >= *spec->minScore,
                           QStringLiteral("%1: mean %2, needs %3")
                               .arg(ag.evaluator)
                               .arg(ag.mean, 0, 'f', 3)
                               .arg(*spec->minScore)});
        if (comparison && comparison->meanDelta.contains(ag.evaluator)) {
            const double delta = comparison->meanDelta.value(ag.evaluator);
            checks.append({QStringLiteral("%1 no drop beyond %2 vs baseline")
                               .arg(ag.evaluator)
                               .arg(suite.maxDrop),
                           delta >= -suite.maxDrop - 1e-12,
                           QStringLiteral("%1: mean changed by %2 against the baseline (allowed "
                                          "drop %3)")
                               .arg(ag.evaluator)
                               .arg(delta, 0, 'f', 3)
                               .arg(suite.maxDrop)});
        }
    }
    if (suite.failUnder)
        checks.append({QStringLiteral("overall mean >= %1").arg(*suite.failUnder),
                       meanOfMeans + 1e-12 >= *suite.failUnder,
                       QStringLiteral("the evaluators' mean score %1 is under %2")
                           .arg(meanOfMeans, 0, 'f', 3)
                           .arg(*suite.failUnder)});
    const bool complete = results.size() == dataset.examples.size();
    if (!complete)
        checks.append({QStringLiteral("every example ran"), false,
                       QStringLiteral("cut short after %1 of %2 examples; resume with --resume %3")
                           .arg(results.size())
                           .arg(dataset.examples.size())
                           .arg(info.id)});
    passed = true;
    for (const EvalCheck& c : checks)
        passed = passed && c.ok;
}

QString EvalOutcome::summary() const
{
    // The summary table.
    QString out;
    out += QStringLiteral("suite %1: %2 examples of %3 (version %4) through %5\n")
               .arg(suite.name)
               .arg(results.size())
               .arg(dataset.name)
               .arg(dataset.version)
               .arg(QFileInfo(info.target).fileName());
    if (!info.promptCommit.isEmpty())
        out += QStringLiteral("prompt %1, version %2 (%3)\n")
                   .arg(info.promptName)
                   .arg(info.promptVersion)
                   .arg(info.promptCommit.left(10));
    out += QStringLiteral("experiment %1 (%2 ran now, %3 s)\n\n")
               .arg(info.id)
               .arg(ranNow)
               .arg(seconds, 0, 'f', 2);
    int nameWidth = 9;
    for (const QString& n : evaluatorNames)
        nameWidth = std::max<int>(nameWidth, int(n.size()));
    out += pad(QStringLiteral("evaluator"), nameWidth + 2) +
           QStringLiteral("mean   95% CI         pass     95% CI (Wilson)  passed  errors");
    if (comparison)
        out += QStringLiteral("  vs baseline");
    out += QLatin1Char('\n');
    for (const eval::EvaluatorAggregate& ag : aggregates) {
        QString line =
            pad(ag.evaluator, nameWidth + 2) + pad(QString::number(ag.mean, 'f', 3), 7) +
            pad(QStringLiteral("[%1, %2]").arg(ag.meanLow, 0, 'f', 2).arg(ag.meanHigh, 0, 'f', 2),
                15) +
            pad(percent(ag.passRate), 9) +
            pad(QStringLiteral("[%1, %2]").arg(percent(ag.passLow), percent(ag.passHigh)), 17) +
            pad(QStringLiteral("%1/%2").arg(ag.passed).arg(ag.count), 8) +
            QString::number(ag.errors).leftJustified(6);
        if (comparison && comparison->meanDelta.contains(ag.evaluator))
            line += QStringLiteral("  %1%2")
                        .arg(comparison->meanDelta.value(ag.evaluator) >= 0 ? QStringLiteral("+")
                                                                            : QString())
                        .arg(comparison->meanDelta.value(ag.evaluator), 0, 'f', 3);
        out += line.trimmed() + QLatin1Char('\n');
    }
    int failuresShown = 0, failuresTotal = 0;
    QString failures;
    for (const eval::ExampleResult& r : results) {
        for (const eval::Score& s : r.scores) {
            if (s.pass)
                continue;
            ++failuresTotal;
            if (failuresShown++ < 10)
                failures += QStringLiteral("  example %1 (%2) %3: %4%5\n")
                                .arg(r.index)
                                .arg(r.exampleId, s.evaluator,
                                     s.error ? QStringLiteral("could not judge: ") : QString(),
                                     firstLine(s.reasoning));
        }
    }
    if (failuresTotal > 0) {
        out += QStringLiteral("\nfailing scores (%1):\n").arg(failuresTotal) + failures;
        if (failuresTotal > 10)
            out +=
                QStringLiteral("  … %1 more (--json or --junit for all)\n").arg(failuresTotal - 10);
    }
    if (comparison) {
        out +=
            QStringLiteral("\nagainst %1: %2 examples matched, %3 regressions, %4 improvements\n")
                .arg(baselineName)
                .arg(comparison->matched)
                .arg(comparison->regressions.size())
                .arg(comparison->improvements.size());
        int shown = 0;
        for (const eval::ScoreDelta& d : comparison->regressions) {
            if (shown++ >= 10)
                break;
            out += QStringLiteral("  regression: example %1 (%2) %3: %4 -> %5\n")
                       .arg(d.index)
                       .arg(d.exampleId, d.evaluator)
                       .arg(d.before, 0, 'f', 3)
                       .arg(d.after, 0, 'f', 3);
        }
    }
    out += QLatin1Char('\n');
    for (const EvalCheck& c : checks)
        if (!c.ok)
            out += QStringLiteral("FAILED %1\n").arg(c.detail);
    out += passed ? QStringLiteral("PASSED\n") : QStringLiteral("FAILED\n");
    return out;
}

QByteArray EvalOutcome::json() const
{
    QJsonArray aggJson, resultsJson, checksJson;
    for (const eval::EvaluatorAggregate& ag : aggregates)
        aggJson.append(aggregateJson(ag));
    for (const eval::ExampleResult& r : results) {
        QJsonObject o = r.toJson();
        if (r.index >= 0 && r.index < dataset.examples.size()) {
            o.insert(QStringLiteral("inputs"), dataset.examples[r.index].inputs);
            if (dataset.examples[r.index].hasReference())
                o.insert(QStringLiteral("reference"), dataset.examples[r.index].reference);
        }
        resultsJson.append(o);
    }
    for (const EvalCheck& c : checks)
        checksJson.append(QJsonObject{{QStringLiteral("name"), c.name},
                                      {QStringLiteral("ok"), c.ok},
                                      {QStringLiteral("detail"), c.detail}});
    QJsonObject report{{QStringLiteral("suite"), suite.toJson()},
                       {QStringLiteral("experiment"), info.id},
                       {QStringLiteral("dataset"), dataset.name},
                       {QStringLiteral("dataset_version"), dataset.version},
                       {QStringLiteral("target"), info.target},
                       {QStringLiteral("prompt"), info.promptName},
                       {QStringLiteral("prompt_id"), info.promptId},
                       {QStringLiteral("prompt_version"), info.promptVersion},
                       {QStringLiteral("prompt_commit"), info.promptCommit},
                       {QStringLiteral("passed"), passed},
                       {QStringLiteral("seconds"), seconds},
                       {QStringLiteral("aggregates"), aggJson},
                       {QStringLiteral("checks"), checksJson},
                       {QStringLiteral("results"), resultsJson}};
    if (comparison) {
        QJsonArray deltas;
        for (const eval::ScoreDelta& d : comparison->deltas)
            deltas.append(QJsonObject{{QStringLiteral("example_id"), d.exampleId},
                                      {QStringLiteral("index"), d.index},
                                      {QStringLiteral("evaluator"), d.evaluator},
                                      {QStringLiteral("before"), d.before},
                                      {QStringLiteral("after"), d.after},
                                      {QStringLiteral("regression"), d.isRegression()},
                                      {QStringLiteral("improvement"), d.isImprovement()}});
        report.insert(QStringLiteral("baseline"), baselineName);
        report.insert(QStringLiteral("deltas"), deltas);
    }
    return QJsonDocument(report).toJson(QJsonDocument::Indented);
}

} // namespace hako
