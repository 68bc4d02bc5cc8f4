// Guard scan speed: scans every skill folder (a directory holding SKILL.md)
// under the given roots, single-threaded, and prints folders, bytes read,
// seconds and MB/s. The folder list is collected before the clock starts.
//
//   scan_bench [--repeat N] [--slowest K] ROOT...   (default root: ../shared/corpus)
//
// --slowest K lists the K slowest folders of the last round (for profiling).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "core/guard/guard.hpp"

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> skill_folders(const std::vector<fs::path>& roots) {
  std::vector<fs::path> out;
  for (const fs::path& root : roots) {
    std::error_code ec;
    if (fs::is_regular_file(root / "SKILL.md", ec)) {
      out.push_back(root);
    }
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_directory(ec) && !it->is_symlink(ec) && fs::is_regular_file(it->path() / "SKILL.md", ec)) {
        out.push_back(it->path());
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace

int main(int argc, char** argv) {
  int repeat = 3;
  std::size_t slowest = 0;
  std::vector<fs::path> roots;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--slowest") == 0 && i + 1 < argc) {
      slowest = static_cast<std::size_t>(std::max(0, std::atoi(argv[++i])));
    } else {
      roots.emplace_back(argv[i]);
    }
  }
  if (roots.empty()) {
    roots.emplace_back(SKILLRT_CORPUS_DIR);
  }
  const std::vector<fs::path> folders = skill_folders(roots);
  if (folders.empty()) {
    std::fprintf(stderr, "scan_bench: no skill folders under the given roots\n");
    return 1;
  }
  // Compile the pattern set outside the timed region (it happens once per process).
  (void)skillrt::core::scan_text("warmup.md", "warm up");

  double best = 1e300;
  double best_cpu = 1e300;
  std::size_t bytes = 0;
  std::size_t files = 0;
  std::size_t verdicts[3] = {0, 0, 0};
  std::size_t findings = 0;
  std::vector<std::pair<double, const fs::path*>> timings;
  for (int round = 0; round < repeat; ++round) {
    bytes = files = findings = 0;
    verdicts[0] = verdicts[1] = verdicts[2] = 0;
    timings.clear();
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start = std::clock();
    for (const fs::path& folder : folders) {
      const auto folder_start = std::chrono::steady_clock::now();
      auto result = skillrt::core::scan_skill(folder, skillrt::core::ScanOptions{});
      if (slowest > 0) {
        timings.emplace_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - folder_start).count(),
                             &folder);
      }
      if (!result) {
        std::fprintf(stderr, "scan_bench: %s: %s\n", folder.c_str(), result.error().message.c_str());
        continue;
      }
      bytes += result->bytes_scanned;
      files += result->files_scanned;
      findings += result->findings.size();
      ++verdicts[static_cast<int>(result->verdict)];
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // CPU time too: on a shared machine the wall clock also counts other processes.
    const double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    std::printf("round %d: %.3f s wall, %.3f s cpu\n", round + 1, seconds, cpu);
    best = std::min(best, seconds);
    best_cpu = std::min(best_cpu, cpu);
  }
  std::sort(timings.begin(), timings.end(), std::greater<>());
  for (std::size_t i = 0; i < std::min(slowest, timings.size()); ++i) {
    std::printf("%8.3f s  %s\n", timings[i].first, timings[i].second->c_str());
  }
  const double mb = static_cast<double>(bytes) / (1024.0 * 1024.0);
  std::printf("folders %zu  files %zu  read %.1f MB  best %.3f s wall (%.1f MB/s, %.0f folders/s)  best %.3f s cpu\n",
              folders.size(), files, mb, best, mb / best, static_cast<double>(folders.size()) / best, best_cpu);
  std::printf("verdicts: safe %zu  caution %zu  dangerous %zu  findings %zu\n", verdicts[0], verdicts[1], verdicts[2],
              findings);
  return 0;
}
