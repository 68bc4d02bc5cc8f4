// The libsodium wrapper (core/hub internal): strict base64 and the raw
// sign/verify primitives the signature formats are built on.
#include "core/hub/ed25519.hpp"

#include <gtest/gtest.h>

#include <string>

namespace skillrt::core::hub::ed25519 {
namespace {

TEST(Ed25519Base64, RoundTripsEveryLength) {
  std::string bytes;
  for (int length = 0; length <= 70; ++length) {
    const std::string encoded = base64_encode(bytes);
    EXPECT_EQ(encoded.size() % 4, 0u);
    const auto decoded = base64_decode(encoded);
    ASSERT_TRUE(decoded.has_value()) << encoded;
    EXPECT_EQ(*decoded, bytes);
    bytes += static_cast<char>((length * 37 + 200) & 0xff);
  }
}

TEST(Ed25519Base64, StandardAlphabetWithPadding) {
  EXPECT_EQ(base64_encode("\xfb\xff"), "+/8=");
  EXPECT_EQ(base64_encode("A"), "QQ==");
}

TEST(Ed25519Base64, DecodingIsStrict) {
  for (const char* bad : {"QQ", "QQ=", "QQ===", "Q===", "QR==", "-_8=", "+/8= ", " +/8=", "+/8=\n",
                          "QQ==QQ==", "Q Q=", "====", "QUJD\r\n"}) {
    EXPECT_FALSE(base64_decode(bad).has_value()) << '"' << bad << '"';
  }
  EXPECT_EQ(base64_decode("QUJD").value_or("?"), "ABC");
}

TEST(Ed25519, SignVerifyAndTamper) {
  auto keys = generate();
  ASSERT_TRUE(keys);
  EXPECT_EQ(keys->public_key.size(), k_public_key_bytes);
  EXPECT_EQ(keys->secret_key.size(), k_secret_key_bytes);
  EXPECT_EQ(public_key_of(keys->secret_key).value_or(""), keys->public_key);
  auto signature = sign("message", keys->secret_key);
  ASSERT_TRUE(signature);
  EXPECT_EQ(signature->size(), k_signature_bytes);
  EXPECT_TRUE(verify("message", *signature, keys->public_key));
  EXPECT_FALSE(verify("messagE", *signature, keys->public_key));
  std::string flipped = *signature;
  flipped[10] = static_cast<char>(flipped[10] ^ 1);
  EXPECT_FALSE(verify("message", flipped, keys->public_key));
  EXPECT_FALSE(verify("message", signature->substr(1), keys->public_key));
  EXPECT_FALSE(verify("message", *signature, keys->public_key.substr(1)));
  EXPECT_FALSE(verify("message", "", ""));
  auto other = generate();
  ASSERT_TRUE(other);
  EXPECT_FALSE(verify("message", *signature, other->public_key));
}

TEST(Ed25519, PublicKeyOfRejectsInconsistentSecrets) {
  auto keys = generate();
  auto other = generate();
  ASSERT_TRUE(keys && other);
  // Seed of one pair with the public half of the other.
  const std::string spliced = keys->secret_key.substr(0, 32) + other->public_key;
  EXPECT_FALSE(public_key_of(spliced).has_value());
  EXPECT_FALSE(public_key_of(keys->secret_key.substr(1)).has_value());
  EXPECT_FALSE(sign("m", "short").has_value());
}

TEST(Ed25519, WipeEmpties) {
  std::string secret = "abc";
  wipe(secret);
  EXPECT_TRUE(secret.empty());
}

} // namespace
} // namespace skillrt::core::hub::ed25519
