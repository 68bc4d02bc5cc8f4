// Secure extraction: archives built in the test with libarchive's writer,
// good and hostile, extracted into a real temp staging folder. Each hostile
// case asserts the exact error and that nothing exists outside the bundle.
#include "sources/archive_extract.hpp"

#include <sys/stat.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "archive_builder.hpp"
#include "core/util/sha256.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::sources {
namespace {

namespace fs = std::filesystem;
using test::ArchiveBuilder;
using Format = ArchiveBuilder::Format;

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

class ArchiveExtract : public ::testing::Test {
protected:
  ArchiveExtract() { fs::create_directories(bundle()); }

  fs::path bundle() const { return m_tree.path() / "staging" / "bundle"; }

  Result<ExtractResult> extract(const std::string& bytes, const BundleLimits& limits = {}) {
    auto writer = BundleWriter::open(bundle(), limits, nullptr, "extract");
    EXPECT_TRUE(writer.has_value());
    auto result = extract_archive_bytes(bytes, "the test archive", *writer);
    m_written_bytes = writer->bytes();
    return result;
  }

  std::string extract_error(const std::string& bytes, const BundleLimits& limits = {}) {
    auto result = extract(bytes, limits);
    EXPECT_FALSE(result.has_value());
    return result ? std::string() : result.error().message;
  }

  // Every path below the temp root lies inside the bundle folder, and none is
  // a symlink: the extraction wrote nothing anywhere else.
  void expect_contained() const {
    for (auto it = fs::recursive_directory_iterator(m_tree.path()); it != fs::recursive_directory_iterator(); ++it) {
      const fs::path path = it->path();
      EXPECT_FALSE(fs::is_symlink(it->symlink_status())) << path;
      if (path == m_tree.path() / "staging") {
        continue;
      }
      const std::string rel = path.lexically_relative(bundle()).string();
      EXPECT_FALSE(rel.empty() || rel.rfind("..", 0) == 0) << path << " is outside the bundle";
    }
  }

