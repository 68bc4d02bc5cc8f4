#include "core/guard/pattern_scan.hpp"

#include <re2/filtered_re2.h>
#include <re2/re2.h>
#include <re2/set.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "core/guard/file_context.hpp"
#include "core/guard/literal_matcher.hpp"
#include "core/guard/snippet.hpp"
#include "core/limits.hpp"

// How a file is matched against ~200 patterns in linear time without one
// giant RE2::Set (whose DFA explodes on patterns full of `.*`: measured at
// well under 1 MB/s on prose):
//
// 1. Pre-filter. RE2's FilteredRE2 derives, for each pattern, literal "atoms"
//    one of which any match must contain. One Aho-Corasick pass over the file
//    finds the atoms on each line; a pattern becomes a candidate on a line
//    only when one of its atoms is there.
// 2. Patterns without atoms (too little literal text) go into one small
//    RE2::Set matched once over the whole file; when it hits, those patterns
//    are candidates on every line.
// 3. Each (line, candidate) is confirmed with the pattern's own RE2, then
//    judged by the FileContext.
namespace skillrt::core {
namespace {

constexpr int k_min_atom_lengths[] = {4, 3};

struct CompiledPatterns {
  std::vector<const ThreatPattern*> patterns;         // by index
  std::vector<std::unique_ptr<RE2>> regexes;          // by index
  std::vector<std::vector<std::uint32_t>> atom_users; // atom → pattern indices
  std::unique_ptr<LiteralMatcher> atoms;
  std::vector<std::uint32_t> unfiltered;                  // pattern indices without atoms
  std::vector<std::unique_ptr<RE2>> unfiltered_multiline; // "(?m)" + regex, same order
  std::unique_ptr<RE2::Set> unfiltered_set;               // same order as `unfiltered`
  std::vector<std::string> errors;
};

RE2::Options pattern_options() {
  RE2::Options options;
  options.set_case_sensitive(false);
  options.set_log_errors(false);
  options.set_max_mem(limits::k_guard_regex_set_memory);
  return options;
}

bool usable_atom(const std::string& atom) {
  return !atom.empty() && std::all_of(atom.begin(), atom.end(), [](char c) {
    const auto b = static_cast<unsigned char>(c);
    return b != '\n' && b < 0x80 && !(b >= 'A' && b <= 'Z');
  });
}

// A smallest-found subset of a pattern's atoms that every match must contain
// one of (a hitting set of its pre-filter). Starting from all atoms, each
// atom, shortest (most common) first, is dropped if the pattern still cannot
// match with every atom outside the set present. For `(verb).*(object)`
// patterns this keeps only one side, so a line needs the rarer words to
// become a candidate.
std::vector<std::string> hitting_set(const re2::FilteredRE2& filter, const std::vector<std::string>& atoms) {
  std::vector<std::size_t> order(atoms.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
  }
  // Words that fill ordinary prose and code go first, then shorter atoms.
  static constexpr std::string_view k_common[] = {
      "-----", "with", "data",    "file",  "mode",   "script", "rate",   "user",   "python", "over",
      "check", "turn", "return",  "path",  "import", "http",   "ession", "source", "exec",   "output",
      "print", "load", "require", "skill", "config", "that",   "this",   "from",   "your",   "will",
      "have",  "then", "when",    "must",  "make",   "sure",   "tool",   "code",   "node",   "test",
      "name",  "type", "read",    "write", "send",   "post",   "list",   "open",   "echo",
      // Everyday words of agent skills (the intent-in-prose rules have them on both sides).
      "prompt", "request", "question", "show", "note", "report", "include", "share", "copy", "keep",
      "leave", "step", "steps", "output", "message", "response", "summary", "token", "select", "answer",
      "every", "each", "what", "action", "change", "call", "command"};
  auto rank = [&](std::size_t i) {
    const bool common = std::find(std::begin(k_common), std::end(k_common), atoms[i]) != std::end(k_common);
    return std::pair<int, std::size_t>(common ? 0 : 1, atoms[i].size());
  };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rank(a) < rank(b); });
  std::vector<bool> in_set(atoms.size(), true);
  std::vector<int> present;
  std::vector<int> potentials;
  for (const std::size_t candidate : order) {
    in_set[candidate] = false;
    present.clear();
    for (std::size_t j = 0; j < atoms.size(); ++j) {
      if (!in_set[j]) {
        present.push_back(static_cast<int>(j));
      }
    }
    potentials.clear();
    filter.AllPotentials(present, &potentials);
    if (!potentials.empty()) {
      in_set[candidate] = true; // without it the pattern could match: keep it
    }
  }
  std::vector<std::string> out;
  for (std::size_t j = 0; j < atoms.size(); ++j) {
    if (in_set[j]) {
      out.push_back(atoms[j]);
    }
  }
  return out;
}

