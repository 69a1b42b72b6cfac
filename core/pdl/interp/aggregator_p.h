#pragma once
// Private to the interpreter: the values `aggregator` blocks produce, which blocks name in
// `contribute` to send their results somewhere besides the result and the context.

#include "core/pdl/value.h"
#include "core/util/diagnostic.h"

#include <QString>

#include <mutex>
#include <string>

namespace hako::pdl {

/// An aggregator value: a handle to a sink shared by every copy of the value, so its state is
/// mutable behind const methods. Contributions may come from several threads (`map`
/// iterations), so implementations lock. Calling it from an expression (`${ agg() }`) returns what
/// it has collected so far.
class Aggregator : public Callable {
public:
    /// One block's contribution: its value (already the replacement value when the target had
    /// one), the role it ran with, its `pdl__id` when the block is a leaf (else empty), and
    /// whether it is a structured block (text, array, repeat, …) whose value is made of its
    /// children's. Throws PdlError (e.g. a write failed).
    virtual void contribute(const Value& value, const std::string& role, const std::string& leafId,
                            bool structured, const SourceSpan& span) const = 0;
    /// Called once when the run ends; writes what is still buffered. Throws PdlError.
    virtual void finish() const {}
};

/// `aggregator: context`: collects the messages of the blocks contributing to it, as the
/// background context would hold them.
class ContextAggregator : public Aggregator {
public:
    std::string name() const override { return "aggregator"; }
    std::string repr() const override { return "<context aggregator>"; }
    Value call(const CallArgs& args) const override;
    void contribute(const Value& value, const std::string& role, const std::string& leafId,
                    bool structured, const SourceSpan& span) const override;

private:
    mutable std::mutex m_mutex;
    mutable List m_messages;
};

/// `aggregator: {file, mode, encoding, prefix, suffix, flush}`: writes `prefix + str(value) +
/// suffix` per contribution to a file. Mode `a` appends each contribution as it comes; mode `w`
/// (the default) replaces the file atomically (QSaveFile) when the run ends, or after every
/// contribution with `flush: true`, so a failed run never leaves a half-written file.
class FileAggregator : public Aggregator {
public:
    struct Config {
        QString path; ///< absolute
        bool append = false;
        std::string prefix;
        std::string suffix = "\n";
        bool flush = false;
        SourceSpan span; ///< the aggregator block, for write errors
    };
    /// Checks that the file can be written (creating it in append mode, as opening it does in
    /// the reference). Throws PdlError.
    explicit FileAggregator(Config config);

    std::string name() const override { return "aggregator"; }
    std::string repr() const override;
    Value call(const CallArgs& args) const override;
    void contribute(const Value& value, const std::string& role, const std::string& leafId,
                    bool structured, const SourceSpan& span) const override;
    void finish() const override;

private:
    void commitLocked() const;

    Config m_config;
    mutable std::mutex m_mutex;
    mutable std::string m_text;     ///< everything contributed during this run
    mutable bool m_written = false; ///< mode w: committed at least once
};

} // namespace hako::pdl
