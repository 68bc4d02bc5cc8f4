#include "core/validate/validator.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <tuple>
#include <utility>

#include "core/limits.hpp"
#include "core/util/line_endings.hpp"
#include "core/validate/js_value.hpp"
#include "core/validate/name_rules.hpp"
#include "core/validate/rules.hpp"
#include "core/validate/text_units.hpp"
#include "core/yaml/frontmatter.hpp"
#include "core/util/utf8.hpp"
#include "core/yaml/yaml_node.hpp"

namespace skillrt::core {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view k_bom = "\xEF\xBB\xBF";

// The six top-level fields of the Agent Skills spec (skills-ref's ALLOWED_FIELDS).
constexpr std::array<std::string_view, 6> k_spec_fields{"name",     "description",   "license",
                                                        "metadata", "compatibility", "allowed-tools"};
// Top-level fields Hermes reads besides those (spec §2.1 rule 3).
constexpr std::array<std::string_view, 10> k_hermes_fields{
    "version", "platforms",      "environments",
    "tags",    "related_skills", "required_environment_variables",
    "setup",   "prerequisites",  "required_credential_files",
    "deps"};

template <std::size_t N> bool contains(const std::array<std::string_view, N>& list, std::string_view key) {
  return std::find(list.begin(), list.end(), key) != list.end();
}

std::string single_quoted(std::string_view text) {
  return "'" + std::string(text) + "'";
}

class Collector {
public:
  Collector(bool strict, std::string file) : m_strict(strict), m_file(std::move(file)) {}

  void set_file(std::string file) { m_file = std::move(file); }
  bool strict() const { return m_strict; }

  void add(std::string_view rule, SourcePos pos, std::string message) {
    Finding finding;
    finding.rule_id = std::string(rule);
    finding.severity = rule_severity(rule, m_strict);
    finding.path = m_file;
    finding.pos = pos;
    finding.message = std::move(message);
    m_findings.push_back(std::move(finding));
  }

  std::vector<Finding> take() { return std::move(m_findings); }

private:
  bool m_strict;
  std::string m_file;
  std::vector<Finding> m_findings;
};

// ---------------------------------------------------------------------------
// Locating and reading SKILL.md

struct Located {
  fs::path skill_md;
  std::string dir_name; // basename of the absolute, normalised skill directory
};

// True when `p` names something: a file, a directory, or a symbolic link that
// cannot be followed (a loop), which reading then reports. A dangling link
// counts as absent, as it does for skills-ref.
bool present(const fs::path& p) {
  std::error_code ec;
  fs::file_status st = fs::status(p, ec);
  if (!ec) {
    return fs::exists(st);
  }
  std::error_code lec;
  return ec == std::errc::too_many_symbolic_link_levels && fs::is_symlink(fs::symlink_status(p, lec));
}

std::string lowercase_ascii(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') {
      c = static_cast<char>(c - 'A' + 'a');
    }
  }
  return text;
}

std::string directory_name(const fs::path& dir) {
  std::error_code ec;
  fs::path abs = fs::absolute(dir, ec);
  if (ec) {
    abs = dir;
  }
  abs = abs.lexically_normal();
  if (!abs.has_filename()) {
    abs = abs.parent_path();
  }
  return abs.filename().string();
}

std::optional<Located> locate(const fs::path& path, Collector& out) {
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) {
    std::error_code lec;
    fs::file_status lst = fs::symlink_status(path, lec);
    if (!lec && fs::is_symlink(lst)) {
      out.add("path.not_found", {}, "the path is a symbolic link whose target cannot be reached");
    } else if (ec && ec != std::errc::no_such_file_or_directory) {
      out.add("path.not_found", {}, "the path cannot be examined: " + ec.message());
    } else {
      out.add("path.not_found", {}, "the path does not exist");
    }
    return std::nullopt;
  }
  fs::path dir;
  if (fs::is_directory(st)) {
    dir = path;
  } else if (fs::is_regular_file(st) && lowercase_ascii(path.filename().string()) == "skill.md") {
    // As skills-ref does: a SKILL.md path stands for its directory.
    dir = path.parent_path();
    if (dir.empty()) {
      dir = ".";
    }
  } else {
    out.add("path.not_skill", {}, "the path is neither a skill directory nor a SKILL.md file");
    return std::nullopt;
  }
  Located located;
  located.dir_name = directory_name(dir);
  if (present(dir / "SKILL.md")) {
    located.skill_md = dir / "SKILL.md";
  } else if (present(dir / "skill.md")) {
    located.skill_md = dir / "skill.md";
    out.set_file(located.skill_md.string());
    out.add("skill_md.lowercase", {},
            "only a lowercase skill.md exists; skills-ref accepts it but Hermes (and skillrt) discover SKILL.md only");
  } else {
    out.add("skill_md.missing", {}, "no SKILL.md in this directory");
    return std::nullopt;
  }
  return located;
}

