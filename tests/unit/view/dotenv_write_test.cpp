// Storing secrets for `skillrt setup`: what store_dotenv_values writes is
// read back byte for byte by parse_dotenv, every other line survives, the
// file ends 0600, and values it cannot store are refused without being named.
#include "core/view/dotenv_write.hpp"

#include <sys/stat.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/files/read_file.hpp"
#include "core/view/dotenv.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::core {
namespace {

std::string read_text(const std::filesystem::path& path) { return read_regular_file(path, 1 << 20).value_or(""); }

unsigned mode_of(const std::filesystem::path& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0);
  return st.st_mode & 0777U;
}

TEST(DotenvWrite, ValuesReadBackExactlyAndOtherLinesSurvive) {
  test::TempTree tree;
  const auto file = tree.write("home/.env",
                               "# my keys\nexport KEEP=\"kept value\"\nAPI_KEY=old\nAPI_KEY=older-but-last\n"
                               "  OTHER = x # note\nno equals sign here\n");
  ::chmod(file.c_str(), 0644);
  const std::vector<std::pair<std::string, std::string>> values = {
      {"API_KEY", "s3cr3t with spaces #and hash "},
      {"QUOTED", "it's got a single quote"},
      {"DOUBLE", "say \"hi\""},
      {"NEW_ONE", "=starts with equals"}};
  ASSERT_TRUE(store_dotenv_values(file, values, false));
  const std::string text = read_text(file);
  const auto parsed = parse_dotenv(text);
  for (const auto& [name, value] : values) {
    ASSERT_EQ(parsed.count(name), 1U) << name;
    EXPECT_EQ(parsed.at(name), value) << name;
  }
  EXPECT_EQ(parsed.at("KEEP"), "kept value");
  EXPECT_EQ(parsed.at("OTHER"), "x");
  // Untouched lines are kept as they were; API_KEY is assigned once, where it was last.
  EXPECT_EQ(text.rfind("# my keys\nexport KEEP=\"kept value\"\nAPI_KEY='s3cr3t", 0), 0U) << text;
  EXPECT_NE(text.find("  OTHER = x # note\nno equals sign here\n"), std::string::npos);
  EXPECT_EQ(text.find("older-but-last"), std::string::npos);
  EXPECT_EQ(mode_of(file), 0600U);  // narrowed from 0644
}

TEST(DotenvWrite, ANewFileIsMode0600) {
  test::TempTree tree;
  const auto file = tree.path() / ".env";
  ASSERT_TRUE(store_dotenv_values(file, {{"TOKEN", "abc"}}, false));
  EXPECT_EQ(read_text(file), "TOKEN='abc'\n");
  EXPECT_EQ(mode_of(file), 0600U);
}

TEST(DotenvWrite, UnstorableValuesAreRefusedWithoutTheirText) {
  test::TempTree tree;
  const auto file = tree.write(".env", "KEEP=1\n");
  for (const std::string& value : {std::string("two\nlines"), std::string("cr\rhere"), std::string("nul\0in", 6),
                                   std::string("both ' and \" quotes")}) {
    const auto stored = store_dotenv_values(file, {{"SECRET", value}}, false);
    ASSERT_FALSE(stored);
    EXPECT_EQ(stored.error().code, ErrorCode::invalid_argument);
    EXPECT_NE(stored.error().message.find("SECRET"), std::string::npos);
    EXPECT_EQ(stored.error().message.find(value), std::string::npos);
  }
  EXPECT_EQ(read_text(file), "KEEP=1\n");  // nothing was written
}

TEST(DotenvWrite, ASymlinkIsRefusedUnlessAllowed) {
  test::TempTree tree;
  const auto target = tree.write("elsewhere/secrets.env", "A=1\n");
  const auto link = tree.path() / "home" / ".env";
  std::filesystem::create_directories(link.parent_path());
  std::filesystem::create_symlink(target, link);
  const auto refused = store_dotenv_values(link, {{"B", "2"}}, false);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, ErrorCode::refused);
  EXPECT_EQ(read_text(target), "A=1\n");
  ASSERT_TRUE(store_dotenv_values(link, {{"B", "2"}}, true));
  EXPECT_TRUE(std::filesystem::is_symlink(link));  // the link survives, its target gets the value
  EXPECT_EQ(parse_dotenv(read_text(target)).at("B"), "2");
  EXPECT_EQ(mode_of(target), 0600U);
}

}  // namespace
}  // namespace skillrt::core
