#include "core/util/sha256.hpp"

#include <openssl/evp.h>

#include <array>
#include <cstdlib>

namespace skillrt::core {

struct Sha256::Impl {
  EVP_MD_CTX* ctx = nullptr;
  bool done = false;
  ~Impl() { EVP_MD_CTX_free(ctx); }
};

Sha256::Sha256() : m_impl(std::make_unique<Impl>()) {
  m_impl->ctx = EVP_MD_CTX_new();
  // Allocation failure of a few hundred bytes or a missing SHA-256 in libcrypto
  // leaves nothing sensible to hash with: that is a broken process, not bad input.
  if (m_impl->ctx == nullptr || EVP_DigestInit_ex(m_impl->ctx, EVP_sha256(), nullptr) != 1) {
    std::abort();
  }
}

Sha256::~Sha256() = default;
Sha256::Sha256(Sha256&&) noexcept = default;
Sha256& Sha256::operator=(Sha256&&) noexcept = default;

void Sha256::update(std::string_view bytes) {
  if (!bytes.empty() && !m_impl->done) {
    EVP_DigestUpdate(m_impl->ctx, bytes.data(), bytes.size());
  }
}

std::string Sha256::hex_digest() {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  if (!m_impl->done) {
    EVP_DigestFinal_ex(m_impl->ctx, digest.data(), &length);
    m_impl->done = true;
  }
  static constexpr char k_hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * length);
  for (unsigned int i = 0; i < length; ++i) {
    out.push_back(k_hex[digest[i] >> 4]);
    out.push_back(k_hex[digest[i] & 0x0f]);
  }
  return out;
}

std::string sha256_hex(std::string_view bytes) {
  Sha256 hash;
  hash.update(bytes);
  return hash.hex_digest();
}

} // namespace skillrt::core