struct Loaded {
  std::string bytes;
  bool truncated = false;
};

std::optional<Loaded> read_skill_md(const fs::path& file, Collector& out) {
  std::error_code ec;
  fs::file_status st = fs::status(file, ec);
  if (ec) {
    out.add("file.unreadable", {}, "cannot examine the file: " + ec.message());
    return std::nullopt;
  }
  if (fs::is_directory(st)) {
    out.add("file.unreadable", {}, "SKILL.md is a directory, not a file");
    return std::nullopt;
  }
  if (!fs::is_regular_file(st)) {
    // FIFOs, sockets and devices could block or never end.
    out.add("file.unreadable", {}, "SKILL.md is not a regular file");
    return std::nullopt;
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    out.add("file.unreadable", {}, std::string("cannot open the file: ") + std::strerror(errno));
    return std::nullopt;
  }
  Loaded loaded;
  constexpr std::size_t k_limit = limits::k_max_skill_file_bytes;
  std::array<char, 64 * 1024> buffer{};
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    auto got = static_cast<std::size_t>(in.gcount());
    if (got == 0) {
      break;
    }
    if (loaded.bytes.size() + got > k_limit) {
      loaded.bytes.append(buffer.data(), k_limit - loaded.bytes.size());
      loaded.truncated = true;
      break;
    }
    loaded.bytes.append(buffer.data(), got);
  }
  if (in.bad()) {
    out.add("file.unreadable", {}, std::string("reading the file failed: ") + std::strerror(errno));
    return std::nullopt;
  }
  if (loaded.truncated) {
    // Do not leave a UTF-8 sequence cut in half at the end of the prefix.
    std::size_t back = 0;
    while (back < 3 && !loaded.bytes.empty() && (static_cast<unsigned char>(loaded.bytes.back()) & 0xC0U) == 0x80U) {
      loaded.bytes.pop_back();
      ++back;
    }
    if (!loaded.bytes.empty() && static_cast<unsigned char>(loaded.bytes.back()) >= 0xC0U) {
      loaded.bytes.pop_back();
    }
    out.add("file.too_large", {},
            "SKILL.md is larger than " + std::to_string(k_limit / (1024 * 1024)) +
                " MiB; only its beginning was checked");
  }
  return loaded;
}

// ---------------------------------------------------------------------------
// The frontmatter as one validator sees it

struct View {
  enum class State : unsigned char { missing, unclosed, parsed, yaml_error };
  State state = State::missing;
  std::size_t yaml_end = 0;   // offset in the content where the YAML text ends
  std::size_t body_begin = 0; // offset where the body starts
  std::optional<Error> error;
  YamlNode root;
};


// Parses content[3, yaml_end) the way parse_frontmatter does: size limit,
// CRLF folded, positions equal to the file's (line 1 shifted past the `---`).
View parse_span(std::string_view content, std::size_t yaml_end, std::size_t body_begin) {
  View view;
  view.yaml_end = yaml_end;
  view.body_begin = body_begin;
  std::string_view raw = content.substr(3, yaml_end - 3);
  if (raw.size() > limits::k_max_frontmatter_bytes) {
    view.state = View::State::yaml_error;
    view.error = Error{ErrorCode::limit_exceeded,
                       "the frontmatter is " + std::to_string(raw.size()) + " bytes; skillrt's limit is " +
                           std::to_string(limits::k_max_frontmatter_bytes),
                       SourcePos{1, 1}};
    return view;
  }
  Result<YamlNode> parsed = parse_yaml(normalise_crlf(raw), limits::k_max_frontmatter_bytes);
  if (!parsed) {
    view.state = View::State::yaml_error;
    Error error = std::move(parsed.error());
    if (error.pos.line == 1 && error.pos.column != 0) {
      error.pos.column += 3;
    }
    view.error = std::move(error);
    return view;
  }
  view.state = View::State::parsed;
  view.root = std::move(*parsed);
  return view;
}

// Hermes: the closing fence is a line of `---` (plus trailing whitespace).
View hermes_view(std::string_view content) {
  if (!content.starts_with("---")) {
    return View{};
  }
  std::optional<FenceSpan> span = find_fences(content);
  if (!span) {
    View view;
    view.state = View::State::unclosed;
    return view;
  }
  return parse_span(content, span->yaml_end, span->body_begin);
}

