// `skillrt validate PATH... [--strict]`: every finding at once, exit 1 on any error.
#include <iostream>
#include <vector>

#include "command.hpp"
#include "protocol/validate_json.hpp"

namespace skillrt::app {
namespace {

class ValidateCommand final : public Command {
 public:
  const char* name() const override { return "validate"; }
  const char* summary() const override { return "Check skills against the Agent Skills standard and Hermes rules"; }
  void configure(CLI::App& sub) override {
    sub.add_option("paths", m_paths, "Skill folders or SKILL.md files")->required();
    sub.add_flag("--strict", m_strict, "Agent Skills spec rules are errors (agrees with skills-ref)");
  }
  Outcome run(const Invocation& inv) override {
    const protocol::ValidateOutcome outcome = protocol::run_validate(m_paths, m_strict, inv.color);
    if (inv.json) {
      print_json(outcome.json);
    } else {
      std::cout << outcome.text;
    }
    return outcome.ok ? Outcome::ok : Outcome::failed;
  }

 private:
  std::vector<std::string> m_paths;
  bool m_strict = false;
};

}  // namespace

std::unique_ptr<Command> make_validate_command() { return std::make_unique<ValidateCommand>(); }

}  // namespace skillrt::app
