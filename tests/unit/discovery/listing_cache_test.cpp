#include "core/discovery/listing_cache.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

namespace fs = std::filesystem;
using namespace skillrt::core;

namespace {

class ListingCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() / ("skillrt-cache-test-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }

  fs::path write(const std::string& name, const std::string& content) {
    fs::path path = m_dir / name;
    std::ofstream(path, std::ios::binary) << content;
    return path;
  }

  // Files written by a test are always "racy" (changed just now); tests that
  // want them stored use a cache whose racy window is this small instead.
  static constexpr std::int64_t k_no_racy_window = 0;

  fs::path m_dir;
};

ListingOutcome listed(std::string name, std::string description) {
  ListingOutcome outcome;
  outcome.listed = true;
  outcome.fields.frontmatter_name = std::move(name);
  outcome.fields.description = std::move(description);
  outcome.fields.platforms = {"linux", "macos"};
  outcome.fields.triggers = {"pentest [URL]", "/deploy(ing)?/"};
  outcome.fields.paths = {"src/**/*.{ts,tsx}"};
  return outcome;
}

} // namespace

TEST_F(ListingCacheTest, EncodingRoundTrips) {
  std::vector<std::pair<std::string, std::pair<FileStamp, ListingOutcome>>> entries;
  entries.emplace_back("/a/SKILL.md", std::make_pair(FileStamp{1, 2, 3, 4, 5}, listed("a", "does a")));
  ListingOutcome skipped;
  skipped.failure = {SkipReason::not_utf8, "byte 7"};
  entries.emplace_back("/b/SKILL.md", std::make_pair(FileStamp{6, 7, 8, 9, 10}, skipped));

  std::vector<std::pair<std::string, std::pair<FileStamp, ListingOutcome>>> decoded;
  ASSERT_TRUE(decode_listing_cache(encode_listing_cache(entries), decoded));
  ASSERT_EQ(decoded.size(), 2u);
  EXPECT_EQ(decoded[0].first, "/a/SKILL.md");
  EXPECT_EQ(decoded[0].second.first, (FileStamp{1, 2, 3, 4, 5}));
  EXPECT_TRUE(decoded[0].second.second.listed);
  EXPECT_EQ(decoded[0].second.second.fields.description, "does a");
  EXPECT_EQ(decoded[0].second.second.fields.platforms, (std::vector<std::string>{"linux", "macos"}));
  EXPECT_EQ(decoded[0].second.second.fields.triggers, (std::vector<std::string>{"pentest [URL]", "/deploy(ing)?/"}));
  EXPECT_EQ(decoded[0].second.second.fields.paths, (std::vector<std::string>{"src/**/*.{ts,tsx}"}));
  EXPECT_FALSE(decoded[1].second.second.listed);
  EXPECT_EQ(decoded[1].second.second.failure.reason, SkipReason::not_utf8);
  EXPECT_EQ(decoded[1].second.second.failure.detail, "byte 7");
}

TEST_F(ListingCacheTest, EveryTruncationAndBitFlipIsRejected) {
  std::vector<std::pair<std::string, std::pair<FileStamp, ListingOutcome>>> entries;
  entries.emplace_back("/a/SKILL.md", std::make_pair(FileStamp{1, 2, 3, 4, 5}, listed("a", "does a")));
  const std::string bytes = encode_listing_cache(entries);
  std::vector<std::pair<std::string, std::pair<FileStamp, ListingOutcome>>> out;
  for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
    EXPECT_FALSE(decode_listing_cache(std::string_view(bytes).substr(0, cut), out)) << "cut at " << cut;
  }
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    std::string flipped = bytes;
    flipped[i] = static_cast<char>(flipped[i] ^ 0x10);
    EXPECT_FALSE(decode_listing_cache(flipped, out)) << "flip at " << i;
  }
}