// skills-ref: `content.split("---", 3)`, i.e. the frontmatter ends at the next
// `---` anywhere, even inside a line.
View reference_view(std::string_view content) {
  if (!content.starts_with("---")) {
    return View{};
  }
  std::size_t end = content.find("---", 3);
  if (end == std::string_view::npos) {
    View view;
    view.state = View::State::unclosed;
    return view;
  }
  return parse_span(content, end, end + 3);
}

bool same_frontmatter(const View& hermes, const View& reference) {
  if (hermes.state == View::State::missing || hermes.state == View::State::unclosed) {
    return reference.state == hermes.state;
  }
  if (reference.state == View::State::missing || reference.state == View::State::unclosed) {
    return false;
  }
  // Hermes' YAML stops before the "\n" of the closing line; skills-ref's keeps it.
  return reference.yaml_end == hermes.yaml_end + 1;
}

std::string_view kind_phrase(const YamlNode& node) {
  if (node.is_sequence()) {
    return "a list";
  }
  if (node.is_scalar()) {
    return "a single value";
  }
  return "empty";
}

// Reports what is wrong with the frontmatter block itself; true when `view`
// holds a mapping the field rules can look at.
bool check_structure(std::string_view content, const View& view, Collector& out) {
  switch (view.state) {
  case View::State::missing:
    if (py_trim(content).empty()) {
      out.add("frontmatter.missing", {1, 1}, "SKILL.md is empty; it needs a --- frontmatter block");
    } else {
      out.add("frontmatter.missing", {1, 1}, "SKILL.md must start with a '---' line opening the YAML frontmatter");
    }
    return false;
  case View::State::unclosed:
    out.add("frontmatter.unclosed", {1, 1}, "the frontmatter opened here is never closed by a '---' line");
    return false;
  case View::State::yaml_error:
    if (view.error->code == ErrorCode::limit_exceeded) {
      out.add("frontmatter.too_large", view.error->pos, view.error->message);
    } else {
      out.add("yaml.syntax", view.error->pos, "invalid YAML in the frontmatter: " + view.error->message);
    }
    return false;
  case View::State::parsed:
    break;
  }
  if (view.root.is_sequence() || (view.root.is_scalar() && !view.root.is_null())) {
    out.add("frontmatter.not_mapping", view.root.pos(),
            "the frontmatter is " + std::string(kind_phrase(view.root)) + ", not a mapping of fields");
    return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// Field rules

SourcePos value_pos(const YamlNode& fields, std::string_view key, const YamlNode& value) {
  SourcePos pos = value.pos();
  return pos.line != 0 ? pos : fields.key_pos(key);
}

void check_fields(const YamlNode& fields, const std::string& dir_name, Collector& out) {
  const bool strict = out.strict();
  for (const auto& [key, value] : fields.entries()) {
    if (contains(k_spec_fields, key)) {
      continue;
    }
    if (contains(k_hermes_fields, key)) {
      out.add("field.not_in_spec", fields.key_pos(key),
              "field " + single_quoted(key) + " is read by Hermes but is not an Agent Skills spec field");
    } else {
      out.add("field.unknown", fields.key_pos(key),
              "unknown field " + single_quoted(key) +
                  "; the Agent Skills spec allows allowed-tools, compatibility, description, license, metadata, name");
    }
  }

  // name
  if (const YamlNode* name = fields.get("name"); name == nullptr) {
    out.add("name.missing", {1, 1}, "the frontmatter has no 'name' field");
  } else {
    SourcePos pos = value_pos(fields, "name", *name);
    JsType type = js_type(*name);
    bool skip_checks = false;
    if (type == JsType::null && !strict) {
      // Hermes treats a null name as absent and falls back to the directory name.
      out.add("name.empty", pos, "name is empty");
      skip_checks = true;
    } else if (type != JsType::string) {
      out.add("name.not_string", pos,
              "name is " + std::string(js_type_phrase(type)) + ", not a string; it is read as " +
                  single_quoted(js_string(*name)));
    }
    std::string text = js_string(*name);
    if (!skip_checks && js_trim(text).empty()) {
      out.add("name.empty", pos, "name is empty");
      skip_checks = true;
    }
    if (!skip_checks) {
      SpecNameCheck check = check_spec_name(text);
      std::size_t length = strict ? check.utf16_length : check.code_points;
      if (length > limits::k_max_name_length) {
        out.add("name.too_long", pos,
                "name is " + std::to_string(length) + " characters; the limit is " +
                    std::to_string(limits::k_max_name_length));
      }
      if (check.uppercase) {
        out.add("name.uppercase", pos, "name " + single_quoted(check.normalized) + " must be lowercase");
      }
      if (check.bad_hyphens) {
        out.add("name.hyphens", pos,
                "name " + single_quoted(check.normalized) + " must not start or end with '-' or contain '--'");
      }
      if (check.bad_chars) {
        std::string list;
        for (char32_t c : check.bad_char_list) {
          if (!list.empty()) {
            list += ' ';
          }
          list += single_quoted(encode_utf8(std::u32string(1, c)));
        }
        out.add("name.charset", pos,
                "name " + single_quoted(check.normalized) + " may only hold letters, digits and '-' (found " + list +
                    ")");
      }
      if (!check.uppercase && !check.bad_chars && !check.bad_hyphens && length <= limits::k_max_name_length &&
          !is_hermes_name(check.normalized)) {
        out.add("hermes.name_charset", pos,
                "name " + single_quoted(check.normalized) +
                    " is a valid spec name but not a Hermes one (^[a-z0-9][a-z0-9._-]*$)");
      }
      if (spec_normalize(dir_name) != check.normalized) {
        out.add("name.dir_mismatch", pos,
                "name " + single_quoted(check.normalized) + " differs from the directory name " +
                    single_quoted(dir_name));
      }
    }
  }

  // description
  if (const YamlNode* description = fields.get("description"); description == nullptr) {
    out.add("description.missing", {1, 1}, "the frontmatter has no 'description' field");
  } else {
    SourcePos pos = value_pos(fields, "description", *description);
    JsType type = js_type(*description);
    std::string text = js_string(*description);
    if (type == JsType::null && !strict) {
      out.add("description.empty", pos, "description is empty");
    } else {
      if (type != JsType::string) {
        out.add("description.not_string", pos,
                "description is " + std::string(js_type_phrase(type)) + ", not a string; it is read as " +
                    single_quoted(js_string(*description)));
      }
      if (js_trim(text).empty()) {
        out.add("description.empty", pos, "description is empty");
      }
    }
    // Hermes measures str(value) in code points; skills-ref String(value) in UTF-16 units.
    std::size_t length = strict ? utf16_length(text) : code_point_count(description->to_string());
    if (length > limits::k_max_description_length) {
      out.add("description.too_long", pos,
              "description is " + std::to_string(length) + " characters; the limit is " +
                  std::to_string(limits::k_max_description_length));
    }
  }

  // compatibility
  if (const YamlNode* compatibility = fields.get("compatibility"); compatibility != nullptr) {
    SourcePos pos = value_pos(fields, "compatibility", *compatibility);
    JsType type = js_type(*compatibility);
    if (type != JsType::string) {
      out.add("compatibility.not_string", pos,
              "compatibility is " + std::string(js_type_phrase(type)) + "; it must be a string");
    } else {
      std::size_t length = strict ? utf16_length(compatibility->text()) : code_point_count(compatibility->text());
      if (length > limits::k_max_compatibility_length) {
        out.add("compatibility.too_long", pos,
                "compatibility is " + std::to_string(length) + " characters; the limit is " +
                    std::to_string(limits::k_max_compatibility_length));
      }
    }
  }

  // metadata
  if (const YamlNode* metadata = fields.get("metadata"); metadata != nullptr) {
    if (metadata->is_sequence() || (metadata->is_scalar() && !metadata->is_null())) {
      out.add("metadata.not_mapping", value_pos(fields, "metadata", *metadata),
              "metadata should be a mapping of string keys to string values");
    }
  }
}

// ---------------------------------------------------------------------------
// Positions and source lines

// Start offsets of the lines of `text`; "\n", "\r\n" and a lone "\r" end a line
// (as libyaml and offset_to_pos count them).
std::vector<std::size_t> line_starts(std::string_view text) {
  std::vector<std::size_t> starts{0};
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n'))) {
      starts.push_back(i + 1);
    }
  }
  return starts;
}

