// A hermetic home for skill_manage tests: HOME/skills on a real temp dir,
// config in memory, an empty environment, a working directory outside any git repo.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/manage/manage_request.hpp"

namespace skillrt::test {

class ManageFixture : public ::testing::Test {
protected:
  ManageFixture() {
    std::string pattern = (std::filesystem::temp_directory_path() / "skillrt-manage-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw std::runtime_error("mkdtemp failed");
    }
    m_root = std::filesystem::canonical(pattern);
    std::filesystem::create_directories(m_root / "home" / "skills");
    std::filesystem::create_directories(m_root / "work");
    m_ctx.home = m_root / "home";
    m_ctx.cwd = m_root / "work";
    m_ctx.os = "linux";
    m_ctx.env = [](std::string_view) -> std::optional<std::string> { return std::nullopt; };
  }
  ~ManageFixture() override {
    std::error_code ec;
    std::filesystem::remove_all(m_root, ec);
  }

  std::filesystem::path skills() const { return m_ctx.home / "skills"; }

  static void write(const std::filesystem::path& path, const std::string& content) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << content;
  }

  static std::string read(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }

  static std::string skill_text(const std::string& name, const std::string& description = "Does things",
                                const std::string& body = "# Steps\n\nDo the thing.\n") {
    return "---\nname: " + name + "\ndescription: " + description + "\n---\n" + body;
  }

  // HOME/skills/<rel>/SKILL.md
  std::filesystem::path make_skill(const std::string& rel, const std::string& name) {
    const auto path = skills() / rel / "SKILL.md";
    write(path, skill_text(name));
    return path;
  }

  core::ManageResult run(core::ManageRequest request) { return core::manage_skill(m_ctx, m_cfg, request); }

  core::ManageResult create(const std::string& name, const std::string& content,
                            std::optional<std::string> category = std::nullopt) {
    core::ManageRequest request;
    request.action = core::ManageAction::create;
    request.name = name;
    request.content = content;
    request.category = std::move(category);
    return run(request);
  }

  core::ManageResult patch(const std::string& name, const std::string& old_string, const std::string& new_string,
                           std::optional<std::string> file = std::nullopt) {
    core::ManageRequest request;
    request.action = core::ManageAction::patch;
    request.name = name;
    request.old_string = old_string;
    request.new_string = new_string;
    request.file_path = std::move(file);
    return run(request);
  }

  std::filesystem::path m_root;
  core::Context m_ctx;
  core::Config m_cfg;
};

} // namespace skillrt::test
