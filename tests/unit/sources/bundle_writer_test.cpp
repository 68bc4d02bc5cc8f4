// Bundle path rules and the BundleWriter's limits, on a real temp folder.
#include "sources/bundle_writer.hpp"

#include <sys/stat.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "sources/bundle_path.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::sources {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

BundleWriter open_writer(const fs::path& dest, const BundleLimits& limits = {}) {
  fs::create_directories(dest);
  auto writer = BundleWriter::open(dest, limits, nullptr, "extract");
  EXPECT_TRUE(writer.has_value());
  return std::move(*writer);
}

TEST(BundlePath, NormalizesHarmlessForms) {
  const BundleLimits limits;
  EXPECT_EQ(normalize_bundle_path("a/b", limits).value(), "a/b");
  EXPECT_EQ(normalize_bundle_path("./a//b/", limits).value(), "a/b");
  EXPECT_EQ(normalize_bundle_path("./", limits).value(), "");
  EXPECT_EQ(normalize_bundle_path("über/ß.md", limits).value(), "über/ß.md");
}

TEST(BundlePath, RefusesEachRuleWithTheEntryNamed) {
  const BundleLimits limits;
  const auto error = [&](std::string_view raw) { return normalize_bundle_path(raw, limits).error().message; };
  EXPECT_EQ(error(""), "bundle entry \"\": the path is empty");
  EXPECT_EQ(error("/etc/passwd"), "bundle entry \"/etc/passwd\": absolute paths are not allowed");
  EXPECT_EQ(error("../evil"), "bundle entry \"../evil\": a \"..\" segment would leave the bundle");
  EXPECT_EQ(error("a/../../evil"), "bundle entry \"a/../../evil\": a \"..\" segment would leave the bundle");
  EXPECT_EQ(error("a/b:c"), "bundle entry \"a/b:c\": a path segment holds ':'");
  EXPECT_EQ(error("C:/x"), "bundle entry \"C:/x\": a path segment holds ':'");
  EXPECT_EQ(error("a\\..\\b"), "bundle entry \"a\\x5c..\\x5cb\": the path holds a backslash");
  EXPECT_EQ(error(std::string_view("a\0b", 3)), "bundle entry \"a\\x00b\": the path holds a NUL byte");
  EXPECT_EQ(error("a\x1b[2Jb"), "bundle entry \"a\\x1b[2Jb\": the path holds a control character");
  EXPECT_EQ(error("bad\xff"), "bundle entry \"bad\\xff\": the path is not valid UTF-8");
  EXPECT_EQ(normalize_bundle_path("../x", limits).error().code, ErrorCode::refused);

  const std::string long_name(1025, 'a');
  EXPECT_EQ(normalize_bundle_path(long_name, limits).error().code, ErrorCode::limit_exceeded);
  EXPECT_NE(error(long_name).find("the path is longer than 1024 bytes"), std::string::npos);
  std::string deep;
  for (int i = 0; i < 33; ++i) {
    deep += "d/";
  }
  EXPECT_EQ(error(deep), "bundle entry \"" + deep + "\": the path is deeper than 32 levels");
  EXPECT_TRUE(normalize_bundle_path(deep.substr(2), limits).has_value());
}

TEST(BundleWriter, WritesFoldersAndFilesWithModes) {
  test::TempTree tree;
  BundleWriter writer = open_writer(tree.path() / "out");
  ASSERT_TRUE(writer.add_directory("./").has_value());
  ASSERT_TRUE(writer.add_file_bytes("skill/SKILL.md", false, "---\nname: s\n---\n").has_value());
  ASSERT_TRUE(writer.add_file_bytes("skill/scripts/run.sh", true, "#!/bin/sh\n").has_value());
  ASSERT_TRUE(writer.add_directory("skill/empty").has_value());
  EXPECT_EQ(read(tree.path() / "out/skill/SKILL.md"), "---\nname: s\n---\n");
  struct stat st {};
  ASSERT_EQ(::stat((tree.path() / "out/skill/scripts/run.sh").c_str(), &st), 0);
  EXPECT_NE(st.st_mode & 0100, 0u);
  EXPECT_TRUE(fs::is_directory(tree.path() / "out/skill/empty"));
  // skill, skill/SKILL.md, skill/scripts, skill/scripts/run.sh, skill/empty
  EXPECT_EQ(writer.entries(), 5u);
  EXPECT_EQ(writer.bytes(), 26u);
  ASSERT_TRUE(writer.add_copy("skill/copy.md", "skill/SKILL.md").has_value());
  EXPECT_EQ(read(tree.path() / "out/skill/copy.md"), "---\nname: s\n---\n");
}

