// Internal to the flow pass (script_flow.hpp): what a tracked value carries,
// the classification of paths and variable names, and the two analysers
// (script_flow_code.cpp for Python and JavaScript/TypeScript,
// script_flow_shell.cpp for shell) that turn one script's text into flows.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/util/ascii_case.hpp"

namespace skillrt::core::flow {

// What secret a value holds, weakest first (a merge keeps the strongest).
enum class Kind : unsigned char {
  none,
  env_secret,   // one secret-named environment variable
  env_dump,     // the whole environment
  agent_memory, // the agent's memory, its sessions, or shell history
  secret_file,  // the content of a credentials or key file
};

struct Taint {
  Kind kind = Kind::none;
  std::size_t line = 0; // 1-based line of the source within the analysed text
  std::string label;    // "~/.ssh/id_rsa", "OPENAI_API_KEY", …
};

// Keeps the stronger of `into` and `from` (the earlier one on a tie).
void merge(Taint& into, const Taint& from);

// What the analysers know about one name.
struct Value {
  std::string path;          // the string a name holds when built from literals and home-folder calls
  std::size_t path_line = 0; // where `path` first named a credentials or memory file (0: it never did)
  std::string path_label;    // what it named there (classify_path's label)
  Taint taint;
};

// Names without scopes, at most k_max_names of them (later names are not tracked).
class Names {
public:
  static constexpr std::size_t k_max_names = 256;
  const Value* find(std::string_view name) const;
  // The value of `name`, created when there is room; nullptr when the table is full.
  Value* slot(std::string_view name);

private:
  std::unordered_map<std::string, Value> m_values;
};

// The longest path string a value keeps.
inline constexpr std::size_t k_max_path = 512;

// Joins `piece` onto a path being built ("/" between pieces; runs of "/" collapse).
void append_path(std::string& path, std::string_view piece);
// Appends `piece` to a path being built as it is (string concatenation).
void append_raw(std::string& path, std::string_view piece);

// What a path names when it is read, and how to show it.
struct PathClass {
  Kind kind = Kind::none; // secret_file, agent_memory, env_dump (/proc/self/environ) or none
  std::string label;      // "~/.ssh/id_rsa"
};
// `path` as built by append_path; "~" stands for the home folder.
PathClass classify_path(std::string_view path);

// The line a source path classified as `c` was built on: `var_line` when the
// variable it came from already named that same file (`var_label`), else `here`.
inline std::size_t path_source_line(const PathClass& c, std::size_t var_line, std::string_view var_label,
                                    std::size_t here) {
  return var_line != 0 && var_label == c.label ? var_line : here;
}

// An environment variable name that holds a secret (…_TOKEN, …_API_KEY,
// …PASSWORD; not …_URL, …_ID, …_PATH and the like).
bool is_secret_env_name(std::string_view name);

// A key or parameter name under which a secret is a credential the API
// expects (api_key, token, Authorization, client_secret …).
bool is_credential_key(std::string_view key);

// Whether `text` (lower- or mixed-case) mentions a credential-carrying
// context just before a value: "Authorization: Bearer ", "api_key=", "-H ".
bool credential_context_before(std::string_view text);

// One flow: a source reaching a sink.
struct Flow {
  Taint source;
  std::size_t sink_line = 0; // 1-based, within the analysed text
  bool command = false;      // the sink is a command (curl, nc …) rather than a library call
};

// Python (.py), JavaScript/TypeScript: appends the flows of `text`.
enum class CodeLanguage : unsigned char { python, javascript };
void analyse_code(CodeLanguage language, std::string_view text, std::vector<Flow>& out);

// Shell: appends the flows of `text`.
void analyse_shell(std::string_view text, std::vector<Flow>& out);

// Small helpers shared by the analysers.
bool contains_word(std::string_view haystack_lower, std::string_view word);

} // namespace skillrt::core::flow