TEST_F(ListingCacheTest, RandomBytesNeverDecodeOrCrash) {
  std::mt19937 rng(7);
  std::vector<std::pair<std::string, std::pair<FileStamp, ListingOutcome>>> out;
  for (int round = 0; round < 2000; ++round) {
    std::string bytes(rng() % 200, '\0');
    for (auto& c : bytes) {
      c = static_cast<char>(rng());
    }
    if (round % 2 == 0 && bytes.size() >= 8) {
      bytes.replace(0, 8, "SKRTLC02");
    }
    EXPECT_FALSE(decode_listing_cache(bytes, out));
  }
}

TEST_F(ListingCacheTest, HitOnlyWhileTheStampIsUnchanged) {
  const fs::path skill = write("SKILL.md", "---\nname: a\n---\n");
  auto stamp = stamp_file(skill.c_str());
  ASSERT_TRUE(stamp);
  const fs::path file = m_dir / "cache" / "listing.bin";
  {
    ListingCache cache(file, k_no_racy_window);
    EXPECT_EQ(cache.find(skill.native(), *stamp), nullptr);
    cache.store(skill.native(), *stamp, listed("a", "first"));
    cache.save_if_changed();
  }
  ASSERT_TRUE(fs::exists(file));
  {
    ListingCache cache = ListingCache::load(file, k_no_racy_window);
    const ListingOutcome* hit = cache.find(skill.native(), *stamp);
    ASSERT_NE(hit, nullptr);
    EXPECT_EQ(hit->fields.description, "first");
    EXPECT_EQ(hit->fields.paths, (std::vector<std::string>{"src/**/*.{ts,tsx}"}));
  }
  // Same size, same mtime after the edit (restored by hand): ctime still moves.
  const auto mtime = fs::last_write_time(skill);
  write("SKILL.md", "---\nname: b\n---\n");
  fs::last_write_time(skill, mtime);
  auto after = stamp_file(skill.c_str());
  ASSERT_TRUE(after);
  ListingCache cache = ListingCache::load(file);
  EXPECT_EQ(cache.find(skill.native(), *after), nullptr);
}

TEST_F(ListingCacheTest, RacyEntriesAreNotSaved) {
  const fs::path skill = write("SKILL.md", "---\nname: fresh\n---\n");
  auto stamp = stamp_file(skill.c_str());
  ASSERT_TRUE(stamp);
  const fs::path file = m_dir / "listing.bin";
  ListingCache cache(file);
  cache.store(skill.native(), *stamp, listed("fresh", "just written"));
  cache.save_if_changed();
  ListingCache reloaded = ListingCache::load(file);
  EXPECT_EQ(reloaded.size(), 0u);
}

TEST_F(ListingCacheTest, UnusedEntriesAreDroppedOnSave) {
  const fs::path a = write("a.md", "a");
  const fs::path b = write("b.md", "b");
  const fs::path file = m_dir / "listing.bin";
  {
    ListingCache cache(file, k_no_racy_window);
    cache.store(a.native(), *stamp_file(a.c_str()), listed("a", "a"));
    cache.store(b.native(), *stamp_file(b.c_str()), listed("b", "b"));
    cache.save_if_changed();
  }
  {
    ListingCache cache = ListingCache::load(file, k_no_racy_window);
    ASSERT_EQ(cache.size(), 2u);
    ASSERT_NE(cache.find(a.native(), *stamp_file(a.c_str())), nullptr); // b is gone from the tree
    cache.save_if_changed();
  }
  EXPECT_EQ(ListingCache::load(file, k_no_racy_window).size(), 1u);
}

