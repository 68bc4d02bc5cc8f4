// Deterministic skill-tree generator for the benchmarks.
//
//   gen_tree OUT_DIR N_SKILLS SEED
//
// Writes OUT_DIR/home (a HERMES home: skills/ plus a config.yaml naming ../ext
// as an external dir) and OUT_DIR/ext, holding N_SKILLS SKILL.md files between
// them, shaped like real catalogs: 0-4 category levels, frontmatter of 300-600
// bytes, bodies of a few KB, support folders, decoy SKILL.md files in places a
// walker must not count (support dirs, .git, node_modules), names duplicated
// across the two roots, ~1% malformed YAML and ~1% UTF-8 BOMs. The same
// arguments always give byte-identical trees (own PRNG, no std distributions).
// OUT_DIR/manifest.txt records what was generated, including a skill name for
// `skillrt view` benchmarks.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "splitmix.hpp"

namespace {

namespace fs = std::filesystem;

using Rng = skillrt::bench::SplitMix;

const std::vector<std::string> k_categories = {
    "devops", "research", "productivity", "data-science", "creative", "software-development",
    "mlops", "security", "email", "media", "finance", "gaming", "health", "smart-home",
    "social-media", "education", "legal", "marketing", "note-taking", "github", "autonomous-ai-agents",
    "diagramming", "red-teaming", "inference"};
const std::vector<std::string> k_subcategories = {
    "cloud", "local", "papers", "pipelines", "monitoring", "testing", "writing", "audio", "video",
    "images", "crypto", "notebooks", "training", "evaluation", "deploy", "linting", "mobile", "web",
    "scraping", "search", "storage", "queues", "auth", "backups", "logs", "reports", "slides",
    "sheets", "calendars", "contacts"};
const std::vector<std::string> k_adjectives = {
    "quick", "robust", "lazy", "smart", "tiny", "deep", "open", "safe", "fast", "clean",
    "shared", "remote", "local", "async", "batch", "live", "static", "fuzzy", "strict", "plain"};
const std::vector<std::string> k_nouns = {
    "parser", "runner", "helper", "builder", "checker", "reader", "writer", "fixer", "planner",
    "tracker", "scanner", "indexer", "summariser", "translator", "formatter", "exporter",
    "importer", "monitor", "reviewer", "generator"};
const std::vector<std::string> k_words = {
    "use", "this", "skill", "when", "the", "user", "asks", "to", "build", "review", "deploy",
    "summarise", "a", "repository", "dataset", "pipeline", "report", "with", "clear", "steps",
    "and", "checks", "for", "common", "errors", "in", "production", "local", "files", "API",
    "tests", "notes", "before", "after", "every", "change", "quickly", "safely", "output",
    "format", "markdown", "JSON", "service", "cluster", "model", "prompt", "agent", "tool"};
const std::vector<std::string> k_tags = {
    "automation", "cli", "python", "docker", "kubernetes", "llm", "writing", "analysis", "git",
    "testing", "security", "media", "finance", "web", "api", "shell", "data", "ml", "notes", "ops"};

std::string sentence(Rng& rng, std::size_t min_bytes) {
  std::string out;
  while (out.size() < min_bytes) {
    if (!out.empty()) {
      out += ' ';
    }
    out += rng.pick(k_words);
  }
  out[0] = static_cast<char>(out[0] >= 'a' && out[0] <= 'z' ? out[0] - 'a' + 'A' : out[0]);
  return out;
}

std::string base36(std::size_t v) {
  static constexpr std::string_view k_digits = "0123456789abcdefghijklmnopqrstuvwxyz";
  std::string s;
  do {
    s.insert(s.begin(), k_digits[v % 36]);
    v /= 36;
  } while (v != 0);
  return s;
}

struct Counters {
  std::size_t home_skills = 0;
  std::size_t ext_skills = 0;
  std::size_t duplicates = 0;
  std::size_t macos_only = 0;
  std::size_t malformed = 0;
  std::size_t bom = 0;
  std::size_t decoys = 0;
  std::size_t support_files = 0;
};

class Writer {
 public:
  bool ok() const { return m_ok; }
  const std::string& error() const { return m_error; }

  void dir(const fs::path& p) {
    std::error_code ec;
    fs::create_directories(p, ec);
    if (ec) {
      record(p, ec.message());
    }
  }
  void file(const fs::path& p, std::string_view content) {
    dir(p.parent_path());
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    if (!out) {
      record(p, "write failed");
    }
  }

