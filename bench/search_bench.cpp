// Relevant-skill search at scale: a SQLite (or PostgreSQL) store indexing N file skills
// (default 50,000) written as real SKILL.md files under a fresh home.
//
//   search_bench [N_SKILLS] [WORK_DIR] [POSTGRES_URL]
//
// With a PostgreSQL URL the index lives there instead of HOME/skillrt.db;
// the database's public schema is dropped and made again first, so point it
// at a throw-away database (scripts/pg-test-cluster, then createdb).
//
// Measures, in this order:
//   1. the one-time sync of N file documents into an empty index
//      (build_catalog + sync_search_index);
//   2. the per-search freshness check when nothing changed (build_catalog,
//      then sync_search_index: one stat per skill + the stored stamps);
//   3. the query itself: store.search (the query as search_skills_in sends
//      it, stop words dropped) over a few hundred varied queries (common and
//      rare single words, three-word queries, names): a first pass, which
//      reads each word's postings out of FTS5 as the first searches after a
//      change do, then warm passes, anonymous and for a user with 1,000
//      database skills, and right after one changed file was re-indexed;
//      p50 / p99 / mean;
//   4. search_skills_in end to end (check + query) for a sample of queries;
//   5. the same as the servers run it: the index synced once per snapshot.
//
// The text is synthetic but shaped like real skills: a Zipf-distributed
// vocabulary of ~20k words (a few hundred domain words on top, the long tail
// made of generated words), descriptions of 60-250 bytes, 2-5 tags, bodies of
// 0.5-8 KB. Deterministic: its own splitmix64 PRNG.
#include <unistd.h>

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unordered_set>
#include <vector>

#include "splitmix.hpp"

#include "core/config/config.hpp"
#include "core/context.hpp"
#include "core/discovery/catalog.hpp"
#include "core/search/index_sync.hpp"
#include "core/search/search_skills.hpp"
#include "core/search/stop_words.hpp"
#include "store/open_store.hpp"
#include "store/postgres/pg_connection.hpp"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

using Rng = skillrt::bench::SplitMix;

const std::vector<std::string> k_domain = {
    "deploy", "kubernetes", "docker", "pipeline", "dataset", "model", "prompt", "agent", "review",
    "repository", "commit", "branch", "release", "rollback", "cluster", "service", "database", "query",
    "index", "schema", "migration", "backup", "restore", "monitor", "alert", "metric", "dashboard",
    "log", "trace", "debug", "profile", "benchmark", "test", "lint", "format", "refactor", "document",
    "summarise", "translate", "email", "calendar", "meeting", "invoice", "budget", "report", "slide",
    "spreadsheet", "chart", "diagram", "image", "video", "audio", "transcribe", "podcast", "paper",
    "research", "citation", "arxiv", "notebook", "training", "evaluation", "inference", "embedding",
    "vector", "search", "scrape", "crawl", "api", "webhook", "oauth", "token", "secret", "vault",
    "encrypt", "firewall", "scan", "audit", "compliance", "license", "contract", "invoice", "tax",
    "stock", "portfolio", "crypto", "wallet", "game", "shader", "sprite", "music", "playlist", "recipe",
    "fitness", "sleep", "garden", "thermostat", "lights", "camera", "drone", "robot", "terraform",
    "ansible", "nginx", "postgres", "redis", "kafka", "spark", "airflow", "pytorch", "tensorflow",
    "jupyter", "pandas", "numpy", "rust", "golang", "python", "typescript", "react", "android", "ios",
    "swift", "kotlin", "latex", "markdown", "pdf", "ocr", "github", "gitlab", "jira", "slack", "discord",
    "telegram", "twitter", "youtube", "notion", "obsidian", "zotero", "figma", "blender", "unity"};
const std::vector<std::string> k_function_words = {
    "the", "a", "to", "and", "of", "in", "for", "with", "when", "this", "use", "on", "is", "it",
    "from", "by", "that", "as", "be", "or", "an", "at", "your", "each", "then", "run", "check", "file"};

