#include "core/yaml/float_syntax.hpp"

#include <gtest/gtest.h>

using skillrt::core::is_decimal_float;

TEST(FloatSyntax, AcceptsTheSharedDecimalForms) {
  for (const char* text : {"1", "1.", "1.5", "-1.5", "+2.5e+10", "1E3", "1.5e-3", ".5", ".5e2", "007.0"}) {
    EXPECT_TRUE(is_decimal_float(text, true)) << text;
    EXPECT_TRUE(is_decimal_float(text, false)) << text;
  }
}

TEST(FloatSyntax, RejectsWhatNeitherGrammarHas) {
  for (const char* text : {"", ".", "-", "+.", "e3", "1e", "1e+", "1.5.2", "1_000", "1:30", " 1", "1 ", "0x1p3"}) {
    EXPECT_FALSE(is_decimal_float(text, true)) << text;
    EXPECT_FALSE(is_decimal_float(text, false)) << text;
  }
}

TEST(FloatSyntax, OnlyTheCoreSchemaSignsTheLeadingDotForm) {
  for (const char* text : {"-.5", "+.5", "-.5e1"}) {
    EXPECT_TRUE(is_decimal_float(text, /*signed_leading_dot=*/true)) << text;
    EXPECT_FALSE(is_decimal_float(text, /*signed_leading_dot=*/false)) << text;
  }
}
