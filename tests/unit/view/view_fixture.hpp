// A hermetic home (HOME/skills, config in memory, environment in a map) for
// resolver and skill_view tests.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "protocol/view_json.hpp"
#include "support/temp_tree.hpp"

namespace skillrt::test {

class ViewFixture : public ::testing::Test {
protected:
  ViewFixture() {
    m_tree.mkdir("home/skills");
    m_tree.mkdir("work");
    m_ctx.home = m_tree.path() / "home";
    m_ctx.cwd = m_tree.path() / "work";
    m_ctx.os = "linux";
    m_ctx.env = [this](std::string_view name) -> std::optional<std::string> {
      const auto it = m_env.find(std::string(name));
      return it == m_env.end() ? std::nullopt : std::optional<std::string>(it->second);
    };
  }

  std::filesystem::path skills() const { return m_ctx.home / "skills"; }

  // Writes HOME/skills/<rel>/SKILL.md with a frontmatter and a body.
  std::filesystem::path skill(const std::string& rel, const std::string& frontmatter,
                              const std::string& body = "Body text.\n") {
    return m_tree.write("home/skills/" + rel + "/SKILL.md", "---\n" + frontmatter + "---\n" + body);
  }

  // An external root at <tree>/<dir>, registered in the config.
  std::filesystem::path external(const std::string& dir) {
    const auto path = m_tree.mkdir(dir);
    m_cfg.skills.external_dirs.push_back(path.string());
    return path;
  }

  // A trusted git project at <tree>/proj, used as the working directory.
  std::filesystem::path trusted_project() {
    const auto root = m_tree.mkdir("proj");
    m_tree.mkdir("proj/.git");
    m_ctx.cwd = root;
    m_cfg.skills.trusted_project_dirs.push_back(root.string());
    return root;
  }

  protocol::Json view(const std::string& name, const std::optional<std::string>& file = std::nullopt) {
    m_warnings.clear();
    return protocol::skill_view_json(m_ctx, m_cfg, name, file, m_warnings);
  }

  static std::vector<std::string> keys(const protocol::Json& object) {
    std::vector<std::string> out;
    for (auto it = object.begin(); it != object.end(); ++it) {
      out.push_back(it.key());
    }
    return out;
  }

  TempTree m_tree;
  core::Context m_ctx;
  core::Config m_cfg;
  std::map<std::string, std::string> m_env;
  std::vector<std::string> m_warnings;
};

} // namespace skillrt::test
