// `skillrt prompt [--tools a,b] [--toolsets x,y] [--compact CAT,..] [--max-chars N]`
// = Hermes build_skills_system_prompt: the skills index block for a system prompt.
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "command.hpp"
#include "core/prompt/skills_index.hpp"
#include "protocol/prompt_json.hpp"

namespace skillrt::app {
namespace {

class PromptCommand final : public Command {
public:
  const char* name() const override { return "prompt"; }
  const char* summary() const override { return "Print the skills index block for a system prompt"; }
  void configure(CLI::App& sub) override {
    m_tools_option = sub.add_option("--tools", m_tools, "Tools the agent has (comma separated)")->delimiter(',');
    m_toolsets_option =
        sub.add_option("--toolsets", m_toolsets, "Toolsets the agent has (comma separated)")->delimiter(',');
    sub.add_option("--compact", m_compact, "Categories to list by name only (comma separated)")->delimiter(',');
    sub.add_option("--max-chars", m_max_chars, "Keep the block within N characters (0 = no limit)");
    sub.add_flag("--no-snapshot", m_no_snapshot, "Do not read or write HOME/.skills_prompt_snapshot.json");
  }
  Outcome run(const Invocation& inv) override {
    core::PromptOptions options;
    // Given at all (even empty) means "this is the tool set"; absent means unknown.
    if (m_tools_option->count() > 0) {
      options.tools.tools = without_empty(m_tools);
    }
    if (m_toolsets_option->count() > 0) {
      options.tools.toolsets = without_empty(m_toolsets);
    }
    options.compact_categories = without_empty(m_compact);
    options.max_chars = m_max_chars;
    options.use_snapshot = !m_no_snapshot;
    // One index per process: the LRU (build_skills_system_prompt_cached) is for
    // long-running hosts and could never hit here.
    const core::RenderedIndex index = core::build_skills_system_prompt(inv.ctx, inv.config, options);
    if (inv.json) {
      print_json(protocol::prompt_json(index));
      return Outcome::ok;
    }
    if (!index.text.empty()) {
      std::cout << index.text << '\n';
    }
    return Outcome::ok;
  }

private:
  static std::vector<std::string> without_empty(const std::vector<std::string>& items) {
    std::vector<std::string> out;
    for (const std::string& item : items) {
      if (!item.empty()) {
        out.push_back(item);
      }
    }
    return out;
  }

  CLI::Option* m_tools_option = nullptr;
  CLI::Option* m_toolsets_option = nullptr;
  std::vector<std::string> m_tools;
  std::vector<std::string> m_toolsets;
  std::vector<std::string> m_compact;
  std::size_t m_max_chars = 0;
  bool m_no_snapshot = false;
};

} // namespace

std::unique_ptr<Command> make_prompt_command() {
  return std::make_unique<PromptCommand>();
}

} // namespace skillrt::app