std::string line_text(std::string_view text, const std::vector<std::size_t>& starts, std::uint32_t line) {
  if (line == 0 || line > starts.size()) {
    return {};
  }
  std::size_t begin = starts[line - 1];
  std::size_t end = line < starts.size() ? starts[line] : text.size();
  std::string_view s = text.substr(begin, end - begin);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return std::string(s);
}

// The findings about the file's content, and the text their positions refer to
// (decoded, BOM removed) for quoting source lines.
struct Checked {
  std::vector<Finding> findings;
  std::string content;
};

Checked check_content(const Loaded& loaded, const std::string& dir_name, Collector& out) {
  const bool strict = out.strict();
  std::string text;
  if (std::optional<std::size_t> bad = find_invalid_utf8(loaded.bytes)) {
    char hex[8];
    std::snprintf(hex, sizeof(hex), "0x%02X", static_cast<unsigned>(static_cast<unsigned char>(loaded.bytes[*bad])));
    out.add("file.not_utf8", offset_to_pos(loaded.bytes, *bad),
            std::string("SKILL.md is not valid UTF-8 (byte ") + hex +
                "); it is read with U+FFFD replacement characters");
    text = sanitize_utf8(loaded.bytes);
  } else {
    text = loaded.bytes;
  }
  if (text.starts_with(k_bom)) {
    out.add("file.bom", {1, 1},
            "SKILL.md starts with a UTF-8 byte-order mark; Hermes ignores it, skills-ref then finds no frontmatter");
  }
  std::string_view content = strip_bom(text);

  std::size_t chars = code_point_count(content);
  if (chars > limits::k_max_skill_content_chars) {
    out.add("hermes.content_too_long", {},
            "SKILL.md has " + std::string(loaded.truncated ? "more than " : "") + std::to_string(chars) +
                " characters; Hermes refuses more than " + std::to_string(limits::k_max_skill_content_chars));
  }

  View hermes = hermes_view(content);
  View reference = reference_view(content);
  const View& spec = strict ? reference : hermes;
  const View& other = strict ? hermes : reference;

  if (check_structure(content, spec, out)) {
    YamlNode empty = YamlNode::make_mapping({});
    check_fields(spec.root.is_mapping() ? spec.root : empty, dir_name, out);
  }

  if (!same_frontmatter(hermes, reference) && reference.state != View::State::missing &&
      reference.state != View::State::unclosed) {
    SourcePos at = offset_to_pos(content, reference.yaml_end);
    std::string message = "skills-ref ends the frontmatter at this '---'";
    if (hermes.state == View::State::unclosed) {
      message += ", but Hermes needs a line that is only '---' and finds none";
    } else {
      message +=
          "; Hermes reads on to the '---' line " + std::to_string(offset_to_pos(content, hermes.yaml_end + 1).line);
    }
    if (other.state == View::State::yaml_error) {
      message += "; there the YAML is invalid: " + other.error->message;
    }
    out.add("frontmatter.early_fence", at, std::move(message));
  }

  // Hermes-only rules, always on Hermes' view of the file.
  if (hermes.state == View::State::parsed || hermes.state == View::State::yaml_error) {
    if (py_trim(content.substr(hermes.body_begin)).empty()) {
      out.add("body.empty", offset_to_pos(content, hermes.yaml_end + 1),
              "nothing follows the frontmatter; Hermes refuses a SKILL.md without instructions");
    }
  }
  if (!is_hermes_name(dir_name)) {
    out.add("hermes.dir_name", {},
            "the directory name " + single_quoted(dir_name) +
                " is not a valid Hermes skill name (^[a-z0-9][a-z0-9._-]*$, at most 64 characters)");
  }

  return Checked{out.take(), std::string(content)};
}

} // namespace

ValidationReport validate_skill(const std::filesystem::path& path, const ValidateOptions& options) {
  ValidationReport report;
  report.path = path.string();
  Collector out(options.strict, report.path);
  std::optional<Located> located = locate(path, out);
  if (!located) {
    report.findings = out.take();
    return report;
  }
  report.skill_md = located->skill_md.string();
  out.set_file(report.skill_md);
  std::optional<Loaded> loaded = read_skill_md(located->skill_md, out);
  if (!loaded) {
    report.findings = out.take();
    return report;
  }
  Checked checked = check_content(*loaded, located->dir_name, out);
  report.findings = std::move(checked.findings);
  const std::string& content = checked.content;

  std::stable_sort(report.findings.begin(), report.findings.end(), [](const Finding& a, const Finding& b) {
    auto key = [](const Finding& f) { return std::make_tuple(f.pos.line != 0, f.pos.line, f.pos.column); };
    return key(a) < key(b);
  });
  std::vector<std::size_t> starts = line_starts(content);
  for (Finding& finding : report.findings) {
    finding.source_line = line_text(content, starts, finding.pos.line);
  }
  return report;
}

} // namespace skillrt::core