TEST_F(ListingCacheTest, CorruptFileStartsEmptyAndIsRewritten) {
  const fs::path file = write("listing.bin", "SKRTLC02 this is not a cache");
  ListingCache cache = ListingCache::load(file);
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_TRUE(cache.dirty());
  cache.save_if_changed();
  EXPECT_EQ(ListingCache::load(file).size(), 0u);
  std::vector<std::pair<std::string, std::pair<FileStamp, ListingOutcome>>> out;
  std::ifstream in(file, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(decode_listing_cache(bytes, out));
}

TEST_F(ListingCacheTest, StampRefusesNonRegularFiles) {
  EXPECT_FALSE(stamp_file(m_dir.c_str()));
  EXPECT_FALSE(stamp_file((m_dir / "missing").c_str()));
  const fs::path fifo = m_dir / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_FALSE(stamp_file(fifo.c_str()));
}

namespace {

// Writes `count` SKILL.md files named in ascending order and returns their paths.
std::vector<fs::path> write_many(const fs::path& dir, int count) {
  std::vector<fs::path> paths;
  for (int i = 0; i < count; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "s%05d.md", i);
    paths.push_back(dir / name);
    std::ofstream(paths.back(), std::ios::binary) << "---\nname: " << name << "\n---\n";
  }
  return paths;
}

std::string long_description(std::size_t i) {
  return std::string(300, static_cast<char>('a' + i % 26));
}

} // namespace

// 2000 entries of ~400 bytes span several 256 KiB blocks: every one must come back.
TEST_F(ListingCacheTest, ManyEntriesSpanBlocksAndAllHit) {
  const std::vector<fs::path> paths = write_many(m_dir, 2000);
  const fs::path file = m_dir / "listing.bin";
  {
    ListingCache cache(file, k_no_racy_window);
    for (std::size_t i = 0; i < paths.size(); ++i) {
      cache.store(paths[i].native(), *stamp_file(paths[i].c_str()), listed("n", long_description(i)));
    }
    cache.save_if_changed();
  }
  ASSERT_GT(fs::file_size(file), 3u * 256 * 1024);
  const auto inode_before = stamp_file(file.c_str())->inode;
  {
    ListingCache cache = ListingCache::load(file, k_no_racy_window);
    EXPECT_EQ(cache.size(), paths.size());
    for (std::size_t i = 0; i < paths.size(); ++i) {
      ListingOutcome* hit = cache.find(paths[i].native(), *stamp_file(paths[i].c_str()));
      ASSERT_NE(hit, nullptr) << i;
      EXPECT_EQ(hit->fields.description, long_description(i));
      EXPECT_EQ(hit->fields.platforms, (std::vector<std::string>{"linux", "macos"}));
    }
    EXPECT_FALSE(cache.dirty());
    cache.save_if_changed();
  }
  // Nothing changed: the file is not rewritten.
  EXPECT_EQ(stamp_file(file.c_str())->inode, inode_before);
}

// A file added in the middle and one removed: the rest still hit after the change.
TEST_F(ListingCacheTest, InsertedAndRemovedEntriesKeepTheRest) {
  std::vector<fs::path> paths = write_many(m_dir, 1500);
  const fs::path file = m_dir / "listing.bin";
  {
    ListingCache cache(file, k_no_racy_window);
    for (std::size_t i = 0; i < paths.size(); i += 2) { // only the even ones
      cache.store(paths[i].native(), *stamp_file(paths[i].c_str()), listed("n", long_description(i)));
    }
    cache.save_if_changed();
  }
  {
    ListingCache cache = ListingCache::load(file, k_no_racy_window);
    for (std::size_t i = 0; i < paths.size(); ++i) {
      if (i == 700) {
        continue; // "removed"
      }
      const FileStamp stamp = *stamp_file(paths[i].c_str());
      ListingOutcome* hit = cache.find(paths[i].native(), stamp);
      EXPECT_EQ(hit != nullptr, i % 2 == 0) << i;
      if (hit != nullptr) {
        EXPECT_EQ(hit->fields.description, long_description(i));
      } else {
        cache.store(paths[i].native(), stamp, listed("n", long_description(i)));
      }
    }
    EXPECT_TRUE(cache.dirty());
    cache.save_if_changed();
  }
  ListingCache cache = ListingCache::load(file, k_no_racy_window);
  EXPECT_EQ(cache.size(), paths.size() - 1);
  for (std::size_t i = 0; i < paths.size(); ++i) {
    ListingOutcome* hit = cache.find(paths[i].native(), *stamp_file(paths[i].c_str()));
    EXPECT_EQ(hit != nullptr, i != 700) << i;
    if (hit != nullptr) {
      EXPECT_EQ(hit->fields.description, long_description(i));
    }
  }
}

