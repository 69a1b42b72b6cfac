#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace hako {

/// One subcommand's options, declared once each with what to do when it is given, and one walk
/// over the words that applies them in order (so the first problem is the one reported).
/// `--name VALUE` and `--name=VALUE` both work; `-h`/`--help` ends the walk with Help; a word
/// starting with `-` that names no option (a lone `-` is a word) is an unknown option. Handlers
/// return an error message without the subcommand's prefix, or an empty string.
class OptionParser {
public:
    using Handler = std::function<QString(const QString& value)>;

    /// An option without a value (`--sandbox`).
    void addFlag(const QStringList& names, std::function<void()> onSet);
    /// An option with a value.
    void addOption(const QStringList& names, Handler onValue);
    /// An option whose value may be left out (`onValue` then gets an empty string). The next
    /// word is its value (`--otlp 4318` means `--otlp=4318`) unless it is an option, or it
    /// may be the word the command still needs: the command takes words (setPositional), has
    /// none yet, and no later word could be one. So `hako run --trace PROGRAM` keeps the
    /// program, while `hako run PROGRAM --trace out.json` and
    /// `hako run --trace out.json PROGRAM` write out.json.
    void addOptionalValue(const QStringList& names, Handler onValue);
    /// What to do with each word that is not an option. `maxWords` is how many the command
    /// takes: 0 says none (`onWord` reports the word as an error; an optional value then always
    /// takes the next word), -1 at least one, more if the command says so.
    void setPositional(Handler onWord, int maxWords = -1)
    {
        m_positional = std::move(onWord);
        m_maxPositionals = maxWords;
    }
    /// After the first word that is not an option, stop: the words after it are left in
    /// Parsed::rest unread (`hako search FILE COMMAND…`, where the command may start with `-`).
    void stopAtFirstPositional() { m_stopAtPositional = true; }

    enum class Outcome { Ok, Help, Error, UnknownOption };
    struct Parsed {
        Outcome outcome = Outcome::Ok;
        QString error;    ///< Error, UnknownOption: what was wrong
        QString word;     ///< UnknownOption: the word as given
        QStringList rest; ///< with stopAtFirstPositional: the words after the first positional
    };
    Parsed parse(const QStringList& words) const;

    /// Says what `parsed` asks for, the same way for every subcommand: Help prints `usage` on
    /// stdout and gives 0; an error prints `<command>: <error>` on stderr (followed by `usage`
    /// for an unknown option) and gives 2. Ok gives nothing: the subcommand goes on.
    static std::optional<int> finish(const Parsed& parsed, const QString& command,
                                     const char* usage);

private:
    enum class Kind { Flag, Value, OptionalValue };
    struct Option {
        QStringList names;
        Kind kind;
        Handler handler;
    };
    const Option* find(const QString& name) const;
    bool takesOptionalValue(const QStringList& words, int next, int positionalsSeen) const;
    bool freeWordFollows(const QStringList& words, int from) const;

    QList<Option> m_options;
    Handler m_positional;
    int m_maxPositionals = -1;
    bool m_stopAtPositional = false;
};

} // namespace hako
