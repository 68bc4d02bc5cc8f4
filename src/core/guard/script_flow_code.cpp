// The flow pass over Python and JavaScript/TypeScript (script_flow_model.hpp):
// statements from script_flow_lex.cpp, names without scopes, one value per
// name (the path it holds, the secret it carries). The first pass over the
// text also learns what each function returns and what its callers hand its
// parameters; when it learned any, a second pass starts from that and reports.
//
// Sources: a read (open, read_text, readFileSync, `cat` run as a command) of
// a path that names a credentials or memory file, however the path was built;
// a secret-named environment variable; the whole environment.
// Sinks: an HTTP request's body or URL, a socket send, a mail, a command that
// runs curl, wget or nc. A secret-named variable counts only in a body, and
// not where it is the credential of the call itself (under a key such as
// api_key or Authorization, after "Bearer "), nor when the request goes to a
// token endpoint or to the vendor the variable is named after.
#include <algorithm>
#include <initializer_list>
#include <map>
#include <optional>
#include <utility>

#include "core/guard/script_flow_lex.hpp"
#include "core/guard/script_flow_model.hpp"

namespace skillrt::core::flow {
namespace {

constexpr std::size_t k_max_sinks_per_statement = 16;
constexpr std::size_t k_max_readers_per_statement = 16;
constexpr std::size_t k_max_calls_per_statement = 32;
constexpr std::size_t k_max_functions = 256;
constexpr std::size_t k_max_params = 16;
constexpr std::size_t k_max_key_depth = 8;

bool is_one_of(std::string_view s, std::initializer_list<std::string_view> items) {
  return std::find(items.begin(), items.end(), s) != items.end();
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// "requests.post" → "post"; "open" → "open"; ".read" → "read".
std::string_view last_component(std::string_view chain) {
  const std::size_t dot = chain.rfind('.');
  return dot == std::string_view::npos ? chain : chain.substr(dot + 1);
}

// "sock.sendall" → "sock"; "open" → "".
std::string_view receiver_of(std::string_view chain) {
  const std::size_t dot = chain.rfind('.');
  return dot == std::string_view::npos ? std::string_view() : chain.substr(0, dot);
}

bool critical(Kind kind) {
  return kind == Kind::secret_file || kind == Kind::agent_memory || kind == Kind::env_dump;
}

// A value that is a whole mapping of secrets, indexed by name: the environment
// or a .env file read whole.
bool dump_like(const Taint& t) {
  if (t.kind == Kind::env_dump) {
    return true;
  }
  if (t.kind != Kind::secret_file) {
    return false;
  }
  const std::size_t slash = t.label.rfind('/');
  const std::string_view base =
      slash == std::string::npos ? std::string_view(t.label) : std::string_view(t.label).substr(slash + 1);
  return base == ".env" || starts_with(base, ".env.");
}

// Keys whose value is never sent: process options.
bool is_process_option_key(std::string_view key) {
  return is_one_of(key, {"env",
                         "environ",
                         "cwd",
                         "stdio",
                         "stdout",
                         "stderr",
                         "shell",
                         "timeout",
                         "encoding",
                         "capture_output",
                         "text",
                         "check",
                         "universal_newlines",
                         "executable",
                         "preexec_fn",
                         "close_fds",
                         "start_new_session",
                         "signal",
                         "verify",
                         "cert",
                         "proxies",
                         "allow_redirects",
                         "stream",
                         "hooks",
                         "method",
                         "mode",
                         "credentials",
                         "cache",
                         "redirect",
                         "agent",
                         "maxRedirects",
                         "responseType",
                         "windowsHide",
                         "detached",
                         "uid",
                         "gid"});
}

// Keys under which a value authenticates the request itself.
bool is_auth_key(std::string_view key) {
  const std::string k = ascii_lower_copy(key);
  return is_one_of(k, {"auth", "authorization", "proxy-authorization", "cookie", "cookies", "x-api-key", "api-key",
                       "apikey", "api_key", "x-auth-token", "private-token", "x-goog-api-key"});
}

// Network programs whose arguments leave the machine.
bool is_network_program(std::string_view word) {
  return is_one_of(word, {"curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "Invoke-WebRequest",
                          "Invoke-RestMethod", "iwr", "irm", "http", "https", "xh", "dig", "nslookup", "drill"});
}

// Programs that print a file (a command string naming a credentials file with one of these reads it).
bool is_file_reading_program(std::string_view word) {
  return is_one_of(word, {"cat",     "head",  "tail", "base64", "xxd",  "od",          "strings", "tar",     "zip",
                          "gzip",    "bzip2", "xz",   "7z",     "less", "more",        "type",    "sqlite3", "gpg",
                          "openssl", "tac",   "nl",   "cp",     "jq",   "Get-Content", "gc"});
}

// The words of a command string: split at blanks, quotes, |, ;, & and parentheses.
template <typename F> void for_each_word(std::string_view text, F&& f) {
  std::size_t i = 0;
  const std::string_view seps = " \t\r\n\"'|;&()`<>";
  while (i < text.size()) {
    while (i < text.size() && seps.find(text[i]) != std::string_view::npos) {
      ++i;
    }
    std::size_t j = i;
    while (j < text.size() && seps.find(text[j]) == std::string_view::npos) {
      ++j;
    }
    if (j > i && !f(text.substr(i, j - i))) {
      return;
    }
    i = j;
  }
}

// The first word of a command string, after `sudo` and the like.
std::string_view first_command_word(std::string_view text) {
  std::string_view out;
  for_each_word(text, [&](std::string_view w) {
    if (is_one_of(w, {"sudo", "exec", "command", "nohup", "env", "time", "bash", "sh", "-c"}) && out.empty()) {
      return true;
    }
    const std::size_t slash = w.rfind('/');
    out = slash == std::string_view::npos ? w : w.substr(slash + 1);
    return false;
  });
  return out;
}

bool mentions_network_program(std::string_view text) {
  bool found = false;
  for_each_word(text, [&](std::string_view w) {
    const std::size_t slash = w.rfind('/');
    const std::string_view base = slash == std::string_view::npos ? w : w.substr(slash + 1);
    if (is_network_program(base) && base != "http" && base != "https") {
      found = true;
      return false;
    }
    return true;
  });
  return found;
}

// A command string that prints the whole environment.
bool is_env_dump_command(std::string_view text) {
  std::size_t b = 0;
  while (b < text.size() && (text[b] == ' ' || text[b] == '\t')) {
    ++b;
  }
  text = text.substr(b);
  for (const std::string_view cmd : {"env", "printenv", "export -p", "set", "declare -x"}) {
    if (starts_with(text, cmd)) {
      const std::string_view rest = text.substr(cmd.size());
      if (rest.empty() || rest.front() == ' ' || rest.front() == '|' || rest.front() == '>' || rest.front() == ';') {
        // `env FOO=bar cmd` runs a command; `env` alone or piped prints everything.
        std::size_t k = 0;
        while (k < rest.size() && rest[k] == ' ') {
          ++k;
        }
        return k >= rest.size() || rest[k] == '|' || rest[k] == '>' || rest[k] == ';';
      }
    }
  }
  return false;
}

// Builds a path from an expression's pieces: pieces joined by `+` or within
// one f-string or template literal are concatenated; other pieces (join()'s
// arguments, pathlib's `/`) are separate components.
class PathBuilder {
public:
  explicit PathBuilder(std::string& path) : m_path(path) {}
  void token(const Token& t) {
    if (t.glue) {
      m_glue = true;
    }
    if (t.type == TokType::punct) {
      if (t.text == "+") {
        m_glue = true;
      } else if (t.text != "(" && t.text != ")") {
        m_glue = false;
      }
    }
  }
  void piece(std::string_view text) {
    if (m_glue) {
      append_raw(m_path, text);
    } else {
      append_path(m_path, text);
    }
    m_glue = false;
  }

private:
  std::string& m_path;
  bool m_glue = false;
};

struct Function {
  std::vector<std::string> params;
  bool method = false;           // first parameter is self/cls
  std::vector<Taint> arg_taints; // merged over its call sites
};

enum class SinkKind : unsigned char {
  http_method,  // x.post(url, data, …)
  request,      // conn.request(method, url, body, headers) / requests.request(…) / axios({…})
  url_open,     // urlopen(url, data)
  request_ctor, // urllib.request.Request(url, data, headers)
  fetch,        // fetch(url, {body})
  beacon,       // navigator.sendBeacon(url, data)
  send,         // socket.send(data), req.write(data)
  command,      // subprocess / child_process running curl, wget, nc …
};

enum class Role : unsigned char { excluded, url, body };

struct Arg {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string_view key; // keyword argument or object property; "" when positional
  std::size_t position = 0;
};

// The evaluation of an expression.
struct Eval {
  Taint taint;
  std::string path;
  std::size_t path_line = 0;
  std::string path_label; // what the path named at path_line
  bool constant = true;   // literals only
  bool read = false;      // reads a file (the result is content, not a path)
  bool net = false;       // creates a network connection or request object
};

class Analyser {
public:
  Analyser(CodeLanguage language, Names& names, std::map<std::string, Function>& functions, std::vector<Flow>* out)
      : m_lang(language), m_names(names), m_functions(functions), m_out(out) {}

  void statement(const Statement& s);

private:
  bool js() const { return m_lang == CodeLanguage::javascript; }
  // Token i, or an empty token past the end (never out of range).
  const Token& tok(std::size_t i) const {
    static const Token k_none{};
    return i < m_t->size() ? (*m_t)[i] : k_none;
  }
  bool is_punct(std::size_t i, std::string_view p) const {
    return i < m_t->size() && tok(i).type == TokType::punct && tok(i).text == p;
  }
  void match_brackets();
  std::vector<std::pair<std::size_t, std::size_t>> comma_pieces(std::size_t begin, std::size_t end) const;
  std::vector<Arg> split_args(std::size_t begin, std::size_t end) const;
  std::vector<Arg> object_props(std::size_t begin, std::size_t end) const;

  // `root_key`: the keyword argument or property the region is the value of.
  Eval evaluate(std::size_t begin, std::size_t end, std::string_view root_key = {});
  void path_of(std::size_t begin, std::size_t end, std::string& path, std::size_t& line, std::string& label);
  bool env_access(std::size_t& i, std::size_t end, Taint& atom, bool& home);
  void reader_taint(std::size_t i, std::size_t end, Taint& atom);
  bool exec_callee(std::string_view chain) const;
  std::string region_text(std::size_t begin, std::size_t end) const;

  void find_sinks();
  void check_sink(std::size_t name_at, SinkKind kind);
  void assignments();
  void assign(std::string_view name, const Eval& e, bool merge_only, bool destructured);
  void definitions();
  void calls();

  CodeLanguage m_lang;
  Names& m_names;
  std::map<std::string, Function>& m_functions;
  std::vector<Flow>* m_out;
  const std::vector<Token>* m_t = nullptr;
  const Statement* m_s = nullptr;
  std::vector<std::size_t> m_match;
  std::vector<std::string> m_net; // names holding a connection or request object
  struct Scope {
    std::string name;
    std::size_t indent;
    std::size_t depth;
  };
  std::vector<Scope> m_scopes; // enclosing function definitions
  std::size_t m_readers = 0;
  bool m_command_region = false; // evaluating the arguments of a command sink
};

void Analyser::match_brackets() {
  const std::size_t n = m_t->size();
  m_match.assign(n, n);
  std::vector<std::size_t> stack;
  for (std::size_t i = 0; i < n; ++i) {
    if (tok(i).type != TokType::punct) {
      continue;
    }
    const std::string_view p = tok(i).text;
    if (p == "(" || p == "[" || p == "{") {
      stack.push_back(i);
    } else if (p == ")" || p == "]" || p == "}") {
      if (!stack.empty()) {
        m_match[stack.back()] = i;
        m_match[i] = stack.back();
        stack.pop_back();
      }
    }
  }
}

std::vector<std::pair<std::size_t, std::size_t>> Analyser::comma_pieces(std::size_t begin, std::size_t end) const {
  // The top-level pieces of [begin, end) between commas; brackets are skipped whole.
  std::vector<std::pair<std::size_t, std::size_t>> pieces;
  std::size_t start = begin;
  for (std::size_t i = begin; i < end; ++i) {
    const Token& t = tok(i);
    if (t.type == TokType::punct && (t.text == "(" || t.text == "[" || t.text == "{") && m_match[i] < end) {
      i = m_match[i];
      continue;
    }
    if (t.type == TokType::punct && t.text == ",") {
      if (i > start) {
        pieces.emplace_back(start, i);
      }
      start = i + 1;
    }
  }
  if (end > start) {
    pieces.emplace_back(start, end);
  }
  return pieces;
}

std::vector<Arg> Analyser::split_args(std::size_t begin, std::size_t end) const {
  std::vector<Arg> args;
  std::size_t position = 0;
  for (const auto& [start, stop] : comma_pieces(begin, end)) {
    Arg a;
    a.begin = start;
    a.end = stop;
    if (stop - start >= 2 && tok(start).type == TokType::name && is_punct(start + 1, "=") && !js()) {
      a.key = tok(start).text;
      a.begin = start + 2;
    } else {
      a.position = position++;
    }
    args.push_back(a);
  }
  return args;
}

std::vector<Arg> Analyser::object_props(std::size_t begin, std::size_t end) const {
  // begin is "{", end is one past its "}".
  std::vector<Arg> props;
  for (const auto& [start, stop] : comma_pieces(begin + 1, end - 1)) {
    Arg a;
    a.begin = start;
    a.end = stop;
    if (stop - start >= 2 && (tok(start).type == TokType::name || tok(start).type == TokType::string) &&
        is_punct(start + 1, ":")) {
      a.key = tok(start).text;
      a.begin = start + 2;
    } else if (stop - start == 1 && tok(start).type == TokType::name) {
      a.key = tok(start).text; // shorthand {body}
    }
    props.push_back(a);
  }
  return props;
}

std::string Analyser::region_text(std::size_t begin, std::size_t end) const {
  std::string text;
  for (std::size_t i = begin; i < end && text.size() < 512; ++i) {
    if (tok(i).type == TokType::string || tok(i).type == TokType::name) {
      text.append(tok(i).text.substr(0, 256));
      text += ' ';
    }
  }
  return ascii_lower_copy(text);
}

bool Analyser::exec_callee(std::string_view chain) const {
  const std::string_view last = last_component(chain);
  if (js()) {
    return is_one_of(last, {"exec", "execSync", "spawn", "spawnSync", "execFile", "execFileSync", "execa", "execaSync",
                            "execCommand"});
  }
  if (starts_with(chain, "subprocess.") || starts_with(chain, "asyncio.create_subprocess")) {
    return true;
  }
  return is_one_of(chain, {"os.system", "os.popen", "check_output", "check_call", "Popen", "getoutput",
                           "getstatusoutput", "commands.getoutput", "pty.spawn", "os.execv", "os.execvp", "os.execl",
                           "os.execlp", "os.spawnv", "os.spawnl", "os.spawnlp", "os.spawnvp"});
}

// An environment read at token i (a name); advances i past what it consumed.
// Sets `atom` for a secret variable or the whole environment, `home` for HOME.
bool Analyser::env_access(std::size_t& i, std::size_t end, Taint& atom, bool& home) {
  const Token& t = tok(i);
  const std::string_view chain = t.text;
  std::string_view key;
  bool literal_key = false;
  bool whole = false;
  bool any = false;
  const auto subscript = [&](std::size_t at) {
    // [ "NAME" ] or [ expr ]
    if (is_punct(at, "[")) {
      any = true;
      if (at + 2 < end && tok(at + 1).type == TokType::string && is_punct(at + 2, "]")) {
        key = tok(at + 1).text;
        literal_key = true;
        i = at + 2;
      } else {
        whole = true;
        i = m_match[at] < end ? m_match[at] : i;
      }
      return true;
    }
    return false;
  };
  const auto call_arg = [&](std::size_t at) {
    if (is_punct(at, "(")) {
      any = true;
      if (at + 1 < end && tok(at + 1).type == TokType::string) {
        key = tok(at + 1).text;
        literal_key = true;
      } else {
        whole = true;
      }
      i = m_match[at] < end ? m_match[at] : i;
      return true;
    }
    return false;
  };
  if (!js()) {
    if (chain == "os.environ" || chain == "environ") {
      if (!subscript(i + 1)) {
        const bool membership = i > 0 && tok(i - 1).type == TokType::name && tok(i - 1).text == "in";
        if (membership) {
          return true;
        }
        whole = true;
        any = true;
      }
    } else if (is_one_of(chain, {"os.environ.copy", "os.environ.items", "os.environ.values", "environ.copy",
                                 "environ.items", "environ.values", "os.environb"})) {
      whole = true;
      any = true;
    } else if (is_one_of(chain, {"os.environ.get", "environ.get", "os.getenv", "getenv", "os.environ.setdefault",
                                 "os.environ.pop", "os.getenvb"})) {
      call_arg(i + 1);
    } else if (chain == "os.environ.keys" || chain == "environ.keys") {
      return true;
    }
  } else {
    if (starts_with(chain, "process.env.") || starts_with(chain, "Bun.env.") ||
        starts_with(chain, "import.meta.env.")) {
      const std::string_view rest = chain.substr(chain.find(".env.") + 5);
      key = rest.substr(0, rest.find('.'));
      literal_key = true;
      any = true;
    } else if (chain == "process.env" || chain == "Bun.env") {
      if (!subscript(i + 1)) {
        const bool keys_only =
            i >= 2 && is_punct(i - 1, "(") && tok(i - 2).type == TokType::name && tok(i - 2).text == "Object.keys";
        const bool membership = i > 0 && tok(i - 1).type == TokType::name && tok(i - 1).text == "in";
        if (keys_only || membership) {
          return true;
        }
        whole = true;
        any = true;
      }
    } else if (chain == "Deno.env.get") {
      call_arg(i + 1);
    } else if (chain == "Deno.env.toObject") {
      whole = true;
      any = true;
    }
  }
  if (!any) {
    return false;
  }
  if (literal_key) {
    if (key == "HOME" || key == "USERPROFILE") {
      home = true;
    } else if (is_secret_env_name(key)) {
      atom = Taint{Kind::env_secret, t.line, std::string(key)};
    }
  } else if (whole) {
    atom = Taint{Kind::env_dump, t.line, "the environment"};
  }
  return true;
}

// The path a region names: its string literals, home-folder calls and the
// paths of the names it uses, joined in order.
void Analyser::path_of(std::size_t begin, std::size_t end, std::string& path, std::size_t& line, std::string& label) {
  PathBuilder builder(path);
  for (std::size_t i = begin; i < end; ++i) {
    const Token& t = tok(i);
    builder.token(t);
    if (t.type == TokType::string) {
      builder.piece(t.text);
      continue;
    }
    if (t.type != TokType::name) {
      continue;
    }
    const std::string_view chain = t.text;
    if (is_one_of(chain, {"Path.home", "pathlib.Path.home", "os.homedir", "homedir", "os.userInfo"}) ||
        ends_with(chain, ".homedir")) {
      builder.piece("~");
      continue;
    }
    Taint atom;
    bool home = false;
    std::size_t j = i;
    if (env_access(j, end, atom, home)) {
      if (home) {
        builder.piece("~");
      }
      i = j;
      continue;
    }
    if (chain.front() == '.') {
      continue;
    }
    for (std::string_view prefix = chain; !prefix.empty(); prefix = receiver_of(prefix)) {
      if (const Value* v = m_names.find(prefix)) {
        if (!v->path.empty()) {
          builder.piece(v->path);
          if (v->path_line != 0 && line == 0) {
            line = v->path_line;
            label = v->path_label;
          }
        }
        break;
      }
    }
  }
}

// The taint of a file read at token i (a reader name): the path of its
// receiver and first argument.
void Analyser::reader_taint(std::size_t i, std::size_t end, Taint& atom) {
  if (++m_readers > k_max_readers_per_statement) {
    return;
  }
  const std::string_view chain = tok(i).text;
  std::string path;
  std::size_t line = 0;
  std::string label;
  const std::string_view receiver = receiver_of(chain);
  if (chain.front() == '.' && i > 0 && is_punct(i - 1, ")") && m_match[i - 1] < i - 1) {
    const std::size_t open = m_match[i - 1];
    path_of(open + 1, i - 1, path, line, label);
  } else if (!receiver.empty() && chain.front() != '.') {
    for (std::string_view prefix = receiver; !prefix.empty(); prefix = receiver_of(prefix)) {
      if (const Value* v = m_names.find(prefix)) {
        append_path(path, v->path);
        line = v->path_line;
        label = v->path_label;
        break;
      }
    }
  }
  if (is_punct(i + 1, "(")) {
    const std::size_t close = std::min(m_match[i + 1], end);
    const std::vector<Arg> args = split_args(i + 2, close);
    if (!args.empty() && args.front().key.empty()) {
      path_of(args.front().begin, args.front().end, path, line, label);
    }
  }
  const PathClass c = classify_path(path);
  if (c.kind != Kind::none) {
    atom = Taint{c.kind, path_source_line(c, line, label, tok(i).line), c.label};
  } else if (!path.empty()) {
    // A copy of a credentials file this script made (shutil.copy(src, "/tmp/x")).
    if (const Value* v = m_names.find("file:" + path)) {
      atom = v->taint;
    }
  }
}

bool is_reader(CodeLanguage lang, std::string_view chain) {
  const std::string_view last = last_component(chain);
  if (lang == CodeLanguage::python) {
    return is_one_of(chain, {"open", "io.open", "codecs.open", "builtins.open", "sqlite3.connect", "dotenv_values",
                             "dotenv.dotenv_values", "aiofiles.open", "configparser.ConfigParser.read"}) ||
           is_one_of(last, {"read_text", "read_bytes"}) ||
           (last == "open" && chain.find('.') != std::string_view::npos &&
            !is_one_of(chain, {"webbrowser.open", "tarfile.open", "zipfile.open"}));
  }
  return is_one_of(last, {"readFileSync", "readFile", "createReadStream", "readTextFile", "readTextFileSync"}) ||
         chain == "Bun.file";
}

bool creates_network_object(CodeLanguage lang, std::string_view chain) {
  if (lang == CodeLanguage::python) {
    return is_one_of(chain, {"socket.socket", "socket.create_connection", "ssl.wrap_socket",
                             "websocket.create_connection", "http.client.HTTPConnection", "http.client.HTTPSConnection",
                             "HTTPSConnection", "HTTPConnection", "smtplib.SMTP", "smtplib.SMTP_SSL", "ftplib.FTP",
                             "ftplib.FTP_TLS", "telnetlib.Telnet", "create_connection"}) ||
           ends_with(chain, ".wrap_socket");
  }
  return is_one_of(chain,
                   {"http.request", "https.request", "net.connect", "net.createConnection", "tls.connect", "net.Socket",
                    "WebSocket", "dgram.createSocket", "XMLHttpRequest", "http2.connect", "http.get", "https.get"});
}

Eval Analyser::evaluate(std::size_t begin, std::size_t end, std::string_view root_key) {
  Eval e;
  struct Level {
    std::string_view key;
    std::string_view last_string;
    char open;
    bool option; // the key names a keyword argument or a command's option (env=, cwd=)
  };
  std::vector<Level> levels;
  levels.push_back(Level{root_key, {}, 0, m_command_region});
  std::size_t calls = 0;

  // Whether an atom at the current position is the credential of the request
  // (dropped for a secret variable) or a process option (dropped for all).
  const auto drop = [&](const Taint& atom) {
    const std::size_t from = levels.size() > k_max_key_depth ? levels.size() - k_max_key_depth : 0;
    for (std::size_t k = from; k < levels.size(); ++k) {
      const std::string_view key = levels[k].key;
      if (key.empty()) {
        continue;
      }
      if (levels[k].option && is_process_option_key(key)) {
        return true;
      }
      if (is_auth_key(key)) {
        return true;
      }
      if (atom.kind == Kind::env_secret &&
          (is_credential_key(key) || key == "headers" || key == "header" || key == "params")) {
        return true;
      }
    }
    if (atom.kind == Kind::env_secret) {
      for (std::size_t k = levels.size() >= 2 ? levels.size() - 2 : 0; k < levels.size(); ++k) {
        if (credential_context_before(levels[k].last_string)) {
          return true;
        }
      }
    }
    return false;
  };
  const auto take = [&](const Taint& atom) {
    if (atom.kind != Kind::none && !drop(atom)) {
      merge(e.taint, atom);
    }
  };

  PathBuilder builder(e.path);
  for (std::size_t i = begin; i < end; ++i) {
    const Token& t = tok(i);
    builder.token(t);
    if (t.type == TokType::punct) {
      const std::string_view p = t.text;
      if (p == "(" || p == "[" || p == "{") {
        levels.push_back(Level{{}, {}, p.front(), m_command_region});
      } else if ((p == ")" || p == "]" || p == "}") && levels.size() > 1) {
        levels.pop_back();
      } else if (p == ",") {
        levels.back().key = {};
        levels.back().last_string = {};
        levels.back().option = m_command_region;
      }
      continue;
    }
    if (t.type == TokType::string) {
      if (is_punct(i + 1, ":") && levels.back().open == '{') {
        levels.back().key = t.text; // a dict or object key
        ++i;
        continue;
      }
      levels.back().last_string = t.text;
      builder.piece(t.text);
      continue;
    }
    if (t.type != TokType::name) {
      continue;
    }
    const std::string_view chain = t.text;
    // Keys: `{token: x}` in JavaScript, `f(api_key=x)` in Python.
    if (js() && is_punct(i + 1, ":") && levels.back().open == '{') {
      levels.back().key = chain;
      ++i;
      continue;
    }
    if (!js() && is_punct(i + 1, "=") && levels.back().open == '(') {
      levels.back().key = chain;
      levels.back().option = true;
      ++i;
      continue;
    }
    if (js() && levels.back().open == '{' && (is_punct(i + 1, ",") || is_punct(i + 1, "}"))) {
      levels.back().key = chain; // shorthand property
    }
    if (is_one_of(chain, {"None", "True",  "False",  "null",   "undefined", "true", "false", "in",  "not", "and", "or",
                          "new",  "await", "return", "typeof", "lambda",    "if",   "else",  "for", "of",  "is"})) {
      continue;
    }
    e.constant = false;
    if (is_one_of(chain, {"Path.home", "pathlib.Path.home", "os.homedir", "homedir"}) || ends_with(chain, ".homedir")) {
      builder.piece("~");
      continue;
    }
    if (creates_network_object(m_lang, chain)) {
      e.net = true;
    }
    {
      Taint atom;
      bool home = false;
      std::size_t j = i;
      if (env_access(j, end, atom, home)) {
        if (home) {
          builder.piece("~");
        }
        take(atom);
        i = j;
        continue;
      }
    }
    const bool call = is_punct(i + 1, "(");
    if (is_reader(m_lang, chain)) {
      Taint atom;
      reader_taint(i, end, atom);
      e.read = true;
      take(atom);
    }
    if (call && exec_callee(chain) && calls < k_max_calls_per_statement) {
      ++calls;
      const std::size_t close = std::min(m_match[i + 1], end);
      bool reads = false;
      bool dumps = false;
      for (std::size_t k = i + 2; k < close; ++k) {
        if (tok(k).type == TokType::string) {
          reads = reads || is_file_reading_program(first_command_word(tok(k).text));
          dumps = dumps || is_env_dump_command(tok(k).text);
        }
      }
      if (reads) {
        std::string path;
        std::size_t line = 0;
        std::string label;
        path_of(i + 2, close, path, line, label);
        const PathClass c = classify_path(path);
        if (c.kind != Kind::none) {
          take(Taint{c.kind, path_source_line(c, line, label, t.line), c.label});
        }
      }
      if (dumps) {
        take(Taint{Kind::env_dump, t.line, "the environment"});
      }
    }
    if (call && calls < k_max_calls_per_statement) {
      // What a function defined in this file returns.
      std::string key(last_component(chain));
      key += "()";
      if (const Value* v = m_names.find(key)) {
        take(v->taint);
      }
    }
    if (chain.front() == '.') {
      continue;
    }
    for (std::string_view prefix = chain; !prefix.empty(); prefix = receiver_of(prefix)) {
      const Value* v = m_names.find(prefix);
      if (v == nullptr) {
        continue;
      }
      if (!v->path.empty()) {
        builder.piece(v->path);
        if (v->path_line != 0 && e.path_line == 0) {
          e.path_line = v->path_line;
          e.path_label = v->path_label;
        }
      }
      Taint atom = v->taint;
      if (dump_like(atom)) {
        // One entry of the environment (or of a .env file) by name.
        std::string_view key;
        bool indexed = false;
        if (prefix.size() < chain.size()) {
          const std::string_view rest = chain.substr(prefix.size() + 1);
          key = rest.substr(0, rest.find('.'));
          indexed = true;
          if (is_one_of(key, {"get", "pop", "setdefault", "getenv"}) && is_punct(i + 1, "(") && i + 2 < end) {
            key = tok(i + 2).type == TokType::string ? tok(i + 2).text : std::string_view();
            indexed = tok(i + 2).type == TokType::string;
          } else if (is_one_of(key, {"items", "values", "copy", "keys", "toString", "entries"})) {
            indexed = false;
          }
        } else if (is_punct(i + 1, "[") && i + 3 < end && tok(i + 2).type == TokType::string && is_punct(i + 3, "]")) {
          key = tok(i + 2).text;
          indexed = true;
        }
        if (indexed) {
          atom = is_secret_env_name(key) ? Taint{Kind::env_secret, t.line, std::string(key)} : Taint{};
        }
      }
      take(atom);
      break;
    }
  }
  if (!e.path.empty()) {
    const PathClass c = classify_path(e.path);
    if (c.kind != Kind::none) {
      e.path_line = path_source_line(c, e.path_line, e.path_label, begin < end ? tok(begin).line : 0);
      e.path_label = c.label;
    } else {
      e.path_line = 0;
      e.path_label.clear();
    }
  }
  return e;
}

// The kind of sink a call at token i is, if any.
std::optional<SinkKind> sink_kind(CodeLanguage lang, std::string_view chain) {
  const std::string_view last = last_component(chain);
  const bool method = chain.find('.') != std::string_view::npos;
  if (lang == CodeLanguage::python) {
    if (method && is_one_of(last, {"post", "put", "patch"})) {
      return SinkKind::http_method;
    }
    if (last == "request" && method) {
      return SinkKind::request;
    }
    if (last == "urlopen") {
      return SinkKind::url_open;
    }
    if (last == "Request") {
      return SinkKind::request_ctor;
    }
    if (method && is_one_of(last, {"send", "sendall", "sendto", "sendmail", "send_message", "storbinary", "storlines",
                                   "send_bytes", "send_json", "send_str"})) {
      return SinkKind::send;
    }
    return std::nullopt;
  }
  if (chain == "fetch" || ends_with(chain, ".fetch") || chain == "nodeFetch" || chain == "fetchWithTimeout") {
    return SinkKind::fetch;
  }
  if (method && is_one_of(last, {"post", "put", "patch"})) {
    return SinkKind::http_method;
  }
  if (chain == "axios" || chain == "axios.request" || chain == "request" || chain == "got" || chain == "ky") {
    return SinkKind::request;
  }
  if (last == "sendBeacon") {
    return SinkKind::beacon;
  }
  if (method && last == "send") {
    return SinkKind::send;
  }
  return std::nullopt;
}

Role role_for(CodeLanguage lang, SinkKind kind, const Arg& a) {
  const std::string_view key = a.key;
  if (!key.empty()) {
    if (is_one_of(key, {"data", "json", "files", "content", "body", "form", "form_data", "payload", "msg", "message",
                        "input", "headers", "file", "attachments", "text"})) {
      return Role::body;
    }
    if (is_one_of(key, {"url", "params", "uri", "host", "path", "query", "searchParams"})) {
      return Role::url;
    }
    return Role::excluded;
  }
  switch (kind) {
  case SinkKind::url_open:
    if (a.position == 0 && a.end == a.begin + 1) {
      return Role::excluded; // urlopen(req): the Request was judged where it was built
    }
    return a.position == 0 ? Role::url : Role::body;
  case SinkKind::http_method:
  case SinkKind::request_ctor:
  case SinkKind::beacon:
    return a.position == 0 ? Role::url : Role::body;
  case SinkKind::request:
    if (lang == CodeLanguage::python) {
      return a.position <= 1 ? (a.position == 1 ? Role::url : Role::excluded) : Role::body;
    }
    return a.position == 0 ? Role::url : Role::body;
  case SinkKind::fetch:
    return a.position == 0 ? Role::url : Role::body;
  case SinkKind::send:
  case SinkKind::command:
    return Role::body;
  }
  return Role::excluded;
}

void Analyser::check_sink(std::size_t name_at, SinkKind kind) {
  const Token& callee = tok(name_at);
  const std::size_t open = name_at + 1;
  const std::size_t close = m_match[open]; // the statement's end when the call is not closed in it
  if (close <= open) {
    return;
  }
  std::vector<Arg> args = split_args(open + 1, std::min(close, m_t->size()));
  // An options object as an argument: its properties are the arguments.
  std::vector<Arg> expanded;
  for (const Arg& a : args) {
    const bool object = a.end > a.begin && is_punct(a.begin, "{") && m_match[a.begin] == a.end - 1;
    const bool options_object = kind == SinkKind::fetch || kind == SinkKind::request || kind == SinkKind::command;
    if (object && a.key.empty() && options_object && (js() || kind == SinkKind::command)) {
      for (Arg p : object_props(a.begin, a.end)) {
        if (p.key.empty()) {
          p.key = "body";
        }
        if (kind == SinkKind::command && !is_one_of(p.key, {"input"})) {
          continue; // process options
        }
        expanded.push_back(p);
      }
      continue;
    }
    expanded.push_back(a);
  }
  // The URL, for the rules on secret variables.
  std::string url_text;
  for (const Arg& a : expanded) {
    if (role_for(m_lang, kind, a) == Role::url) {
      url_text += region_text(a.begin, a.end);
    }
  }
  Taint found;
  for (const Arg& a : expanded) {
    const Role role = role_for(m_lang, kind, a);
    if (role == Role::excluded) {
      continue;
    }
    m_command_region = kind == SinkKind::command;
    Eval e = evaluate(a.begin, a.end, a.key);
    m_command_region = false;
    if (kind == SinkKind::command) {
      // A credentials file handed to curl, wget or nc as a path (`curl -T`, `-F f=@…`, `< file`).
      const PathClass c = classify_path(e.path);
      if (c.kind != Kind::none && !e.read) {
        std::string flat = region_text(a.begin, a.end);
        if (flat.find('@') != std::string::npos || flat.find("-t ") != std::string::npos ||
            flat.find("upload") != std::string::npos || flat.find('<') != std::string::npos ||
            flat.find("post-file") != std::string::npos) {
          merge(e.taint, Taint{c.kind, path_source_line(c, e.path_line, e.path_label, callee.line), c.label});
        }
      }
    }
    if (e.taint.kind == Kind::none) {
      continue;
    }
    if (role == Role::url && !critical(e.taint.kind)) {
      continue;
    }
    if (e.taint.kind == Kind::env_secret) {
      // A token endpoint, or the variable's own vendor: the secret is the call's credential.
      if (contains_word(url_text, "oauth") || contains_word(url_text, "token") || contains_word(url_text, "/auth") ||
          contains_word(url_text, "login")) {
        continue;
      }
      const std::string vendor = ascii_lower_copy(e.taint.label.substr(0, e.taint.label.find('_')));
      if (vendor.size() >= 3 && contains_word(url_text, vendor)) {
        continue;
      }
    }
    merge(found, e.taint);
  }
  if (found.kind != Kind::none && m_out != nullptr) {
    m_out->push_back(Flow{found, callee.line, kind == SinkKind::command});
  }
}

void Analyser::find_sinks() {
  std::size_t sinks = 0;
  bool request_in_statement = false;
  for (std::size_t i = 0; i < m_t->size(); ++i) {
    if (tok(i).type == TokType::name && creates_network_object(m_lang, tok(i).text)) {
      request_in_statement = true;
    }
  }
  for (std::size_t i = 0; i + 1 < m_t->size() && sinks < k_max_sinks_per_statement; ++i) {
    if (tok(i).type != TokType::name || !is_punct(i + 1, "(")) {
      continue;
    }
    const std::string_view chain = tok(i).text;
    std::optional<SinkKind> kind = sink_kind(m_lang, chain);
    if (!kind) {
      const std::string_view last = last_component(chain);
      const std::string_view receiver = receiver_of(chain);
      const bool net_receiver = !receiver.empty() && std::find(m_net.begin(), m_net.end(), receiver) != m_net.end();
      if (is_one_of(last, {"write", "end", "writelines", "sendall", "send"}) &&
          (net_receiver || (request_in_statement && chain.front() == '.'))) {
        kind = SinkKind::send;
      } else if (exec_callee(chain)) {
        const std::size_t close = std::min(m_match[i + 1], m_t->size());
        for (std::size_t k = i + 2; k < close; ++k) {
          if (tok(k).type == TokType::string && mentions_network_program(tok(k).text)) {
            kind = SinkKind::command;
            break;
          }
        }
      }
    }
    if (kind) {
      ++sinks;
      check_sink(i, *kind);
    }
  }
}

void Analyser::assign(std::string_view name, const Eval& e, bool merge_only, bool destructured) {
  if (name.empty() || name.front() == '.') {
    return;
  }
  Value* v = m_names.slot(name);
  if (v == nullptr) {
    return;
  }
  Taint taint = e.taint;
  if (destructured && dump_like(taint)) {
    // const { GITHUB_TOKEN } = process.env
    const std::string_view key = last_component(name);
    taint = is_secret_env_name(key) ? Taint{Kind::env_secret, taint.line, std::string(key)} : Taint{};
  }
  if (merge_only || (e.constant && v->taint.kind != Kind::none)) {
    merge(v->taint, taint);
    return;
  }
  v->taint = taint;
  v->path = e.read ? std::string() : e.path;
  v->path_line = e.read ? 0 : e.path_line;
  v->path_label = e.read ? std::string() : e.path_label;
  if (e.net) {
    if (std::find(m_net.begin(), m_net.end(), name) == m_net.end() && m_net.size() < 64) {
      m_net.emplace_back(name);
    }
  }
}

void Analyser::assignments() {
  const std::size_t n = m_t->size();
  std::size_t start = 0;
  // Leading keywords.
  while (start < n && tok(start).type == TokType::name &&
         is_one_of(tok(start).text, {"export", "const", "let", "var", "async", "static", "public", "private",
                                     "protected", "readonly", "declare"})) {
    ++start;
  }
  if (start >= n) {
    return;
  }
  const std::string_view first = tok(start).type == TokType::name ? tok(start).text : std::string_view();

  // `with A as x, B as y` (Python).
  if (!js() && first == "with") {
    std::size_t item = start + 1;
    for (std::size_t i = start + 1; i <= n; ++i) {
      const bool at_end = i == n;
      if (!at_end && tok(i).type == TokType::punct &&
          (tok(i).text == "(" || tok(i).text == "[" || tok(i).text == "{") && m_match[i] < n &&
          !(i == start + 1 && m_match[i] == n - 1)) {
        i = m_match[i];
        continue;
      }
      if (at_end || is_punct(i, ",")) {
        for (std::size_t k = item; k + 1 < i; ++k) {
          if (tok(k).type == TokType::name && tok(k).text == "as" && tok(k + 1).type == TokType::name) {
            const Eval e = evaluate(item, k);
            assign(tok(k + 1).text, e, false, false);
          }
        }
        item = i + 1;
      }
    }
    return;
  }
  // `for x, y in expr` (Python), `for (const [k, v] of expr)` (JavaScript).
  if (first == "for") {
    std::size_t b = start + 1;
    std::size_t e = n;
    if (js() && is_punct(b, "(")) {
      e = std::min(m_match[b], n);
      ++b;
    }
    for (std::size_t i = b; i < e; ++i) {
      if (tok(i).type == TokType::name && (tok(i).text == "in" || tok(i).text == "of")) {
        const Eval value = evaluate(i + 1, e);
        for (std::size_t k = b; k < i; ++k) {
          if (tok(k).type == TokType::name && !is_one_of(tok(k).text, {"const", "let", "var"})) {
            assign(tok(k).text, value, false, false);
          }
        }
        break;
      }
    }
    return;
  }
  if (first == "return" || first == "yield") {
    if (!m_scopes.empty()) {
      const Eval value = evaluate(start + 1, n);
      if (value.taint.kind != Kind::none) {
        if (Value* v = m_names.slot(m_scopes.back().name + "()")) {
          merge(v->taint, value.taint);
        }
      }
    }
    return;
  }
  // Assignments: the segments around top-level "=".
  std::vector<std::size_t> equals;
  bool augmented = false;
  for (std::size_t i = start; i < n; ++i) {
    const Token& t = tok(i);
    if (t.type == TokType::punct && (t.text == "(" || t.text == "[" || t.text == "{") && m_match[i] < n) {
      i = m_match[i];
      continue;
    }
    if (t.type != TokType::punct) {
      continue;
    }
    if (t.text == "=" || t.text == ":=") {
      equals.push_back(i);
    } else if (is_one_of(t.text, {"+=", "|=", "?\?=", "||=", "&&=", "-="})) {
      equals.push_back(i);
      augmented = true;
      break;
    } else if (t.text == "=>") {
      break; // an arrow function's body is not this statement's value
    }
  }
  if (!equals.empty()) {
    const Eval value = evaluate(equals.back() + 1, n);
    std::size_t seg = start;
    for (const std::size_t eq : equals) {
      // The targets of [seg, eq).
      if (seg < eq && tok(seg).type == TokType::punct &&
          (tok(seg).text == "[" || tok(seg).text == "{" || tok(seg).text == "(")) {
        for (std::size_t k = seg; k < eq; ++k) {
          if (tok(k).type == TokType::name && !is_punct(k + 1, ":")) {
            assign(tok(k).text, value, augmented, true);
          }
        }
      } else if (seg < eq && tok(seg).type == TokType::name) {
        if (is_punct(seg + 1, "[")) {
          assign(tok(seg).text, value, true, false); // d["k"] = v: d now holds v too
        } else if (is_punct(seg + 1, ",")) {
          for (std::size_t k = seg; k < eq; ++k) {
            if (tok(k).type == TokType::name) {
              assign(tok(k).text, value, augmented, false);
            }
          }
        } else {
          assign(tok(seg).text, value, augmented, false);
        }
      }
      seg = eq + 1;
    }
    if (augmented) {
      return;
    }
  }
  // Mutating calls: x.append(v), x.update(v), x.push(v), Object.assign(x, v).
  std::size_t calls = 0;
  for (std::size_t i = start; i + 1 < n && calls < k_max_calls_per_statement; ++i) {
    if (tok(i).type != TokType::name || !is_punct(i + 1, "(")) {
      continue;
    }
    const std::string_view chain = tok(i).text;
    const std::string_view last = last_component(chain);
    const std::size_t close = std::min(m_match[i + 1], n);
    if (is_one_of(chain, {"shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.copytree", "shutil.move",
                          "os.rename", "os.replace", "fs.copyFileSync", "fs.copyFile", "fs.promises.copyFile",
                          "fsp.copyFile", "copyFileSync", "copyFile", "fs.cpSync", "fs.renameSync"})) {
      // A copy of a credentials file: the copy's path now names it too.
      ++calls;
      const std::vector<Arg> args = split_args(i + 2, close);
      if (args.size() >= 2 && args[0].key.empty() && args[1].key.empty()) {
        std::string source_path;
        std::size_t line = 0;
        std::string label;
        path_of(args[0].begin, args[0].end, source_path, line, label);
        const PathClass c = classify_path(source_path);
        if (c.kind != Kind::none) {
          const Taint copied{c.kind, path_source_line(c, line, label, tok(i).line), c.label};
          std::string target;
          std::size_t target_line = 0;
          std::string target_label;
          path_of(args[1].begin, args[1].end, target, target_line, target_label);
          if (!target.empty()) {
            if (Value* v = m_names.slot("file:" + target)) {
              merge(v->taint, copied);
            }
          }
          if (args[1].end == args[1].begin + 1 && tok(args[1].begin).type == TokType::name) {
            if (Value* v = m_names.slot(tok(args[1].begin).text)) {
              v->path = source_path;
              v->path_line = copied.line;
              v->path_label = c.label;
            }
          }
        }
      }
      continue;
    }
    if (chain == "Object.assign") {
      ++calls;
      const std::vector<Arg> args = split_args(i + 2, close);
      if (args.size() >= 2 && args[0].end == args[0].begin + 1 && tok(args[0].begin).type == TokType::name) {
        const Eval value = evaluate(args[1].begin, args.back().end);
        assign(tok(args[0].begin).text, value, true, false);
      }
      continue;
    }
    if (is_one_of(last, {"append", "extend", "update", "push", "add", "insert", "setdefault", "unshift", "set",
                         "appendleft"}) &&
        chain.front() != '.') {
      ++calls;
      const Eval value = evaluate(i + 2, close);
      if (value.taint.kind != Kind::none) {
        assign(receiver_of(chain), value, true, false);
      }
    }
  }
}

void Analyser::definitions() {
  const std::size_t n = m_t->size();
  std::size_t start = 0;
  while (start < n && tok(start).type == TokType::name &&
         is_one_of(tok(start).text, {"export", "default", "async", "static", "public", "private", "protected"})) {
    ++start;
  }
  if (start >= n) {
    return;
  }
  std::string name;
  std::size_t params_open = n;
  if (start + 1 < n && tok(start).type == TokType::name &&
      (tok(start).text == "def" || tok(start).text == "function")) {
    if (tok(start + 1).type == TokType::name && is_punct(start + 2, "(")) {
      name = std::string(tok(start + 1).text);
      params_open = start + 2;
    }
  } else if (js() && start + 3 < n && tok(start).type == TokType::name &&
             is_one_of(tok(start).text, {"const", "let", "var"}) && tok(start + 1).type == TokType::name &&
             is_punct(start + 2, "=")) {
    // const f = (a, b) => …, const f = async function (a) …
    std::size_t k = start + 3;
    while (k < n && tok(k).type == TokType::name && is_one_of(tok(k).text, {"async", "function"})) {
      ++k;
    }
    if (is_punct(k, "(") && m_match[k] < n && is_punct(m_match[k] + 1, "=>")) {
      name = std::string(tok(start + 1).text);
      params_open = k;
    } else if (is_punct(k, "(") && k > start + 3 && tok(k - 1).text == "function") {
      name = std::string(tok(start + 1).text);
      params_open = k;
    }
  } else if (js() && tok(start).type == TokType::name && is_punct(start + 1, "(") && m_match[start + 1] == n - 1 &&
             !is_one_of(tok(start).text, {"if", "for", "while", "switch", "catch", "with", "return"})) {
    // A method: `name(a, b) {` (the statement ends at its block).
    name = std::string(tok(start).text);
    params_open = start + 1;
  }
  if (name.empty() || params_open >= n || m_match[params_open] >= n) {
    return;
  }
  m_scopes.push_back(Scope{name, m_s->indent, m_s->block_depth});
  if (m_functions.size() >= k_max_functions && m_functions.find(name) == m_functions.end()) {
    return;
  }
  Function& f = m_functions[name];
  f.params.clear();
  const std::size_t close = m_match[params_open];
  int depth = 0;
  for (std::size_t k = params_open + 1; k < close && f.params.size() < k_max_params; ++k) {
    const Token& t = tok(k);
    if (t.type == TokType::punct && (t.text == "(" || t.text == "[" || t.text == "{")) {
      ++depth;
    } else if (t.type == TokType::punct && (t.text == ")" || t.text == "]" || t.text == "}")) {
      --depth;
    } else if (depth == 0 && t.type == TokType::name &&
               (k == params_open + 1 || is_punct(k - 1, ",") || is_punct(k - 1, "*") || is_punct(k - 1, "**") ||
                is_punct(k - 1, "..."))) {
      f.params.emplace_back(t.text);
    }
  }
  f.method = !f.params.empty() && (f.params.front() == "self" || f.params.front() == "cls");
}

void Analyser::calls() {
  const std::size_t n = m_t->size();
  std::size_t calls = 0;
  for (std::size_t i = 0; i + 1 < n && calls < k_max_calls_per_statement; ++i) {
    if (tok(i).type != TokType::name || !is_punct(i + 1, "(")) {
      continue;
    }
    const auto it = m_functions.find(std::string(last_component(tok(i).text)));
    if (it == m_functions.end() ||
        (i > 0 && tok(i - 1).type == TokType::name && is_one_of(tok(i - 1).text, {"def", "function"}))) {
      continue;
    }
    ++calls;
    Function& f = it->second;
    const std::size_t close = std::min(m_match[i + 1], n);
    const std::vector<Arg> args = split_args(i + 2, close);
    for (const Arg& a : args) {
      std::size_t index = a.position + (f.method ? 1 : 0);
      if (!a.key.empty()) {
        const auto p = std::find(f.params.begin(), f.params.end(), a.key);
        if (p == f.params.end()) {
          continue;
        }
        index = static_cast<std::size_t>(p - f.params.begin());
      }
      if (index >= k_max_params) {
        continue;
      }
      const Eval e = evaluate(a.begin, a.end);
      if (e.taint.kind == Kind::none) {
        continue;
      }
      if (f.arg_taints.size() <= index) {
        f.arg_taints.resize(index + 1);
      }
      merge(f.arg_taints[index], e.taint);
    }
  }
}

void Analyser::statement(const Statement& s) {
  if (s.tokens.empty()) {
    return;
  }
  m_s = &s;
  m_t = &s.tokens;
  m_readers = 0;
  // Leave the functions this statement is no longer inside.
  while (!m_scopes.empty() && (js() ? s.block_depth <= m_scopes.back().depth : s.indent <= m_scopes.back().indent)) {
    m_scopes.pop_back();
  }
  match_brackets();
  definitions();
  find_sinks();
  calls();
  assignments();
}

} // namespace

void analyse_code(CodeLanguage language, std::string_view text, std::vector<Flow>& out) {
  // Pass 1 learns function results and arguments (and reports); when it
  // learned any, pass 2 starts from them and reports instead.
  std::map<std::string, Function> functions;
  Names learned;
  std::vector<Flow> first_flows;
  {
    Analyser first(language, learned, functions, &first_flows);
    CodeLexer lexer(language, text);
    Statement s;
    while (lexer.next(s)) {
      first.statement(s);
    }
  }
  Names names;
  bool seeded = false;
  for (const auto& [name, f] : functions) {
    std::string key = name + "()";
    if (const Value* v = learned.find(key); v != nullptr && v->taint.kind != Kind::none) {
      if (Value* slot = names.slot(key)) {
        slot->taint = v->taint;
        seeded = true;
      }
    }
    for (std::size_t i = 0; i < f.arg_taints.size() && i < f.params.size(); ++i) {
      if (f.arg_taints[i].kind == Kind::none) {
        continue;
      }
      if (Value* slot = names.slot(f.params[i])) {
        merge(slot->taint, f.arg_taints[i]);
        seeded = true;
      }
    }
  }
  if (!seeded) {
    out.insert(out.end(), first_flows.begin(), first_flows.end());
    return;
  }
  Analyser second(language, names, functions, &out);
  CodeLexer lexer(language, text);
  Statement s;
  while (lexer.next(s)) {
    second.statement(s);
  }
}

} // namespace skillrt::core::flow
