#include "core/discovery/description_store.hpp"

#include <sys/resource.h>

#include <csignal>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "temp_tree.hpp"

namespace skillrt::test {
namespace {

using core::DescriptionRef;
using core::DescriptionStore;

// A text of `size` bytes that differs from its neighbours at every offset.
std::string text_of(std::size_t seed, std::size_t size) {
  std::string out;
  out.reserve(size);
  for (std::size_t i = 0; i < size; ++i) {
    out.push_back(static_cast<char>('a' + (seed * 7 + i) % 26));
  }
  return out;
}

// Small pages make every boundary case cheap to reach.
DescriptionStore::Options small_pages(std::vector<fs::path> dirs, std::size_t budget = 0) {
  DescriptionStore::Options options;
  options.memory_budget = budget;
  options.page_size = 64;
  options.cached_pages = 2;
  options.pages_per_write = 2;
  options.spill_dirs = std::move(dirs);
  return options;
}

// Appends texts of the given sizes and checks every one reads back, through
// both get() and visit(), in order and then backwards (every read a cache miss).
void round_trip(DescriptionStore& store, const std::vector<std::size_t>& sizes) {
  std::vector<std::pair<DescriptionRef, std::string>> stored;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    std::string text = text_of(i, sizes[i]);
    stored.emplace_back(store.append(text), std::move(text));
  }
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t k = 0; k < stored.size(); ++k) {
      const auto& [ref, text] = stored[pass == 0 ? k : stored.size() - 1 - k];
      EXPECT_EQ(store.get(ref), text) << "description " << k << " pass " << pass;
      std::string seen = "unset";
      store.visit(ref, [&seen](std::string_view view) { seen.assign(view); });
      EXPECT_EQ(seen, text);
    }
  }
}

TEST(DescriptionStore, SmallCatalogsStayInMemory) {
  TempTree tree;
  DescriptionStore store(DescriptionStore::Options{.spill_dirs = {tree.root()}});
  round_trip(store, {10, 0, 300, 1, 4096, 287});
  EXPECT_FALSE(store.spilled());
  EXPECT_FALSE(store.spill_failed());
  EXPECT_EQ(store.size(), 10u + 300 + 1 + 4096 + 287);
}

TEST(DescriptionStore, DefaultStoreHasNoFileAndKeepsEverything) {
  DescriptionStore store;
  round_trip(store, std::vector<std::size_t>(400, 3000)); // 1.2 MB, past the default budget
  EXPECT_FALSE(store.spilled());
  EXPECT_TRUE(store.spill_failed()); // no directory was given
}

TEST(DescriptionStore, PastTheBudgetTextGoesToTheFileAndComesBack) {
  TempTree tree;
  DescriptionStore store(small_pages({tree.root()}, 128));
  // Sizes that end exactly on, just before and just after page boundaries.
  round_trip(store, {64, 63, 1, 65, 127, 129, 0, 64, 200, 7, 64, 64, 3, 500});
  EXPECT_TRUE(store.spilled());
  EXPECT_FALSE(store.spill_failed());
  // The budget, the page being filled, pages waiting for their batch and the cache.
  EXPECT_LE(store.resident_bytes(), 128u + 64 + 2 * 64 + 2 * 64);
  // The temporary file has no name: nothing is left in the directory.
  EXPECT_TRUE(fs::is_empty(tree.root()));
}

TEST(DescriptionStore, ADescriptionLargerThanTheCacheSpansManyPages) {
  TempTree tree;
  DescriptionStore store(small_pages({tree.root()}));
  const std::string big = text_of(1, 64 * 9 + 5); // ten pages, more than both cache slots
  const DescriptionRef before = store.append("head");
  const DescriptionRef ref = store.append(big);
  const DescriptionRef after = store.append(text_of(2, 64 * 4));
  EXPECT_TRUE(store.spilled());
  EXPECT_EQ(store.get(ref), big);
  EXPECT_EQ(store.get(before), "head");
  EXPECT_EQ(store.get(after), text_of(2, 64 * 4));
  EXPECT_EQ(store.get(ref), big);
}

TEST(DescriptionStore, EmptyAndForeignReferencesReadAsEmpty) {
  TempTree tree;
  DescriptionStore store(small_pages({tree.root()}));
  const DescriptionRef empty = store.append("");
  EXPECT_EQ(empty.size, 0u);
  EXPECT_EQ(store.get(empty), "");
  store.append(text_of(0, 1000));
  EXPECT_EQ(store.get(DescriptionRef{990, 20}), ""); // past the end
  EXPECT_EQ(store.get(DescriptionRef{5000, 1}), "");
  EXPECT_EQ(store.get(DescriptionRef{}), "");
}

TEST(DescriptionStore, UnusableDirectoriesAreSkippedInOrder) {
  TempTree tree;
  tree.write("a-file", "not a directory");
  DescriptionStore store(small_pages({tree.path("missing"), tree.path("a-file"), tree.path("usable")}));
  tree.mkdir("usable");
  round_trip(store, std::vector<std::size_t>(40, 50));
  EXPECT_TRUE(store.spilled());
}

TEST(DescriptionStore, NoUsableDirectoryKeepsEverythingInMemory) {
  TempTree tree;
  tree.write("a-file", "not a directory");
  DescriptionStore store(small_pages({tree.path("missing"), tree.path("a-file")}));
  round_trip(store, std::vector<std::size_t>(40, 50));
  EXPECT_FALSE(store.spilled());
  EXPECT_TRUE(store.spill_failed());
  EXPECT_GE(store.resident_bytes(), store.size());
}

// A write that fails half way (here the file size limit; a full disk acts
// the same) loses nothing: what reached the file is read from it, the rest
// stays in memory, and so does everything appended later.
TEST(DescriptionStore, AFailedWriteKeepsTheRestInMemory) {
  TempTree tree;
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  const auto previous = std::signal(SIGXFSZ, SIG_IGN);
  rlimit limited = saved;
  limited.rlim_cur = 64 * 3 + 10; // the first batch fits, the second stops inside a page
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limited), 0);
  {
    DescriptionStore store(small_pages({tree.root()}));
    std::vector<std::pair<DescriptionRef, std::string>> stored;
    for (std::size_t i = 0; i < 40; ++i) {
      std::string text = text_of(i, 37);
      stored.emplace_back(store.append(text), std::move(text));
    }
    ::setrlimit(RLIMIT_FSIZE, &saved);
    EXPECT_TRUE(store.spilled());
    EXPECT_TRUE(store.spill_failed());
    for (const auto& [ref, text] : stored) {
      EXPECT_EQ(store.get(ref), text);
    }
  }
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, previous);
}

TEST(DescriptionStore, MovesKeepTheirText) {
  TempTree tree;
  DescriptionStore store(small_pages({tree.root()}));
  const DescriptionRef first = store.append(text_of(3, 700));
  DescriptionStore moved = std::move(store);
  const DescriptionRef second = moved.append("after the move");
  EXPECT_EQ(moved.get(first), text_of(3, 700));
  EXPECT_EQ(moved.get(second), "after the move");
  DescriptionStore assigned;
  assigned = std::move(moved);
  EXPECT_EQ(assigned.get(first), text_of(3, 700));
}

} // namespace
} // namespace skillrt::test
