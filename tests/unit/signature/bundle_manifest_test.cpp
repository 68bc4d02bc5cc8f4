// The canonical bundle manifest on real temp trees: line format, byte order,
// determinism, what is covered (dot files, empty files, nested signature
// files) and what is refused (links, fifos, sockets, devices, control
// characters in names, the bundle limits).
#include "core/hub/bundle_manifest.hpp"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "core/limits.hpp"
#include "core/util/sha256.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::core::hub {
namespace {

using test::TempTree;

const std::string k_empty_sha = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

std::vector<std::string> paths_of(const BundleManifest& manifest) {
  std::vector<std::string> out;
  for (const ManifestEntry& entry : manifest.entries) {
    out.push_back(entry.path);
  }
  return out;
}

BundleManifest build_ok(const std::filesystem::path& dir) {
  auto manifest = build_bundle_manifest(dir);
  EXPECT_TRUE(manifest.has_value()) << (manifest ? "" : manifest.error().message);
  return manifest ? *manifest : BundleManifest{};
}

void expect_refused(const std::filesystem::path& dir, ErrorCode code, const std::string& needle) {
  auto manifest = build_bundle_manifest(dir);
  ASSERT_FALSE(manifest.has_value()) << "expected an error containing: " << needle;
  EXPECT_EQ(manifest.error().code, code) << manifest.error().message;
  EXPECT_NE(manifest.error().message.find(needle), std::string::npos) << manifest.error().message;
}

// The content hash the builder before the filesystem layer (issue 14) gave
// for this tree: lock.json files and signatures on users' disks hold such
// values, so they must not move.
TEST(BundleManifest, GoldenValueOfTheEarlierBuilder) {
  TempTree tree;
  tree.write("SKILL.md", "---\nname: g\n---\nbody\n");
  tree.write("scripts/run.py", "print(1)\n");
  tree.write("scripts.md", "x"); // '.' sorts before '/': path order, not walk order
  tree.write("a-b/c.txt", "c");
  tree.write("a/b.txt", "");
  tree.write(".hidden", "dot");
  tree.write("scripts/__pycache__/run.cpython-311.pyc", "bytecode");
  tree.write(".DS_Store", "finder");
  EXPECT_EQ(build_ok(tree.path()).content_hash,
            "sha256:3837fd27fb5e733f999ea0a0d31df3700166307ebd85d0c9457007d5d5690dd8");
}

TEST(BundleManifest, EmptyBundleHasEmptyText) {
  TempTree tree;
  const BundleManifest manifest = build_ok(tree.path());
  EXPECT_TRUE(manifest.entries.empty());
  EXPECT_EQ(manifest.text, "");
  EXPECT_EQ(manifest.content_hash, "sha256:" + k_empty_sha);
}

TEST(BundleManifest, OneLinePerFileHashTwoSpacesPath) {
  TempTree tree;
  tree.write("SKILL.md", "hello");
  tree.write("scripts/run.sh", "#!/bin/sh\n");
  const BundleManifest manifest = build_ok(tree.path());
  ASSERT_EQ(manifest.entries.size(), 2u);
  EXPECT_EQ(manifest.entries[0].path, "SKILL.md");
  EXPECT_EQ(manifest.entries[0].sha256, sha256_hex("hello"));
  EXPECT_EQ(manifest.entries[0].size, 5u);
  EXPECT_EQ(manifest.entries[1].path, "scripts/run.sh");
  EXPECT_EQ(manifest.text, sha256_hex("hello") + "  SKILL.md\n" + sha256_hex("#!/bin/sh\n") + "  scripts/run.sh\n");
  EXPECT_EQ(manifest.content_hash, "sha256:" + sha256_hex(manifest.text));
}

TEST(BundleManifest, SortedByPathBytesNotByLocaleOrWalkOrder) {
  TempTree tree;
  for (const char* name : {"z", "b", "a/z", "a.txt", "A", "_x", ".hidden", "\xc3\xa9.md", "a/B/c", "a/-"}) {
    tree.write(name, name);
  }
  // '.' (0x2e) < '/' (0x2f), so "a.txt" precedes everything under "a/";
  // "é" (0xc3 0xa9) sorts after every ASCII byte (bytes are unsigned).
  const std::vector<std::string> expected = {".hidden", "A",   "_x", "a.txt", "a/-",
                                             "a/B/c",   "a/z", "b",  "z",     "\xc3\xa9.md"};
  EXPECT_EQ(paths_of(build_ok(tree.path())), expected);
}

TEST(BundleManifest, SameContentSameManifestWhateverTheCreationOrder) {
  TempTree first;
  TempTree second;
  const std::vector<std::pair<std::string, std::string>> files = {{"SKILL.md", "---\nname: x\n---\n"},
                                                                  {"refs/a.md", "a"},
                                                                  {"refs/deep/er/b.md", ""},
                                                                  {".env", "K=V"},
                                                                  {"\xe6\x97\xa5\xe6\x9c\xac.txt", "non-ascii name"}};
  for (const auto& [path, content] : files) {
    first.write(path, content);
  }
  for (auto it = files.rbegin(); it != files.rend(); ++it) {
    second.write(it->first, it->second);
  }
  second.mkdir("empty/folder"); // folders are implied by files: an empty one adds nothing
  const BundleManifest a = build_ok(first.path());
  const BundleManifest b = build_ok(second.path());
  EXPECT_EQ(a.text, b.text);
  EXPECT_EQ(a.content_hash, b.content_hash);
  EXPECT_EQ(build_ok(first.path()).text, a.text) << "building twice gives the same text";
}

TEST(BundleManifest, EmptyFilesAndDotFilesAreCovered) {
  TempTree tree;
  tree.write("SKILL.md", "x");
  const std::string before = build_ok(tree.path()).content_hash;
  tree.write(".gitignore", "");
  const BundleManifest after = build_ok(tree.path());
  EXPECT_NE(after.content_hash, before);
  ASSERT_EQ(after.entries.size(), 2u);
  EXPECT_EQ(after.entries[0].path, ".gitignore");
  EXPECT_EQ(after.entries[0].sha256, k_empty_sha);
  EXPECT_EQ(after.entries[0].size, 0u);
}

TEST(BundleManifest, OnlyTheTopLevelSignatureFileIsLeftOut) {
  TempTree tree;
  tree.write("SKILL.md", "x");
  const std::string before = build_ok(tree.path()).text;
  tree.write(std::string(k_signature_file_name), "anything");
  EXPECT_EQ(build_ok(tree.path()).text, before);
  tree.write("nested/" + std::string(k_signature_file_name), "covered");
  EXPECT_EQ(paths_of(build_ok(tree.path())), (std::vector<std::string>{"SKILL.md", "nested/.skillrt-signature"}));
}

TEST(BundleManifest, SymlinksAreRefusedWhereverTheyPoint) {
  {
    TempTree tree;
    tree.write("SKILL.md", "x");
    tree.symlink("SKILL.md", "inside-link");
    expect_refused(tree.path(), ErrorCode::refused, "may not contain symlinks: inside-link");
  }
  {
    TempTree tree;
    tree.symlink("/etc/passwd", "refs/outside");
    expect_refused(tree.path(), ErrorCode::refused, "symlinks: refs/outside");
  }
  {
    TempTree tree;
    tree.symlink("/nonexistent/dangling", "dangling");
    expect_refused(tree.path(), ErrorCode::refused, "symlinks: dangling");
  }
  {
    TempTree tree;
    tree.mkdir("real");
    tree.write("real/f", "f");
    tree.symlink("real", "linked-folder");
    expect_refused(tree.path(), ErrorCode::refused, "symlinks: linked-folder");
  }
  {
    TempTree tree;
    tree.symlink("SKILL.md", std::string(k_signature_file_name));
    tree.write("SKILL.md", "x");
    expect_refused(tree.path(), ErrorCode::refused, "symlinks: .skillrt-signature");
  }
}

TEST(BundleManifest, TheBundleFolderItselfMayBeALink) {
  TempTree tree;
  tree.write("real/SKILL.md", "x");
  tree.symlink(tree.path() / "real", "alias");
  EXPECT_EQ(build_ok(tree.path() / "alias").text, build_ok(tree.path() / "real").text);
}

TEST(BundleManifest, FifosSocketsAndDevicesAreRefused) {
  {
    TempTree tree;
    ASSERT_EQ(::mkfifo((tree.path() / "pipe").c_str(), 0600), 0);
    expect_refused(tree.path(), ErrorCode::refused, "pipe is a fifo");
  }
  {
    TempTree tree;
    tree.mkdir("sub");
    const std::string socket_path = (tree.path() / "sub" / "sock").string();
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT_GE(fd, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    ASSERT_LT(socket_path.size(), sizeof(address.sun_path));
    std::memcpy(address.sun_path, socket_path.c_str(), socket_path.size() + 1);
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
    expect_refused(tree.path(), ErrorCode::refused, "sub/sock is a socket");
    ::close(fd);
  }
  {
    TempTree tree;
    if (::mknod((tree.path() / "null").c_str(), S_IFCHR | 0600, makedev(1, 3)) != 0) {
      GTEST_SKIP() << "mknod needs privileges: " << std::strerror(errno);
    }
    expect_refused(tree.path(), ErrorCode::refused, "null is a character device");
  }
}

TEST(BundleManifest, ControlCharactersInNamesAreRefused) {
  TempTree tree;
  // A newline in a name could forge a second manifest line.
  tree.write("evil\n" + k_empty_sha + "  SKILL.md", "x");
  expect_refused(tree.path(), ErrorCode::refused, "control characters");
  TempTree tabs;
  tabs.write("dir\twith tab/f", "x");
  expect_refused(tabs.path(), ErrorCode::refused, "control characters");
}

TEST(BundleManifest, MissingOrNonFolderBundle) {
  TempTree tree;
  auto missing = build_bundle_manifest(tree.path() / "nope");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, ErrorCode::not_found);
  tree.write("file", "x");
  auto file = build_bundle_manifest(tree.path() / "file");
  ASSERT_FALSE(file);
  EXPECT_EQ(file.error().code, ErrorCode::invalid_argument);
}

TEST(BundleManifest, EntryLimit) {
  TempTree tree;
  tree.mkdir("many");
  // Exactly at the limit (files + folders) is fine, one more is not.
  for (std::size_t i = 0; i + 1 < limits::k_max_bundle_entries; ++i) {
    const int fd = ::open((tree.path() / "many" / std::to_string(i)).c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
    ASSERT_GE(fd, 0);
    ::close(fd);
  }
  tree.write(std::string(k_signature_file_name), "not counted");
  EXPECT_EQ(build_ok(tree.path()).entries.size(), limits::k_max_bundle_entries - 1);
  tree.write("one-more", "");
  expect_refused(tree.path(), ErrorCode::limit_exceeded, "more than 10000 files and folders");
}

TEST(BundleManifest, DepthLimit) {
  TempTree tree;
  std::string deep;
  for (std::size_t i = 0; i + 1 < limits::k_max_bundle_depth; ++i) {
    deep += "d/";
  }
  tree.write(deep + "f", "at the limit");
  EXPECT_EQ(build_ok(tree.path()).entries.size(), 1u);
  tree.write(deep + "d/f", "one too deep");
  expect_refused(tree.path(), ErrorCode::limit_exceeded, "k_max_bundle_depth");
}

TEST(BundleManifest, PathLengthLimit) {
  TempTree tree;
  const std::string segment(200, 'p');
  std::string path;
  while (path.size() + segment.size() + 1 <= limits::k_max_bundle_path_bytes) {
    path += segment + "/";
  }
  path += std::string(limits::k_max_bundle_path_bytes + 1 - path.size(), 'f');
  ASSERT_EQ(path.size(), limits::k_max_bundle_path_bytes + 1);
  tree.write(path, "x");
  expect_refused(tree.path(), ErrorCode::limit_exceeded, "k_max_bundle_path_bytes");
}

void make_sparse(const std::filesystem::path& path, std::uint64_t size) {
  const int fd = ::open(path.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ftruncate(fd, static_cast<off_t>(size)), 0);
  ::close(fd);
}

TEST(BundleManifest, FileSizeLimit) {
  TempTree tree;
  make_sparse(tree.path() / "big.bin", limits::k_max_bundle_file_bytes + 1);
  expect_refused(tree.path(), ErrorCode::limit_exceeded, "big.bin is larger than");
}

TEST(BundleManifest, TotalSizeLimit) {
  TempTree tree;
  const std::uint64_t each = limits::k_max_bundle_file_bytes;
  const std::uint64_t count = limits::k_max_bundle_bytes / each + 1;
  for (std::uint64_t i = 0; i < count; ++i) {
    make_sparse(tree.path() / ("part" + std::to_string(i)), each);
  }
  expect_refused(tree.path(), ErrorCode::limit_exceeded, "k_max_bundle_bytes");
}

} // namespace
} // namespace skillrt::core::hub
