// skills.guard_agent_created reads as Hermes reads it (spec §2.10 rule 17).
#include <gtest/gtest.h>

#include "core/config/config.hpp"
#include "manage_fixture.hpp"

namespace skillrt::core {
namespace {

using GuardConfigTest = test::ManageFixture;

TEST_F(GuardConfigTest, TruthyFormsEnableOthersDoNot) {
  const auto path = m_root / "config.yaml";
  EXPECT_FALSE(load_config(path).skills.guard_agent_created); // missing file: off
  for (const char* on : {"true", "True", "1", "yes", "'yes'", "\"on\"", "ON", "'true'", "\" 1 \""}) {
    write(path, std::string("skills:\n  guard_agent_created: ") + on + "\n");
    EXPECT_TRUE(load_config(path).skills.guard_agent_created) << on;
  }
  for (const char* off : {"false", "0", "no", "'off'", "\"false\"", "''", "~", "maybe", "[true]"}) {
    write(path, std::string("skills:\n  guard_agent_created: ") + off + "\n");
    EXPECT_FALSE(load_config(path).skills.guard_agent_created) << off;
  }
  write(path, "skills: [\n"); // unreadable YAML: off
  EXPECT_FALSE(load_config(path).skills.guard_agent_created);
}

} // namespace
} // namespace skillrt::core
