// Local folder copy: content, .git left out, symlinks and special files
// refused, limits held, //subdir rules.
#include "sources/folder_fetch.hpp"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

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

class FolderFetch : public ::testing::Test {
protected:
  FolderFetch() { fs::create_directories(out()); }
  fs::path src() const { return m_tree.path() / "src"; }
  fs::path out() const { return m_tree.path() / "staging" / "out"; }

  Result<void> copy(std::string_view subdir = "", const BundleLimits& limits = {}) {
    auto writer = BundleWriter::open(out(), limits, nullptr, "fetch");
    EXPECT_TRUE(writer.has_value());
    return copy_folder(src(), subdir, *writer);
  }

  ::skillrt::test::TempTree m_tree;
};

TEST_F(FolderFetch, CopiesTheTreeWithoutGit) {
  m_tree.write("src/SKILL.md", "---\nname: s\n---\n");
  m_tree.write("src/scripts/run.sh", "#!/bin/sh\n");
  m_tree.chmod("src/scripts/run.sh", 0755);
  m_tree.write("src/.git/HEAD", "ref: refs/heads/main\n");
  m_tree.write("src/sub/.git", "gitdir: ../.git/modules/sub\n");
  m_tree.write("src/.hidden.md", "kept\n");
  m_tree.mkdir("src/empty");
  ASSERT_TRUE(copy().has_value());
  EXPECT_EQ(read(out() / "SKILL.md"), "---\nname: s\n---\n");
  EXPECT_EQ(read(out() / ".hidden.md"), "kept\n");
  EXPECT_TRUE(fs::is_directory(out() / "empty"));
  EXPECT_FALSE(fs::exists(out() / ".git"));
  EXPECT_FALSE(fs::exists(out() / "sub/.git"));
  EXPECT_TRUE(fs::is_directory(out() / "sub"));
  struct stat st {};
  ASSERT_EQ(::stat((out() / "scripts/run.sh").c_str(), &st), 0);
  EXPECT_NE(st.st_mode & 0100, 0u);
}

TEST_F(FolderFetch, RuntimeCachesAreNotCopiedNorWalked) {
  m_tree.write("src/SKILL.md", "x");
  m_tree.write("src/scripts/run.py", "print(1)\n");
  m_tree.write("src/scripts/__pycache__/run.cpython-311.pyc", "bytecode");
  // A link inside a cache folder would be refused anywhere else: the cache is not walked at all.
  m_tree.symlink("/etc/passwd", "src/scripts/__pycache__/planted");
  m_tree.write("src/scripts/old.pyc", "bytecode");
  m_tree.write("src/.DS_Store", "finder");
  ASSERT_TRUE(copy().has_value());
  EXPECT_EQ(read(out() / "scripts/run.py"), "print(1)\n");
  EXPECT_FALSE(fs::exists(out() / "scripts/__pycache__"));
  EXPECT_FALSE(fs::exists(out() / "scripts/old.pyc"));
  EXPECT_FALSE(fs::exists(out() / ".DS_Store"));
}

TEST_F(FolderFetch, SymlinksAreRefusedInsideOrOut) {
  m_tree.write("src/SKILL.md", "x");
  m_tree.symlink("../SKILL.md", "src/docs/readme.md");
  const auto inside = copy();
  ASSERT_FALSE(inside.has_value());
  EXPECT_EQ(inside.error().code, ErrorCode::refused);
  EXPECT_EQ(inside.error().message, "skill bundles may not contain symlinks: docs/readme.md");
}

TEST_F(FolderFetch, SymlinkCycleIsNeverFollowed) {
  m_tree.write("src/SKILL.md", "x");
  m_tree.symlink("..", "src/loop");
  EXPECT_EQ(copy().error().message, "skill bundles may not contain symlinks: loop");
}

TEST_F(FolderFetch, FifosAndSocketsAreRefused) {
  m_tree.write("src/SKILL.md", "x");
  ASSERT_EQ(::mkfifo((src() / "pipe").c_str(), 0600), 0);
  EXPECT_EQ(copy().error().message, "bundle entry \"pipe\": devices, fifos and sockets are not allowed (fifo)");
  fs::remove(src() / "pipe");
  fs::remove_all(out());
  fs::create_directories(out());

  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string socket_path = (src() / "sock").string();
  ASSERT_LT(socket_path.size(), sizeof(address.sun_path));
  std::memcpy(address.sun_path, socket_path.c_str(), socket_path.size() + 1);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  EXPECT_EQ(copy().error().message, "bundle entry \"sock\": devices, fifos and sockets are not allowed (socket)");
  ::close(fd);
}

TEST_F(FolderFetch, LimitsHold) {
  for (int i = 0; i < 5; ++i) {
    m_tree.write("src/f" + std::to_string(i), "12345");
  }
  BundleLimits few;
  few.max_entries = 4;
  EXPECT_EQ(copy("", few).error().message,
            "bundle entry \"f4\": the bundle has more than 4 entries (files and folders)");
  fs::remove_all(out());
  fs::create_directories(out());
  BundleLimits small;
  small.max_bytes = 12;
  EXPECT_EQ(copy("", small).error().message, "bundle entry \"f2\": the bundle is larger than 12 bytes (uncompressed)");
}

TEST_F(FolderFetch, SubdirRules) {
  m_tree.write("src/skills/one/SKILL.md", "one");
  m_tree.write("src/other/SKILL.md", "other");
  m_tree.write("src/file", "f");
  m_tree.symlink(src() / "skills", "src/via-link");
  ASSERT_TRUE(copy("skills/one").has_value());
  EXPECT_EQ(read(out() / "SKILL.md"), "one");
  EXPECT_FALSE(fs::exists(out() / "other"));

  EXPECT_EQ(copy("missing").error().message, "//subdir \"missing\" does not exist in " + src().string());
  EXPECT_EQ(copy("file").error().message, "//subdir \"file\" is not a folder in " + src().string());
  EXPECT_EQ(copy("via-link/one").error().message,
            "//subdir \"via-link/one\" goes through a symlink in " + src().string());
}

TEST_F(FolderFetch, MissingSource) {
  fs::remove_all(src());
  const auto missing = copy();
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code, ErrorCode::not_found);
  EXPECT_EQ(missing.error().message, "no such folder: " + src().string());
}

} // namespace
} // namespace skillrt::sources
