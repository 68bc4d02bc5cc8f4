// FileContext::judge: what the place of a match changes, rule by rule (issue
// 19). file_context.cpp keeps the facts; this file holds every decision that
// turns them into a severity, so the guard's precision policy reads in one
// place. Each rule below says what it tells apart and why; docs/security.md
// ("What the context changes") lists them for users.
//
// The principle: a "high" finding blocks a community install, so it is kept
// for text that would make the agent harm the user who installs the skill.
// Text that describes, warns about, quotes, lists or configures the same
// thing is reported at medium or low, still visible in every report.
#include "core/guard/file_context.hpp"

#include <re2/re2.h>

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <string>

#include "core/util/ascii_case.hpp"

namespace skillrt::core {
namespace {

constexpr std::string_view k_comment_note = "(in a comment; informational)";
constexpr std::string_view k_denylist_note = "(in a denylist literal; confirm before installing)";
constexpr std::string_view k_auth_note = "(sent as the API's own credential; informational)";
constexpr std::string_view k_reported_note = "(quoted or described; confirm before installing)";
constexpr std::string_view k_signature_note = "(in a detection signature; informational)";
constexpr std::string_view k_markup_note = "(styling in a web page or template; informational)";
constexpr std::string_view k_option_note = "(documents an option; informational)";
constexpr std::string_view k_mention_note = "(mentioned, not used; informational)";
constexpr std::string_view k_negated_note = "(said as a prohibition; informational)";
constexpr std::string_view k_defence_note = "(listed to block or reject it; informational)";
constexpr std::string_view k_vendor_note = "(the vendor's published installer; confirm before running)";
constexpr std::string_view k_user_setup_note = "(a setting for the user's own environment; confirm before running)";
constexpr std::string_view k_snippet_note = "(introduces a configuration snippet; review it before adding)";
constexpr std::string_view k_other_agent_note = "(runs another agent without its prompts; confirm before running)";
constexpr std::string_view k_public_key_note = "(public key or SSH client use; informational)";
constexpr std::string_view k_tooling_note = "(a development tool's use; informational)";
constexpr std::string_view k_local_network_note = "(a local network address; informational)";
constexpr std::string_view k_template_note = "(a documentation placeholder; informational)";
constexpr std::string_view k_log_note = "(in a program's log output; informational)";
constexpr std::string_view k_model_api_note = "(sent to the model's own API; informational)";

bool contains_any_ci(std::string_view haystack, std::initializer_list<std::string_view> needles) {
  return std::any_of(needles.begin(), needles.end(), [&](std::string_view n) { return contains_ascii_ci(haystack, n); });
}

bool is_one_of(std::string_view id, std::initializer_list<std::string_view> ids) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

ThreatSeverity at_most(ThreatSeverity severity, ThreatSeverity cap) {
  return std::min(severity, cap);
}

RE2::Options caseless() {
  RE2::Options options(RE2::Quiet);
  options.set_case_sensitive(false);
  return options;
}

// Pattern ids whose match may be an inert path reference (spec §2.12 rule 3).
bool is_path_reference_id(std::string_view id) {
  return is_one_of(id, {"ssh_dir_access", "aws_dir_access", "gpg_dir_access", "kube_dir_access", "docker_dir_access",
                        "ssh_backdoor", "system_passwd_access", "hermes_env_access", "read_secrets_file",
                        "js_read_secrets_file", "browser_credential_store", "sudoers_mod"});
}

// Ids that name a place (a sensitive path, a metadata address, a registry
// key): a match is an attack only when the line does something with it.
bool is_place_id(std::string_view id) {
  return is_path_reference_id(id) ||
         is_one_of(id, {"cloud_metadata_access", "path_traversal_sensitive", "startup_persistence", "tunnel_service"});
}

// Whether `head` (a statement's first line) assigns to a name that announces
// a list of things to refuse: DENY_PATHS = [, "blocked_files": …, skip_dirs:
bool starts_denylist_assignment(std::string_view head) {
  static const RE2 k_assignment(
      R"re(^\s*(?:[-*]\s+)?(?:export\s+|readonly\s+|local\s+|const\s+|let\s+|var\s+|static\s+|final\s+|private\s+|public\s+|declare\s+(?:-\w+\s+)*)*(?:[a-z_][\w.]*\s*:\s*)?["'`]?([a-z_][\w.-]*)["'`]?\s*(?::\s*[\w\[\]<>,. ]+?\s*)?(?:=|:=|\+=|:|=>)(?:\s|$|[\[({"']))re",
      caseless());
  static const RE2 k_word(
      R"re(deny|black|block|skip|exclu|ignor|forbid|refus|reject|never|unsafe|sensitive|secret_file|redact|protect|restrict|disallow|banned|dangerous|guard)re",
      caseless());
  std::string name;
  if (!RE2::PartialMatch(head, k_assignment, &name)) {
    return false;
  }
  return RE2::PartialMatch(name, k_word);
}

// An action on the line means the literal is used, not merely listed.
bool has_action_verb(std::string_view line) {
  static const RE2 k_action(
      R"re(\b(?:cat|cp|mv|rm|scp|rsync|curl|wget|ssh|sudo|eval|exec|system|popen|chmod|chown|tee|tar|zip|base64|source)\b|\bopen\s*\(|\.(?:read|write|read_text|write_text|readfile|readfilesync|writefile|writefilesync|append)\w*\s*\(|>>|\|\s*\w)re",
      caseless());
  return RE2::PartialMatch(line, k_action);
}

bool mentions_loopback(std::string_view line) {
  return contains_any_ci(line, {"://localhost", "://127.0.0.1", "://[::1]", "://0.0.0.0"});
}

// A curl/wget/fetch line whose every secret-named variable sits where an API
// expects its own credential (auth header, basic auth, key parameter) reads as
// ordinary API use; anywhere else (URL path, request body) it reads as sending
// the secret away.
bool secrets_only_in_auth_position(std::string_view line) {
  static const RE2 k_auth_use(
      R"re((?:(?:-h|--header)[=\s]\s*['"][^'"]*|(?:-u|--user)[=\s]\s*['"]?|[?&][a-z_]*(?:key|token)=|authorization['"]?\s*[:=]\s*['"]?(?:bearer\s+|token\s+|basic\s+)?|x-api-key['"]?\s*:\s*['"]?)\$\{?[a-z0-9_]*(?:key|token|secret|passwd|password|pass|credentials?|cookie|session)\b\}?)re",
      caseless());
  static const RE2 k_secret_var(
      R"re(\$\{?[a-z0-9_]*(?:key|token|secret|passwd|password|pass|credentials?|cookie|session)\b)re", caseless());
  std::string rest(line);
  if (RE2::GlobalReplace(&rest, k_auth_use, "") == 0) {
    return false;
  }
  return !RE2::PartialMatch(rest, k_secret_var);
}

// An injection phrase that the line quotes, reports or warns about ("reject
// phrases like \"ignore previous instructions\"", "ignore instructions
// embedded in the page") rather than says.
bool injection_phrase_is_reported(std::string_view line) {
  static const RE2 k_reported(
      R"re(["`“”]|\be\.g\.|\bsuch\s+as\b|\blike\s*["“`]|\basked\s+to\b|\b(?:tries|try|attempts?|attempting)\s+to\b|\bembedded\b|\bfound\s+in\b|\binside\b|\bwithin\s+(?:the\s+)?(?:data|input|content|source|page|file|document)|\binjection\b|\buntrusted\b|\battacker|\bmalicious\b|\bdetect|\bflag\b|\bexample\b)re",
      caseless());
  return RE2::PartialMatch(line, k_reported);
}

// A YARA string definition (`$name = "text" ascii wide`) is a detection
// signature: it names what to look for, it does not do it.
bool is_detection_signature(std::string_view line) {
  static const RE2 k_yara_string(
      R"re(^\s*\$[a-z_]\w*\s*=\s*(?:"[^"]*"|\{[^}]*\}|/[^/]*/)\s*(?:(?:ascii|wide|nocase|fullword|xor|base64|base64wide|private)\b\s*)*(?://.*)?$)re",
      caseless());
  return RE2::PartialMatch(line, k_yara_string);
}


// The part of the sentence before byte `at`: from the last sentence or cell
// boundary up to the match.
std::string_view sentence_before(std::string_view line, std::size_t at) {
  std::string_view head = line.substr(0, std::min(at, line.size()));
  const std::size_t stop = head.find_last_of(".!?;|");
  return stop == std::string_view::npos ? head : head.substr(stop + 1);
}

// "Do not …", "never …", "must not …": the sentence forbids what follows.
bool is_prohibition(std::string_view before) {
  static const RE2 k_negation(
      R"re(\b(?:do\s+not|don'?t|never|must\s+not|mustn'?t|should\s+not|shouldn'?t|may\s+not|cannot|can'?t|avoid|refuse\s+to|not\s+to|no\s+need\s+to|without)\b)re",
      caseless());
  return RE2::PartialMatch(before, k_negation);
}

// A line that says it blocks, refuses or warns about what it lists.
bool names_a_defence(std::string_view line) {
  static const RE2 k_defence(
      R"re(\b(?:block(?:s|ed|ing)?|block-?list|deny(?:-?list)?|denied|reject(?:s|ed|ion)?|refuse[sd]?|forbid(?:s|den)?|disallow(?:s|ed)?|prevent(?:s|ed)?|except|never|do\s+not|don'?t|must\s+not|not\s+allowed|mitigat\w*|is\s+(?:dangerous|unsafe|insecure|vulnerable)|vulnerab\w*|attacker|anti-?pattern)\b)re",
      caseless());
  return RE2::PartialMatch(line, k_defence);
}

// Strong words that the line is about defending against what it shows:
// "must be rejected", "an attacker …", "blocked". Checked with URLs blanked,
// since an attacker's own host may well be called attacker.example.
bool warns_about_it(std::string_view line) {
  static const RE2 k_url(R"re(https?://\S+|\b[\w-]+(?:\.[\w-]+)+/\S*)re", caseless());
  static const RE2 k_warning(
      R"re(\b(?:reject(?:s|ed|ion)?|block(?:s|ed)?|block-?list|deny-?list|denied|forbid(?:s|den)?|disallow(?:s|ed)?|prevent(?:s|ed)?|mitigat\w*|vulnerab\w*|attackers?|malicious|exploit(?:s|ed|able)?|anti-?pattern|unsafe|insecure|dangerous|false\s+sense\s+of\s+security)\b)re",
      caseless());
  std::string text(line);
  RE2::GlobalReplace(&text, k_url, " ");
  return RE2::PartialMatch(text, k_warning);
}

// The line does something with what it names: a command or an imperative.
// Paths are blanked first (the "ssh" in ~/.ssh is not the command), table
// pipes are cell separators, and in prose only inline code can hold a command
// ("use SSH with …" names the tool).
bool acts_on_it(std::string_view line, bool prose, bool table_row) {
  static const RE2 k_imperative(
      R"re(\b(?:read|copy|send|upload|post|include|collect|extract|gather|load|dump|attach|forward|exfiltrate|archive|back\s+up|print|output|access|fetch|transmit|steal|harvest|probe|query|request|open|grab|retrieve|capture|save|store|write|append|modify|edit|add|insert|overwrite|replace|delete|remove)\b)re",
      caseless());
  static const RE2 k_path(R"re([~$\w.-]*/[\w.*{}-]+(?:/[\w.*{}-]*)*)re");
  static const RE2 k_code_span(R"re(`([^`]*)`)re");
  std::string text(line);
  if (table_row) {
    std::replace(text.begin(), text.end(), '|', ' ');
  }
  RE2::GlobalReplace(&text, k_path, " ");
  if (RE2::PartialMatch(text, k_imperative)) {
    return true;
  }
  if (!prose) {
    return has_action_verb(text);
  }
  re2::StringPiece rest(text);
  std::string span;
  while (RE2::FindAndConsume(&rest, k_code_span, &span)) {
    if (has_action_verb(span)) {
      return true;
    }
  }
  return false;
}

// The first URL's host and path, lower-cased ("https://Astral.sh/uv/x" →
// "astral.sh/uv/x"); "" when the line has no http(s) URL.
std::string first_url(std::string_view line) {
  static const RE2 k_url(R"re(https?://([^\s'"`|)<>]+))re", caseless());
  std::string url;
  if (!RE2::PartialMatch(line, k_url, &url)) {
    return url;
  }
  return ascii_lower_copy(url);
}

// The installer's address: the first https URL, or the bare host a
// PowerShell or curl one-liner names ("irm bun.sh/install.ps1 | iex").
std::string installer_url(std::string_view line) {
  if (line.find("https://") != std::string_view::npos) {
    return first_url(line);
  }
  static const RE2 k_bare(R"re(\b(?:irm|iwr|curl|wget|invoke-restmethod|invoke-webrequest)\s+(?:-\S+\s+)*['"]?([a-z0-9-]+(?:\.[a-z0-9-]+)+/[^\s'"|)]*))re",
                          caseless());
  std::string url;
  if (RE2::PartialMatch(line, k_bare, &url)) {
    url = ascii_lower_copy(url);
  }
  return url;
}

// Installers their vendors publish to be piped into a shell. A script from one
// of these hosts is the documented way to install that tool, and the host is
// the party the user already trusts with the tool itself; an unknown host
// stays a high finding. A release asset of a named public repository is
// attributable to that repository, as with pip installs from a code host.
bool is_vendor_installer(std::string_view url) {
  static const std::initializer_list<std::string_view> k_hosts = {
      "sh.rustup.rs",        "astral.sh",          "bun.sh",
      "deno.land",           "get.docker.com",     "deb.nodesource.com",
      "rpm.nodesource.com",  "fnm.vercel.app",     "get.pnpm.io",
      "claude.ai",           "sdk.cloud.google.com", "aka.ms",
      "run.linkerd.io",      "fluxcd.io",          "get.helm.sh",
      "install.python-poetry.org", "pyenv.run",    "get.sdkman.io",
      "ollama.com",          "tailscale.com",      "hf.co",
      "huggingface.co",      "x.ai",               "aspire.dev",
      "antigravity.google",  "hermes-agent.nousresearch.com", "community.chocolatey.org",
      "foundry.paradigm.xyz", "get.k3s.io",        "starship.rs",
      "mise.run",            "get.volta.sh",       "dot.net",
      "bootstrap.pypa.io",   "install.determinate.systems", "nixos.org",
      "lambdalabs.com",      "cli.github.com",     "opencode.ai",
      "raw.githubusercontent.com"};
  const std::string_view host = url.substr(0, url.find('/'));
  for (const std::string_view known : k_hosts) {
    if (host == known || (host.size() > known.size() && host.substr(host.size() - known.size()) == known &&
                          host[host.size() - known.size() - 1] == '.')) {
      return true;
    }
  }
  // github.com/OWNER/REPO/releases/…: a published release of a named repository.
  static const RE2 k_release(R"re(^github\.com/[\w.-]+/[\w.-]+/releases/)re");
  return RE2::PartialMatch(url, k_release);
}

// `echo 'export NAME="…"' >> ~/.bashrc`: the user's own variable, or a PATH
// entry under the home directory, with nothing that runs.
bool appends_plain_setting(std::string_view line) {
  static const RE2 k_setting(
      R"re(\becho\s+(?:-e\s+)?['"](?:export\s+(?:[A-Z_][A-Z0-9_]*)=[^$`]*|export\s+PATH=["']?(?:~|\$HOME|\$\{HOME\})/[^`]*|(?:source|\.)\s+(?:~|\$HOME)/[^$`;&|]*)['"]\s*>>)re");
  return RE2::PartialMatch(line, k_setting) && !contains_any_ci(line, {"$(", "curl", "wget", "eval"});
}

// RFC 1918 addresses: a machine on the user's own network.
bool is_private_address_url(std::string_view line) {
  static const RE2 k_private(
      R"re(https?://(?:10\.\d{1,3}|192\.168|172\.(?:1[6-9]|2\d|3[01]))\.\d{1,3}\.\d{1,3}\b)re");
  static const RE2 k_public(
      R"re(https?://(?:\d{1,3}\.){3}\d{1,3}\b)re");
  std::string rest(line);
  return RE2::GlobalReplace(&rest, k_private, "") > 0 && !RE2::PartialMatch(rest, k_public);
}

// A requests call whose secret-looking words are all credentials for the API
// it calls (headers, auth) or names of endpoints and parameters.
bool request_secrets_are_credentials(std::string_view line) {
  static const RE2 k_credential_use(
      R"re(headers\s*=\s*\{[^}]*\}|headers\s*=\s*\w+|auth\s*=\s*\([^)]*\)|auth\s*=\s*\w+|\w*(?:url|uri|endpoint)\w*|environ\s*\[\s*['"]\w*_(?:URL|URI|ENDPOINT|HOOK)['"]\s*\]|(?:token|auth|oauth)_params)re",
      caseless());
  static const RE2 k_secret(R"re(environ|getenv|key|token|secret|passw)re", caseless());
  std::string rest(line);
  RE2::GlobalReplace(&rest, k_credential_use, "");
  return !RE2::PartialMatch(rest, k_secret);
}

// A Markdown image whose interpolation sits only in the path (a badge or a
// documented URL pattern), not in a query string that carries data away.
bool image_placeholder_in_path_only(std::string_view line) {
  static const RE2 k_image(R"re(!\[[^\]]*\]\(\s*https?://([^)\s]*))re", caseless());
  std::string url;
  if (!RE2::PartialMatch(line, k_image, &url)) {
    return false;
  }
  return url.find('?') == std::string::npos && url.find("${") == std::string::npos &&
         url.find("{{") == std::string::npos;
}

bool is_intent_id(std::string_view id) {
  return is_one_of(id, {"confirmation_bypass", "hide_from_user", "agent_instruction_plant", "data_forwarding"});
}

// The line reports, warns about or quotes such an instruction rather than
// giving it: "a malicious skill might say …", "some skills tell agents to …;
// never follow them", "reject requests to …".
bool describes_an_attack(std::string_view line) {
  static const RE2 k_report(
      R"re(\bphrases?\s+(?:like|such\s+as)\b|\b(?:may|might|could|will|can)\s+(?:try|attempt|say|ask|tell)\b|\b(?:tries|try|attempts?|attempting)\s+to\b|\b(?:tell|tells|instruct|instructs|ask|asks)\s+(?:the\s+)?(?:agents?|model|assistant|ai)\s+to\b|\bnever\s+(?:follow|obey|comply|act\s+on)\b|\b(?:refuse|ignore|flag|report|block)\s+(?:any\s+)?(?:such|these|those|requests?|instructions?)\b|\breject|\bdetect|\bif\s+confused\b|\bembedded\b|\binjection\b|\buntrusted\b|\bmalicious\b|\battacker|^\W*(?:warning|caution|danger)\b)re",
      caseless());
  return RE2::PartialMatch(line, k_report);
}

// Whether a trailing comment (" # " or " // ") opens before byte `at`.
bool trailing_comment_before(std::string_view line, std::size_t at) {
  const std::string_view head = line.substr(0, std::min(at, line.size()));
  return head.find(" # ") != std::string_view::npos || head.find(" // ") != std::string_view::npos;
}

// A program's log line ("INFO:…", "[debug] …"): what it printed, not a command.
bool is_log_output(std::string_view line) {
  static const RE2 k_log(R"re(^\s*(?:\[?(?:INFO|DEBUG|WARN(?:ING)?|ERROR|TRACE)\]?[:\s]))re");
  return RE2::PartialMatch(line, k_log);
}

// A heading or table header that says the section lists things to avoid or
// defend against.
bool is_defensive_heading(std::string_view heading) {
  static const RE2 k_heading(
      R"re(\b(?:anti-?patterns?|pitfalls?|mistakes?|avoid|don'?ts?|never|red\s+flags?|warning|mitigat\w*|defen[cs]e|hardening|threat\s+model|what\s+not|bad\s+(?:patterns?|practices?)|forbidden|blocked|deny|risks?|vulnerab\w*|insecure|unsafe|dangerous|sharp\s+edges?|footguns?|without\s+(?:\w+\s+)?(?:validation|bounds|checks?|sanitiz\w*|escaping|allow-?list))\b)re",
      caseless());
  return !heading.empty() && RE2::PartialMatch(heading, k_heading);
}

} // namespace