  ::skillrt::test::TempTree m_tree;
  std::uint64_t m_written_bytes = 0;
};

class ArchiveFormats : public ArchiveExtract, public ::testing::WithParamInterface<Format> {};

TEST_P(ArchiveFormats, GoodBundleIsExtracted) {
  ArchiveBuilder builder(GetParam());
  builder.dir("deploy/")
      .file("deploy/SKILL.md", "---\nname: deploy\ndescription: Deploy\n---\nBody\n")
      .file("deploy/scripts/run.sh", "#!/bin/sh\necho hi\n", 0755)
      .file("deploy/references/api.md", "# API\n");
  const std::string bytes = builder.finish();
  auto result = extract(bytes);
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(result->archive_sha256, core::sha256_hex(bytes));
  EXPECT_EQ(result->entries, 6u); // deploy, SKILL.md, scripts, run.sh, references, api.md
  EXPECT_EQ(read(bundle() / "deploy/SKILL.md"), "---\nname: deploy\ndescription: Deploy\n---\nBody\n");
  EXPECT_EQ(read(bundle() / "deploy/references/api.md"), "# API\n");
  struct stat st {};
  ASSERT_EQ(::stat((bundle() / "deploy/scripts/run.sh").c_str(), &st), 0);
  EXPECT_NE(st.st_mode & 0100, 0u);
  ASSERT_EQ(::stat((bundle() / "deploy/SKILL.md").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0111, 0u);
  expect_contained();
}

TEST_P(ArchiveFormats, ZipSlipIsRefused) {
  ArchiveBuilder builder(GetParam());
  builder.file("ok.md", "fine").file("../evil", "pwned");
  EXPECT_EQ(extract_error(builder.finish()), "bundle entry \"../evil\": a \"..\" segment would leave the bundle");
  EXPECT_FALSE(fs::exists(m_tree.path() / "staging/evil"));
  expect_contained();
}

TEST_P(ArchiveFormats, DeepZipSlipIsRefused) {
  ArchiveBuilder builder(GetParam());
  builder.file("a/b/../../../evil", "pwned");
  EXPECT_EQ(extract_error(builder.finish()),
            "bundle entry \"a/b/../../../evil\": a \"..\" segment would leave the bundle");
  expect_contained();
}

TEST_P(ArchiveFormats, AbsolutePathIsRefused) {
  const fs::path target = m_tree.path() / "absolute-evil";
  ArchiveBuilder builder(GetParam());
  builder.file(target.string(), "pwned");
  EXPECT_EQ(extract_error(builder.finish()),
            "bundle entry \"" + target.string() + "\": absolute paths are not allowed");
  EXPECT_FALSE(fs::exists(target));
  expect_contained();
}

TEST_P(ArchiveFormats, SymlinkLeavingTheBundleIsRefused) {
  ArchiveBuilder builder(GetParam());
  builder.symlink("link", "/etc").file("link/passwd", "pwned");
  EXPECT_EQ(extract_error(builder.finish()), "bundle entry \"link\": symlink target \"/etc\" leaves the bundle");
  expect_contained();
}

TEST_P(ArchiveFormats, RelativeSymlinkLeavingTheBundleIsRefused) {
  ArchiveBuilder builder(GetParam());
  builder.dir("a").symlink("a/up", "../../outside");
  EXPECT_EQ(extract_error(builder.finish()),
            "bundle entry \"a/up\": symlink target \"../../outside\" leaves the bundle");
  expect_contained();
}

TEST_P(ArchiveFormats, SymlinkInsideTheBundleIsRefusedToo) {
  ArchiveBuilder builder(GetParam());
  builder.file("SKILL.md", "x").dir("docs").symlink("docs/readme", "../SKILL.md");
  EXPECT_EQ(extract_error(builder.finish()), "skill bundles may not contain symlinks: docs/readme");
  expect_contained();
}

TEST_P(ArchiveFormats, DuplicateEntriesAreRefused) {
  ArchiveBuilder builder(GetParam());
  builder.file("SKILL.md", "first").file("./SKILL.md", "second");
  EXPECT_EQ(extract_error(builder.finish()), "bundle entry \"./SKILL.md\": the bundle has this entry twice");
  EXPECT_EQ(read(bundle() / "SKILL.md"), "first");
}

TEST_P(ArchiveFormats, ColonAndBackslashSegmentsAreRefused) {
  {
    ArchiveBuilder builder(GetParam());
    builder.file("docs/file:stream", "x");
    EXPECT_EQ(extract_error(builder.finish()), "bundle entry \"docs/file:stream\": a path segment holds ':'");
  }
  {
    ArchiveBuilder builder(GetParam());
    builder.file("docs\\..\\..\\evil", "x");
    // libarchive's zip reader turns Windows separators into '/': the `..`
    // rule catches it there; tar keeps the name and the backslash rule does.
    EXPECT_EQ(extract_error(builder.finish()),
              GetParam() == Format::zip
                  ? std::string("bundle entry \"docs/../../evil\": a \"..\" segment would leave the bundle")
                  : std::string("bundle entry \"docs\\x5c..\\x5c..\\x5cevil\": the path holds a backslash"));
  }
  expect_contained();
}

TEST_P(ArchiveFormats, DecompressionBombHitsTheRatioCap) {
  ArchiveBuilder builder(GetParam());
  // 200 MiB of zeros in four files, each under the per-file cap, so the
  // ratio is what stops it.
  builder.file("SKILL.md", "---\nname: bomb\n---\n");
  for (const char* name : {"bomb.bin", "bomb2.bin", "bomb3.bin", "bomb4.bin"}) {
    builder.zeros(name, 50ull * 1024 * 1024);
  }
  const std::string bytes = builder.finish();
  ASSERT_LT(bytes.size(), 2u * 1024 * 1024);
  auto result = extract(bytes);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, ErrorCode::limit_exceeded);
  EXPECT_EQ(result.error().message,
            "bundle entry \"bomb.bin\": the archive expands more than 100 times its compressed size (a decompression "
            "bomb?)");
  // Stopped early, and the refused file was removed.
  EXPECT_LT(m_written_bytes, 64u * 1024 * 1024);
  EXPECT_FALSE(fs::exists(bundle() / "bomb.bin"));
}

TEST_P(ArchiveFormats, PerFileAndTotalByteCaps) {
  BundleLimits limits;
  limits.max_file_bytes = 1000;
  limits.max_bytes = 1500;
  {
    ArchiveBuilder builder(GetParam());
    builder.file("big.txt", std::string(1001, 'a'));
    EXPECT_EQ(extract_error(builder.finish(), limits), "bundle entry \"big.txt\": the file is larger than 1000 bytes");
  }
  fs::remove_all(bundle());
  fs::create_directories(bundle());
  {
    ArchiveBuilder builder(GetParam());
    builder.file("a.txt", std::string(800, 'a')).file("b.txt", std::string(800, 'b'));
    EXPECT_EQ(extract_error(builder.finish(), limits),
              "bundle entry \"b.txt\": the bundle is larger than 1500 bytes (uncompressed)");
  }
}

TEST_P(ArchiveFormats, LongAndDeepPathsAreRefused) {
  const std::string long_name = std::string(600, 'a') + "/" + std::string(600, 'b');
  {
    ArchiveBuilder builder(GetParam());
    builder.file(long_name, "x");
    EXPECT_EQ(extract_error(builder.finish()),
              "bundle entry \"" + long_name.substr(0, 200) + "...\": the path is longer than 1024 bytes");
  }
  std::string deep;
  for (int i = 0; i < 40; ++i) {
    deep += "d/";
  }
  deep += "f";
  {
    ArchiveBuilder builder(GetParam());
    builder.file(deep, "x");
    EXPECT_EQ(extract_error(builder.finish()), "bundle entry \"" + deep + "\": the path is deeper than 32 levels");
  }
}

TEST_P(ArchiveFormats, TooManyEntriesFailAtTheEntryCap) {
  ArchiveBuilder builder(GetParam());
  char name[16];
  for (int i = 0; i < 100000; ++i) {
    std::snprintf(name, sizeof(name), "%06d", i);
    builder.file(name, "");
  }
  auto result = extract(builder.finish());
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, ErrorCode::limit_exceeded);
  EXPECT_EQ(result.error().message,
            "bundle entry \"010000\": the bundle has more than 10000 entries (files and folders)");
  EXPECT_FALSE(fs::exists(bundle() / "010000"));
}