 private:
  void record(const fs::path& p, const std::string& why) {
    if (m_ok) {
      m_ok = false;
      m_error = p.string() + ": " + why;
    }
  }
  bool m_ok = true;
  std::string m_error;
};

std::string frontmatter(Rng& rng, const std::string& name, bool malformed, bool macos_only,
                        Counters& counters) {
  std::string head = "name: " + name + "\n";
  std::string tail;
  tail += "version: 1." + std::to_string(rng.below(20)) + ".0\n";
  tail += "author: Bench Generator\nlicense: MIT\n";
  if (macos_only) {
    tail += "platforms: [macos]\n";
    ++counters.macos_only;
  } else if (rng.per_mille(150)) {
    tail += "platforms: [linux, macos]\n";
  }
  tail += "metadata:\n  hermes:\n    tags: [";
  const std::size_t n_tags = rng.between(2, 5);
  for (std::size_t t = 0; t < n_tags; ++t) {
    tail += (t == 0 ? "" : ", ") + rng.pick(k_tags);
  }
  // An unclosed flow sequence: strict YAML fails, Hermes' line fallback still
  // recovers name and description.
  tail += malformed ? "\n" : "]\n";
  if (rng.per_mille(400)) {
    tail += "    related_skills: [" + rng.pick(k_adjectives) + "-" + rng.pick(k_nouns) + "]\n";
  }
  // Size the description so the whole frontmatter lands in 300-600 bytes.
  const std::size_t target = rng.between(300, 600);
  const std::size_t fixed = head.size() + tail.size() + std::string_view("description: \n").size();
  const std::size_t desc_len = target > fixed + 40 ? target - fixed : 40;
  return head + "description: " + sentence(rng, desc_len) + "\n" + tail;
}

std::string body(Rng& rng, const std::string& name) {
  std::string b = "\n# " + name + "\n\n## When to use\n\n" + sentence(rng, 200) + ".\n\n## Steps\n\n";
  const std::size_t target = rng.between(2000, 6000);
  std::size_t step = 1;
  while (b.size() < target) {
    b += std::to_string(step++) + ". " + sentence(rng, 120) + ".\n";
    if (step % 4 == 0) {
      b += "\n```bash\n" + rng.pick(k_nouns) + " --" + rng.pick(k_adjectives) + " ./input\n```\n\n";
    }
  }
  b += "\n## Pitfalls\n\n" + sentence(rng, 300) + ".\n";
  return b;
}

void support_files(Rng& rng, Writer& w, const fs::path& skill_dir, Counters& counters) {
  if (rng.per_mille(300)) {
    const std::size_t n = rng.between(1, 3);
    for (std::size_t i = 0; i < n; ++i) {
      w.file(skill_dir / "references" / (rng.pick(k_nouns) + "-" + std::to_string(i) + ".md"),
             "# Reference\n\n" + sentence(rng, rng.between(1000, 4000)) + "\n");
      ++counters.support_files;
    }
    // A SKILL.md inside a support folder is documentation, not a skill.
    if (rng.per_mille(60)) {
      w.file(skill_dir / "references" / "SKILL.md", "---\nname: decoy-reference\ndescription: not a skill\n---\n");
      ++counters.decoys;
    }
  }
  if (rng.per_mille(200)) {
    w.file(skill_dir / "scripts" / "run.py",
           "#!/usr/bin/env python3\nimport sys\n\n\ndef main():\n    print(" + std::to_string(rng.below(1000)) +
               ")\n\n\nif __name__ == '__main__':\n    sys.exit(main())\n");
    ++counters.support_files;
  }
  if (rng.per_mille(100)) {
    std::string blob(rng.between(256, 2048), '\0');
    for (char& c : blob) {
      c = static_cast<char>(rng.below(256));
    }
    w.file(skill_dir / "assets" / "logo.bin", blob);
    w.file(skill_dir / "assets" / "template.json", "{\"kind\": \"template\", \"fields\": []}\n");
    counters.support_files += 2;
  }
  // Vendored trees that a walker must prune without reading.
  if (rng.per_mille(10)) {
    w.file(skill_dir / "node_modules" / "left-pad" / "SKILL.md", "---\nname: decoy-node\ndescription: vendored\n---\n");
    w.file(skill_dir / "node_modules" / "left-pad" / "index.js", "module.exports = (s) => s;\n");
    ++counters.decoys;
  }
  if (rng.per_mille(10)) {
    w.file(skill_dir / ".git" / "SKILL.md", "---\nname: decoy-git\ndescription: inside .git\n---\n");
    w.file(skill_dir / ".git" / "HEAD", "ref: refs/heads/main\n");
    ++counters.decoys;
  }
}

fs::path category_path(Rng& rng) {
  // Depth distribution: 10% flat, then 1-4 category levels.
  const std::size_t roll = rng.below(100);
  const std::size_t depth = roll < 10 ? 0 : roll < 55 ? 1 : roll < 80 ? 2 : roll < 92 ? 3 : 4;
  fs::path p;
  for (std::size_t level = 0; level < depth; ++level) {
    p /= level == 0 ? rng.pick(k_categories) : rng.pick(k_subcategories);
  }
  return p;
}

int run(const fs::path& out, std::size_t n_skills, std::uint64_t seed) {
  std::error_code ec;
  if (fs::exists(out, ec) && !fs::is_empty(out, ec)) {
    std::fprintf(stderr, "gen_tree: %s exists and is not empty\n", out.string().c_str());
    return 1;
  }
  Rng rng(seed);
  Writer w;
  Counters counters;
  const fs::path home_skills = out / "home" / "skills";
  const fs::path ext = out / "ext";
  w.dir(home_skills);
  w.dir(ext);
  w.file(out / "home" / "config.yaml", "skills:\n  external_dirs:\n    - ../ext\n");
  // A repository checkout at the root of the skills dir, with a decoy.
  w.file(home_skills / ".git" / "HEAD", "ref: refs/heads/main\n");
  w.file(home_skills / ".git" / "skills" / "ghost" / "SKILL.md", "---\nname: ghost\ndescription: in .git\n---\n");
  ++counters.decoys;

  std::vector<std::string> home_names;
  std::string view_name;
  for (std::size_t i = 0; i < n_skills && w.ok(); ++i) {
    const bool in_ext = rng.per_mille(100);
    std::string name;
    if (in_ext && !home_names.empty() && rng.per_mille(500)) {
      name = rng.pick(home_names);  // shadowed by the home copy (first root wins)
      ++counters.duplicates;
    } else {
      name = rng.pick(k_adjectives) + "-" + rng.pick(k_nouns) + "-" + base36(i);
    }
    const fs::path rel = category_path(rng);
    // A few folders are named differently from the skill they hold.
    const std::string dir_name = rng.per_mille(50) ? "pkg-" + base36(i) : name;
    const fs::path skill_dir = (in_ext ? ext : home_skills) / rel / dir_name;
    if (fs::exists(skill_dir / "SKILL.md", ec)) {
      continue;  // a duplicate landing on the same path: skip, keeps counts honest
    }
    const bool malformed = rng.per_mille(10);
    const bool bom = rng.per_mille(10);
    const bool macos_only = rng.per_mille(20);
    std::string text;
    if (bom) {
      text += "\xEF\xBB\xBF";
      ++counters.bom;
    }
    text += "---\n" + frontmatter(rng, name, malformed, macos_only, counters) + "---\n" + body(rng, name);
    w.file(skill_dir / "SKILL.md", text);
    counters.malformed += malformed ? 1 : 0;
    support_files(rng, w, skill_dir, counters);
    if (in_ext) {
      ++counters.ext_skills;
    } else {
      ++counters.home_skills;
      home_names.push_back(name);
      if (view_name.empty() && std::distance(rel.begin(), rel.end()) == 2 && !malformed && !bom && !macos_only &&
          dir_name == name && i >= n_skills / 2) {
        view_name = name;
      }
    }
  }
  if (!w.ok()) {
    std::fprintf(stderr, "gen_tree: %s\n", w.error().c_str());
    return 1;
  }
  if (view_name.empty() && !home_names.empty()) {
    view_name = home_names.back();
  }
  std::string manifest;
  manifest += "seed=" + std::to_string(seed) + "\n";
  manifest += "skill_files=" + std::to_string(counters.home_skills + counters.ext_skills) + "\n";
  manifest += "home_skills=" + std::to_string(counters.home_skills) + "\n";
  manifest += "ext_skills=" + std::to_string(counters.ext_skills) + "\n";
  manifest += "duplicate_names=" + std::to_string(counters.duplicates) + "\n";
  manifest += "macos_only=" + std::to_string(counters.macos_only) + "\n";
  manifest += "malformed_yaml=" + std::to_string(counters.malformed) + "\n";
  manifest += "bom=" + std::to_string(counters.bom) + "\n";
  manifest += "decoy_skill_files=" + std::to_string(counters.decoys) + "\n";
  manifest += "support_files=" + std::to_string(counters.support_files) + "\n";
  manifest += "view_name=" + view_name + "\n";
  w.file(out / "manifest.txt", manifest);
  std::fputs(manifest.c_str(), stdout);
  return w.ok() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fputs("usage: gen_tree OUT_DIR N_SKILLS SEED\n", stderr);
    return 2;
  }
  char* end = nullptr;
  const unsigned long long n = std::strtoull(argv[2], &end, 10);
  if (end == argv[2] || *end != '\0' || n > 10'000'000ULL) {
    std::fputs("gen_tree: N_SKILLS must be a number up to 10000000\n", stderr);
    return 2;
  }
  const unsigned long long seed = std::strtoull(argv[3], &end, 10);
  if (end == argv[3] || *end != '\0') {
    std::fputs("gen_tree: SEED must be a number\n", stderr);
    return 2;
  }
  return run(argv[1], static_cast<std::size_t>(n), static_cast<std::uint64_t>(seed));
}
