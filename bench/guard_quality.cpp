// Detection quality of the skills guard: scans every labelled folder and every
// real-world skill of the corpus with scan_skill (source "community", as an
// installer would) and prints per-source tables of caution+ and dangerous
// verdicts, the overall rates, and which pattern ids put benign and
// real-world skills over the line. bench/guard_quality.sh builds and runs it;
// the figures go to docs/security.md ("Measured quality").
//
//   guard_quality CORPUS_DIR [--misses] [--flagged]
//     --misses   also list the labelled malicious folders judged safe
//     --flagged  also list benign and real-world folders judged dangerous
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/guard/guard.hpp"

namespace fs = std::filesystem;
namespace core = skillrt::core;

namespace {

struct Tally {
  std::size_t folders = 0;
  std::size_t caution_plus = 0;
  std::size_t dangerous = 0;
  std::size_t errors = 0;
};

struct Item {
  std::string group;  // malicious | benign | ambiguous | real-world
  std::string source; // corpus source folder
  std::string path;   // relative to the corpus
  std::string category;
};

double percent(std::size_t part, std::size_t whole) {
  return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

std::vector<Item> labelled_items(const fs::path& corpus) {
  std::vector<Item> items;
  std::ifstream in(corpus / "labeled" / "labels.tsv");
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (header) {
      header = false;
      continue;
    }
    const std::size_t tab1 = line.find('\t');
    const std::size_t tab2 = tab1 == std::string::npos ? std::string::npos : line.find('\t', tab1 + 1);
    if (tab2 == std::string::npos) {
      continue;
    }
    Item item;
    item.path = "labeled/" + line.substr(0, tab1);
    item.group = line.substr(tab1 + 1, tab2 - tab1 - 1);
    item.category = line.substr(tab2 + 1);
    item.source = line.substr(0, line.find('/'));
    items.push_back(std::move(item));
  }
  return items;
}

// Every folder holding a SKILL.md under each real-world source, sorted.
std::vector<Item> real_world_items(const fs::path& corpus) {
  std::vector<Item> items;
  std::vector<fs::path> sources;
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(corpus, ec)) {
    if (entry.is_directory() && entry.path().filename() != "labeled") {
      sources.push_back(entry.path());
    }
  }
  std::sort(sources.begin(), sources.end());
  for (const fs::path& source : sources) {
    std::vector<std::string> skills;
    for (auto it = fs::recursive_directory_iterator(source, ec); it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      if (ec) {
        break;
      }
      if (it->is_regular_file() && it->path().filename() == "SKILL.md") {
        skills.push_back(fs::relative(it->path().parent_path(), corpus).generic_string());
      }
    }
    std::sort(skills.begin(), skills.end());
    for (std::string& skill : skills) {
      items.push_back(Item{"real-world", source.filename().string(), std::move(skill), ""});
    }
  }
  return items;
}

void print_table(const std::map<std::pair<std::string, std::string>, Tally>& tallies, const std::string& group) {
  std::printf("\n### %s\n\n| source | folders | caution+ | dangerous | caution+ %% | dangerous %% "
              "|\n|---|---:|---:|---:|---:|---:|\n",
              group.c_str());
  Tally total;
  for (const auto& [key, tally] : tallies) {
    if (key.first != group) {
      continue;
    }
    std::printf("| %s | %zu | %zu | %zu | %.1f | %.1f |\n", key.second.c_str(), tally.folders, tally.caution_plus,
                tally.dangerous, percent(tally.caution_plus, tally.folders), percent(tally.dangerous, tally.folders));
    total.folders += tally.folders;
    total.caution_plus += tally.caution_plus;
    total.dangerous += tally.dangerous;
    total.errors += tally.errors;
  }
  std::printf("| **total** | **%zu** | **%zu** | **%zu** | **%.1f** | **%.1f** |\n", total.folders, total.caution_plus,
              total.dangerous, percent(total.caution_plus, total.folders), percent(total.dangerous, total.folders));
  if (total.errors > 0) {
    std::printf("\n(%zu folders could not be scanned)\n", total.errors);
  }
}

