#pragma once

#include "core/models/apikeystore.h"

#include <memory>

namespace hako::models {

/// The desktop keyring (Secret Service/libsecret, KWallet, … through QtKeychain) as a secret
/// backend. QtKeychain brings QtDBus and some ten libraries with it, which a command that never
/// reads a key (`hako run` of a program without model blocks) should not load: they live in the
/// module `libhako_keychain.so` (core/keychain), next to libhako_models, loaded on the first
/// read or write. A module that cannot be loaded makes every read Unavailable, saying why.
/// Every job runs on a thread of its own with an event loop, so callers on any thread (the GUI
/// one included) are never blocked. Never falls back to storing keys in plain text.
/// Threading: thread-safe; needs a QCoreApplication (without one every read is Unavailable).
std::shared_ptr<ISecretBackend> desktopKeyringBackend();

/// The keyring service name the keys are stored under.
inline constexpr const char* kKeyringService = "hako";

/// The module and its entry: `ISecretBackend* hakoKeychainBackend()` gives a new backend the
/// caller owns.
inline constexpr const char* kKeychainModuleFile = "libhako_keychain.so";
inline constexpr const char* kKeychainEntryName = "hakoKeychainBackend";
using KeychainEntry = ISecretBackend* (*)();

} // namespace hako::models
