// libsodium behind ed25519.hpp: key generation, detached signatures, strict
// base64, wiping of secrets. The only file of skillrt that includes sodium.h.
#include "core/hub/ed25519.hpp"

#include <sodium.h>

#include <array>

namespace skillrt::core::hub::ed25519 {

static_assert(k_public_key_bytes == crypto_sign_PUBLICKEYBYTES);
static_assert(k_secret_key_bytes == crypto_sign_SECRETKEYBYTES);
static_assert(k_signature_bytes == crypto_sign_BYTES);
static_assert(crypto_sign_SEEDBYTES == 32);

namespace {

// sodium_init() picks the implementations and seeds the random generator; it
// must run before any other call. A function-local static runs it exactly once
// even with several threads (C++ guarantees the initialisation is serialised).
bool sodium_ready() {
  static const int status = sodium_init();
  return status >= 0; // 0 = initialised now, 1 = already initialised
}

const unsigned char* bytes_of(std::string_view text) {
  return reinterpret_cast<const unsigned char*>(text.data());
}

} // namespace

Result<RawKeyPair> generate() {
  if (!sodium_ready()) {
    return fail(ErrorCode::internal, "libsodium could not be initialised (no entropy source?)");
  }
  std::array<unsigned char, crypto_sign_PUBLICKEYBYTES> public_key{};
  std::array<unsigned char, crypto_sign_SECRETKEYBYTES> secret_key{};
  if (crypto_sign_keypair(public_key.data(), secret_key.data()) != 0) {
    sodium_memzero(secret_key.data(), secret_key.size());
    return fail(ErrorCode::internal, "libsodium could not generate an ed25519 key pair");
  }
  RawKeyPair keys;
  keys.public_key.assign(reinterpret_cast<const char*>(public_key.data()), public_key.size());
  keys.secret_key.assign(reinterpret_cast<const char*>(secret_key.data()), secret_key.size());
  sodium_memzero(secret_key.data(), secret_key.size());
  return keys;
}

std::optional<std::string> public_key_of(std::string_view secret_key) {
  if (secret_key.size() != k_secret_key_bytes || !sodium_ready()) {
    return std::nullopt;
  }
  std::array<unsigned char, crypto_sign_PUBLICKEYBYTES> public_key{};
  std::array<unsigned char, crypto_sign_SECRETKEYBYTES> rebuilt{};
  // The first half of libsodium's secret key is the seed; regenerating from it
  // proves the stored public half (the second) belongs to it.
  const int made = crypto_sign_seed_keypair(public_key.data(), rebuilt.data(), bytes_of(secret_key));
  sodium_memzero(rebuilt.data(), rebuilt.size());
  if (made != 0 ||
      sodium_memcmp(public_key.data(), bytes_of(secret_key) + crypto_sign_SEEDBYTES, public_key.size()) != 0) {
    return std::nullopt;
  }
  return std::string(reinterpret_cast<const char*>(public_key.data()), public_key.size());
}

Result<std::string> sign(std::string_view message, std::string_view secret_key) {
  if (secret_key.size() != k_secret_key_bytes) {
    return fail(ErrorCode::internal, "ed25519 secret key of the wrong size");
  }
  if (!sodium_ready()) {
    return fail(ErrorCode::internal, "libsodium could not be initialised");
  }
  std::array<unsigned char, crypto_sign_BYTES> signature{};
  if (crypto_sign_detached(signature.data(), nullptr, bytes_of(message), message.size(), bytes_of(secret_key)) != 0) {
    return fail(ErrorCode::internal, "libsodium could not sign");
  }
  return std::string(reinterpret_cast<const char*>(signature.data()), signature.size());
}

bool verify(std::string_view message, std::string_view signature, std::string_view public_key) {
  if (signature.size() != k_signature_bytes || public_key.size() != k_public_key_bytes || !sodium_ready()) {
    return false;
  }
  return crypto_sign_verify_detached(bytes_of(signature), bytes_of(message), message.size(), bytes_of(public_key)) == 0;
}

std::string base64_encode(std::string_view bytes) {
  constexpr int variant = sodium_base64_VARIANT_ORIGINAL;
  std::string out(sodium_base64_ENCODED_LEN(bytes.size(), variant), '\0');
  sodium_bin2base64(out.data(), out.size(), bytes_of(bytes), bytes.size(), variant);
  out.pop_back(); // the terminating NUL libsodium counts in the length
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  constexpr int variant = sodium_base64_VARIANT_ORIGINAL;
  if (text.size() % 4 != 0) {
    return std::nullopt;
  }
  if (text.empty()) {
    return std::string();
  }
  std::string out(text.size() / 4 * 3, '\0');
  std::size_t decoded = 0;
  const char* end = nullptr;
  // No characters to ignore; `end` must reach the end of the text, so trailing
  // garbage after valid base64 is an error rather than silently dropped.
  if (sodium_base642bin(reinterpret_cast<unsigned char*>(out.data()), out.size(), text.data(), text.size(), nullptr,
                        &decoded, &end, variant) != 0 ||
      end != text.data() + text.size()) {
    return std::nullopt;
  }
  out.resize(decoded);
  // libsodium already refuses non-zero padding bits; re-encoding makes
  // "canonical only" hold by construction, whatever the library version.
  // (The decoded bytes may be a secret key: wipe the copies on the way out.)
  std::string again = base64_encode(out);
  const bool canonical = again == text;
  wipe(again);
  if (!canonical) {
    wipe(out);
    return std::nullopt;
  }
  return out;
}

void wipe(std::string& secret) {
  if (!secret.empty()) {
    sodium_memzero(secret.data(), secret.size());
  }
  secret.clear();
}

} // namespace skillrt::core::hub::ed25519
