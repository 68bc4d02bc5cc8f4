// SHA-256 digests (content hashes of skills, guard fingerprints). OpenSSL's
// libcrypto does the work; its headers stay in sha256.cpp.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace skillrt::core {

// An incremental SHA-256: update() any number of times, then hex_digest() once.
class Sha256 {
public:
  Sha256();
  ~Sha256();
  Sha256(Sha256&&) noexcept;
  Sha256& operator=(Sha256&&) noexcept;
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  // Feeds `bytes` into the digest.
  void update(std::string_view bytes);
  // The 64 lower-case hex digits of everything fed so far; the object is spent afterwards.
  std::string hex_digest();

private:
  struct Impl;
  std::unique_ptr<Impl> m_impl;
};

// The 64 lower-case hex digits of SHA-256(`bytes`).
std::string sha256_hex(std::string_view bytes);

} // namespace skillrt::core
