// GET /api/v1/search?q=TEXT[&limit=N]: relevant skills across the three
// layers the caller sees (database > user > shared), as skills_search and
// `skillrt --json search` rank them, with the words each hit matched
// (`matched`: the query's words found in its name, description or SKILL.md;
// the web UI shows them).
#include <algorithm>
#include <cctype>
#include <sstream>

#include "api/routes.hpp"
#include "core/discovery/catalog.hpp"
#include "core/files/read_file.hpp"
#include "core/limits.hpp"
#include "core/search/search_skills.hpp"
#include "core/search/stop_words.hpp"
#include "protocol/json_text.hpp"
#include "protocol/search_json.hpp"

namespace skillrt::api {
namespace {

// A SKILL.md larger than this is matched by its name and description only.
constexpr std::size_t k_max_matched_read = 1 << 20;

std::string lowered(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

// The query's words as the engines take them (stop words dropped), lower-cased, once each.
std::vector<std::string> query_words(std::string_view query) {
  std::vector<std::string> words;
  std::istringstream in(lowered(core::without_stop_words(query)));
  for (std::string word; in >> word;) {
    if (std::find(words.begin(), words.end(), word) == words.end()) {
      words.push_back(std::move(word));
    }
  }
  return words;
}

// Does `word` start a word of `text` (both lower-case)? "rotat" matches "rotate".
bool starts_a_word(std::string_view text, std::string_view word) {
  for (std::size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    if (at == 0 || std::isalnum(static_cast<unsigned char>(text[at - 1])) == 0) {
      return true;
    }
  }
  return false;
}

Json matched_words(const std::vector<std::string>& words, const core::SkillSearchResult& hit) {
  std::string text = lowered(hit.name) + "\n" + lowered(hit.description);
  if (hit.path) {
    if (auto body = core::read_regular_file(*hit.path, k_max_matched_read)) {
      text += "\n" + lowered(*body);
    }
  }
  Json matched = Json::array();
  for (const std::string& word : words) {
    if (starts_a_word(text, word)) {
      matched.push_back(protocol::json_text(word));
    }
  }
  return matched;
}

ApiResponse search(const RestApiServices& services, ApiCall& call) {
  const std::optional<std::string> query = call.query.get("q");
  if (!query) {
    return error_answer(400, "search needs ?q=TEXT");
  }
  // Past the maximum is refused by check_search_request, with its message.
  auto limit = call.query.number("limit", limits::k_search_default_limit, limits::k_search_max_limit + 1);
  if (!limit) {
    return error_answer(limit.error());
  }
  if (auto checked = core::check_search_request(*query, *limit); !checked) {
    return json_answer(http_status_of(checked.error().code), protocol::search_json(*query, tl::unexpected(checked.error())));
  }
  auto searched = services.skills->search_skills(call.ctx, *query, *limit);
  if (!searched) {
    return json_answer(http_status_of(searched.error().code),
                       protocol::search_json(*query, tl::unexpected(searched.error())));
  }
  const core::SkillSearch& found = *searched;
  Json out = protocol::search_json(*query, found);
  const std::vector<std::string> words = query_words(*query);
  for (std::size_t i = 0; i < found.results.size(); ++i) {
    out["results"][i]["matched"] = matched_words(words, found.results[i]);
  }
  return json_answer(200, out);
}

}  // namespace

void add_search_routes(Router& router, const RestApiServices& services) {
  router.add("GET", "/api/v1/search", [&services](ApiCall& call) { return search(services, call); });
}

}  // namespace skillrt::api
