// A run that fails to reach a model: the error is recognised by where the interpreter reports it
// (the block's `model:` value), and the message bar offers "Configure models…" in plain words.
#include "widgets/common/messagebar.h"
#include "widgets/settings/modelfailure.h"

#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

using namespace hako;

namespace {

Diagnostic at(int line, int column, const QString& file = QString())
{
    Diagnostic d =
        makeError(QStringLiteral("model 'ollama/x' at ollama (http://localhost:11434/v1): "
                                 "cannot connect: Connection refused."));
    d.span.file = file;
    d.span.line = d.span.endLine = line;
    d.span.column = column;
    return d;
}

} // namespace

class TestModelFailure : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void recognised_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<bool>("isModelFailure");
        const QString program = QStringLiteral("text:\n"
                                               "- model: ollama/x\n"          // 2
                                               "  input: hi\n"                // 3
                                               "- def: answer\n"              // 4
                                               "  model: ${ name }\n"         // 5
                                               "- {model: ollama/y}\n"        // 6
                                               "- my_model: z\n"              // 7
                                               "- lang: python\n"             // 8
                                               "  code: \"日本 model: x\"\n"  // 9
                                               "- {role: user, model: m}\n"); // 10
        QTest::newRow("list item") << program << 2 << 10 << true;
        QTest::newRow("expression") << program << 5 << 10 << true;
        QTest::newRow("flow mapping") << program << 6 << 11 << true;
        QTest::newRow("flow mapping, later key") << program << 10 << 23 << true;
        QTest::newRow("input field") << program << 3 << 10 << false;
        QTest::newRow("other key ending in model") << program << 7 << 13 << false;
        QTest::newRow("code text") << program << 9 << 20 << false;
        QTest::newRow("past the end") << program << 40 << 1 << false;
        QTest::newRow("no location") << program << 0 << 0 << false;
    }
    void recognised()
    {
        QFETCH(QString, program);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(bool, isModelFailure);
        QCOMPARE(isModelCallFailure(at(line, column), program), isModelFailure);
    }

    void readsTheFileWhenNoTextIsGiven()
    {
        // The failing block may be in an included file that is not open in the editor.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("included.pdl"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("description: included\nmodel: openai/gpt-4o-mini\n");
        f.close();
        QVERIFY(isModelCallFailure(at(2, 8, path)));
        QVERIFY(!isModelCallFailure(at(1, 14, path)));
        QVERIFY(!isModelCallFailure(at(2, 8, dir.filePath(QStringLiteral("missing.pdl")))));
    }

    void plainWords()
    {
        // A server that stopped is said to have stopped, with its address, not "check the
        // model settings".
        const QString text = modelCallFailureText(at(2, 10));
        QVERIFY2(text.startsWith(QLatin1String("Line 2: The model server at "
                                               "http://localhost:11434/v1 does not answer")),
                 qPrintable(text));
        QVERIFY(text.contains(QLatin1String("Start it again")));
        // The provider's own words are the message bar's Details, not the sentence.
        QVERIFY(!text.contains(QLatin1String("Connection refused")));
        // A key refused, a model the server does not have.
        Diagnostic key = at(3, 10);
        key.message = QStringLiteral("model 'openai/gpt-4o' at openai (https://api.example/v1): "
                                     "HTTP 401: invalid api key. Check the API key.");
        QVERIFY(modelCallFailureText(key).contains(QLatin1String("refused the API key")));
        Diagnostic missing = at(3, 10);
        missing.message = QStringLiteral("model 'openai/nosuch' at openai (http://127.0.0.1:8/v1): "
                                         "HTTP 404: model not found");
        QVERIFY2(modelCallFailureText(missing).contains(
                     QStringLiteral("The server has no model named “openai/nosuch”")),
                 qPrintable(modelCallFailureText(missing)));
        // A connection that timed out: the server does not answer either.
        Diagnostic timedOut = at(3, 10);
        timedOut.message = QStringLiteral("model 'ollama/x' at ollama (http://10.0.0.9:11434/v1): "
                                          "could not connect within 10 s (connect timeout). Is "
                                          "Ollama running?");
        QVERIFY2(modelCallFailureText(timedOut).contains(
                     QLatin1String("The model server at http://10.0.0.9:11434/v1 does not answer")),
                 qPrintable(modelCallFailureText(timedOut)));
        // Anything else keeps the general advice.
        Diagnostic other = at(3, 10);
        other.message = QStringLiteral("model 'x': the reply was cut off");
        QVERIFY(modelCallFailureText(other).contains(QLatin1String("could not get a reply")));
    }

    void messageBarOffersTheAction()
    {
        MessageBar bar;
        int pressed = 0;
        bar.showMessage(QStringLiteral("no reply"), MessageBar::Kind::Error,
                        QStringLiteral("Configure models…"), [&] { ++pressed; });
        bar.show();
        auto* button = bar.findChild<QPushButton*>(QStringLiteral("messageBarAction"));
        QVERIFY(button);
        QVERIFY(button->isVisible());
        QCOMPARE(button->text(), QStringLiteral("Configure models…"));
        QCOMPARE(button->accessibleName(), QStringLiteral("Configure models…"));
        QCOMPARE(bar.actionText(), QStringLiteral("Configure models…"));
        QTest::mouseClick(button, Qt::LeftButton);
        QCOMPARE(pressed, 1);
        // The next message has no action unless it brings its own.
        bar.showMessage(QStringLiteral("another problem"));
        QVERIFY(!button->isVisible());
        QCOMPARE(bar.actionText(), QString());
        QTest::mouseClick(button, Qt::LeftButton);
        QCOMPARE(pressed, 1);
        // An action may clear the bar it belongs to.
        bar.showMessage(QStringLiteral("x"), MessageBar::Kind::Error, QStringLiteral("Fix"),
                        [&] { bar.clearMessage(); });
        QTest::mouseClick(button, Qt::LeftButton);
        QVERIFY(!bar.isVisible());
    }
};

QTEST_MAIN(TestModelFailure)
#include "tst_modelfailure.moc"
