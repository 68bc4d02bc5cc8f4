// What both token adapters share: making bearer values, checking their shape,
// hashing secrets, the one refusal message. No database here.
//
// A bearer is "skrt_" + id + "_" + secret: the id (12 base32 characters,
// 60 random bits) is the row's public key, so a lookup needs no scan; the
// secret (32 random bytes, base64url without padding, 43 characters) is never
// stored. The row keeps a 16-byte random salt and SHA-256(salt ‖ secret).
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "skillrt/result.hpp"

namespace skillrt::store::tokens {

inline constexpr std::string_view k_prefix = "skrt_";
inline constexpr std::size_t k_id_chars = 12;
inline constexpr std::size_t k_secret_bytes = 32;
inline constexpr std::size_t k_secret_chars = 43; // base64url of 32 bytes, unpadded
inline constexpr std::size_t k_salt_bytes = 16;
inline constexpr std::size_t k_max_label_bytes = 200;
// last_used_at is refreshed at most this often, so authentication is not a write per request.
inline constexpr std::chrono::seconds k_last_used_resolution{60};

// The single answer to every failed authentication (unknown id, wrong secret,
// revoked, malformed): callers cannot tell which it was.
inline constexpr std::string_view k_refused_message = "invalid or revoked API token";
tl::unexpected<Error> refused();

// not_found for revoking `id`; the id is quoted only when it has a token id's
// shape (anything else may hold control bytes).
tl::unexpected<Error> not_found(std::string_view id);

// `count` bytes from getrandom(2); io_error if the kernel's generator fails.
Result<std::string> random_bytes(std::size_t count);

// A fresh token: its id, secret, salt (hex) and hash (hex) of salt ‖ secret.
struct NewSecret {
  std::string id;
  std::string secret;
  std::string salt_hex;
  std::string hash_hex;
  std::string bearer() const;
};
Result<NewSecret> make_secret();

// The id and secret of a well-formed bearer; nullopt for anything else
// (wrong prefix or length, characters outside the alphabets, NUL).
struct ParsedBearer {
  std::string_view id;
  std::string_view secret;
};
std::optional<ParsedBearer> parse_bearer(std::string_view bearer);

// Whether `id` could be a token id (for revoke: anything else is not_found).
bool is_token_id(std::string_view id);

// Hex SHA-256 of the salt's bytes followed by the secret; "" for a salt that is not hex.
std::string hash_secret(std::string_view salt_hex, std::string_view secret);

// Equality that takes the same time wherever the first difference is.
bool constant_time_equal(std::string_view a, std::string_view b);

// Label rules: at most k_max_label_bytes, valid UTF-8, no control characters.
Result<void> check_label(std::string_view label);

// What every adapter checks before issuing a token: the user id and org id
// grammar (core/tenancy/user_id.hpp) and the label rules above.
Result<void> check_new_token(std::string_view user_id, std::string_view org_id, std::string_view label);

// "2026-11-30T23:59:59.123Z" for `at` (UTC, milliseconds): the port's time format.
std::string iso_utc(std::chrono::system_clock::time_point at);

} // namespace skillrt::store::tokens
