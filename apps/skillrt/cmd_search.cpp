// `skillrt search QUERY [--limit N]`: the skills most relevant to a query,
// over the user's database skills, the user's file skills and the shared
// skills (issue 3/5 item 4; the reasoning engine's skill discovery).
#include <iostream>
#include <string>

#include "command.hpp"
#include "core/limits.hpp"
#include "core/search/search_skills.hpp"
#include "protocol/search_json.hpp"
#include "store/open_store.hpp"

namespace skillrt::app {
namespace {

class SearchCommand final : public Command {
 public:
  const char* name() const override { return "search"; }
  const char* summary() const override { return "Find the skills most relevant to a query"; }
  void configure(CLI::App& sub) override {
    sub.add_option("query", m_query, "What the skill should be about")->required();
    sub.add_option("--limit", m_limit, "Most results to return (default 5)")
        ->check(CLI::Range(std::size_t{1}, limits::k_search_max_limit));
  }
  Outcome run(const Invocation& inv) override {
    Result<core::SkillSearch> search = run_search(inv);
    if (inv.json) {
      const Json out = protocol::search_json(m_query, search);
      print_json(out);
      return outcome_of(out);
    }
    if (!search) {
      std::cerr << "error: " << search.error().message << '\n';
      return Outcome::failed;
    }
    std::cout << protocol::search_text(*search);
    return Outcome::ok;
  }

 private:
  Result<core::SkillSearch> run_search(const Invocation& inv) const {
    if (auto checked = core::check_search_request(m_query, m_limit); !checked) {
      return tl::unexpected(checked.error());
    }
    // Where the database lives: --db, else database.url, else HOME/skillrt.db.
    const std::string& location = inv.database_location();
    auto store = store::open_store(location, inv.ctx);
    if (!store) {
      return tl::unexpected(store.error());
    }
    return core::search_skills(inv.ctx, inv.config, **store, m_query, m_limit);
  }

  std::string m_query;
  std::size_t m_limit = limits::k_search_default_limit;
};

}  // namespace

std::unique_ptr<Command> make_search_command() { return std::make_unique<SearchCommand>(); }

}  // namespace skillrt::app