// A damaged later block costs only its entries: earlier ones hit, nothing
// wrong is served, and the save repairs the file.
TEST_F(ListingCacheTest, DamagedLaterBlockIsMissedAndRepaired) {
  const std::vector<fs::path> paths = write_many(m_dir, 2000);
  const fs::path file = m_dir / "listing.bin";
  {
    ListingCache cache(file, k_no_racy_window);
    for (std::size_t i = 0; i < paths.size(); ++i) {
      cache.store(paths[i].native(), *stamp_file(paths[i].c_str()), listed("n", long_description(i)));
    }
    cache.save_if_changed();
  }
  {
    std::fstream io(file, std::ios::in | std::ios::out | std::ios::binary);
    io.seekp(static_cast<std::streamoff>(fs::file_size(file) - 5000));
    io.put('\x01');
  }
  std::size_t hits = 0;
  {
    ListingCache cache = ListingCache::load(file, k_no_racy_window);
    for (std::size_t i = 0; i < paths.size(); ++i) {
      const FileStamp stamp = *stamp_file(paths[i].c_str());
      if (ListingOutcome* hit = cache.find(paths[i].native(), stamp)) {
        EXPECT_EQ(hit->fields.description, long_description(i));
        ++hits;
      } else {
        cache.store(paths[i].native(), stamp, listed("n", long_description(i)));
      }
    }
    EXPECT_GT(hits, 0u);
    EXPECT_LT(hits, paths.size());
    EXPECT_TRUE(cache.dirty());
    cache.save_if_changed();
  }
  std::ifstream in(file, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::pair<std::string, std::pair<FileStamp, ListingOutcome>>> out;
  ASSERT_TRUE(decode_listing_cache(bytes, out));
  EXPECT_EQ(out.size(), paths.size());
}

// Lookups must ascend; one that goes backwards is a miss, never another entry.
TEST_F(ListingCacheTest, OutOfOrderLookupIsAMiss) {
  const std::vector<fs::path> paths = write_many(m_dir, 3);
  const fs::path file = m_dir / "listing.bin";
  {
    ListingCache cache(file, k_no_racy_window);
    for (std::size_t i = 0; i < paths.size(); ++i) {
      cache.store(paths[i].native(), *stamp_file(paths[i].c_str()), listed("n", long_description(i)));
    }
    cache.save_if_changed();
  }
  ListingCache cache = ListingCache::load(file, k_no_racy_window);
  ASSERT_NE(cache.find(paths[1].native(), *stamp_file(paths[1].c_str())), nullptr);
  EXPECT_EQ(cache.find(paths[0].native(), *stamp_file(paths[0].c_str())), nullptr);
  EXPECT_EQ(cache.find(paths[1].native(), *stamp_file(paths[1].c_str())), nullptr);
  ListingOutcome* last = cache.find(paths[2].native(), *stamp_file(paths[2].c_str()));
  ASSERT_NE(last, nullptr);
  EXPECT_EQ(last->fields.description, long_description(2));
}

// A block header claiming a huge payload is refused by the file size, not allocated.
TEST_F(ListingCacheTest, HugeBlockSizeIsRefused) {
  const std::vector<fs::path> paths = write_many(m_dir, 2);
  const fs::path file = m_dir / "listing.bin";
  {
    ListingCache cache(file, k_no_racy_window);
    cache.store(paths[0].native(), *stamp_file(paths[0].c_str()), listed("n", "d"));
    cache.save_if_changed();
  }
  {
    std::fstream io(file, std::ios::in | std::ios::out | std::ios::binary);
    io.seekp(8 + 7); // the top byte of the first block's payload size
    io.put('\x7f');
  }
  ListingCache cache = ListingCache::load(file, k_no_racy_window);
  EXPECT_EQ(cache.find(paths[0].native(), *stamp_file(paths[0].c_str())), nullptr);
  EXPECT_TRUE(cache.dirty());
}
