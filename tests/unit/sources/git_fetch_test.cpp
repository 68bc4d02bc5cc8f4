// git fetch over libgit2 against repositories the test makes with git:
// local path, file://, #branch / #tag / #commit, //subdir, and the refusals.
#include "sources/git_fetch.hpp"

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "git_repo_fixture.hpp"
#include "support/http_fixture_server.hpp"
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

// Serves the repositories below `root` over git's smart HTTP protocol by
// running the real `git http-backend` (CGI) for each request.
::skillrt::test::HttpHandler git_http_backend(fs::path root, fs::path scratch) {
  return [root = std::move(root), scratch = std::move(scratch)](const ::skillrt::test::HttpRequest& request) {
    fs::create_directories(scratch);
    const std::size_t query_at = request.target.find('?');
    const std::string path = request.target.substr(0, query_at);
    const std::string query = query_at == std::string::npos ? std::string() : request.target.substr(query_at + 1);
    std::ofstream(scratch / "in", std::ios::binary) << request.body;
    const std::string command = "cd '" + scratch.string() + "' && env -i PATH=/usr/bin:/bin HOME='" + scratch.string() +
                                "' GIT_CONFIG_NOSYSTEM=1 GIT_PROJECT_ROOT='" + root.string() +
                                "' GIT_HTTP_EXPORT_ALL=1 REQUEST_METHOD='" + request.method + "' PATH_INFO='" + path +
                                "' QUERY_STRING='" + query + "' CONTENT_TYPE='" + request.header("Content-Type") +
                                "' CONTENT_LENGTH=" + std::to_string(request.body.size()) +
                                " git http-backend <in >out 2>/dev/null";
    ::skillrt::test::HttpResponse response;
    if (std::system(command.c_str()) != 0) {
      response.status = 500;
      return response;
    }
    const std::string out = read(scratch / "out");
    std::size_t split = out.find("\r\n\r\n");
    std::size_t skip = 4;
    if (split == std::string::npos) {
      split = out.find("\n\n");
      skip = 2;
    }
    std::istringstream head(out.substr(0, split));
    std::string line;
    while (std::getline(head, line)) {
      if (!line.empty() && line.back() == '\r') {
        line.pop_back();
      }
      const std::size_t colon = line.find(": ");
      if (colon == std::string::npos) {
        continue;
      }
      const std::string key = line.substr(0, colon);
      const std::string value = line.substr(colon + 2);
      if (key == "Status") {
        response.status = std::stoi(value);
      } else {
        response.headers.emplace_back(key, value);
      }
    }
    response.body = split == std::string::npos ? std::string() : out.substr(split + skip);
    return response;
  };
}

class RecordingProgress final : public core::hub::Progress {
public:
  void update(std::string_view phase, std::uint64_t, std::uint64_t) override { phases.emplace_back(phase); }
  void finish() override { ++finished; }
  std::vector<std::string> phases;
  int finished = 0;
};

class GitFetch : public ::testing::Test {
protected:
  GitFetch() : m_repo(m_tree.path() / "repo", m_tree.path() / "home") {
    m_repo.write("SKILL.md", "---\nname: first\n---\nv1\n");
    m_repo.write("skills/one/SKILL.md", "---\nname: one\n---\n");
    m_repo.write("skills/one/scripts/run.sh", "#!/bin/sh\necho one\n");
    fs::permissions(m_repo.dir() / "skills/one/scripts/run.sh", fs::perms::owner_exec, fs::perm_options::add);
    m_first = m_repo.commit("first");
    m_repo.git("tag -a v1 -m 'release one'");
    m_repo.git("tag light");
    m_repo.git("checkout -q -b feature");
    m_repo.write("SKILL.md", "---\nname: first\n---\nfeature\n");
    m_feature = m_repo.commit("feature work");
    m_repo.git("checkout -q main");
    m_repo.write("SKILL.md", "---\nname: first\n---\nv2\n");
    m_main = m_repo.commit("second");
  }

  fs::path out() const { return m_tree.path() / "staging" / "out"; }
  fs::path scratch() const { return m_tree.path() / "staging" / ".git-clone"; }

  Result<std::string> fetch(const std::string& location, const std::string& ref = "", const std::string& subdir = "",
                            core::hub::Progress* progress = nullptr, const BundleLimits& limits = {}) {
    fs::remove_all(out());
    fs::create_directories(out());
    auto writer = BundleWriter::open(out(), limits, nullptr, "extract");
    EXPECT_TRUE(writer.has_value());
    const GitRequest request{location, location, ref, subdir};
    auto commit = fetch_git(request, scratch(), *writer, progress);
    EXPECT_FALSE(fs::exists(scratch())) << "the bare clone must be removed";
    return commit;
  }

  ::skillrt::test::TempTree m_tree;
  test::GitRepoFixture m_repo;
  std::string m_first;
  std::string m_feature;
  std::string m_main;
};