INSTANTIATE_TEST_SUITE_P(TarGzAndZip, ArchiveFormats, ::testing::Values(Format::tar_gz, Format::zip),
                         [](const ::testing::TestParamInfo<Format>& param_info) {
                           return param_info.param == Format::zip ? std::string("zip") : std::string("tar_gz");
                         });

TEST_F(ArchiveExtract, HardlinkLeavingTheBundleIsRefused) {
  ArchiveBuilder builder(Format::tar_gz);
  builder.file("SKILL.md", "x").hardlink("passwd", "../../etc/passwd");
  EXPECT_EQ(extract_error(builder.finish()),
            "bundle entry \"passwd\": hardlink target \"../../etc/passwd\" leaves the bundle");
  ArchiveBuilder absolute(Format::tar_gz);
  absolute.hardlink("shadow", "/etc/shadow");
  fs::remove_all(bundle());
  fs::create_directories(bundle());
  EXPECT_EQ(extract_error(absolute.finish()),
            "bundle entry \"shadow\": hardlink target \"/etc/shadow\" leaves the bundle");
  expect_contained();
}

TEST_F(ArchiveExtract, HardlinkInsideIsMaterialisedAsACopy) {
  ArchiveBuilder builder(Format::tar_gz);
  builder.file("SKILL.md", "---\nname: s\n---\n").dir("docs").hardlink("docs/copy.md", "SKILL.md");
  auto result = extract(builder.finish());
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(read(bundle() / "docs/copy.md"), "---\nname: s\n---\n");
  struct stat original {};
  struct stat copy {};
  ASSERT_EQ(::lstat((bundle() / "SKILL.md").c_str(), &original), 0);
  ASSERT_EQ(::lstat((bundle() / "docs/copy.md").c_str(), &copy), 0);
  EXPECT_NE(original.st_ino, copy.st_ino);
  EXPECT_EQ(original.st_nlink, 1u);
  EXPECT_TRUE(S_ISREG(copy.st_mode));
}

