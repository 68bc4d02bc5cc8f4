#include "protocol/manage_json.hpp"

#include <gtest/gtest.h>

#include "manage_fixture.hpp"

namespace skillrt::protocol {
namespace {

using ManageJson = test::ManageFixture;

std::vector<std::string> keys(const Json& json) {
  std::vector<std::string> out;
  for (const auto& item : json.items()) {
    out.push_back(item.key());
  }
  return out;
}

TEST_F(ManageJson, CreateSuccessKeysInHermesOrder) {
  core::ManageRequest request;
  request.action = core::ManageAction::create;
  request.name = "demo";
  request.content = skill_text("demo", std::string(150, 'd'));
  request.category = "cat";
  const Json out = skill_manage_json(m_ctx, m_cfg, request);
  EXPECT_EQ(keys(out),
            (std::vector<std::string>{"success", "message", "path", "skill_md", "_change", "category", "hint"}));
  EXPECT_EQ(out["_change"]["description"].get<std::string>(), std::string(120, 'd'));
}

TEST_F(ManageJson, FailureShapes) {
  make_skill("s", "s");
  core::ManageRequest request;
  request.action = core::ManageAction::patch;
  request.name = "s";
  request.old_string = "nothing like it";
  request.new_string = "x";
  Json out = skill_manage_json(m_ctx, m_cfg, request);
  EXPECT_EQ(out["success"], false);
  EXPECT_TRUE(out.contains("file_preview"));
  request.action = core::ManageAction::remove_file;
  request.file_path = "references/none.md";
  out = skill_manage_json(m_ctx, m_cfg, request);
  EXPECT_TRUE(out["available_files"].is_null()); // Hermes: null when the skill has no files
}

} // namespace
} // namespace skillrt::protocol
