// SKILLRT_TRY / SKILLRT_TRY_ASSIGN: the error passes through unchanged, the
// expression runs once, and the value is moved out.
#include "skillrt/try.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace skillrt {
namespace {

Result<void> step(bool ok, int& calls) {
  ++calls;
  return ok ? Result<void>{} : fail(ErrorCode::not_found, "step failed");
}

Result<std::unique_ptr<std::string>> make(bool ok) {
  if (!ok) {
    return fail(ErrorCode::io_error, "make failed");
  }
  return std::make_unique<std::string>("value");
}

Result<int> run(bool first, bool second, int& calls) {
  SKILLRT_TRY(step(first, calls));
  SKILLRT_TRY_ASSIGN(std::unique_ptr<std::string> made, make(second));
  std::string into;
  SKILLRT_TRY_ASSIGN(into, Result<std::string>(*made + "!"));
  return static_cast<int>(into.size());
}

TEST(Try, PassesTheFirstErrorThroughUnchanged) {
  int calls = 0;
  auto failed = run(false, true, calls);
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().code, ErrorCode::not_found);
  EXPECT_EQ(failed.error().message, "step failed");
  EXPECT_EQ(calls, 1);

  auto second = run(true, false, calls);
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error().code, ErrorCode::io_error);
  EXPECT_EQ(calls, 2);
}

TEST(Try, MovesTheValueOutOnSuccess) {
  int calls = 0;
  auto ok = run(true, true, calls);
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(*ok, 6); // "value!"
  EXPECT_EQ(calls, 1);
}

} // namespace
} // namespace skillrt