TEST_F(ArchiveExtract, HardlinkToALaterOrMissingEntryIsRefused) {
  ArchiveBuilder builder(Format::tar_gz);
  builder.hardlink("a", "b").file("b", "x");
  EXPECT_EQ(extract_error(builder.finish()),
            "bundle entry \"a\": the link target \"b\" is not a file written before it in the bundle");
}

TEST_F(ArchiveExtract, DevicesAndFifosAreRefused) {
  {
    ArchiveBuilder builder(Format::tar_gz);
    builder.special("null", AE_IFCHR);
    EXPECT_EQ(extract_error(builder.finish()),
              "bundle entry \"null\": devices, fifos and sockets are not allowed (character device)");
  }
  {
    ArchiveBuilder builder(Format::tar);
    builder.special("pipe", AE_IFIFO);
    EXPECT_EQ(extract_error(builder.finish()),
              "bundle entry \"pipe\": devices, fifos and sockets are not allowed (fifo)");
  }
  expect_contained();
}

TEST_F(ArchiveExtract, NotAnArchiveOrTruncated) {
  const std::string text = "<html>not found</html>\n";
  const std::string message = extract_error(text);
  EXPECT_EQ(message.rfind("the test archive is not a readable .tar.gz, .tgz or .zip archive: ", 0), 0u) << message;

  ArchiveBuilder builder(Format::tar_gz);
  builder.file("SKILL.md", std::string(4000, 'x')).file("second.md", std::string(200000, 'y'));
  const std::string whole = builder.finish();
  fs::remove_all(bundle());
  fs::create_directories(bundle());
  auto truncated = extract(whole.substr(0, whole.size() / 2));
  ASSERT_FALSE(truncated.has_value());
  EXPECT_EQ(truncated.error().code, ErrorCode::parse_error);
}

TEST_F(ArchiveExtract, PlainTarIsRecognisedByContent) {
  ArchiveBuilder builder(Format::tar);
  builder.file("SKILL.md", "plain");
  const fs::path file = m_tree.path() / "download.bin";
  std::ofstream(file, std::ios::binary) << builder.finish();
  auto writer = BundleWriter::open(bundle(), {}, nullptr, "extract");
  ASSERT_TRUE(writer.has_value());
  auto result = extract_archive_file(file, *writer);
  ASSERT_TRUE(result.has_value()) << result.error().message;
  EXPECT_EQ(read(bundle() / "SKILL.md"), "plain");
  EXPECT_EQ(result->archive_sha256, core::sha256_hex(read(file)));
}

TEST_F(ArchiveExtract, MissingArchiveFile) {
  auto writer = BundleWriter::open(bundle(), {}, nullptr, "extract");
  ASSERT_TRUE(writer.has_value());
  auto result = extract_archive_file(m_tree.path() / "nope.zip", *writer);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, ErrorCode::not_found);
  EXPECT_EQ(result.error().message, "no such archive: " + (m_tree.path() / "nope.zip").string());
}

} // namespace
} // namespace skillrt::sources