TEST_F(GitFetch, LocalPathDefaultsToTheRemoteHead) {
  RecordingProgress progress;
  auto commit = fetch(m_repo.dir().string(), "", "", &progress);
  ASSERT_TRUE(commit.has_value()) << commit.error().message;
  EXPECT_EQ(*commit, m_main);
  EXPECT_EQ(read(out() / "SKILL.md"), "---\nname: first\n---\nv2\n");
  EXPECT_EQ(read(out() / "skills/one/SKILL.md"), "---\nname: one\n---\n");
  EXPECT_FALSE(fs::exists(out() / ".git"));
  struct stat st {};
  ASSERT_EQ(::stat((out() / "skills/one/scripts/run.sh").c_str(), &st), 0);
  EXPECT_NE(st.st_mode & 0100, 0u);
  EXPECT_EQ(progress.finished, 0); // the caller owns the progress line
}

TEST_F(GitFetch, OverLoopbackHttpWithTransferProgress) {
  // In a process of its own: the clone forks (watched_child), and a serving
  // thread in this process could hold a lock at that moment.
  ::skillrt::test::HttpFixtureServer server(git_http_backend(m_tree.path(), m_tree.path() / "cgi"),
                                            ::skillrt::test::ServeIn::process);
  RecordingProgress progress;
  auto commit = fetch(server.url("/repo"), "feature", "", &progress);
  ASSERT_TRUE(commit.has_value()) << commit.error().message;
  EXPECT_EQ(*commit, m_feature);
  EXPECT_EQ(read(out() / "SKILL.md"), "---\nname: first\n---\nfeature\n");
  EXPECT_NE(std::find(progress.phases.begin(), progress.phases.end(), "fetch"), progress.phases.end());
  BundleLimits tiny;
  tiny.max_bytes = 100;
  const auto capped = fetch(server.url("/repo"), "", "", nullptr, tiny);
  ASSERT_FALSE(capped.has_value());
  EXPECT_EQ(capped.error().code, ErrorCode::limit_exceeded);
  EXPECT_EQ(capped.error().message,
            "cannot clone " + server.url("/repo") + ": the repository transfer is larger than 100 bytes");
  const auto missing = fetch(server.url("/no-such-repo"));
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().message.rfind("cannot clone " + server.url("/no-such-repo") + ": ", 0), 0u)
      << missing.error().message;
}

TEST_F(GitFetch, FileUrl) {
  auto commit = fetch("file://" + m_repo.dir().string());
  ASSERT_TRUE(commit.has_value()) << commit.error().message;
  EXPECT_EQ(*commit, m_main);
}

TEST_F(GitFetch, BranchTagAndCommitRefs) {
  auto branch = fetch(m_repo.dir().string(), "feature");
  ASSERT_TRUE(branch.has_value()) << branch.error().message;
  EXPECT_EQ(*branch, m_feature);
  EXPECT_EQ(read(out() / "SKILL.md"), "---\nname: first\n---\nfeature\n");

  auto tag = fetch(m_repo.dir().string(), "v1");
  ASSERT_TRUE(tag.has_value()) << tag.error().message;
  EXPECT_EQ(*tag, m_first); // an annotated tag is peeled to its commit
  EXPECT_EQ(read(out() / "SKILL.md"), "---\nname: first\n---\nv1\n");

  auto light = fetch(m_repo.dir().string(), "light");
  ASSERT_TRUE(light.has_value()) << light.error().message;
  EXPECT_EQ(*light, m_first);

  auto full = fetch("file://" + m_repo.dir().string(), m_first);
  ASSERT_TRUE(full.has_value()) << full.error().message;
  EXPECT_EQ(*full, m_first);

  auto abbreviated = fetch(m_repo.dir().string(), m_feature.substr(0, 10));
  ASSERT_TRUE(abbreviated.has_value()) << abbreviated.error().message;
  EXPECT_EQ(*abbreviated, m_feature);
}

// A branch named after a commit id never replaces that commit: a full id is
// an object id, and an abbreviated id that is also a ref name is ambiguous.
TEST_F(GitFetch, BranchesNamedLikeCommitIdsDoNotHijackPins) {
  m_repo.git("branch " + m_first + " " + m_feature);
  auto pinned = fetch(m_repo.dir().string(), m_first);
  ASSERT_TRUE(pinned.has_value()) << pinned.error().message;
  EXPECT_EQ(*pinned, m_first);
  EXPECT_EQ(read(out() / "SKILL.md"), "---\nname: first\n---\nv1\n");

  const std::string short_id = m_first.substr(0, 12);
  m_repo.git("branch " + short_id + " " + m_feature);
  auto ambiguous = fetch(m_repo.dir().string(), short_id);
  ASSERT_FALSE(ambiguous.has_value());
  EXPECT_EQ(ambiguous.error().code, ErrorCode::ambiguous);
  EXPECT_NE(ambiguous.error().message.find("both an abbreviated commit id and a branch or tag name"),
            std::string::npos);
}