// Archive and git entries go through the writer: a runtime cache they carry is
// accepted and never placed (nor counted), whatever order the entries come in.
TEST(BundleWriter, DropsRuntimeCaches) {
  test::TempTree tree;
  BundleWriter writer = open_writer(tree.path() / "out");
  ASSERT_TRUE(writer.add_file_bytes("skill/SKILL.md", false, "---\nname: s\n---\n").has_value());
  ASSERT_TRUE(writer.add_directory("skill/scripts/__pycache__").has_value());
  ASSERT_TRUE(writer.add_file_bytes("skill/scripts/__pycache__/run.cpython-311.pyc", false, "bytecode").has_value());
  ASSERT_TRUE(writer.add_file_bytes("skill/scripts/run.pyc", false, "bytecode").has_value());
  ASSERT_TRUE(writer.add_file_bytes("skill/.DS_Store", false, "finder").has_value());
  ASSERT_TRUE(writer.add_copy("skill/scripts/copy.pyc", "skill/SKILL.md").has_value());
  ASSERT_TRUE(writer.add_file_bytes("skill/scripts/run.py", false, "print(1)\n").has_value());
  EXPECT_FALSE(fs::exists(tree.path() / "out/skill/scripts/__pycache__"));
  EXPECT_FALSE(fs::exists(tree.path() / "out/skill/scripts/run.pyc"));
  EXPECT_FALSE(fs::exists(tree.path() / "out/skill/scripts/copy.pyc"));
  EXPECT_FALSE(fs::exists(tree.path() / "out/skill/.DS_Store"));
  EXPECT_EQ(read(tree.path() / "out/skill/scripts/run.py"), "print(1)\n");
  // skill, skill/SKILL.md, skill/scripts, skill/scripts/run.py
  EXPECT_EQ(writer.entries(), 4u);
  EXPECT_EQ(writer.bytes(), 25u);
  // A path that is still refused stays refused, cache or not.
  EXPECT_FALSE(writer.add_file_bytes("../__pycache__/x.pyc", false, "x").has_value());
}

TEST(BundleWriter, ReportsEachEntryUnderItsPhase) {
  struct Recording final : core::hub::Progress {
    void update(std::string_view phase, std::uint64_t done, std::uint64_t total) override {
      seen.push_back(std::string(phase) + " " + std::to_string(done) + "/" + std::to_string(total));
    }
    void finish() override { ++finished; }
    std::vector<std::string> seen;
    int finished = 0;
  } progress;
  test::TempTree tree;
  fs::create_directories(tree.path() / "out");
  auto writer = BundleWriter::open(tree.path() / "out", {}, &progress, "extract");
  ASSERT_TRUE(writer.has_value());
  ASSERT_TRUE(writer->add_file_bytes("a/b", false, "x").has_value());
  EXPECT_EQ(progress.seen, (std::vector<std::string>{"extract 1/0", "extract 2/0"}));
  EXPECT_EQ(progress.finished, 0);
}

TEST(BundleWriter, RefusesDuplicatesAndConflicts) {
  test::TempTree tree;
  BundleWriter writer = open_writer(tree.path() / "out");
  ASSERT_TRUE(writer.add_file_bytes("a/f", false, "one").has_value());
  EXPECT_EQ(writer.add_file_bytes("a/./f", false, "two").error().message,
            "bundle entry \"a/./f\": the bundle has this entry twice");
  EXPECT_EQ(read(tree.path() / "out/a/f"), "one");
  EXPECT_EQ(writer.add_directory("a/f").error().message,
            "bundle entry \"a/f\": a file of the same path is already in the bundle");
  EXPECT_EQ(writer.add_file_bytes("a/f/g", false, "x").error().message,
            "bundle entry \"a/f/g\": \"a/f\" is a file, not a folder");
  EXPECT_EQ(writer.add_file_bytes("a", false, "x").error().message,
            "bundle entry \"a\": a folder of the same path is already in the bundle");
  ASSERT_TRUE(writer.add_directory("d").has_value());
  EXPECT_EQ(writer.add_directory("d/").error().message, "bundle entry \"d/\": the bundle has this entry twice");
  EXPECT_EQ(writer.add_file_bytes(".", false, "x").error().message,
            "bundle entry \".\": a file cannot be the bundle's root");
  EXPECT_EQ(writer.add_copy("h", "missing").error().message,
            "bundle entry \"h\": the link target \"missing\" is not a file written before it in the bundle");
}

TEST(BundleWriter, EntryCap) {
  test::TempTree tree;
  BundleLimits limits;
  limits.max_entries = 3;
  BundleWriter writer = open_writer(tree.path() / "out", limits);
  ASSERT_TRUE(writer.add_file_bytes("d/1", false, "").has_value());
  ASSERT_TRUE(writer.add_file_bytes("d/2", false, "").has_value());
  const auto refused = writer.add_file_bytes("d/3", false, "");
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, ErrorCode::limit_exceeded);
  EXPECT_EQ(refused.error().message, "bundle entry \"d/3\": the bundle has more than 3 entries (files and folders)");
  EXPECT_FALSE(fs::exists(tree.path() / "out/d/3"));
}

TEST(BundleWriter, ByteCapsHoldOnDeclaredAndStreamedSizes) {
  test::TempTree tree;
  BundleLimits limits;
  limits.max_file_bytes = 10;
  limits.max_bytes = 15;
  BundleWriter writer = open_writer(tree.path() / "out", limits);
  EXPECT_EQ(writer.add_file_bytes("big", false, std::string(11, 'x')).error().message,
            "bundle entry \"big\": the file is larger than 10 bytes");
  EXPECT_FALSE(fs::exists(tree.path() / "out/big"));
  // A size claimed too small is caught while streaming; the partial file goes.
  int calls = 0;
  const auto liar = writer.add_file(
      "liar", false,
      [&]() -> Result<std::string_view> {
        ++calls;
        return calls <= 3 ? std::string_view("abcd") : std::string_view();
      },
      1);
  EXPECT_EQ(liar.error().message, "bundle entry \"liar\": the file is larger than 10 bytes");
  EXPECT_FALSE(fs::exists(tree.path() / "out/liar"));
  ASSERT_TRUE(writer.add_file_bytes("one", false, std::string(10, 'x')).has_value());
  const auto over = writer.add_file_bytes("two", false, std::string(6, 'x'));
  EXPECT_EQ(over.error().code, ErrorCode::limit_exceeded);
  EXPECT_EQ(over.error().message, "bundle entry \"two\": the bundle is larger than 15 bytes (uncompressed)");
}

} // namespace
} // namespace skillrt::sources
