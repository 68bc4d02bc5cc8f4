// A temporary Hermes home with helpers to write skills, shared by the prompt
// and commands tests. Everything is real files; nothing is mocked.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "core/config/config.hpp"
#include "core/context.hpp"

namespace skillrt::test {

class HomeFixture : public ::testing::Test {
protected:
  void SetUp() override {
    std::random_device random;
    m_root = std::filesystem::temp_directory_path() /
             ("skillrt-prompt-test-" + std::to_string(::getpid()) + "-" + std::to_string(random()));
    std::filesystem::create_directories(m_root / "home" / "skills");
    std::filesystem::create_directories(m_root / "cwd");
    ctx.home = m_root / "home";
    ctx.cwd = m_root / "cwd";
    ctx.os = "linux";
    ctx.env = [](std::string_view) -> std::optional<std::string> { return std::nullopt; };
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(m_root, ec);
  }

  std::filesystem::path root() const { return m_root; }
  std::filesystem::path skills() const { return ctx.home / "skills"; }

  // Writes `text` to `path`, creating parents.
  static void write(const std::filesystem::path& path, const std::string& text) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
  }

  // Writes skills/<rel>/SKILL.md with the frontmatter lines and a body.
  std::filesystem::path skill(const std::string& rel, const std::string& frontmatter,
                              const std::string& body = "Body text.\n") {
    const std::filesystem::path md = skills() / rel / "SKILL.md";
    write(md, "---\n" + frontmatter + "---\n" + body);
    return md;
  }

  // Writes config.yaml and reloads cfg from it.
  void config(const std::string& yaml) {
    write(ctx.config_path(), yaml);
    cfg = core::load_config(ctx.config_path());
  }

  core::Context ctx;
  core::Config cfg;

private:
  std::filesystem::path m_root;
};

} // namespace skillrt::test