TEST_F(GitFetch, Subdir) {
  auto commit = fetch(m_repo.dir().string(), "", "skills/one");
  ASSERT_TRUE(commit.has_value()) << commit.error().message;
  EXPECT_EQ(read(out() / "SKILL.md"), "---\nname: one\n---\n");
  EXPECT_TRUE(fs::exists(out() / "scripts/run.sh"));
  EXPECT_FALSE(fs::exists(out() / "skills"));

  const std::string at = "HEAD of " + m_repo.dir().string();
  EXPECT_EQ(fetch(m_repo.dir().string(), "", "skills/two").error().message,
            "//subdir \"skills/two\" does not exist in " + at);
  EXPECT_EQ(fetch(m_repo.dir().string(), "", "SKILL.md").error().message,
            "//subdir \"SKILL.md\" is not a folder in " + at);
}

TEST_F(GitFetch, MissingRefIsAClearError) {
  const auto missing = fetch(m_repo.dir().string(), "no-such-branch");
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code, ErrorCode::not_found);
  EXPECT_EQ(missing.error().message,
            "ref \"no-such-branch\" not found in " + m_repo.dir().string() + " (no such branch, tag or commit)");
  EXPECT_EQ(fetch(m_repo.dir().string(), "deadbeefdeadbeef").error().message,
            "ref \"deadbeefdeadbeef\" not found in " + m_repo.dir().string() + " (no such branch, tag or commit)");
}

TEST_F(GitFetch, SymlinksInTheRepositoryAreRefused) {
  m_repo.git("checkout -q -b with-link");
  fs::create_symlink("../../SKILL.md", m_repo.dir() / "skills/one/link.md");
  m_repo.commit("add a link");
  EXPECT_EQ(fetch(m_repo.dir().string(), "with-link").error().message,
            "skill bundles may not contain symlinks: skills/one/link.md");
  EXPECT_EQ(fetch(m_repo.dir().string(), "with-link", "skills").error().message,
            "skill bundles may not contain symlinks: one/link.md");
  // A link outside the chosen subdir is never looked at.
  m_repo.write("elsewhere/SKILL.md", "x");
  m_repo.commit("another folder");
  auto elsewhere = fetch(m_repo.dir().string(), "with-link", "elsewhere");
  EXPECT_TRUE(elsewhere.has_value()) << elsewhere.error().message;
}

TEST_F(GitFetch, NotARepository) {
  const fs::path plain = m_tree.path() / "plain";
  fs::create_directories(plain);
  const auto result = fetch(plain.string());
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().message.rfind("cannot clone " + plain.string() + ": ", 0), 0u) << result.error().message;
}

TEST_F(GitFetch, EmptyRepositoryHasNoHead) {
  test::GitRepoFixture empty(m_tree.path() / "empty", m_tree.path() / "home");
  const auto result = fetch(empty.dir().string());
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().message, empty.dir().string() + " has no commits on its default branch");
}

// A server that accepts the connection (the kernel completes it from the
// listen backlog) and then never answers: libgit2 1.5 would wait forever.
TEST_F(GitFetch, AServerThatNeverAnswersIsCutOffAtTheStallDeadline) {
  const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  ASSERT_EQ(::listen(listener, 4), 0);
  socklen_t length = sizeof(address);
  ASSERT_EQ(::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length), 0);
  const std::string url = "http://127.0.0.1:" + std::to_string(ntohs(address.sin_port)) + "/repo";

  fs::create_directories(out());
  auto writer = BundleWriter::open(out(), BundleLimits{}, nullptr, "extract");
  ASSERT_TRUE(writer.has_value());
  GitRequest request{url, url, "", ""};
  request.deadlines = ChildDeadlines{std::chrono::milliseconds(500), std::chrono::seconds(60)};
  const auto started = std::chrono::steady_clock::now();
  const auto result = fetch_git(request, scratch(), *writer, nullptr);
  const auto took = std::chrono::steady_clock::now() - started;
  ::close(listener);
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, ErrorCode::io_error);
  EXPECT_EQ(result.error().message, "cannot clone " + url + ": no progress for 500 ms");
  EXPECT_LT(took, std::chrono::seconds(30));
  EXPECT_FALSE(fs::exists(scratch()));
}

TEST_F(GitFetch, NonDefaultHeadBranch) {
  test::GitRepoFixture trunk(m_tree.path() / "trunk", m_tree.path() / "home");
  trunk.git("checkout -q -b trunk");
  trunk.write("SKILL.md", "trunk\n");
  const std::string id = trunk.commit("on trunk");
  auto commit = fetch(trunk.dir().string());
  ASSERT_TRUE(commit.has_value()) << commit.error().message;
  EXPECT_EQ(*commit, id);
  EXPECT_EQ(read(out() / "SKILL.md"), "trunk\n");
}

} // namespace
} // namespace skillrt::sources