// The background language: ~20k words, function words the most frequent,
// then a long tail of generated words; drawn with a Zipf-like law
// (rank^-1.07). Domain words are not in it: they come from a skill's topics.
class Vocabulary {
 public:
  explicit Vocabulary(Rng& rng) {
    m_words = k_function_words;
    static const char* const k_syllables[] = {"ka", "ro", "mi", "ten", "vu", "sel", "dra", "po", "lin", "qua",
                                              "zer", "bo", "ni", "ste", "gal", "fu", "orn", "pre", "ix", "tal"};
    // Distinct words: a tail word must be as rare as its rank says.
    std::unordered_set<std::string> seen(m_words.begin(), m_words.end());
    seen.insert(k_domain.begin(), k_domain.end());
    while (m_words.size() < 20000) {
      std::string word;
      const std::size_t parts = rng.between(2, 4);
      for (std::size_t i = 0; i < parts; ++i) {
        word += k_syllables[rng.below(20)];
      }
      if (seen.insert(word).second) {
        m_words.push_back(word);
      }
    }
    double total = 0;
    m_cumulative.reserve(m_words.size());
    for (std::size_t rank = 1; rank <= m_words.size(); ++rank) {
      total += 1.0 / std::pow(static_cast<double>(rank), 1.07);
      m_cumulative.push_back(total);
    }
    for (double& c : m_cumulative) {
      c /= total;
    }
  }
  const std::string& draw(Rng& rng) const {
    const double u = rng.unit();
    const auto it = std::lower_bound(m_cumulative.begin(), m_cumulative.end(), u);
    return m_words[std::min<std::size_t>(static_cast<std::size_t>(it - m_cumulative.begin()), m_words.size() - 1)];
  }
  const std::string& at(std::size_t rank) const { return m_words[rank]; }
  std::size_t size() const { return m_words.size(); }

 private:
  std::vector<std::string> m_words;
  std::vector<double> m_cumulative;
};

// A skill is about a few domain words (its topics): about one word in 25 of
// its text is one of them, the rest is background language. So a domain word
// is in the few percent of skills about it, as in real catalogs, while
// function words are in every skill.
using Topics = std::vector<std::string>;

Topics topics_of(Rng& rng) {
  Topics topics;
  for (int i = 0; i < 3; ++i) {
    topics.push_back(k_domain[rng.below(k_domain.size())]);
  }
  return topics;
}

std::string text_of(const Vocabulary& vocab, Rng& rng, std::size_t bytes, const Topics& topics = {}) {
  std::string out;
  std::size_t in_sentence = 0;
  while (out.size() < bytes) {
    const bool topical = !topics.empty() && rng.below(25) == 0;
    // The first topic is the main one: half of the topical words.
    const std::string& word = topical ? topics[rng.below(2) == 0 ? 0 : rng.below(topics.size())] : vocab.draw(rng);
    if (!out.empty() && out.back() != '\n') {
      out += ' ';
    }
    out += word;
    if (++in_sentence >= rng.between(6, 18)) {
      out += ".";
      in_sentence = 0;
      if (rng.below(5) == 0) {
        out += "\n\n";
      }
    }
  }
  return out + ".\n";
}

std::size_t body_bytes(Rng& rng) {
  // Log-uniform 0.5-8 KB: most skills are short, some are long.
  return static_cast<std::size_t>(512.0 * std::pow(16.0, rng.unit()));
}

struct Generated {
  std::vector<std::string> names;
};

// `write_files` false: only the names (a tree generated before is reused).
Generated write_tree(const fs::path& skills, std::size_t count, const Vocabulary& vocab, bool write_files) {
  Rng rng(42);
  Generated out;
  out.names.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const Topics topics = topics_of(rng);
    const std::string& b = vocab.draw(rng);
    std::string name = topics[0] + "-" + b + "-" + std::to_string(i);
    const std::string& category = topics[rng.below(topics.size())];
    std::string tags = "[" + topics[0] + ", " + topics[1];
    for (std::size_t t = rng.below(3); t > 0; --t) {
      tags += ", " + k_domain[rng.below(k_domain.size())];
    }
    tags += "]";
    std::string description = text_of(vocab, rng, rng.between(60, 250), topics);
    description.erase(std::remove(description.begin(), description.end(), '\n'), description.end());
    std::string body = text_of(vocab, rng, body_bytes(rng), topics);
    if (write_files) {
      const fs::path dir = skills / category / name;
      fs::create_directories(dir);
      std::ofstream file(dir / "SKILL.md", std::ios::binary);
      file << "---\nname: " << name << "\ndescription: \"" << description << "\"\nversion: 1.0.0\n"
           << "metadata:\n  hermes:\n    tags: " << tags << "\n---\n\n# " << name << "\n\n" << body;
    }
    out.names.push_back(std::move(name));
  }
  return out;
}

struct Stats {
  double p50 = 0, p99 = 0, mean = 0, max = 0;
};

Stats summarise(std::vector<double> ms) {
  Stats s;
  if (ms.empty()) {
    return s;
  }
  std::sort(ms.begin(), ms.end());
  const auto at = [&](double q) {
    return ms[std::min(ms.size() - 1, static_cast<std::size_t>(q * static_cast<double>(ms.size() - 1) + 0.5))];
  };
  s.p50 = at(0.50);
  s.p99 = at(0.99);
  double sum = 0;
  for (double v : ms) {
    sum += v;
  }
  s.mean = sum / static_cast<double>(ms.size());
  s.max = ms.back();
  return s;
}

