// Names, trust levels (spec §2.12 rule 6) and the install policy (spec §3.3).
#include <array>

#include "core/guard/guard.hpp"

namespace skillrt::core {
namespace {

std::string_view strip_prefix(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix ? s.substr(prefix.size()) : s;
}

bool equals_or_below(std::string_view source, std::string_view repo) {
  return source == repo ||
         (source.size() > repo.size() && source.substr(0, repo.size()) == repo && source[repo.size()] == '/');
}

} // namespace

const char* verdict_name(Verdict verdict) {
  switch (verdict) {
  case Verdict::safe:
    return "safe";
  case Verdict::caution:
    return "caution";
  case Verdict::dangerous:
    return "dangerous";
  }
  return "dangerous";
}

const char* trust_level_name(TrustLevel trust) {
  switch (trust) {
  case TrustLevel::builtin:
    return "builtin";
  case TrustLevel::trusted:
    return "trusted";
  case TrustLevel::community:
    return "community";
  case TrustLevel::agent_created:
    return "agent-created";
  case TrustLevel::project_local:
    return "project-local";
  }
  return "community";
}

std::optional<Verdict> parse_verdict(std::string_view name) {
  for (const Verdict v : {Verdict::safe, Verdict::caution, Verdict::dangerous}) {
    if (name == verdict_name(v)) {
      return v;
    }
  }
  return std::nullopt;
}

std::optional<TrustLevel> parse_trust_level(std::string_view name) {
  for (const TrustLevel t : {TrustLevel::builtin, TrustLevel::trusted, TrustLevel::community, TrustLevel::agent_created,
                             TrustLevel::project_local}) {
    if (name == trust_level_name(t)) {
      return t;
    }
  }
  return std::nullopt;
}

const char* install_decision_name(InstallDecision d) {
  switch (d) {
  case InstallDecision::allow:
    return "allow";
  case InstallDecision::ask:
    return "ask";
  case InstallDecision::block:
    return "block";
  }
  return "block";
}

TrustLevel trust_level_for_source(std::string_view source) {
  for (const std::string_view prefix : {"skills-sh/", "skills.sh/", "skils-sh/", "skils.sh/"}) {
    if (source.substr(0, prefix.size()) == prefix) {
      source = strip_prefix(source, prefix);
      break;
    }
  }
  if (source == "agent-created") {
    return TrustLevel::agent_created;
  }
  if (source == "official") {
    return TrustLevel::builtin;
  }
  if (source == "project-local") {
    return TrustLevel::project_local;
  }
  for (const std::string_view repo : {"openai/skills", "anthropics/skills", "huggingface/skills", "NVIDIA/skills"}) {
    if (equals_or_below(source, repo)) {
      return TrustLevel::trusted;
    }
  }
  return TrustLevel::community;
}

Verdict verdict_for(const std::vector<GuardFinding>& findings) {
  Verdict verdict = Verdict::safe;
  for (const GuardFinding& f : findings) {
    if (f.severity == ThreatSeverity::critical) {
      return Verdict::dangerous;
    }
    if (f.severity == ThreatSeverity::high) {
      verdict = Verdict::caution;
    }
  }
  return verdict;
}

PolicyDecision decide_install(const ScanResult& result, bool force) {
  // What the matrix says for each (trust, verdict) cell.
  enum class Cell { allow, block_forceable, block, ask };
  Cell cell = Cell::allow;
  const Verdict v = result.verdict;
  switch (result.trust) {
  case TrustLevel::builtin:
    cell = Cell::allow;
    break;
  case TrustLevel::trusted:
    cell = v == Verdict::dangerous ? Cell::block : Cell::allow;
    break;
  case TrustLevel::community:
    cell = v == Verdict::safe ? Cell::allow : v == Verdict::caution ? Cell::block_forceable : Cell::block;
    break;
  case TrustLevel::agent_created:
    cell = v == Verdict::dangerous ? Cell::ask : Cell::allow;
    break;
  case TrustLevel::project_local:
    // Project skills are quarantined only for a dangerous verdict (spec §3.3 consumers).
    cell = v == Verdict::dangerous ? Cell::block : Cell::allow;
    break;
  }
  const std::string trust = trust_level_name(result.trust);
  const std::string verdict = verdict_name(v);
  const std::string count = std::to_string(result.findings.size()) + " findings";
  if (force && (cell == Cell::block_forceable || cell == Cell::ask)) {
    return {InstallDecision::allow, "Force-installed despite " + verdict + " verdict (" + count + ")"};
  }
  switch (cell) {
  case Cell::allow:
    return {InstallDecision::allow, "Allowed (" + trust + " source, " + verdict + " verdict)"};
  case Cell::ask:
    return {InstallDecision::ask,
            "Requires confirmation (" + trust + " source + " + verdict + " verdict, " + count + ")"};
  case Cell::block_forceable:
    return {InstallDecision::block,
            "Blocked (" + trust + " source + " + verdict + " verdict, " + count + "). Use --force to override."};
  case Cell::block:
    break;
  }
  return {InstallDecision::block, "Blocked (" + trust + " source + " + verdict + " verdict, " + count +
                                      "). --force does not override a dangerous verdict."};
}

} // namespace skillrt::core