void print_ids(const char* title, const std::map<std::string, std::set<std::string>>& ids) {
  std::vector<std::pair<std::size_t, std::string>> rows;
  for (const auto& [id, folders] : ids) {
    rows.emplace_back(folders.size(), id);
  }
  std::sort(rows.begin(), rows.end(),
            [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  std::printf("\n%s\n\n", title);
  if (rows.empty()) {
    std::printf("(none)\n");
  }
  for (const auto& [count, id] : rows) {
    std::printf("- %s: %zu\n", id.c_str(), count);
  }
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: guard_quality CORPUS_DIR [--misses] [--flagged]\n");
    return 2;
  }
  const fs::path corpus = argv[1];
  bool list_misses = false;
  bool list_flagged = false;
  for (int i = 2; i < argc; ++i) {
    const std::string_view arg = argv[i];
    list_misses = list_misses || arg == "--misses";
    list_flagged = list_flagged || arg == "--flagged";
  }
  if (!fs::is_regular_file(corpus / "labeled" / "labels.tsv")) {
    std::fprintf(stderr, "guard_quality: %s has no labeled/labels.tsv\n", corpus.c_str());
    return 1;
  }

  std::vector<Item> items = labelled_items(corpus);
  std::vector<Item> real = real_world_items(corpus);
  items.insert(items.end(), real.begin(), real.end());

  std::map<std::pair<std::string, std::string>, Tally> tallies;
  std::map<std::string, std::set<std::string>> critical_ids; // benign + real-world: id -> folders
  std::map<std::string, std::set<std::string>> high_ids;
  std::vector<std::string> misses;
  std::vector<std::string> flagged;
  core::ScanOptions options;
  options.source = "community";
  const auto started = std::chrono::steady_clock::now();
  std::size_t files = 0;
  std::size_t bytes = 0;

  for (const Item& item : items) {
    Tally& tally = tallies[{item.group, item.source}];
    ++tally.folders;
    const skillrt::Result<core::ScanResult> result = core::scan_skill(corpus / item.path, options);
    if (!result) {
      ++tally.errors;
      continue;
    }
    files += result->files_scanned;
    bytes += result->bytes_scanned;
    const core::Verdict verdict = result->verdict;
    tally.caution_plus += verdict != core::Verdict::safe ? 1 : 0;
    tally.dangerous += verdict == core::Verdict::dangerous ? 1 : 0;
    if (item.group == "malicious" && verdict == core::Verdict::safe) {
      misses.push_back(item.path + "  [" + item.category + "]");
    }
    if (item.group == "benign" || item.group == "real-world") {
      for (const core::GuardFinding& f : result->findings) {
        if (f.severity == core::ThreatSeverity::critical) {
          critical_ids[f.pattern_id].insert(item.path);
        } else if (f.severity == core::ThreatSeverity::high) {
          high_ids[f.pattern_id].insert(item.path);
        }
      }
      if (verdict == core::Verdict::dangerous) {
        flagged.push_back(item.path);
      }
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  std::printf("## Guard quality (scanner %s, source \"community\")\n", std::string(core::scanner_version()).c_str());
  for (const char* group : {"malicious", "benign", "ambiguous", "real-world"}) {
    print_table(tallies, group);
  }
  print_ids("Critical findings on benign and real-world folders (folders per pattern id):", critical_ids);
  print_ids("High findings on benign and real-world folders (folders per pattern id):", high_ids);
  std::printf("\nScanned %zu folders, %zu files, %.1f MB in %.2f s.\n", items.size(), files,
              static_cast<double>(bytes) / 1e6, seconds);
  if (list_misses) {
    std::printf("\nMalicious folders judged safe:\n");
    for (const std::string& miss : misses) {
      std::printf("- %s\n", miss.c_str());
    }
  }
  if (list_flagged) {
    std::printf("\nBenign or real-world folders judged dangerous:\n");
    for (const std::string& path : flagged) {
      std::printf("- %s\n", path.c_str());
    }
  }
  return 0;
}
