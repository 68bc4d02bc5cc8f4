#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>

#include "core/files/atomic_file.hpp"
#include "core/files/read_file.hpp"
#include "temp_dir.hpp"

namespace skillrt::core {
namespace {

namespace fs = std::filesystem;
using testing::read_text;
using testing::TempDir;

TEST(AtomicFileTest, CreatesAndReplaces) {
  TempDir dir;
  fs::path file = dir.path() / "out.yaml";
  ASSERT_TRUE(write_file_atomic(file, "one\n"));
  EXPECT_EQ(read_text(file), "one\n");
  EXPECT_EQ(fs::status(file).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  ASSERT_TRUE(write_file_atomic(file, "two\n"));
  EXPECT_EQ(read_text(file), "two\n");
  // The existing mode is kept, and no temporary file is left behind.
  EXPECT_EQ(fs::status(file).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  std::size_t count = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir.path())) {
    ++count;
  }
  EXPECT_EQ(count, 1U);
}

TEST(AtomicFileTest, FollowsSymlinkAndRefusesDirectory) {
  TempDir dir;
  fs::path real = dir.write("real/config.yaml", "old");
  fs::path link = dir.path() / "config.yaml";
  fs::create_symlink(real, link);
  ASSERT_TRUE(write_file_atomic(link, "new"));
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read_text(real), "new");
  fs::create_directories(dir.path() / "adir");
  auto result = write_file_atomic(dir.path() / "adir", "x");
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, ErrorCode::invalid_argument);
  auto missing_parent = write_file_atomic(dir.path() / "no" / "such" / "file", "x");
  ASSERT_FALSE(missing_parent);
  EXPECT_EQ(missing_parent.error().code, ErrorCode::io_error);
}

TEST(ReadFileTest, LimitsAndKinds) {
  TempDir dir;
  fs::path file = dir.write("f.txt", "hello");
  auto ok = read_regular_file(file, 5);
  ASSERT_TRUE(ok);
  EXPECT_EQ(*ok, "hello");
  auto big = read_regular_file(file, 4);
  ASSERT_FALSE(big);
  EXPECT_EQ(big.error().code, ErrorCode::limit_exceeded);
  auto missing = read_regular_file(dir.path() / "nope", 10);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::not_found);
  auto directory = read_regular_file(dir.path(), 10);
  ASSERT_FALSE(directory);
  EXPECT_EQ(directory.error().code, ErrorCode::invalid_argument);
  fs::path fifo = dir.path() / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto from_fifo = read_regular_file(fifo, 10);  // must not block
  ASSERT_FALSE(from_fifo);
  EXPECT_EQ(from_fifo.error().code, ErrorCode::invalid_argument);
}

}  // namespace
}  // namespace skillrt::core
