// The flow pass's vocabulary: which paths name a credentials or memory file,
// which environment variables hold secrets, and which keys carry a credential
// to the API that expects it (script_flow_model.hpp).
#include <algorithm>
#include <initializer_list>

#include "core/guard/script_flow_model.hpp"

namespace skillrt::core::flow {
namespace {

int rank(Kind kind) {
  switch (kind) {
  case Kind::none:
    return 0;
  case Kind::env_secret:
    return 1;
  case Kind::env_dump:
    return 2;
  case Kind::agent_memory:
    return 3;
  case Kind::secret_file:
    return 4;
  }
  return 0;
}

bool is_one_of(std::string_view s, std::initializer_list<std::string_view> items) {
  return std::find(items.begin(), items.end(), s) != items.end();
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// The components of a lower-cased path.
std::vector<std::string_view> components(std::string_view path) {
  std::vector<std::string_view> out;
  std::size_t pos = 0;
  while (pos <= path.size()) {
    std::size_t slash = path.find('/', pos);
    if (slash == std::string_view::npos) {
      slash = path.size();
    }
    if (slash > pos) {
      out.push_back(path.substr(pos, slash - pos));
    }
    pos = slash + 1;
  }
  return out;
}

// A file of ~/.ssh that is a private key (or the folder itself, or a glob over it).
bool is_ssh_secret(std::string_view next) {
  if (next.empty() || next.find('*') != std::string_view::npos) {
    return true;
  }
  if (ends_with(next, ".pub") ||
      is_one_of(next, {"known_hosts", "known_hosts.old", "config", "authorized_keys", "authorized_keys2", "environment",
                       "rc", "sockets", "control", "cm"})) {
    return false;
  }
  return true;
}

bool is_dotenv(std::string_view c) {
  if (c == ".env") {
    return true;
  }
  if (!starts_with(c, ".env.")) {
    return false;
  }
  const std::string_view rest = c.substr(5);
  return !is_one_of(rest, {"example", "sample", "template", "dist", "defaults", "default", "tmpl", "tpl", "schema",
                           "example.local", "sample.local"});
}

bool is_history(std::string_view c) {
  return c.size() > 1 && c.front() == '.' && ends_with(c, "history") && c != ".history.md";
}

struct Match {
  Kind kind = Kind::none;
  std::size_t first = 0; // first component of the label
  std::size_t last = 0;  // last component of the label
};

Match match_components(const std::vector<std::string_view>& c) {
  const auto at = [&](std::size_t i) { return i < c.size() ? c[i] : std::string_view(); };
  const bool browser = std::any_of(c.begin(), c.end(), [](std::string_view s) {
    return s.find("chrome") != std::string_view::npos || s.find("chromium") != std::string_view::npos ||
           s.find("brave") != std::string_view::npos || s == "edge" || s.find("firefox") != std::string_view::npos ||
           s.find("mozilla") != std::string_view::npos || s.find("opera") != std::string_view::npos;
  });
  for (std::size_t i = 0; i < c.size(); ++i) {
    const std::string_view s = c[i];
    const std::string_view n = at(i + 1);
    const std::size_t with_next = n.empty() ? i : i + 1;
    if (s == ".ssh") {
      if (is_ssh_secret(n)) {
        return {Kind::secret_file, i, with_next};
      }
      continue;
    }
    if (s == ".aws" && (n.empty() || n.find("cred") != std::string_view::npos || n == "*")) {
      return {Kind::secret_file, i, with_next};
    }
    if ((s == ".docker" && n == "config.json") || (s == ".kube" && (n.empty() || n == "config")) ||
        (s == ".codex" && n == "auth.json") || (s == ".claude" && n == ".credentials.json")) {
      return {Kind::secret_file, i, with_next};
    }
    if (is_one_of(s,
                  {".netrc", "_netrc", ".git-credentials", ".pgpass", ".pypirc", ".npmrc", ".gnupg", ".azure",
                   "wallet.dat", ".electrum", ".bitcoin", "login data", "cookies.sqlite", "key4.db", "logins.json"})) {
      return {Kind::secret_file, i, i};
    }
    if (s.find("nkbihfbeogaeaoehlefnkodbefgpgknn") != std::string_view::npos) { // a browser wallet's extension id
      return {Kind::secret_file, i, i};
    }
    if ((s == ".ethereum" && n == "keystore") || (s == "solana" && n == "id.json") ||
        (s == "exodus" && n == "exodus.wallet")) {
      return {Kind::secret_file, i, i + 1};
    }
    if (browser && is_one_of(s, {"cookies", "web data", "local state"})) {
      return {Kind::secret_file, i, i};
    }
    if (s == ".config" && n == "gh" && at(i + 2) == "hosts.yml") {
      return {Kind::secret_file, i, i + 2};
    }
    if (s == ".config" && n == "gcloud" &&
        (at(i + 2).empty() || at(i + 2).find("credentials") != std::string_view::npos)) {
      return {Kind::secret_file, i, std::min(i + 2, c.size() - 1)};
    }
    if (s == "proc" && n.size() > 0 && at(i + 2) == "environ") {
      return {Kind::env_dump, i, i + 2}; // /proc/self/environ: the whole environment
    }
    if (is_dotenv(s)) {
      return {Kind::secret_file, i, i};
    }
    if (is_history(s)) {
      return {Kind::agent_memory, i, i};
    }
    if (s == "fish_history" || s == "memory.md" || s == "user.md") {
      return {Kind::agent_memory, i, i};
    }
    if ((s == ".hermes" && is_one_of(n, {"memories", "memory", "sessions"})) ||
        (s == ".claude" && is_one_of(n, {"projects", "history.jsonl"})) ||
        (s == ".codex" && is_one_of(n, {"sessions", "history.jsonl"}))) {
      return {Kind::agent_memory, i, i + 1};
    }
  }
  return {};
}

} // namespace

bool contains_word(std::string_view haystack_lower, std::string_view word) {
  return haystack_lower.find(word) != std::string_view::npos;
}

void merge(Taint& into, const Taint& from) {
  if (rank(from.kind) > rank(into.kind)) {
    into = from;
  }
}

const Value* Names::find(std::string_view name) const {
  const auto it = m_values.find(std::string(name));
  return it == m_values.end() ? nullptr : &it->second;
}

Value* Names::slot(std::string_view name) {
  auto it = m_values.find(std::string(name));
  if (it != m_values.end()) {
    return &it->second;
  }
  if (m_values.size() >= k_max_names) {
    return nullptr;
  }
  return &m_values.emplace(std::string(name), Value{}).first->second;
}

void append_path(std::string& path, std::string_view piece) {
  if (piece.empty() || path.size() >= k_max_path) {
    return;
  }
  if (!path.empty() && path.back() != '/') {
    path += '/';
  }
  append_raw(path, piece);
}

void append_raw(std::string& path, std::string_view piece) {
  if (piece.empty() || path.size() >= k_max_path) {
    return;
  }
  piece = piece.substr(0, k_max_path - path.size());
  for (const char c : piece) {
    const char d = c == '\\' ? '/' : c;
    if (d == '/' && !path.empty() && path.back() == '/') {
      continue;
    }
    path += d;
  }
}

PathClass classify_path(std::string_view path) {
  if (path.empty()) {
    return {};
  }
  const std::string lowered = ascii_lower_copy(path);
  const std::vector<std::string_view> parts = components(lowered);
  const Match m = match_components(parts);
  if (m.kind == Kind::none) {
    return {};
  }
  // The label: the matched components, after "~" when the home folder comes
  // just before them (or the components before them when they are few).
  const auto offset = [&](std::string_view part) { return static_cast<std::size_t>(part.data() - lowered.data()); };
  const std::size_t end = offset(parts[m.last]) + parts[m.last].size();
  std::size_t begin = offset(parts[m.first]);
  std::string label;
  const std::size_t home = lowered.rfind('~', begin);
  if (home != std::string::npos && begin - home <= 2) {
    label = "~/";
  } else if (m.first > 0 && begin <= 40 && lowered.find("://") == std::string::npos) {
    begin = 0;
  }
  label.append(path.substr(begin, end - begin));
  if (label.size() > 80) {
    label = label.substr(0, 77) + "...";
  }
  return {m.kind, std::move(label)};
}

bool is_secret_env_name(std::string_view name) {
  if (name.empty() || name.size() > 80) {
    return false;
  }
  std::string upper(name);
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; });
  std::vector<std::string_view> words;
  std::size_t pos = 0;
  const std::string_view u(upper);
  while (pos <= u.size()) {
    std::size_t sep = u.find_first_of("_-.", pos);
    if (sep == std::string_view::npos) {
      sep = u.size();
    }
    if (sep > pos) {
      words.push_back(u.substr(pos, sep - pos));
    }
    pos = sep + 1;
  }
  bool secret = false;
  bool strong = false;
  for (const std::string_view w : words) {
    if (is_one_of(w, {"TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "APIKEY", "PAT", "CREDENTIALS",
                      "CREDENTIAL", "PWD", "COOKIE", "SECRETS", "TOKENS"})) {
      secret = true;
      strong = true;
    } else if (is_one_of(w, {"KEY", "PASS", "AUTH"})) {
      secret = true;
    }
  }
  if (u.find("APIKEY") != std::string_view::npos || u.find("API_KEY") != std::string_view::npos ||
      u.find("PRIVATE_KEY") != std::string_view::npos || u.find("ACCESS_KEY") != std::string_view::npos) {
    secret = true;
  }
  if (!secret) {
    return false;
  }
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string_view w = words[i];
    if (is_one_of(w, {"URL",    "URI",      "ENDPOINT", "HOST",     "HOSTNAME", "PATH",    "FILE",
                      "DIR",    "NAME",     "REGION",   "MODEL",    "PORT",     "TYPE",    "LENGTH",
                      "EXPIRY", "EXPIRES",  "TTL",      "HEADER",   "PREFIX",   "VERSION", "MODE",
                      "METHOD", "PROVIDER", "ENABLED",  "DISABLED", "SCOPE",    "SCOPES",  "FORMAT"})) {
      return false;
    }
    if (w == "ID" && i + 1 == words.size()) {
      return false;
    }
    if (w == "WEBHOOK" && !strong) {
      return false;
    }
  }
  return true;
}

bool is_credential_key(std::string_view key) {
  const std::string k = ascii_lower_copy(key);
  for (const std::string_view word : {"key", "token", "secret", "auth", "password", "passwd", "pwd", "credential",
                                      "bearer", "signature", "cookie", "pass"}) {
    if (k.find(word) != std::string::npos) {
      return true;
    }
  }
  return false;
}

bool credential_context_before(std::string_view text) {
  if (text.size() > 48) {
    text = text.substr(text.size() - 48);
  }
  const std::string t = ascii_lower_copy(text);
  for (const std::string_view word :
       {"authorization", "bearer", "token",    "api_key", "apikey", "api-key", "key=",   "key:",  "secret", "password",
        "passwd",        "-h ",    "--header", "-u ",     "--user", "auth",    "basic ", "key\"", "key'",   "pass="}) {
    if (t.find(word) != std::string::npos) {
      return true;
    }
  }
  return false;
}

} // namespace skillrt::core::flow
