// `skillrt match MESSAGE [--path FILE]... [--limit N]`: the skills whose
// triggers fire on a user's message (and whose `paths` globs cover the files
// the turn touches), each with the reasons (issue 5/6 item 2).
#include <iostream>
#include <string>
#include <vector>

#include "command.hpp"
#include "core/activation/match_skills.hpp"
#include "core/limits.hpp"
#include "protocol/match_json.hpp"
#include "store/open_store.hpp"

namespace skillrt::app {
namespace {

class MatchCommand final : public Command {
 public:
  const char* name() const override { return "match"; }
  const char* summary() const override { return "Show the skills a user's message triggers, and why"; }
  void configure(CLI::App& sub) override {
    sub.add_option("message", m_request.message, "The user's message (may be \"\" with --path)")->required();
    sub.add_option("--path", m_request.paths, "A file the turn touches, for `paths:` globs (repeatable)");
    sub.add_option("--limit", m_request.limit, "Most skills to return (default 5)")
        ->check(CLI::Range(std::size_t{1}, limits::k_match_max_limit));
  }
  Outcome run(const Invocation& inv) override {
    Result<core::SkillMatch> match = run_match(inv);
    if (inv.json) {
      const Json out = protocol::match_json(m_request.message, match);
      print_json(out);
      return outcome_of(out);
    }
    if (!match) {
      std::cerr << "error: " << match.error().message << '\n';
      return Outcome::failed;
    }
    std::cout << protocol::match_text(*match);
    for (const core::TriggerProblem& problem : match->problems) {
      std::cerr << "note: " << problem.skill << ": trigger \"" << problem.rule << "\" is ignored: " << problem.message
                << '\n';
    }
    return Outcome::ok;
  }

 private:
  Result<core::SkillMatch> run_match(const Invocation& inv) const {
    if (auto checked = core::check_match_request(m_request); !checked) {
      return tl::unexpected(checked.error());
    }
    auto store = store::open_store(inv.database_location(), inv.ctx);
    if (!store) {
      return tl::unexpected(store.error());
    }
    const core::Catalog catalog = core::build_catalog(inv.ctx, inv.config);
    return core::match_skills_in(inv.ctx, catalog, **store, m_request);
  }

  core::MatchRequest m_request;
};

}  // namespace

std::unique_ptr<Command> make_match_command() { return std::make_unique<MatchCommand>(); }

}  // namespace skillrt::app
