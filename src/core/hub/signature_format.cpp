// Strict parsers and printers of the key and signature text formats
// (signature_format.hpp): exact prefixes, exact lengths, canonical base64,
// exactly three lines, at most one trailing newline. Anything else is an
// error that says what is wrong.
#include "core/hub/signature_format.hpp"

#include <array>
#include <optional>

#include "core/hub/ed25519.hpp"

namespace skillrt::core::hub {

namespace {

constexpr std::string_view k_public_key_prefix = "ed25519:";
constexpr std::string_view k_secret_key_prefix = "ed25519-secret:";
constexpr std::string_view k_signature_header = "skillrt-signature v1";
constexpr std::string_view k_signature_key_prefix = "key ";
constexpr std::string_view k_signature_sig_prefix = "sig ";

// Base64 lengths (with padding) of 32 and 64 bytes.
constexpr std::size_t k_public_key_b64_chars = 44;
constexpr std::size_t k_secret_key_b64_chars = 88;
constexpr std::size_t k_signature_b64_chars = 88;

// "<prefix><base64 of `raw_bytes` bytes>" (no newline) → the raw bytes.
// `what` names the thing for messages ("public key", ...).
Result<std::string> parse_prefixed_base64(std::string_view text, std::string_view prefix, std::size_t b64_chars,
                                          std::size_t raw_bytes, std::string_view what) {
  if (text.substr(0, prefix.size()) != prefix) {
    return fail(ErrorCode::invalid_argument, "a " + std::string(what) + " starts with \"" + std::string(prefix) + "\"");
  }
  text.remove_prefix(prefix.size());
  if (text.size() != b64_chars) {
    return fail(ErrorCode::invalid_argument, "a " + std::string(what) + " has exactly " + std::to_string(b64_chars) +
                                                 " base64 characters after \"" + std::string(prefix) + "\", not " +
                                                 std::to_string(text.size()));
  }
  std::optional<std::string> raw = ed25519::base64_decode(text);
  if (!raw || raw->size() != raw_bytes) {
    if (raw) {
      ed25519::wipe(*raw);
    }
    return fail(ErrorCode::invalid_argument, "the " + std::string(what) +
                                                 " is not valid base64 (standard alphabet, "
                                                 "'=' padding)");
  }
  return std::move(*raw);
}

} // namespace

std::string signed_message(const std::string& manifest_text) {
  std::string message;
  message.reserve(k_signed_domain.size() + manifest_text.size());
  message += k_signed_domain;
  message += manifest_text;
  return message;
}

std::string_view without_final_newline(std::string_view text) {
  if (!text.empty() && text.back() == '\n') {
    text.remove_suffix(1);
  }
  return text;
}

Result<std::string> parse_public_key(std::string_view text) {
  return parse_prefixed_base64(text, k_public_key_prefix, k_public_key_b64_chars, ed25519::k_public_key_bytes,
                               "public key");
}

Result<std::string> parse_secret_key(std::string_view text) {
  auto raw = parse_prefixed_base64(text, k_secret_key_prefix, k_secret_key_b64_chars, ed25519::k_secret_key_bytes,
                                   "secret key");
  if (!raw) {
    return raw;
  }
  if (!ed25519::public_key_of(*raw)) {
    ed25519::wipe(*raw);
    return fail(ErrorCode::invalid_argument, "the secret key is corrupt: its public half does not match its seed");
  }
  return raw;
}

std::string public_key_text(std::string_view raw) {
  return std::string(k_public_key_prefix) + ed25519::base64_encode(raw);
}

std::string secret_key_text(std::string_view raw) {
  return std::string(k_secret_key_prefix) + ed25519::base64_encode(raw);
}

Result<ParsedSignature> parse_signature_file(std::string_view text, std::string& key_text) {
  const auto malformed = [](const std::string& why) {
    return fail(ErrorCode::invalid_argument, "the signature file is malformed: " + why);
  };
  if (text.empty()) {
    return malformed("it is empty");
  }
  const std::string_view body = without_final_newline(text);
  std::array<std::string_view, 3> lines{};
  std::size_t count = 0;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = body.find('\n', start);
    if (count == lines.size()) {
      return malformed("it has more than three lines");
    }
    lines[count++] = body.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (end == std::string_view::npos) {
      break;
    }
    start = end + 1;
  }
  if (lines[0] != k_signature_header) {
    return malformed("the first line must be \"" + std::string(k_signature_header) + "\"");
  }
  if (count != 3) {
    return malformed("it must have three lines (header, key, sig), not " + std::to_string(count));
  }
  if (lines[1].substr(0, k_signature_key_prefix.size()) != k_signature_key_prefix) {
    return malformed("the second line must be \"key ed25519:<base64>\"");
  }
  const std::string_view key_field = lines[1].substr(k_signature_key_prefix.size());
  auto public_key = parse_public_key(key_field);
  if (!public_key) {
    return malformed("the key line: " + public_key.error().message);
  }
  ParsedSignature parsed;
  parsed.key_text = std::string(key_field);
  key_text = parsed.key_text;
  parsed.public_key = std::move(*public_key);
  if (lines[2].substr(0, k_signature_sig_prefix.size()) != k_signature_sig_prefix) {
    return malformed("the third line must be \"sig <base64 of 64 bytes>\"");
  }
  auto signature = parse_prefixed_base64(lines[2], k_signature_sig_prefix, k_signature_b64_chars,
                                         ed25519::k_signature_bytes, "signature line");
  if (!signature) {
    return malformed(signature.error().message);
  }
  parsed.signature = std::move(*signature);
  return parsed;
}

std::string signature_file_text(const std::string& key_text, std::string_view signature) {
  return std::string(k_signature_header) + "\n" + std::string(k_signature_key_prefix) + key_text + "\n" +
         std::string(k_signature_sig_prefix) + ed25519::base64_encode(signature) + "\n";
}

} // namespace skillrt::core::hub
