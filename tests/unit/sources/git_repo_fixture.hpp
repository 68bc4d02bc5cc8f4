// A real git repository made by the test with the git CLI (temp HOME, no
// system config, fixed identity), for the git fetch tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace skillrt::sources::test {

class GitRepoFixture {
public:
  // `dir` is created; `home` is the HOME git sees.
  GitRepoFixture(std::filesystem::path dir, std::filesystem::path home)
      : m_dir(std::move(dir)), m_home(std::move(home)) {
    std::filesystem::create_directories(m_dir);
    std::filesystem::create_directories(m_home);
    git("init -q -b main");
  }

  const std::filesystem::path& dir() const { return m_dir; }

  void write(const std::string& rel, const std::string& content) const {
    const std::filesystem::path path = m_dir / rel;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << content;
  }

  // Runs `git ARGS` in the repository; returns its stdout without the final newline.
  std::string git(const std::string& args) const {
    const std::string command = "cd '" + m_dir.string() + "' && HOME='" + m_home.string() +
                                "' GIT_CONFIG_NOSYSTEM=1 GIT_TERMINAL_PROMPT=0 git -c user.name=skillrt-test "
                                "-c user.email=test@example.invalid -c commit.gpgsign=false -c tag.gpgsign=false " +
                                args + " 2>/dev/null";
    std::string out;
    FILE* pipe = ::popen(command.c_str(), "r");
    EXPECT_NE(pipe, nullptr);
    if (pipe == nullptr) {
      return out;
    }
    char buffer[4096];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0) {
      out.append(buffer, n);
    }
    const int status = ::pclose(pipe);
    EXPECT_EQ(status, 0) << "git " << args;
    while (!out.empty() && out.back() == '\n') {
      out.pop_back();
    }
    return out;
  }

  // Stages everything and commits; returns the new commit id.
  std::string commit(const std::string& message) const {
    git("add -A");
    git("commit -q -m '" + message + "'");
    return git("rev-parse HEAD");
  }

private:
  std::filesystem::path m_dir;
  std::filesystem::path m_home;
};

} // namespace skillrt::sources::test