// CPU time of the process (SQLite runs in this thread): on a loaded machine
// the wall time mostly measures waiting for a core.
double cpu_ms() {
  timespec ts{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1000.0 + static_cast<double>(ts.tv_nsec) / 1e6;
}

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

void print_stats(const char* what, std::size_t n, const Stats& s, const char* clock = "wall") {
  std::printf("%-46s %-4s n=%-4zu p50 %8.3f ms  p99 %8.3f ms  mean %8.3f ms  max %8.3f ms\n", what, clock, n, s.p50,
              s.p99, s.mean, s.max);
}

int fail(const std::string& what) {
  std::fprintf(stderr, "search_bench: %s\n", what.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace skillrt;
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // progress shows while it runs
  const std::size_t count = argc > 1 ? static_cast<std::size_t>(std::strtoull(argv[1], nullptr, 10)) : 50000;
  fs::path work;
  if (argc > 2) {
    work = argv[2];
    fs::create_directories(work);
  } else {
    std::string pattern = (fs::temp_directory_path() / "skillrt-search-bench-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      return fail("mkdtemp failed");
    }
    work = pattern;
  }
  // A tree generated by an earlier run with the same N is reused (the
  // database is always made afresh, so the one-time sync is measured).
  const fs::path home = work / "home";
  const bool reuse = fs::exists(home / "skills");
  fs::create_directories(home / "skills");
  std::error_code ec;
  for (const char* file : {"skillrt.db", "skillrt.db-wal", "skillrt.db-shm"}) {
    fs::remove(home / file, ec);
  }

  core::Context ctx;
  ctx.home = home;
  ctx.cwd = work;  // not inside a git checkout: no project tier
  ctx.env = [](std::string_view) -> std::optional<std::string> { return std::nullopt; };
  const core::Config cfg = core::load_config(ctx.config_path());

  Rng vocab_rng(7);
  const Vocabulary vocab(vocab_rng);
  auto start = Clock::now();
  const Generated generated = write_tree(home / "skills", count, vocab, !reuse);
  std::printf("%s %zu skills in %.1f s under %s\n", reuse ? "reused" : "generated", count,
              ms_since(start) / 1000.0, home.c_str());

  const std::string db_url = argc > 3 ? argv[3] : (home / "skillrt.db").string();
  if (argc > 3) {
    auto admin = store::pg::Connection::open(db_url);
    if (!admin) {
      return fail(admin.error().message);
    }
    if (auto reset = admin->exec_script("DROP SCHEMA public CASCADE; CREATE SCHEMA public"); !reset) {
      return fail("resetting the bench database: " + reset.error().message);
    }
  }
  auto opened = store::open_store(db_url, ctx);
  if (!opened) {
    return fail(opened.error().message);
  }
  core::SkillStore& store = **opened;

  // Database skills of one user, so user-scoped queries search all three kinds.
  {
    Rng rng(11);
    for (std::size_t i = 0; i < 1000; ++i) {
      core::NewDbSkill skill;
      const Topics topics = topics_of(rng);
      skill.name = "db-" + topics[0] + "-" + std::to_string(i);
      skill.description = text_of(vocab, rng, rng.between(60, 200), topics);
      skill.description.erase(std::remove(skill.description.begin(), skill.description.end(), '\n'),
                              skill.description.end());
      skill.content =
          "---\nname: " + skill.name + "\ndescription: x\n---\n" + text_of(vocab, rng, body_bytes(rng), topics);
      if (auto created = store.create_skill("bench-user", skill); !created) {
        return fail("create_skill: " + created.error().message);
      }
    }
  }

  core::CatalogOptions catalog_options;  // the listing cache on, as the CLI runs
  // 1. The one-time sync into an empty index.
  start = Clock::now();
  core::Catalog catalog = core::build_catalog(ctx, cfg, catalog_options);
  const double cold_catalog_ms = ms_since(start);
  start = Clock::now();
  const double first_cpu0 = cpu_ms();
  auto first = core::sync_search_index(ctx, catalog, store);
  const double first_sync_ms = ms_since(start);
  const double first_sync_cpu = cpu_ms() - first_cpu0;
  if (!first) {
    return fail("first sync: " + first.error().message);
  }
  std::printf("one-time sync: catalog %.0f ms, sync %.0f ms wall / %.0f ms cpu: %zu indexed in %zu store calls\n",
              cold_catalog_ms, first_sync_ms, first_sync_cpu, first->indexed, first->store_calls);

  // Files written within the racy window are read again once; wait it out so
  // the check below measures the steady state.
  ::sleep(3);
  (void)core::sync_search_index(ctx, catalog, store);

  // 2. The freshness check with nothing changed.
  std::vector<double> catalog_ms, catalog_cpu;
  std::vector<double> check_ms, check_cpu;
  for (int round = 0; round < 5; ++round) {
    start = Clock::now();
    double c0 = cpu_ms();
    core::Catalog again = core::build_catalog(ctx, cfg, catalog_options);
    catalog_ms.push_back(ms_since(start));
    catalog_cpu.push_back(cpu_ms() - c0);
    start = Clock::now();
    c0 = cpu_ms();
    auto check = core::sync_search_index(ctx, again, store);
    check_ms.push_back(ms_since(start));
    check_cpu.push_back(cpu_ms() - c0);
    if (!check || check->indexed != 0 || check->removed != 0) {
      return fail("the warm check changed something");
    }
  }
  print_stats("warm build_catalog (listing cache)", catalog_ms.size(), summarise(catalog_ms));
  print_stats("warm build_catalog (listing cache)", catalog_cpu.size(), summarise(catalog_cpu), "cpu");
  print_stats("warm sync check (nothing changed)", check_ms.size(), summarise(check_ms));
  print_stats("warm sync check (nothing changed)", check_cpu.size(), summarise(check_cpu), "cpu");

  // 3. Queries on a warm index.
  std::vector<std::string> queries;
  {
    Rng rng(99);
    for (int i = 0; i < 100; ++i) {  // common domain words
      queries.push_back(k_domain[rng.below(k_domain.size())]);
    }
    for (int i = 0; i < 100; ++i) {  // rare words from the long tail
      queries.push_back(vocab.at(vocab.size() - 1 - rng.below(15000)));
    }
    for (int i = 0; i < 100; ++i) {  // three words: two domain words and a drawn one
      queries.push_back(k_domain[rng.below(k_domain.size())] + " " + k_domain[rng.below(k_domain.size())] + " " +
                        vocab.draw(rng));
    }
    for (int i = 0; i < 50; ++i) {  // skill names, and questions with function words
      queries.push_back(i % 2 == 0 ? generated.names[rng.below(generated.names.size())]
                                   : "how to " + k_domain[rng.below(k_domain.size())] + " with the " +
                                         k_domain[rng.below(k_domain.size())]);
    }
  }
  // Each query is sent as search_skills_in sends it (stop words dropped) and
  // asks for 36 hits, the window search_skills_in asks for at a limit of 5.
  std::vector<std::string> sent;
  for (const std::string& query : queries) {
    sent.push_back(core::without_stop_words(query));
  }
  // The first pass reads each word's postings out of the index (the store keeps
  // them until the index changes), as the first searches after a change do;
  // it also warms the page cache. Timed on its own, then the warm passes.
  {
    std::vector<double> cold_ms, cold_cpu;
    for (const std::string& query : sent) {
      const auto t0 = Clock::now();
      const double c0 = cpu_ms();
      (void)store.search(std::nullopt, query, 36);
      cold_cpu.push_back(cpu_ms() - c0);
      cold_ms.push_back(ms_since(t0));
    }
    print_stats("query: all, first pass (postings read)", cold_ms.size(), summarise(cold_ms));
    print_stats("query: all, first pass (postings read)", cold_cpu.size(), summarise(cold_cpu), "cpu");
  }
  const auto time_queries = [&](std::optional<std::string_view> user, std::size_t from, std::size_t to,
                                std::vector<double>& cpu) {
    std::vector<double> ms;
    for (std::size_t i = from; i < to; ++i) {
      const auto t0 = Clock::now();
      const double c0 = cpu_ms();
      auto found = store.search(user, sent[i], 36);
      cpu.push_back(cpu_ms() - c0);
      ms.push_back(ms_since(t0));
      if (!found) {
        std::fprintf(stderr, "query [%s] failed: %s\n", queries[i].c_str(), found.error().message.c_str());
      }
    }
    return ms;
  };
  std::vector<double> all, all_cpu;
  const std::pair<const char*, std::pair<std::size_t, std::size_t>> groups[] = {
      {"query: common single word", {0, 100}},
      {"query: rare single word", {100, 200}},
      {"query: three words", {200, 300}},
      {"query: names and questions", {300, 350}}};
  for (const auto& [label, range] : groups) {
    std::vector<double> cpu;
    std::vector<double> ms = time_queries(std::nullopt, range.first, range.second, cpu);
    print_stats(label, ms.size(), summarise(ms));
    print_stats(label, cpu.size(), summarise(cpu), "cpu");
    all.insert(all.end(), ms.begin(), ms.end());
    all_cpu.insert(all_cpu.end(), cpu.begin(), cpu.end());
  }
  print_stats("query: all, anonymous", all.size(), summarise(all));
  print_stats("query: all, anonymous", all_cpu.size(), summarise(all_cpu), "cpu");
  // The user's own lists are read on the first pass of that scope.
  std::vector<double> user_first_cpu;
  const std::vector<double> user_first_ms =
      time_queries(std::string_view("bench-user"), 0, queries.size(), user_first_cpu);
  print_stats("query: all, user with db skills, first pass", user_first_ms.size(), summarise(user_first_ms));
  print_stats("query: all, user with db skills, first pass", user_first_cpu.size(), summarise(user_first_cpu),
              "cpu");
  std::vector<double> user_cpu;
  const std::vector<double> user_ms = time_queries(std::string_view("bench-user"), 0, queries.size(), user_cpu);
  print_stats("query: all, user with 1,000 db skills", user_ms.size(), summarise(user_ms));
  print_stats("query: all, user with 1,000 db skills", user_cpu.size(), summarise(user_cpu), "cpu");

  // A server re-indexes a changed file before the next search (own write):
  // the store keeps its postings in step instead of reading them all again.
  {
    std::vector<double> ms, cpu;
    Rng rng(5);
    for (std::size_t i = 0; i < 50; ++i) {
      core::SearchDoc doc;
      doc.key = "/bench/changed-" + std::to_string(i) + "/SKILL.md";
      doc.name = "changed-" + std::to_string(i);
      doc.description = text_of(vocab, rng, 120, topics_of(rng));
      doc.body = text_of(vocab, rng, body_bytes(rng), topics_of(rng));
      doc.stamp = "bench";
      if (auto put = store.sync_file_docs({doc}, {}); !put) {
        return fail("sync_file_docs: " + put.error().message);
      }
      const std::size_t q = (i * 7) % sent.size();
      const auto t0 = Clock::now();
      const double c0 = cpu_ms();
      (void)store.search(std::nullopt, sent[q], 36);
      cpu.push_back(cpu_ms() - c0);
      ms.push_back(ms_since(t0));
    }
    print_stats("query: after one file re-indexed", ms.size(), summarise(ms));
    print_stats("query: after one file re-indexed", cpu.size(), summarise(cpu), "cpu");
  }

  // 4. End to end over the kept catalog: freshness check + query + merge.
  std::vector<double> e2e_ms, e2e_cpu;
  for (std::size_t i = 0; i < queries.size(); i += 35) {
    const auto t0 = Clock::now();
    const double c0 = cpu_ms();
    auto found = core::search_skills_in(ctx, catalog, store, queries[i], 5);
    e2e_cpu.push_back(cpu_ms() - c0);
    e2e_ms.push_back(ms_since(t0));
    if (!found) {
      return fail("search_skills_in: " + found.error().message);
    }
  }
  print_stats("search_skills_in (check + query), kept catalog", e2e_ms.size(), summarise(e2e_ms));
  print_stats("search_skills_in (check + query), kept catalog", e2e_cpu.size(), summarise(e2e_cpu), "cpu");

  // 5. As the servers search (MCP skills_search, GET /api/v1/search): the
  // snapshot's catalog with its memo, synced once per snapshot.
  {
    core::CatalogSearchMemo memo;
    start = Clock::now();
    if (auto synced = memo.index.sync(ctx, catalog, store); !synced) {
      return fail("memo sync: " + synced.error().message);
    }
    std::printf("snapshot's one sync: %.0f ms\n", ms_since(start));
    std::vector<double> kept_ms, kept_cpu;
    for (std::size_t round = 0; round < 3; ++round) {
      for (const std::string& query : queries) {
        const auto t0 = Clock::now();
        const double c0 = cpu_ms();
        auto found = core::search_skills_in(ctx, catalog, store, query, 5, &memo);
        kept_cpu.push_back(cpu_ms() - c0);
        kept_ms.push_back(ms_since(t0));
        if (!found) {
          return fail("search_skills_in: " + found.error().message);
        }
      }
    }
    print_stats("search_skills_in, snapshot synced once", kept_ms.size(), summarise(kept_ms));
    print_stats("search_skills_in, snapshot synced once", kept_cpu.size(), summarise(kept_cpu), "cpu");
  }

  if (argc <= 2) {
    fs::remove_all(work, ec);
  }
  return 0;
}
