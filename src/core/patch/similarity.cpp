// The difflib SequenceMatcher ratio (2*M/T, M = total size of the matching
// blocks found by repeated longest-common-block search), junk heuristics off,
// over code points. Written from the algorithm's description: the longest
// block ending at (i, j) extends the one ending at (i-1, j-1); ties keep the
// earliest block in a, then in b; recursion continues left and right of it.
#include <algorithm>
#include <array>
#include <unordered_map>
#include <utility>

#include "core/patch/fuzzy_detail.hpp"

namespace skillrt::core::fuzzy {

namespace {

// Positions of every character of b, grouped by character, ascending.
class PositionIndex {
 public:
  explicit PositionIndex(std::u32string_view b) {
    std::vector<std::uint32_t> ids(b.size());
    for (std::size_t j = 0; j < b.size(); ++j) {
      ids[j] = id_of(b[j], true);
    }
    starts_.assign(id_count_ + 1, 0);
    for (auto id : ids) {
      ++starts_[id + 1];
    }
    for (std::size_t k = 1; k < starts_.size(); ++k) {
      starts_[k] += starts_[k - 1];
    }
    positions_.resize(b.size());
    std::vector<std::size_t> fill(starts_.begin(), starts_.end() - 1);
    for (std::size_t j = 0; j < b.size(); ++j) {
      positions_[fill[ids[j]]++] = j;
    }
  }

  // The ascending positions of cp in b (empty when absent).
  std::pair<const std::size_t*, const std::size_t*> positions_of(char32_t cp) const {
    const std::uint32_t id = id_of(cp, false);
    if (id == kAbsent) {
      return {nullptr, nullptr};
    }
    return {positions_.data() + starts_[id], positions_.data() + starts_[id + 1]};
  }

 private:
  static constexpr std::uint32_t kAbsent = 0xFFFFFFFFU;

  static std::array<std::uint32_t, 128> make_absent_ids() {
    std::array<std::uint32_t, 128> ids{};
    ids.fill(kAbsent);
    return ids;
  }

  std::uint32_t id_of(char32_t cp, bool insert) const {
    if (cp < 128) {
      if (ascii_ids_[cp] == kAbsent && insert) {
        ascii_ids_[cp] = id_count_++;
      }
      return ascii_ids_[cp];
    }
    auto found = other_ids_.find(cp);
    if (found != other_ids_.end()) {
      return found->second;
    }
    if (!insert) {
      return kAbsent;
    }
    other_ids_.emplace(cp, id_count_);
    return id_count_++;
  }

  mutable std::array<std::uint32_t, 128> ascii_ids_ = make_absent_ids();
  mutable std::unordered_map<char32_t, std::uint32_t> other_ids_;
  mutable std::uint32_t id_count_ = 0;
  std::vector<std::size_t> starts_;
  std::vector<std::size_t> positions_;
};

struct Block {
  std::size_t i = 0;
  std::size_t j = 0;
  std::size_t size = 0;
};

class LongestMatchFinder {
 public:
  LongestMatchFinder(std::u32string_view a, std::u32string_view b)
      : a_(a), index_(b), previous_(b.size() + 1, 0), current_(b.size() + 1, 0) {}

  // Longest common block of a[alo:ahi] and b[blo:bhi]; earliest on ties.
  Block find(std::size_t alo, std::size_t ahi, std::size_t blo, std::size_t bhi) {
    Block best{alo, blo, 0};
    // previous_/current_ hold, at j+1, the length of the block ending at (i, j).
    for (std::size_t i = alo; i < ahi; ++i) {
      const auto [first, last] = index_.positions_of(a_[i]);
      current_touched_.clear();
      for (const std::size_t* it = first; it != last; ++it) {
        const std::size_t j = *it;
        if (j < blo) {
          continue;
        }
        if (j >= bhi) {
          break;
        }
        const std::size_t k = previous_[j] + 1;
        current_[j + 1] = k;
        current_touched_.push_back(j + 1);
        if (k > best.size) {
          best = Block{i + 1 - k, j + 1 - k, k};
        }
      }
      for (auto slot : previous_touched_) {
        previous_[slot] = 0;
      }
      std::swap(previous_, current_);
      std::swap(previous_touched_, current_touched_);
    }
    for (auto slot : previous_touched_) {
      previous_[slot] = 0;
    }
    previous_touched_.clear();
    return best;
  }

