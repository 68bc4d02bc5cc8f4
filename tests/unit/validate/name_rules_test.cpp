#include "core/validate/name_rules.hpp"

#include <gtest/gtest.h>

namespace skillrt::core {
namespace {

TEST(NameRules, SpecCharset) {
  EXPECT_FALSE(check_spec_name("pdf-tools-2").bad_chars);
  EXPECT_TRUE(check_spec_name("pdf_tools").bad_chars);
  EXPECT_TRUE(check_spec_name("pdf.tools").bad_chars);
  EXPECT_TRUE(check_spec_name("pdf tools").bad_chars);
  EXPECT_FALSE(check_spec_name("caf\xC3\xA9").bad_chars);              // Latin-1 letter
  EXPECT_FALSE(check_spec_name("\xE6\x95\xB0\xE6\x8D\xAE").bad_chars); // CJK
  EXPECT_TRUE(check_spec_name("\xCE\xB1").bad_chars);                  // Greek alpha is outside skills-ref's set
  EXPECT_FALSE(check_spec_name("a\xC3\x97"
                               "b")
                   .bad_chars); // U+00D7 sits in skills-ref's Latin range
  SpecNameCheck list = check_spec_name("a_b_c.d");
  EXPECT_EQ(list.bad_char_list, U"_.");
}

TEST(NameRules, UppercaseAndHyphens) {
  EXPECT_TRUE(check_spec_name("Pdf").uppercase);
  EXPECT_TRUE(check_spec_name("\xC3\x89t\xC3\xA9").uppercase); // É
  EXPECT_TRUE(check_spec_name("\xD0\x9F").uppercase);          // Cyrillic П
  EXPECT_FALSE(check_spec_name("\xD0\xBF").uppercase);         // п
  EXPECT_FALSE(check_spec_name("\xC3\x97").uppercase);         // × has no case
  EXPECT_TRUE(check_spec_name("-a").bad_hyphens);
  EXPECT_TRUE(check_spec_name("a-").bad_hyphens);
  EXPECT_TRUE(check_spec_name("a--b").bad_hyphens);
  EXPECT_FALSE(check_spec_name("a-b").bad_hyphens);
}

TEST(NameRules, TrimsAndFoldsBeforeChecking) {
  SpecNameCheck check = check_spec_name("  pdf  ");
  EXPECT_EQ(check.normalized, "pdf");
  EXPECT_EQ(check.utf16_length, 3U);
  // Fullwidth letters fold to ASCII as NFKC does.
  EXPECT_EQ(spec_normalize("\xEF\xBD\x90\xEF\xBD\x84\xEF\xBD\x86"), "pdf");
  EXPECT_EQ(check_spec_name(std::string(64, 'a')).utf16_length, 64U);
}

TEST(NameRules, HermesRegex) {
  EXPECT_TRUE(is_hermes_name("pdf-tools"));
  EXPECT_TRUE(is_hermes_name("pdf_tools.v2"));
  EXPECT_TRUE(is_hermes_name("0day"));
  EXPECT_FALSE(is_hermes_name("-pdf"));
  EXPECT_FALSE(is_hermes_name(".hidden"));
  EXPECT_FALSE(is_hermes_name("Pdf"));
  EXPECT_FALSE(is_hermes_name("caf\xC3\xA9"));
  EXPECT_FALSE(is_hermes_name(""));
  EXPECT_TRUE(is_hermes_name(std::string(64, 'a')));
  EXPECT_FALSE(is_hermes_name(std::string(65, 'a')));
}

} // namespace
} // namespace skillrt::core