CompiledPatterns compile_patterns() {
  CompiledPatterns c;
  const RE2::Options options = pattern_options();
  std::vector<std::string> atoms;
  std::vector<std::vector<std::uint32_t>> users;
  for (const ThreatPattern& pattern : threat_patterns()) {
    auto regex = std::make_unique<RE2>(pattern.regex, options);
    if (!regex->ok()) {
      c.errors.push_back(std::string(pattern.id) + ": " + regex->error());
      continue;
    }
    const auto index = static_cast<std::uint32_t>(c.patterns.size());
    c.patterns.push_back(&pattern);
    c.regexes.push_back(std::move(regex));

    // This pattern's atoms: every match contains at least one of them (the
    // pre-filter is monotone and false on no atoms), unless FilteredRE2 found
    // none it could rely on.
    // Four-letter atoms are rare enough to keep candidates few; a pattern
    // whose alternatives only share three-letter words ("nc ", "rm ") still
    // gets a pre-filter from those rather than joining the whole-file set,
    // whose one DFA pass over every file is the single largest cost of a scan.
    // (Two-letter atoms were tried: they make too many candidates.)
    std::unique_ptr<re2::FilteredRE2> filter;
    std::vector<std::string> own;
    bool filterable = false;
    for (const int min_atom : k_min_atom_lengths) {
      filter = std::make_unique<re2::FilteredRE2>(min_atom);
      int id = 0;
      filter->Add(pattern.regex, options, &id);
      own.clear();
      filter->Compile(&own);
      std::vector<int> potentials;
      filter->AllPotentials({}, &potentials);
      filterable = potentials.empty() && !own.empty() && std::all_of(own.begin(), own.end(), usable_atom);
      if (filterable) {
        break;
      }
    }
    if (!filterable) {
      c.unfiltered.push_back(index);
      continue;
    }
    for (const std::string& atom : hitting_set(*filter, own)) {
      auto it = std::find(atoms.begin(), atoms.end(), atom);
      const auto atom_index = static_cast<std::size_t>(it - atoms.begin());
      if (it == atoms.end()) {
        atoms.push_back(atom);
        users.emplace_back();
      }
      users[atom_index].push_back(index);
    }
  }
  if (!atoms.empty()) {
    c.atoms = std::make_unique<LiteralMatcher>(atoms);
  }
  c.atom_users = std::move(users);
  if (!c.unfiltered.empty()) {
    // (?m): one pass over a whole file finds every pattern that matches some line of it.
    c.unfiltered_set = std::make_unique<RE2::Set>(options, RE2::UNANCHORED);
    for (const std::uint32_t index : c.unfiltered) {
      const std::string multiline = "(?m)" + std::string(c.patterns[index]->regex);
      c.unfiltered_set->Add(multiline, nullptr);
      c.unfiltered_multiline.push_back(std::make_unique<RE2>(multiline, options));
    }
    if (!c.unfiltered_set->Compile()) {
      c.errors.emplace_back("the set of patterns without literals does not fit in memory");
      c.unfiltered_set.reset();
    }
  }
  return c;
}

const CompiledPatterns& compiled() {
  // Compiled on first use and immutable afterwards; RE2 matching is thread-safe.
  static const CompiledPatterns patterns = compile_patterns();
  return patterns;
}

// Where `regex` first matches `text`, or npos.
std::size_t match_offset(const RE2& regex, std::string_view text) {
  re2::StringPiece input(text.data(), text.size());
  re2::StringPiece match;
  if (!regex.Match(input, 0, input.size(), RE2::UNANCHORED, &match, 1)) {
    return std::string_view::npos;
  }
  return static_cast<std::size_t>(match.data() - input.data());
}

struct Candidate {
  std::uint32_t line;    // 0-based
  std::uint32_t pattern; // index into CompiledPatterns
};

// Adds a candidate for each line on which a whole-text search for `regex`
// finds a match start. A match may run across lines (`\s` matches "\n"), so
// lines are only candidates; the per-line check decides. Searches resume on
// the next line; should overlapping cross-line matches make the searches
// re-read more than a few times the text, every remaining line becomes a
// candidate instead (still linear).
void add_match_lines(const RE2& regex, std::string_view text, std::uint32_t pattern, std::vector<Candidate>& out) {
  const re2::StringPiece input(text.data(), text.size());
  std::size_t pos = 0;
  std::size_t line = 0;
  std::size_t counted_to = 0; // newlines before this offset are counted in `line`
  std::size_t work = 0;
  while (pos < text.size()) {
    re2::StringPiece match;
    if (!regex.Match(input, pos, input.size(), RE2::UNANCHORED, &match, 1)) {
      return;
    }
    const auto start = static_cast<std::size_t>(match.data() - input.data());
    work += start + match.size() - pos;
    line += static_cast<std::size_t>(std::count(text.begin() + static_cast<std::ptrdiff_t>(counted_to),
                                                text.begin() + static_cast<std::ptrdiff_t>(start), '\n'));
    counted_to = start;
    out.push_back({static_cast<std::uint32_t>(line), pattern});
    const std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) {
      return;
    }
    if (work > 4 * text.size() + 4096) {
      // Pathological overlap: hand every later line to the per-line check.
      std::size_t later = line + 1;
      for (std::size_t i = nl; i < text.size(); i = text.find('\n', i + 1)) {
        out.push_back({static_cast<std::uint32_t>(later++), pattern});
        if (text.find('\n', i + 1) == std::string_view::npos) {
          break;
        }
      }
      return;
    }
    pos = nl + 1;
  }
}

} // namespace