 private:
  std::u32string_view a_;
  PositionIndex index_;
  std::vector<std::size_t> previous_;
  std::vector<std::size_t> current_;
  std::vector<std::size_t> previous_touched_;
  std::vector<std::size_t> current_touched_;
};

std::size_t matching_characters(std::u32string_view a, std::u32string_view b) {
  LongestMatchFinder finder(a, b);
  std::size_t matched = 0;
  struct Range {
    std::size_t alo, ahi, blo, bhi;
  };
  std::vector<Range> pending{{0, a.size(), 0, b.size()}};
  while (!pending.empty()) {
    const Range range = pending.back();
    pending.pop_back();
    const Block block = finder.find(range.alo, range.ahi, range.blo, range.bhi);
    if (block.size == 0) {
      continue;
    }
    matched += block.size;
    if (range.alo < block.i && range.blo < block.j) {
      pending.push_back({range.alo, block.i, range.blo, block.j});
    }
    if (block.i + block.size < range.ahi && block.j + block.size < range.bhi) {
      pending.push_back({block.i + block.size, range.ahi, block.j + block.size, range.bhi});
    }
  }
  return matched;
}

double ratio_of(std::size_t matched, std::size_t total) {
  return total == 0 ? 1.0 : 2.0 * static_cast<double>(matched) / static_cast<double>(total);
}

}  // namespace

double real_quick_ratio(std::size_t la, std::size_t lb) { return ratio_of(std::min(la, lb), la + lb); }

double quick_ratio(std::u32string_view a, std::u32string_view b) {
  std::size_t ascii_counts[128] = {};
  std::unordered_map<char32_t, std::size_t> other_counts;
  for (char32_t cp : b) {
    if (cp < 128) {
      ++ascii_counts[cp];
    } else {
      ++other_counts[cp];
    }
  }
  std::size_t matched = 0;
  for (char32_t cp : a) {
    std::size_t* available = nullptr;
    if (cp < 128) {
      available = &ascii_counts[cp];
    } else {
      auto found = other_counts.find(cp);
      available = found == other_counts.end() ? nullptr : &found->second;
    }
    if (available != nullptr && *available > 0) {
      --*available;
      ++matched;
    }
  }
  return ratio_of(matched, a.size() + b.size());
}

double similarity_ratio(std::u32string_view a, std::u32string_view b) {
  if (a.empty() || b.empty()) {
    return ratio_of(0, a.size() + b.size());
  }
  if (a == b) {
    return 1.0;
  }
  // Saturating product: an enormous pair falls back to the multiset upper bound.
  if (a.size() > kExactRatioPairCap / b.size()) {
    return quick_ratio(a, b);
  }
  return ratio_of(matching_characters(a, b), a.size() + b.size());
}

double similarity_ratio(std::string_view a, std::string_view b) {
  const std::u32string a_points = to_code_points(a);
  const std::u32string b_points = to_code_points(b);
  return similarity_ratio(std::u32string_view(a_points), std::u32string_view(b_points));
}

bool similar_at_least(std::u32string_view a, std::u32string_view b, double threshold) {
  if (real_quick_ratio(a.size(), b.size()) < threshold) {
    return false;
  }
  if (a == b) {
    return true;
  }
  if (quick_ratio(a, b) < threshold) {
    return false;
  }
  return similarity_ratio(a, b) >= threshold;
}

}  // namespace skillrt::core::fuzzy
