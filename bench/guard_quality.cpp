// Detection quality of the skills guard: scans every labelled folder and every
// real-world skill of the corpus with scan_skill (source "community", as an
// installer would) and prints per-source tables of caution+ and dangerous
// verdicts, the overall rates, and which pattern ids put benign and
// real-world skills over the line. bench/guard_quality.sh builds and runs it;
// the figures go to docs/security.md ("Measured quality").
//
//   guard_quality CORPUS_DIR [--misses] [--flagged] [--blocked] [--tsv FILE]
//     --misses   also list the labelled malicious folders judged safe
//     --flagged  also list benign and real-world folders judged dangerous
//     --unseeable FILE  labelled-malicious folders whose attack is not in the
//                folder (bench/guard_quality_unseeable.tsv, which the script
//                passes): recall is also printed without them
//     --tsv FILE write every finding of every folder to FILE (group, source,
//                folder, pattern id, severity, file, line, snippet), for
//                working out what a rule change would do
//     --blocked  also list every benign and real-world folder a community
//                install blocks (caution+), with its high and critical findings
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

// bench/guard_quality_unseeable.tsv: labelled-malicious folders whose attack
// is not in the folder (path → reason).
std::map<std::string, std::string> unseeable_items(const fs::path& list) {
  std::map<std::string, std::string> items;
  std::ifstream in(list);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line.front() == '#') {
      continue;
    }
    const std::size_t tab = line.find('\t');
    if (tab != std::string::npos) {
      items[line.substr(0, tab)] = line.substr(tab + 1);
    }
  }
  return items;
}

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
    std::fprintf(stderr, "usage: guard_quality CORPUS_DIR [--misses] [--flagged] [--blocked] [--tsv FILE] [--unseeable FILE]\n");
    return 2;
  }
  const fs::path corpus = argv[1];
  bool list_misses = false;
  bool list_flagged = false;
  bool list_blocked = false;
  std::FILE* tsv = nullptr;
  std::map<std::string, std::string> unseeable;
  for (int i = 2; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--unseeable" && i + 1 < argc) {
      unseeable = unseeable_items(argv[++i]);
    }
    if (arg == "--tsv" && i + 1 < argc) {
      tsv = std::fopen(argv[++i], "w");
      if (tsv == nullptr) {
        std::fprintf(stderr, "guard_quality: cannot write %s\n", argv[i]);
        return 1;
      }
    }
    list_misses = list_misses || arg == "--misses";
    list_flagged = list_flagged || arg == "--flagged";
    list_blocked = list_blocked || arg == "--blocked";
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
  std::size_t seeable = 0;        // malicious folders whose attack is in the folder
  std::size_t seeable_caught = 0; // … judged caution or dangerous
  std::vector<std::string> flagged;
  std::vector<std::string> blocked; // one entry per folder: its path, then one line per finding
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
    if (tsv != nullptr) {
      for (const core::GuardFinding& f : result->findings) {
        std::fprintf(tsv, "%s\t%s\t%s\t%s\t%s\t%s\t%zu\t%s\n", item.group.c_str(), item.source.c_str(),
                     item.path.c_str(), f.pattern_id.c_str(), core::threat_severity_name(f.severity), f.file.c_str(),
                     f.line, f.snippet.c_str());
      }
      if (result->findings.empty()) {
        std::fprintf(tsv, "%s\t%s\t%s\t-\tnone\t\t0\t\n", item.group.c_str(), item.source.c_str(),
                     item.path.c_str());
      }
    }
    tally.caution_plus += verdict != core::Verdict::safe ? 1 : 0;
    tally.dangerous += verdict == core::Verdict::dangerous ? 1 : 0;
    if (item.group == "malicious" && verdict == core::Verdict::safe) {
      misses.push_back(item.path + "  [" + item.category + "]" + (unseeable.count(item.path) ? "  (not in the folder)" : ""));
    }
    if (item.group == "malicious" && unseeable.count(item.path) == 0) {
      ++seeable;
      seeable_caught += verdict != core::Verdict::safe ? 1 : 0;
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
      if (verdict != core::Verdict::safe) {
        std::string entry = "- " + item.path + "\n";
        for (const core::GuardFinding& f : result->findings) {
          if (f.severity >= core::ThreatSeverity::high) {
            entry += "  - " + f.pattern_id + " (" + core::threat_severity_name(f.severity) + ") " + f.file + ":" +
                     std::to_string(f.line) + ": " + f.snippet + "\n";
          }
        }
        blocked.push_back(std::move(entry));
      }
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  std::printf("## Guard quality (scanner %s, source \"community\")\n", std::string(core::scanner_version()).c_str());
  for (const char* group : {"malicious", "benign", "ambiguous", "real-world"}) {
    print_table(tallies, group);
  }
  std::printf("\nRecall on the malicious folders whose attack is in the folder: %zu/%zu (%.1f%%); %zu left out "
              "as unseeable (bench/guard_quality_unseeable.tsv).\n",
              seeable_caught, seeable, percent(seeable_caught, seeable), unseeable.size());
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
  if (tsv != nullptr) {
    std::fclose(tsv);
  }
  if (list_blocked) {
    std::printf("\nBenign or real-world folders a community install blocks:\n");
    for (const std::string& entry : blocked) {
      std::fputs(entry.c_str(), stdout);
    }
  }
  return 0;
}
