#include "core/watch/tree_fingerprint.hpp"

#include <string_view>

#include "core/files/tree_walk.hpp"

namespace skillrt::core {
namespace {

// FNV-1a, 64 bit: stable across machines and builds (std::hash promises neither).
constexpr std::uint64_t k_fnv_offset = 14695981039346656037ull;
constexpr std::uint64_t k_fnv_prime = 1099511628211ull;

std::uint64_t mix(std::uint64_t hash, const void* data, std::size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i) {
    hash = (hash ^ bytes[i]) * k_fnv_prime;
  }
  return hash;
}

template <typename Number>
std::uint64_t mix_number(std::uint64_t hash, Number value) {
  const auto wide = static_cast<std::uint64_t>(value);
  return mix(hash, &wide, sizeof wide);
}

std::uint64_t entry_hash(std::size_t root_index, std::string_view path, const struct stat& st) {
  std::uint64_t hash = mix_number(k_fnv_offset, root_index);
  hash = mix(hash, path.data(), path.size());
  hash = mix_number(hash, st.st_ino);
  hash = mix_number(hash, st.st_size);
  hash = mix_number(hash, st.st_mode);
  hash = mix_number(hash, st.st_mtim.tv_sec);
  hash = mix_number(hash, st.st_mtim.tv_nsec);
  hash = mix_number(hash, st.st_ctim.tv_sec);
  hash = mix_number(hash, st.st_ctim.tv_nsec);
  return hash;
}

}  // namespace

TreeFingerprint fingerprint_trees(const std::vector<std::filesystem::path>& roots, std::size_t max_entries) {
  TreeFingerprint out;
  // Entries are combined by addition, so the order a file system lists them
  // in does not matter; the count goes in last so that adding and removing
  // entries whose hashes cancel is still seen.
  std::uint64_t sum = 0;
  for (std::size_t index = 0; index < roots.size() && !out.truncated; ++index) {
    files::WalkOptions options;
    options.limits = files::TreeLimits::unlimited();
    options.limits.max_entries = max_entries - out.entries;
    options.links = files::LinkPolicy::record;
    options.specials = files::SpecialPolicy::record;
    options.problems = files::ProblemPolicy::report;
    options.leave_out = [](const files::WalkEntry& entry) { return entry.name.starts_with('.'); };
    auto report = files::walk_tree(roots[index], options, [&](const files::WalkEntry& entry) -> Result<void> {
      sum += entry_hash(index, entry.path, *entry.st);
      return {};
    });
    if (!report) {
      // A root that is missing or not a folder: only its absence counts.
      sum += mix_number(k_fnv_offset, index + 1);
      continue;
    }
    out.entries += report->entries;
    out.truncated = report->stopped;
  }
  out.value = mix_number(sum, out.entries);
  return out;
}

}  // namespace skillrt::core
