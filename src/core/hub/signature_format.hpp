// The text formats of keys and signatures (their grammar is in
// signature.hpp's comment; docs/signatures.md): strict parsers and their
// printers, no I/O. Internal to core/hub: signature.cpp reads and writes the
// files, other modules use signature.hpp.
#pragma once

#include <string>
#include <string_view>

#include "skillrt/result.hpp"

namespace skillrt::core::hub {

// Domain separation: the bytes signed are this tag, then the manifest text, so
// a bundle signature is never valid as a signature of anything else made with
// the same key (and the other way round).
inline constexpr std::string_view k_signed_domain = "skillrt-bundle-v1\n";

// k_signed_domain followed by `manifest_text`: the message a signature covers.
std::string signed_message(const std::string& manifest_text);

// `text` without one trailing "\n" (if it has one): the only slack the
// formats allow.
std::string_view without_final_newline(std::string_view text);

// "ed25519:<base64 of 32 bytes>" (no newline) → the 32 bytes; a message
// saying what is wrong otherwise (invalid_argument).
Result<std::string> parse_public_key(std::string_view text);
// The 32 bytes → "ed25519:<base64>".
std::string public_key_text(std::string_view raw);

// "ed25519-secret:<base64 of 64 bytes>" (no newline) → the 64 bytes, checked
// for consistency (the public half matches the seed). The caller wipes them.
Result<std::string> parse_secret_key(std::string_view text);
// The 64 bytes → "ed25519-secret:<base64>" (a secret: the caller wipes it).
std::string secret_key_text(std::string_view raw);

struct ParsedSignature {
  std::string key_text;   // "ed25519:<b64>"
  std::string public_key; // 32 bytes
  std::string signature;  // 64 bytes
};

// The whole signature file ("skillrt-signature v1\nkey ed25519:<b64>\nsig
// <b64>\n", the final newline optional). `key_text` is set as soon as the key
// line parses, so a report can name the signer even when the rest is broken.
Result<ParsedSignature> parse_signature_file(std::string_view text, std::string& key_text);

// The signature file for `signature` (64 bytes) by `key_text`.
std::string signature_file_text(const std::string& key_text, std::string_view signature);

} // namespace skillrt::core::hub
