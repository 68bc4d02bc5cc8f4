// The key and signature text formats on their own (no files): printers and
// strict parsers agree, and what is signed starts with the domain tag.
#include "core/hub/signature_format.hpp"

#include <gtest/gtest.h>

#include <string>

namespace skillrt::core::hub {
namespace {

const std::string k_raw_key(32, '\x07');
const std::string k_raw_signature(64, '\x5a');

TEST(SignatureFormat, SignedMessageIsDomainThenManifest) {
  EXPECT_EQ(signed_message("abc  SKILL.md\n"), "skillrt-bundle-v1\nabc  SKILL.md\n");
  EXPECT_EQ(signed_message(""), "skillrt-bundle-v1\n");
}

TEST(SignatureFormat, PublicKeyRoundTrip) {
  const std::string text = public_key_text(k_raw_key);
  EXPECT_EQ(text, "ed25519:BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=");
  EXPECT_EQ(parse_public_key(text).value_or(""), k_raw_key);
  EXPECT_FALSE(parse_public_key(text + "\n")) << "the newline is the file reader's business";
  EXPECT_FALSE(parse_public_key("ed25519-secret:" + text.substr(8)));
}

TEST(SignatureFormat, SignatureFileRoundTrip) {
  const std::string key = public_key_text(k_raw_key);
  const std::string text = signature_file_text(key, k_raw_signature);
  EXPECT_EQ(text.substr(0, 21), "skillrt-signature v1\n");
  std::string key_seen;
  auto parsed = parse_signature_file(text, key_seen);
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(parsed->key_text, key);
  EXPECT_EQ(key_seen, key);
  EXPECT_EQ(parsed->public_key, k_raw_key);
  EXPECT_EQ(parsed->signature, k_raw_signature);
}

TEST(SignatureFormat, KeyIsReportedEvenWhenTheSigLineIsBroken) {
  const std::string key = public_key_text(k_raw_key);
  std::string key_seen;
  EXPECT_FALSE(parse_signature_file("skillrt-signature v1\nkey " + key + "\nsig broken\n", key_seen));
  EXPECT_EQ(key_seen, key);
}

TEST(SignatureFormat, WithoutFinalNewlineDropsOnlyOne) {
  EXPECT_EQ(without_final_newline("a\n\n"), "a\n");
  EXPECT_EQ(without_final_newline("a"), "a");
  EXPECT_EQ(without_final_newline(""), "");
}

} // namespace
} // namespace skillrt::core::hub
