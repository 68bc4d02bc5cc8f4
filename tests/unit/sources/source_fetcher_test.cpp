// The Fetcher as the hub uses it: SOURCE string in, FetchedSource out, over
// every kind (folder, archive, git, downloaded archive, downloaded SKILL.md).
#include "sources/source_fetcher.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "archive_builder.hpp"
#include "core/util/sha256.hpp"
#include "git_repo_fixture.hpp"
#include "support/http_fixture_server.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::sources {
namespace {

namespace fs = std::filesystem;
using core::hub::FetchedSource;
using core::hub::SourceKind;
using ::skillrt::test::HttpFixtureServer;
using ::skillrt::test::HttpResponse;
using test::ArchiveBuilder;

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

class SourceFetcherTest : public ::testing::Test {
protected:
  SourceFetcherTest() {
    SourceFetcherSettings settings;
    settings.cwd = m_tree.path();
    m_fetcher = make_source_fetcher(settings);
  }

  // A fresh, empty staging folder per call.
  Result<FetchedSource> fetch(std::string_view source) {
    const fs::path staging = m_tree.path() / ("staging" + std::to_string(++m_runs));
    fs::create_directories(staging);
    return m_fetcher->fetch(source, staging, {});
  }

  std::string archive_with_skill() {
    ArchiveBuilder builder(ArchiveBuilder::Format::tar_gz);
    builder.file("pkg/deploy/SKILL.md", "---\nname: deploy\n---\nDeploy\n").file("pkg/README.md", "readme\n");
    return builder.finish();
  }