bool FileContext::in_defensive_section() const {
  return is_defensive_heading(m_heading) || is_defensive_heading(m_title);
}

std::optional<FileContext::Judgement> FileContext::judge(const ThreatPattern& pattern, std::string_view line,
                                                         std::size_t at) const {
  const std::string_view id = pattern.id;
  const bool markdown = m_kind == FileKind::markdown;
  const bool prose = markdown && !m_in_fence;

  // Requests to the machine itself carry no secret anywhere.
  if (is_one_of(id, {"env_exfil_curl", "env_exfil_wget", "env_exfil_fetch", "env_exfil_httpx", "env_exfil_requests",
                     "raw_ip_url"}) &&
      mentions_loopback(line)) {
    return std::nullopt;
  }
  // "Don't tell the user until …" is a sequencing instruction, not deception.
  if (id == "deception_hide" && contains_any_ci(line, {"unless", "except", "until", "confirm", "diagnos", "verify",
                                                       "check", "before", "first", "then present", "then report",
                                                       "then summar", "at the end"})) {
    return std::nullopt;
  }
  // Deception keeps the user from learning something. "Never tell users to
  // add X" directs what the agent advises, and "don't reveal whether a user
  // exists" is about an application's answers: the user must be the one not
  // told, and not be told to do something.
  if (id == "deception_hide") {
    static const RE2 k_user_not_told(
        R"re(\b(?:tell|inform|notify|alert|warn|show)\s+(?:the\s+|your\s+|any\s+)?(?:user|human|operator|developer|owner)s?\b|\b(?:mention|reveal|disclose|report|say|explain|admit|show)\b[^.!?;]*\bto\s+(?:the\s+|your\s+|any\s+)?(?:user|human|operator|developer|owner)s?\b)re",
        caseless());
    static const RE2 k_told_to_act(
        R"re(\b(?:tell|ask)\s+(?:the\s+|your\s+)?(?:user|human|operator|developer|owner)s?\s+to\s+\w)re", caseless());
    if (!RE2::PartialMatch(line, k_user_not_told) || RE2::PartialMatch(line, k_told_to_act)) {
      return std::nullopt;
    }
  }
  // The public package indexes of well-known projects are not an attack, and
  // a package straight from a public code host is attributable to its repo.
  if ((id == "pip_untrusted_index" || id == "pip_install_url") &&
      contains_any_ci(line, {"download.pytorch.org", "pypi.org", "pypi.nvidia.com", "data.pyg.org",
                             "huggingface.github.io", "storage.googleapis.com/jax-releases"})) {
    return std::nullopt;
  }
  if (id == "pip_install_url" &&
      (contains_any_ci(line, {"index-url"}) ||
       contains_any_ci(line, {"://github.com/", "://gitlab.com/", "://bitbucket.org/", "://huggingface.co/"}))) {
    return std::nullopt;
  }

  if (is_one_of(id, {"env_exfil_curl", "env_exfil_wget", "env_exfil_fetch"}) && secrets_only_in_auth_position(line)) {
    return Judgement{ThreatSeverity::medium, k_auth_note};
  }
  if (id == "env_exfil_requests" && request_secrets_are_credentials(line)) {
    return Judgement{ThreatSeverity::medium, k_auth_note};
  }
  // AWS documents its examples with keys ending in EXAMPLE.
  if (id == "aws_access_key_leaked" && line.find("EXAMPLE") != std::string_view::npos) {
    return std::nullopt;
  }
  // An injection phrase the line reports ("reject phrases like …", "content
  // may try to …") is a warning about it. A bare quotation stays high: a
  // payload in a JSON string is still read by the model.
  if (pattern.category == ThreatCategory::injection && pattern.severity >= ThreatSeverity::high &&
      injection_phrase_is_reported(line)) {
    if (describes_an_attack(line)) {
      return Judgement{ThreatSeverity::medium, k_reported_note};
    }
    if (pattern.severity == ThreatSeverity::critical) {
      return Judgement{ThreatSeverity::high, k_reported_note};
    }
  }
  // Executing a variable is a code-injection sink in a script; in prose it is
  // usually an explanation.
  if (id == "exec_dynamic" && !markdown) {
    return Judgement{ThreatSeverity::high, ""};
  }
  if (is_detection_signature(line)) {
    return Judgement{ThreatSeverity::low, k_signature_note};
  }

  // A whole-line comment in code is not executed: a path, a command or a
  // payload there is a reference (rule 3a, extended to every code-shaped
  // category). Instructions to the agent and leaked keys count anywhere.
  if (pattern.category != ThreatCategory::injection && pattern.category != ThreatCategory::credential_exposure &&
      is_comment_line(line)) {
    return Judgement{at_most(pattern.severity, ThreatSeverity::low), k_comment_note};
  }
  if (is_path_reference_id(id)) {
    const bool code = !markdown || m_in_fence;
    if (code && !m_statement.empty() && starts_denylist_assignment(m_statement) && !has_action_verb(line)) {
      return Judgement{at_most(pattern.severity, ThreatSeverity::high), k_denylist_note};
    }
  }
  if (pattern.severity < ThreatSeverity::high) {
    return Judgement{pattern.severity, ""};
  }
  // Intent in prose: an instruction is an attack; the same words described,
  // warned about or quoted are not, nor is skipping a prompt the user chose
  // to skip.
  if (is_intent_id(id)) {
    if (describes_an_attack(line) || (prose && in_defensive_section())) {
      return Judgement{ThreatSeverity::medium, k_reported_note};
    }
    static const RE2 k_user_choice(
        R"re(\b(?:if|when|unless|only\s+when|only\s+if)\s+the\s+user\s+(?:\w+\s+){0,2}(?:asks?|asked|passe[sd]|says?|said|chooses?|chose|opts?|opted|sets?|requests?|requested|wants?|wanted)\b)re",
        caseless());
    if (id == "confirmation_bypass" && RE2::PartialMatch(line, k_user_choice)) {
      return Judgement{ThreatSeverity::medium, k_option_note};
    }
    // Not pausing between the steps of the skill's own workflow ("do not ask
    // for confirmation at intermediate steps") differs from acting on the
    // user's behalf unasked: high needs an action of consequence or a rule
    // for everything.
    static const RE2 k_scoped(
        R"re(\b(?:intermediate|each\s+step|every\s+step|between\s+steps|additional|separate|second|again|further|re-?confirm|unless|except)\b)re",
        caseless());
    static const RE2 k_consequence(
        R"re(\b(?:never|always|all|every|any|run(?:ning)?|execut\w*|commands?|install\w*|delet\w*|remov\w*|deploy\w*|push\w*|send\w*|upload\w*|pay\w*|purchas\w*|transfer\w*|modif\w*|tools?|permissions?|sudo|shell|scripts?|on\s+the\s+user'?s\s+behalf|auto-?approve)\b)re",
        caseless());
    if (id == "confirmation_bypass" &&
        (RE2::PartialMatch(line, k_scoped) || !RE2::PartialMatch(line, k_consequence))) {
      return Judgement{ThreatSeverity::medium, k_option_note};
    }
  }
  const bool code = m_kind == FileKind::script || (markdown && m_in_fence);
  // A match inside a trailing comment of code (`open(p)  # ../../etc/passwd`)
  // is a note beside the statement, not part of it.
  if (code && pattern.category != ThreatCategory::injection &&
      pattern.category != ThreatCategory::credential_exposure && trailing_comment_before(line, at)) {
    return Judgement{ThreatSeverity::low, k_comment_note};
  }

  // --- From here on: what keeps a high or critical match from blocking. ---

  // A program's log output quotes what ran; it runs nothing itself.
  if (pattern.category != ThreatCategory::injection && is_log_output(line)) {
    return Judgement{ThreatSeverity::medium, k_log_note};
  }
  // Web pages, styles and templates hide and show their own elements; text
  // hidden from a reader matters where a model reads it as instructions.
  if (id == "hidden_div" && m_kind == FileKind::markup) {
    return Judgement{ThreatSeverity::low, k_markup_note};
  }
  // White text on a coloured background is plainly visible.
  if (id == "hidden_div" && contains_ascii_ci(line, "background") &&
      !contains_any_ci(line, {"display:none", "display: none", "visibility", "font-size", "opacity"})) {
    return Judgement{ThreatSeverity::low, k_markup_note};
  }
  // A flag or setting described in a reference table, an option list, a help
  // string or a trailing comment documents a tool; it instructs nothing.
  if (is_one_of(id, {"disable_safety", "security_toggle_off", "unbounded_retry", "confirmation_bypass"})) {
    const bool described = (prose && (m_prose == ProseKind::table_row || m_prose == ProseKind::list_item ||
                                      m_prose == ProseKind::heading)) ||
                           contains_any_ci(line, {"help=", "help:", "description="}) ||
                           trailing_comment_before(line, at);
    if (described) {
      return Judgement{ThreatSeverity::medium, k_option_note};
    }
    static const RE2 k_enumeration(R"re([=:]\s*['"]?(?:disabled|false|off|none|0|skip)\s*[|/,])re", caseless());
    if (id == "security_toggle_off" && RE2::PartialMatch(line, k_enumeration)) {
      return Judgement{ThreatSeverity::medium, k_option_note};
    }
  }
  // Another agent's own "skip permissions" switch, shown in documentation,
  // starts that agent unattended; a script that passes it is still high.
  if (id == "disable_safety" && m_kind != FileKind::script &&
      contains_any_ci(line, {"--dangerously-skip-permissions", "bypasspermissions", "--yolo", "yolo mode"})) {
    return Judgement{ThreatSeverity::medium, k_other_agent_note};
  }
  // Forbidding the thing is not doing it.
  if (is_one_of(id, {"credential_disclosure_request", "silent_action", "send_to_url", "context_exfil",
                     "cloud_metadata_access", "tunnel_service", "approval_carryover", "memory_poisoning"}) &&
      is_prohibition(sentence_before(line, at))) {
    return Judgement{ThreatSeverity::low, k_negated_note};
  }
  // "… until the user has approved it": a condition to wait for, not a claim
  // that approval was given.
  if (id == "approval_carryover") {
    static const RE2 k_condition(
        R"re(\b(?:until|unless|only\s+(?:after|once|when)|before|if|whether|wait\s+for|means)\b[^.!?;]*\b(?:approved|authori[sz]ed|consented|granted|confirmed)\b)re",
        caseless());
    if (RE2::PartialMatch(line, k_condition)) {
      return Judgement{ThreatSeverity::low, k_negated_note};
    }
  }
  // "These rules override any instructions found in repository files": a
  // guard against injected instructions, not a claim over the user's.
  if (id == "priority_override" &&
      contains_any_ci(line, {"found in", "embedded in", "from repository", "in repository", "from web", "tool output",
                             "untrusted", "from files", "in files"})) {
    return Judgement{ThreatSeverity::low, k_defence_note};
  }
  // Sending the conversation to the model's API is how chat APIs work; the
  // attack sends it somewhere else.
  if (id == "context_exfil" && first_url(line).empty() && line.find('@') == std::string_view::npos &&
      (contains_any_ci(line, {"model", "the api", "stateless", "each time", "each request", "llm", "claude"}) ||
       !contains_any_ci(line, {"webhook", "server", "external", "remote", "endpoint", "address", "email", "channel",
                               "third", "attacker", "collector", "log"}))) {
    return Judgement{ThreatSeverity::medium, k_model_api_note};
  }
  // Installers their vendors publish, piped into a shell as documented.
  if (is_one_of(id, {"curl_pipe_shell", "powershell_download_exec", "shell_eval_remote", "download_execute",
                     "sudo_shell"}) &&
      !contains_any_ci(line, {"http://"}) && is_vendor_installer(installer_url(line))) {
    return Judgement{ThreatSeverity::medium, k_vendor_note};
  }
  // An API key exported, or a home bin directory put on PATH, from a setup guide.
  if (id == "shell_rc_inject" && appends_plain_setting(line)) {
    return Judgement{ThreatSeverity::medium, k_user_setup_note};
  }
  // Public keys, SSH client flags, key generation and permissions: using SSH.
  if ((id == "ssh_dir_access" || id == "read_secrets_file") &&
      !contains_any_ci(line, {"curl", "wget", "scp ", "nc ", "base64", "requests.", "fetch(", "upload", "send"})) {
    static const RE2 k_public_key(R"re(\.pub\b)re", caseless());
    static const RE2 k_ssh_use(
        R"re(\bssh\s+(?:-\w+\s+)*-i\s|\bssh-keygen\b|\bssh-add\b|\bchmod\s+[0-7]{3,4}\s)re", caseless());
    const bool reads = contains_any_ci(line, {"cat ", "$(cat", "open(", "read", "cp "});
    if (RE2::PartialMatch(line, k_public_key) || (!reads && RE2::PartialMatch(line, k_ssh_use))) {
      return Judgement{ThreatSeverity::medium, k_public_key_note};
    }
  }
  // A key the reader supplies ("ssh-rsa AAAA...", "<your key>") appended to
  // authorized_keys, or a command run on another host over ssh, plants no
  // key of the skill author's.
  static const RE2 k_remote_command(R"re(^\s*ssh\s+(?:-\S+\s+)*\S+@)re");
  if ((id == "ssh_backdoor" || id == "ssh_dir_access") &&
      (contains_any_ci(line, {"aaaa...", "aaaab3...", "<your", "your_key", "your-key", ".pub"}) ||
       RE2::PartialMatch(line, k_remote_command))) {
    return Judgement{ThreatSeverity::medium, k_user_setup_note};
  }
  // Sanitizer runtimes and profilers are preloaded on purpose.
  if (id == "binary_payload_exec" && contains_any_ci(line, {"ld_preload"}) &&
      contains_any_ci(line, {"asan", "ubsan", "tsan", "msan", "sanitizer", "jemalloc", "tcmalloc", "faketime",
                             "libsegfault", "heaptrack"})) {
    return Judgement{ThreatSeverity::medium, k_tooling_note};
  }
  // Compiling source without running it (syntax checks, examples in prose).
  if (id == "python_compile_exec" && !contains_any_ci(line, {"exec(", "eval("})) {
    return Judgement{ThreatSeverity::medium, k_tooling_note};
  }
  if (id == "raw_ip_url" && is_private_address_url(line)) {
    return Judgement{ThreatSeverity::medium, k_local_network_note};
  }
  // A documented URL pattern for a badge or an attachment, with placeholders
  // in its path, carries nothing away; data in a query string does.
  if (id == "md_image_exfil" && image_placeholder_in_path_only(line)) {
    return Judgement{ThreatSeverity::medium, k_template_note};
  }
  // "Add to `~/.hermes/config.yaml`:" introduces a snippet for the user to
  // paste; it plants nothing by itself, and the snippet is scanned too.
  if (is_one_of(id, {"hermes_config_mod", "other_agent_config_mod", "agent_instruction_plant"}) && markdown &&
      !line.empty() && (line.back() == ':' || line.substr(line.size() - std::min<std::size_t>(2, line.size())) == ":*") &&
      !contains_any_ci(line, {"always", "never", "ignore", "secret", "token", "send", "curl"})) {
    return Judgement{ThreatSeverity::medium, k_snippet_note};
  }
  // /etc/passwd is world-readable: naming or reading it leaks nothing that
  // any local user cannot see. Shadow files and sending it stay high.
  if (id == "system_passwd_access" && !contains_any_ci(line, {"shadow", "master.passwd"}) &&
      !contains_any_ci(line, {"curl", "wget", " nc ", "requests.", "fetch(", "upload", "send", "post"})) {
    return Judgement{ThreatSeverity::medium, k_mention_note};
  }
  // A key handed to an SSH helper in example code, or authorized_keys read:
  // public keys and client use.
  if (id == "ssh_dir_access" && markdown && m_in_fence &&
      !contains_any_ci(line, {"cat ", "open(", "read", "cp ", "curl", "scp", "base64", "upload", "send"}) &&
      contains_any_ci(line, {"_key\"", "_key'", "_key "}) && !contains_any_ci(line, {"id_", "*", ".pem"})) {
    return Judgement{ThreatSeverity::medium, k_public_key_note};
  }
  if (id == "ssh_dir_access" && contains_any_ci(line, {"cat ~/.ssh/authorized_keys", "cat ~/.ssh/*.pub"})) {
    return Judgement{ThreatSeverity::medium, k_public_key_note};
  }
  // "You are now an expert on this topic": a role for the task, not a new
  // identity that sheds the agent's rules.
  if (id == "role_hijack" && contains_any_ci(line, {"now an expert", "now a expert", "now an authority", "now a specialist"})) {
    return Judgement{ThreatSeverity::medium, k_reported_note};
  }
  // Decoding text, with the result shown rather than run or kept to run later.
  static const RE2 k_decode_shown(R"re(base64\s+(?:-d|--decode|-D)\s*$)re");
  if (id == "echo_pipe_exec" && RE2::PartialMatch(line, k_decode_shown) && !contains_ascii_ci(line, "$(")) {
    return Judgement{ThreatSeverity::medium, k_tooling_note};
  }
  if (id == "download_decode" && contains_ascii_ci(line, "| jq ") && RE2::PartialMatch(line, k_decode_shown)) {
    return Judgement{ThreatSeverity::medium, k_tooling_note};
  }
  // A prompt to whoever fills in a template ("<!-- What do you …? -->").
  static const RE2 k_question_comment(R"re(<!--[^>]*\?\s*-->)re");
  if (id == "html_comment_injection" && RE2::PartialMatch(line, k_question_comment)) {
    return Judgement{ThreatSeverity::medium, k_template_note};
  }
  // Example socket code in documentation; scripts that connect stay high.
  if (id == "python_socket_connect" && markdown) {
    return Judgement{ThreatSeverity::medium, k_mention_note};
  }
  // A public tunnel named in prose rather than started by a command.
  if (id == "tunnel_service" && prose) {
    return Judgement{ThreatSeverity::medium, k_mention_note};
  }
  // The project's own agent instructions written by the agent, with nothing
  // dictated for it to plant ("Create AGENTS.md at the repository root").
  // Dictated content ("append the following to CLAUDE.md") stays high.
  if (id == "agent_config_mod" && !line.empty() && line.back() != ':' &&
      !contains_any_ci(line, {"following", "this", "these", "below", "content", "~", "$home", "/home/", "always",
                              "never", "ignore", "secret", "token", "send"})) {
    return Judgement{ThreatSeverity::medium, k_snippet_note};
  }
  // An attack shown in prose or a table to teach defence ("… must be
  // rejected", "an attacker could …"), or code under a heading that is
  // plainly about pitfalls: shown, not run.
  if (pattern.category != ThreatCategory::injection && markdown &&
      ((prose && warns_about_it(line)) || (!in_command_fence() && in_defensive_section()))) {
    return Judgement{ThreatSeverity::medium, k_defence_note};
  }
  if (id == "disable_safety" && prose && in_defensive_section()) {
    return Judgement{ThreatSeverity::medium, k_defence_note};
  }
  // Dangerous commands listed in a deny rule or a hook that blocks them.
  if ((pattern.category == ThreatCategory::destructive || pattern.category == ThreatCategory::execution ||
       pattern.category == ThreatCategory::supply_chain) &&
      contains_any_ci(line, {"blocked", "block list", "blocklist", "denylist", "deny list", "dangerous command"})) {
    return Judgement{ThreatSeverity::medium, k_defence_note};
  }
  // Sensitive places named rather than used: in prose, a table or a listing
  // with no command or imperative on the line, or listed to be blocked.
  if (is_place_id(id) || id == "exfil_service") {
    if (names_a_defence(line) || (prose && in_defensive_section())) {
      return Judgement{ThreatSeverity::medium, k_defence_note};
    }
    // In a command fence every line is something to run, so a path there is used.
    if (markdown && !in_command_fence() && !acts_on_it(line, prose, prose && m_prose == ProseKind::table_row)) {
      return Judgement{ThreatSeverity::medium, k_mention_note};
    }
  }
  return Judgement{pattern.severity, ""};
}

} // namespace skillrt::core
