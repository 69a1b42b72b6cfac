#include "cli/optionparser.h"

#include "cli/output.h"

namespace hako {

void OptionParser::addFlag(const QStringList& names, std::function<void()> onSet)
{
    m_options.append({names, Kind::Flag, [onSet = std::move(onSet)](const QString&) {
                          onSet();
                          return QString();
                      }});
}

void OptionParser::addOption(const QStringList& names, Handler onValue)
{
    m_options.append({names, Kind::Value, std::move(onValue)});
}

void OptionParser::addOptionalValue(const QStringList& names, Handler onValue)
{
    m_options.append({names, Kind::OptionalValue, std::move(onValue)});
}

const OptionParser::Option* OptionParser::find(const QString& name) const
{
    for (const Option& o : m_options)
        if (o.names.contains(name))
            return &o;
    return nullptr;
}

// Whether a word from `from` on would be one of the command's own words rather than an option
// or an option's value.
bool OptionParser::freeWordFollows(const QStringList& words, int from) const
{
    for (int i = from; i < words.size(); ++i) {
        const QString& word = words.at(i);
        if (!word.startsWith(QLatin1Char('-')) || word.size() == 1)
            return true;
        const Option* option = find(word);
        if (option && option->kind == Kind::Value)
            ++i; // its value
    }
    return false;
}

bool OptionParser::takesOptionalValue(const QStringList& words, int next, int positionalsSeen) const
{
    if (next >= words.size() || words.at(next).startsWith(QLatin1Char('-')))
        return false;
    if (!m_positional || m_maxPositionals == 0)
        return true;
    if (positionalsSeen >= qMax(1, m_maxPositionals))
        return true;
    // The command still needs a word: the next one is the value only when a later one can be it.
    return freeWordFollows(words, next + 1);
}

OptionParser::Parsed OptionParser::parse(const QStringList& words) const
{
    auto failed = [](Outcome outcome, const QString& error, const QString& word = QString()) {
        return Parsed{outcome, error, word, {}};
    };
    int positionalsSeen = 0;
    for (int i = 0; i < words.size(); ++i) {
        const QString& word = words.at(i);
        if (word == QLatin1String("-h") || word == QLatin1String("--help"))
            return {Outcome::Help, {}};
        if (!word.startsWith(QLatin1Char('-')) || word.size() == 1) {
            const QString error = m_positional ? m_positional(word) : QString();
            if (!error.isEmpty())
                return failed(Outcome::Error, error);
            ++positionalsSeen;
            if (m_stopAtPositional)
                return {Outcome::Ok, {}, {}, words.mid(i + 1)};
            continue;
        }
        QString name = word;
        QString value;
        bool inlineValue = false;
        const qsizetype eq = word.indexOf(QLatin1Char('='));
        const Option* option = find(word);
        if (!option && word.startsWith(QLatin1String("--")) && eq > 2) {
            name = word.left(eq);
            value = word.mid(eq + 1);
            inlineValue = true;
            option = find(name);
            if (option && option->kind == Kind::Flag)
                option = nullptr; // `--sandbox=x` is not an option
        }
        if (!option)
            return failed(Outcome::UnknownOption, QStringLiteral("unknown option %1").arg(word),
                          word);
        if (!inlineValue) {
            if (option->kind == Kind::Value) {
                if (i + 1 >= words.size())
                    return failed(Outcome::Error, QStringLiteral("%1 needs a value").arg(word));
                value = words.at(++i);
            } else if (option->kind == Kind::OptionalValue) {
                if (takesOptionalValue(words, i + 1, positionalsSeen))
                    value = words.at(++i);
            }
        }
        const QString error = option->handler(value);
        if (!error.isEmpty())
            return failed(Outcome::Error, error);
    }
    return {};
}

std::optional<int> OptionParser::finish(const Parsed& parsed, const QString& command,
                                        const char* usage)
{
    switch (parsed.outcome) {
    case Outcome::Ok:
        return std::nullopt;
    case Outcome::Help:
        writeText(stdout, QString::fromUtf8(usage));
        return 0;
    case Outcome::UnknownOption:
        writeText(stderr, QStringLiteral("%1: %2\n\n").arg(command, parsed.error) +
                              QString::fromUtf8(usage));
        return 2;
    case Outcome::Error:
        writeText(stderr, QStringLiteral("%1: %2\n").arg(command, parsed.error));
        return 2;
    }
    return 2;
}

} // namespace hako