std::vector<std::string> threat_pattern_errors() {
  return compiled().errors;
}

void find_threat_patterns(std::string_view rel_path, std::string_view text, std::vector<GuardFinding>& out) {
  const CompiledPatterns& c = compiled();
  if (text.empty() || c.patterns.empty()) {
    return;
  }

  // 1. Atom hits → (line, pattern) candidates, each pair once.
  std::vector<Candidate> candidates;
  if (c.atoms != nullptr) {
    std::vector<std::uint32_t> stamp(c.patterns.size(), 0xFFFFFFFFu);
    c.atoms->scan(text, [&](std::size_t line, std::uint32_t atom) {
      const auto line32 = static_cast<std::uint32_t>(line);
      for (const std::uint32_t p : c.atom_users[atom]) {
        if (stamp[p] != line32) {
          stamp[p] = line32;
          candidates.push_back({line32, p});
        }
      }
    });
  }
  // 2. Patterns without atoms that match somewhere in the file: their
  //    matches, found by searching the whole file, name the candidate lines.
  if (c.unfiltered_set != nullptr) {
    std::vector<int> hits;
    RE2::Set::ErrorInfo info{};
    if (!c.unfiltered_set->Match(re2::StringPiece(text.data(), text.size()), &hits, &info) &&
        info.kind != RE2::Set::kNoError) {
      for (std::size_t i = 0; i < c.unfiltered.size(); ++i) {
        hits.push_back(static_cast<int>(i)); // the DFA gave up: search each of them
      }
    }
    for (const int hit : hits) {
      const auto i = static_cast<std::size_t>(hit);
      add_match_lines(*c.unfiltered_multiline[i], text, c.unfiltered[i], candidates);
    }
  }
  if (candidates.empty()) {
    return;
  }
  // Atom candidates arrive in line order; only the searched ones need sorting in.
  const auto by_line = [](const Candidate& a, const Candidate& b) {
    return a.line != b.line ? a.line < b.line : a.pattern < b.pattern;
  };
  if (!std::is_sorted(candidates.begin(), candidates.end(), by_line)) {
    std::sort(candidates.begin(), candidates.end(), by_line);
  }
  candidates.erase(
      std::unique(candidates.begin(), candidates.end(),
                  [](const Candidate& a, const Candidate& b) { return a.line == b.line && a.pattern == b.pattern; }),
      candidates.end());

  // 3. Confirm and judge, line by line, through the file's context.
  FileContext context(rel_path);
  std::string scratch;
  std::vector<std::uint32_t> line_patterns;
  const std::size_t piece_bytes = limits::k_guard_line_piece_bytes;
  const std::size_t step = piece_bytes - limits::k_guard_line_piece_overlap;
  std::size_t next_candidate = 0;
  std::size_t line_index = 0;
  std::size_t pos = 0;
  for (;;) {
    const void* nl = std::memchr(text.data() + pos, '\n', text.size() - pos);
    const std::size_t end =
        nl == nullptr ? text.size() : static_cast<std::size_t>(static_cast<const char*>(nl) - text.data());
    std::string_view line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    // The context sees the first piece of an overlong line; every piece is
    // judged in that line's context.
    context.advance(line.substr(0, piece_bytes));

    line_patterns.clear();
    while (next_candidate < candidates.size() && candidates[next_candidate].line == line_index) {
      line_patterns.push_back(candidates[next_candidate++].pattern);
    }
    for (const std::uint32_t index : line_patterns) {
      const ThreatPattern& pattern = *c.patterns[index];
      const RE2& regex = *c.regexes[index];
      for (std::size_t piece_start = 0;; piece_start += step) {
        const std::string_view piece = line.substr(piece_start, piece_bytes);
        std::size_t at = match_offset(regex, piece);
        if (at != std::string_view::npos) {
          const std::string_view subject = context.text_for(pattern, piece, scratch);
          if (subject.data() != piece.data() || subject.size() != piece.size()) {
            at = match_offset(regex, subject);
          }
        }
        std::optional<FileContext::Judgement> judgement;
        if (at != std::string_view::npos) {
          judgement = context.judge(pattern, piece, at);
        }
        if (judgement) {
          GuardFinding finding;
          finding.pattern_id = std::string(pattern.id);
          finding.category = pattern.category;
          finding.severity = judgement->severity;
          finding.file = std::string(rel_path);
          finding.line = line_index + 1;
          finding.column = piece_start + at + 1;
          finding.snippet = make_snippet(line, piece_start + at, limits::k_guard_snippet_chars);
          finding.description = std::string(pattern.description);
          if (!judgement->note.empty()) {
            finding.description += ' ';
            finding.description += judgement->note;
          }
          out.push_back(std::move(finding));
          break; // one finding per (pattern, line)
        }
        if (piece_start + piece_bytes >= line.size()) {
          break;
        }
      }
    }
    if (nl == nullptr || next_candidate >= candidates.size()) {
      break;
    }
    pos = end + 1;
    ++line_index;
  }
}

} // namespace skillrt::core