  ::skillrt::test::TempTree m_tree;
  std::unique_ptr<core::hub::Fetcher> m_fetcher;
  int m_runs = 0;
};

TEST_F(SourceFetcherTest, FolderRelativeToTheWorkingDirectory) {
  m_tree.write("skills/deploy/SKILL.md", "---\nname: deploy\n---\n");
  m_tree.write("skills/deploy/.git/config", "[core]\n");
  auto fetched = fetch("skills/deploy");
  ASSERT_TRUE(fetched.has_value()) << fetched.error().message;
  EXPECT_EQ(fetched->kind, SourceKind::folder);
  EXPECT_EQ(fetched->identifier, (m_tree.path() / "skills/deploy").string());
  EXPECT_EQ(fetched->root.filename(), "deploy");
  EXPECT_EQ(fetched->revision, "");
  EXPECT_EQ(read(fetched->root / "SKILL.md"), "---\nname: deploy\n---\n");
  EXPECT_FALSE(fs::exists(fetched->root / ".git"));
}

TEST_F(SourceFetcherTest, FolderWithSubdir) {
  m_tree.write("repo/skills/one/SKILL.md", "one");
  auto fetched = fetch((m_tree.path() / "repo").string() + "//skills/one");
  ASSERT_TRUE(fetched.has_value()) << fetched.error().message;
  EXPECT_EQ(fetched->subdir, "skills/one");
  EXPECT_EQ(fetched->identifier, (m_tree.path() / "repo").string());
  EXPECT_EQ(fetched->root.filename(), "one");
  EXPECT_EQ(read(fetched->root / "SKILL.md"), "one");
}

TEST_F(SourceFetcherTest, LocalArchiveWithSubdir) {
  const std::string bytes = archive_with_skill();
  std::ofstream(m_tree.path() / "bundle.tar.gz", std::ios::binary) << bytes;
  auto fetched = fetch("bundle.tar.gz//pkg/deploy");
  ASSERT_TRUE(fetched.has_value()) << fetched.error().message;
  EXPECT_EQ(fetched->kind, SourceKind::archive);
  EXPECT_EQ(fetched->revision, "sha256:" + core::sha256_hex(bytes));
  EXPECT_EQ(fetched->root.filename(), "deploy");
  EXPECT_EQ(read(fetched->root / "SKILL.md"), "---\nname: deploy\n---\nDeploy\n");
  EXPECT_EQ(fetch("bundle.tar.gz//pkg/missing").error().message,
            "//subdir \"pkg/missing\" does not exist in " + (m_tree.path() / "bundle.tar.gz").string());
  EXPECT_EQ(fetch("bundle.tar.gz//pkg/README.md").error().message,
            "//subdir \"pkg/README.md\" is not a folder in " + (m_tree.path() / "bundle.tar.gz").string());
}

TEST_F(SourceFetcherTest, AnArchiveIsRecognisedByContentWhateverItsName) {
  std::ofstream(m_tree.path() / "bundle.download", std::ios::binary) << archive_with_skill();
  auto fetched = fetch("bundle.download");
  ASSERT_TRUE(fetched.has_value()) << fetched.error().message;
  EXPECT_EQ(fetched->kind, SourceKind::archive);
  EXPECT_TRUE(fs::exists(fetched->root / "pkg/deploy/SKILL.md"));
  m_tree.write("notes.txt", "just text\n");
  const auto text = fetch("notes.txt");
  ASSERT_FALSE(text.has_value());
  EXPECT_EQ(text.error().message.rfind("the archive " + (m_tree.path() / "notes.txt").string() +
                                           " is not a readable .tar.gz, .tgz or .zip archive: ",
                                       0),
            0u)
      << text.error().message;
}

TEST_F(SourceFetcherTest, HostileArchiveLeavesNothingOutsideStaging) {
  ArchiveBuilder builder(ArchiveBuilder::Format::zip);
  builder.file("SKILL.md", "x").file("../../escaped", "pwned");
  std::ofstream(m_tree.path() / "evil.zip", std::ios::binary) << builder.finish();
  EXPECT_EQ(fetch("evil.zip").error().message,
            "bundle entry \"../../escaped\": a \"..\" segment would leave the bundle");
  EXPECT_FALSE(fs::exists(m_tree.path() / "escaped"));
  EXPECT_FALSE(fs::exists(m_tree.path().parent_path() / "escaped"));
}

TEST_F(SourceFetcherTest, GitWithRefAndSubdir) {
  test::GitRepoFixture repo(m_tree.path() / "repo", m_tree.path() / "home");
  repo.write("skills/one/SKILL.md", "main\n");
  repo.commit("main");
  repo.git("checkout -q -b feature");
  repo.write("skills/one/SKILL.md", "feature\n");
  const std::string feature = repo.commit("feature");
  repo.git("checkout -q main");

  auto fetched = fetch("repo//skills/one#feature");
  ASSERT_TRUE(fetched.has_value()) << fetched.error().message;
  EXPECT_EQ(fetched->kind, SourceKind::git);
  EXPECT_EQ(fetched->identifier, repo.dir().string());
  EXPECT_EQ(fetched->ref, "feature");
  EXPECT_EQ(fetched->subdir, "skills/one");
  EXPECT_EQ(fetched->revision, feature);
  EXPECT_EQ(fetched->root.filename(), "one");
  EXPECT_EQ(read(fetched->root / "SKILL.md"), "feature\n");
  EXPECT_FALSE(fs::exists(fetched->root.parent_path() / ".git-clone"));

  auto by_url = fetch("file://" + repo.dir().string() + "//skills/one");
  ASSERT_TRUE(by_url.has_value()) << by_url.error().message;
  EXPECT_EQ(by_url->identifier, "file://" + repo.dir().string());
  EXPECT_EQ(read(by_url->root / "SKILL.md"), "main\n");

  // A bare repository named *.git is a git source without any #ref.
  repo.git("clone -q --bare . ../bare.git");
  auto bare = fetch("bare.git//skills/one");
  ASSERT_TRUE(bare.has_value()) << bare.error().message;
  EXPECT_EQ(bare->kind, SourceKind::git);
  EXPECT_EQ(bare->identifier, (m_tree.path() / "bare.git").string());
  EXPECT_EQ(read(bare->root / "SKILL.md"), "main\n");

  EXPECT_EQ(fetch("repo#nope").error().message,
            "ref \"nope\" not found in " + repo.dir().string() + " (no such branch, tag or commit)");
}

TEST_F(SourceFetcherTest, DownloadedArchive) {
  const std::string bytes = archive_with_skill();
  HttpResponse archive;
  archive.body = bytes;
  HttpFixtureServer server(HttpFixtureServer::routes({{"/dl/bundle.tar.gz", archive}}));
  auto fetched = fetch(server.url("/dl/bundle.tar.gz") + "//pkg");
  ASSERT_TRUE(fetched.has_value()) << fetched.error().message;
  EXPECT_EQ(fetched->kind, SourceKind::url);
  EXPECT_EQ(fetched->identifier, server.url("/dl/bundle.tar.gz"));
  EXPECT_EQ(fetched->revision, "sha256:" + core::sha256_hex(bytes));
  EXPECT_EQ(read(fetched->root / "deploy/SKILL.md"), "---\nname: deploy\n---\nDeploy\n");
  EXPECT_EQ(fetch(server.url("/dl/missing.zip")).error().message, "HTTP 404 from " + server.url("/dl/missing.zip"));
}

TEST_F(SourceFetcherTest, DownloadedSkillFile) {
  const std::string skill = "---\nname: weather\ndescription: Weather\n---\nAsk the sky.\n";
  HttpResponse file;
  file.body = skill;
  HttpResponse hostile;
  hostile.body = "---\nname: ../../evil\n---\n";
  HttpFixtureServer server(
      HttpFixtureServer::routes({{"/raw/weather/SKILL.md", file}, {"/raw/evil/SKILL.md", hostile}}));
  auto fetched = fetch(server.url("/raw/weather/SKILL.md"));
  ASSERT_TRUE(fetched.has_value()) << fetched.error().message;
  EXPECT_EQ(fetched->kind, SourceKind::url);
  EXPECT_EQ(fetched->root.filename(), "weather");
  EXPECT_EQ(read(fetched->root / "SKILL.md"), skill);
  EXPECT_EQ(fetched->revision, "sha256:" + core::sha256_hex(skill));
  const auto evil = fetch(server.url("/raw/evil/SKILL.md"));
  ASSERT_FALSE(evil.has_value());
  EXPECT_NE(evil.error().message.find("is not a safe folder name"), std::string::npos);
}

TEST_F(SourceFetcherTest, AFolderHoldingTheStagingFolderIsNotCopiedIntoItself) {
  m_tree.write("home/skills/mine/SKILL.md", "mine");
  const fs::path staging = m_tree.path() / "home/skills/.hub/quarantine/q1";
  fs::create_directories(staging);
  auto fetched = m_fetcher->fetch((m_tree.path() / "home").string(), staging, {});
  ASSERT_TRUE(fetched.has_value()) << fetched.error().message;
  EXPECT_EQ(read(fetched->root / "skills/mine/SKILL.md"), "mine");
  EXPECT_TRUE(fs::is_directory(fetched->root / "skills/.hub/quarantine"));
  EXPECT_FALSE(fs::exists(fetched->root / "skills/.hub/quarantine/q1"));
}

TEST_F(SourceFetcherTest, StagingMustBeAnEmptyFolder) {
  m_tree.write("skills/s/SKILL.md", "x");
  const fs::path staging = m_tree.path() / "busy";
  m_tree.write("busy/leftover", "x");
  EXPECT_EQ(m_fetcher->fetch("skills/s", staging, {}).error().message,
            "the staging folder " + staging.string() + " is not empty");
}

TEST_F(SourceFetcherTest, MissingFolder) {
  const auto missing = fetch("no/such/dir");
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code, ErrorCode::not_found);
  EXPECT_EQ(missing.error().message, "no such folder: " + (m_tree.path() / "no/such/dir").string());
}

} // namespace
} // namespace skillrt::sources
