#include "store/token_secret.hpp"

#include <sys/random.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "core/tenancy/user_id.hpp"
#include "core/util/sha256.hpp"
#include "core/util/utc_time.hpp"
#include "core/util/utf8.hpp"

namespace skillrt::store::tokens {
namespace {

constexpr std::string_view k_base32 = "abcdefghijklmnopqrstuvwxyz234567";
constexpr std::string_view k_base64url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
constexpr std::string_view k_hex = "0123456789abcdef";

bool all_in(std::string_view text, std::string_view alphabet) {
  for (const char c : text) {
    if (alphabet.find(c) == std::string_view::npos) {
      return false;
    }
  }
  return true;
}

std::string to_hex(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    out += k_hex[byte >> 4U];
    out += k_hex[byte & 0x0FU];
  }
  return out;
}

std::optional<std::string> from_hex(std::string_view hex) {
  if (hex.size() % 2 != 0) {
    return std::nullopt;
  }
  std::string out;
  out.reserve(hex.size() / 2);
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    const auto high = k_hex.find(hex[i]);
    const auto low = k_hex.find(hex[i + 1]);
    if (high == std::string_view::npos || low == std::string_view::npos) {
      return std::nullopt;
    }
    out += static_cast<char>((high << 4U) | low);
  }
  return out;
}

// Unpadded base64url (RFC 4648 §5).
std::string base64url(std::string_view bytes) {
  std::string out;
  std::uint32_t buffer = 0;
  int bits = 0;
  for (const char c : bytes) {
    buffer = (buffer << 8U) | static_cast<unsigned char>(c);
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += k_base64url[(buffer >> static_cast<unsigned>(bits)) & 0x3FU];
    }
  }
  if (bits > 0) {
    out += k_base64url[(buffer << static_cast<unsigned>(6 - bits)) & 0x3FU];
  }
  return out;
}

} // namespace

tl::unexpected<Error> refused() {
  return fail(ErrorCode::refused, std::string(k_refused_message));
}

tl::unexpected<Error> not_found(std::string_view id) {
  if (!is_token_id(id)) {
    return fail(ErrorCode::not_found,
                "no API token with that id (ids are " + std::to_string(k_id_chars) + " characters of a-z and 2-7)");
  }
  return fail(ErrorCode::not_found, "no API token with id " + std::string(id));
}

Result<std::string> random_bytes(std::size_t count) {
  std::string out(count, '\0');
  std::size_t filled = 0;
  while (filled < count) {
    const ssize_t got = ::getrandom(out.data() + filled, count - filled, 0);
    if (got < 0) {
      if (errno == EINTR) {
        continue;
      }
      return fail(ErrorCode::io_error, std::string("getrandom failed: ") + std::strerror(errno));
    }
    filled += static_cast<std::size_t>(got);
  }
  return out;
}

std::string NewSecret::bearer() const {
  return std::string(k_prefix) + id + "_" + secret;
}

Result<NewSecret> make_secret() {
  // One draw for all three values: 12 bytes (5 bits of each used) for the id.
  auto bytes = random_bytes(k_id_chars + k_secret_bytes + k_salt_bytes);
  if (!bytes) {
    return tl::unexpected(bytes.error());
  }
  const std::string_view all = *bytes;
  NewSecret made;
  for (std::size_t i = 0; i < k_id_chars; ++i) {
    made.id += k_base32[static_cast<unsigned char>(all[i]) & 0x1FU];
  }
  made.secret = base64url(all.substr(k_id_chars, k_secret_bytes));
  made.salt_hex = to_hex(all.substr(k_id_chars + k_secret_bytes, k_salt_bytes));
  made.hash_hex = hash_secret(made.salt_hex, made.secret);
  return made;
}

bool is_token_id(std::string_view id) {
  return id.size() == k_id_chars && all_in(id, k_base32);
}

std::optional<ParsedBearer> parse_bearer(std::string_view bearer) {
  // Fixed length first: nothing longer is even scanned.
  if (bearer.size() != k_prefix.size() + k_id_chars + 1 + k_secret_chars) {
    return std::nullopt;
  }
  if (bearer.substr(0, k_prefix.size()) != k_prefix) {
    return std::nullopt;
  }
  const std::string_view id = bearer.substr(k_prefix.size(), k_id_chars);
  if (bearer[k_prefix.size() + k_id_chars] != '_') {
    return std::nullopt;
  }
  const std::string_view secret = bearer.substr(k_prefix.size() + k_id_chars + 1);
  if (!is_token_id(id) || !all_in(secret, k_base64url)) {
    return std::nullopt;
  }
  return ParsedBearer{id, secret};
}

std::string hash_secret(std::string_view salt_hex, std::string_view secret) {
  const auto salt = from_hex(salt_hex);
  if (!salt) {
    return {};
  }
  core::Sha256 digest;
  digest.update(*salt);
  digest.update(secret);
  return digest.hex_digest();
}

bool constant_time_equal(std::string_view a, std::string_view b) {
  // Lengths are public (both are hex digests); the contents are not.
  if (a.size() != b.size()) {
    return false;
  }
  volatile unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff = static_cast<unsigned char>(diff | (static_cast<unsigned char>(a[i]) ^ static_cast<unsigned char>(b[i])));
  }
  return diff == 0;
}

Result<void> check_label(std::string_view label) {
  if (label.size() > k_max_label_bytes) {
    return fail(ErrorCode::invalid_argument,
                "token label is longer than " + std::to_string(k_max_label_bytes) + " bytes");
  }
  if (core::find_invalid_utf8(label)) {
    return fail(ErrorCode::invalid_argument, "token label is not valid UTF-8");
  }
  for (const char c : label) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7F) {
      return fail(ErrorCode::invalid_argument, "token label contains a control character");
    }
  }
  return {};
}

Result<void> check_new_token(std::string_view user_id, std::string_view org_id, std::string_view label) {
  if (auto ok = core::check_user_id(user_id); !ok) {
    return ok;
  }
  if (auto ok = core::check_org_id(org_id); !ok) {
    return ok;
  }
  return check_label(label);
}

std::string iso_utc(std::chrono::system_clock::time_point at) {
  return core::iso8601_utc(at, core::TimePrecision::milliseconds);
}

} // namespace skillrt::store::tokens
