// Thin wrapper over libsodium for ed25519 signatures and base64: the only
// door to sodium.h (which stays in ed25519.cpp). Internal to core/hub:
// signature.cpp builds the key and signature formats on top of it; other
// modules use signature.hpp.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "skillrt/result.hpp"

namespace skillrt::core::hub::ed25519 {

inline constexpr std::size_t k_public_key_bytes = 32;
inline constexpr std::size_t k_secret_key_bytes = 64; // libsodium's form: seed (32) then public key (32)
inline constexpr std::size_t k_signature_bytes = 64;

// Raw key bytes (binary strings of the sizes above).
struct RawKeyPair {
  std::string public_key;
  std::string secret_key;
};

// A fresh random key pair. Fails only when libsodium cannot initialise.
Result<RawKeyPair> generate();

// The public key a secret key was made with, recomputed from its seed; nullopt
// when `secret_key` is not k_secret_key_bytes long or its stored public half
// does not match its seed (a corrupt or hand-edited key).
std::optional<std::string> public_key_of(std::string_view secret_key);

// The detached signature (k_signature_bytes) of `message`. `secret_key` must
// be k_secret_key_bytes long (checked: internal error otherwise).
Result<std::string> sign(std::string_view message, std::string_view secret_key);

// True when `signature` is a valid signature of `message` by `public_key`;
// false for any malformed input (wrong sizes included).
bool verify(std::string_view message, std::string_view signature, std::string_view public_key);

// Standard base64 (RFC 4648 §4, '+' '/' and '=' padding; not URL-safe).
std::string base64_encode(std::string_view bytes);

// Strict inverse of base64_encode: nullopt unless `text` is exactly the
// canonical padded encoding of some bytes (no whitespace, no missing or extra
// padding, no stray bits in the last character).
std::optional<std::string> base64_decode(std::string_view text);

// Overwrites `secret` with zeros (libsodium's sodium_memzero, which the
// optimiser may not drop) and empties it.
void wipe(std::string& secret);

} // namespace skillrt::core::hub::ed25519
