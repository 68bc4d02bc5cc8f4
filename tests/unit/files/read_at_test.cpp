// Positional exact reads on a real file: a whole range comes back, a range
// past the end is refused rather than half filled.
#include "core/files/read_at.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>

#include <string>

#include "core/files/unique_fd.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::core::files {
namespace {

TEST(ReadExactlyAt, ReadsTheRangeAskedFor) {
  test::TempTree tree;
  const auto path = tree.write("data.bin", "0123456789abcdef");
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  ASSERT_TRUE(fd);
  std::string out(6, '\0');
  ASSERT_TRUE(read_exactly_at(fd.get(), 4, out.data(), out.size()));
  EXPECT_EQ(out, "456789");
  ASSERT_TRUE(read_exactly_at(fd.get(), 0, out.data(), 0));  // nothing asked, nothing read
}

TEST(ReadExactlyAt, RefusesARangePastTheEnd) {
  test::TempTree tree;
  const auto path = tree.write("data.bin", "0123456789");
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  ASSERT_TRUE(fd);
  std::string out(4, '\0');
  EXPECT_FALSE(read_exactly_at(fd.get(), 8, out.data(), out.size()));
  EXPECT_FALSE(read_exactly_at(fd.get(), 100, out.data(), out.size()));
  EXPECT_FALSE(read_exactly_at(-1, 0, out.data(), out.size()));  // a bad descriptor is an error
}

}  // namespace
}  // namespace skillrt::core::files
