#include "core/util/sha256.hpp"

#include <gtest/gtest.h>

#include <string>

namespace skillrt::core {
namespace {

TEST(Sha256, KnownAnswers) {
  // FIPS 180-2 vectors.
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, IncrementalEqualsOneShot) {
  Sha256 hash;
  hash.update("ab");
  hash.update("");
  hash.update("c");
  EXPECT_EQ(hash.hex_digest(), sha256_hex("abc"));
}

TEST(Sha256, MillionAs) {
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

} // namespace
} // namespace skillrt::core
