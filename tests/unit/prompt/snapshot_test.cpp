// The prompt snapshot (spec §2.16 rule 3): encoding, validation by exact file
// identity, corrupt files, and concurrent writers.
#include "core/prompt/snapshot.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <atomic>
#include <random>
#include <thread>

#include <gtest/gtest.h>

#include "core/prompt/invalidate.hpp"
#include "core/prompt/skills_index.hpp"
#include "core/files/read_file.hpp"
#include "home_fixture.hpp"

namespace skillrt::test {
namespace {

using Strings = std::vector<std::string>;

core::SnapshotEntries sample_entries() {
  core::SnapshotEntries entries;
  core::SnapshotEntry a;
  a.stamp = core::FileStamp{1, 2, 3, 4, 5};
  a.conditions.requires_tools = {"terminal", "quote\"d"};
  a.conditions.fallback_for_toolsets = {"web"};
  entries.emplace_back("/skills/a/SKILL.md", a);
  core::SnapshotEntry b;
  b.stamp = core::FileStamp{6, 7, 8, 9, 10};
  entries.emplace_back("/skills/ü/b\\x\n/SKILL.md", b);
  return entries;
}

TEST(PromptSnapshotCodec, RoundTrips) {
  const auto entries = sample_entries();
  const std::string text = core::encode_prompt_snapshot(entries);
  const auto decoded = core::decode_prompt_snapshot(text);
  ASSERT_TRUE(decoded.has_value());
  EXPECT_EQ(*decoded, entries);
}

TEST(PromptSnapshotCodec, RejectsEveryTruncationAndOtherVersions) {
  const std::string text = core::encode_prompt_snapshot(sample_entries());
  // A torn file (any prefix) never decodes to something else.
  for (std::size_t cut = 0; cut + 1 < text.size(); ++cut) {
    const auto decoded = core::decode_prompt_snapshot(std::string_view(text).substr(0, cut));
    EXPECT_FALSE(decoded.has_value()) << "prefix of " << cut << " bytes decoded";
  }
  std::string hermes = text;
  hermes.replace(hermes.find("\"version\":3"), 11, "\"version\":2");
  EXPECT_FALSE(core::decode_prompt_snapshot(hermes).has_value());
  EXPECT_FALSE(core::decode_prompt_snapshot("not json").has_value());
  EXPECT_FALSE(core::decode_prompt_snapshot("{\"version\":3}").has_value());
}

TEST(PromptSnapshotCodec, MutatedDocumentsNeverCrash) {
  const std::string text = core::encode_prompt_snapshot(sample_entries());
  std::mt19937 random(7);
  for (int round = 0; round < 2000; ++round) {
    std::string mutated = text;
    const int edits = 1 + static_cast<int>(random() % 4);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = random() % mutated.size();
      mutated[at] = static_cast<char>(random() % 256);
    }
    const auto decoded = core::decode_prompt_snapshot(mutated);
    if (decoded) {
      // Whatever decodes re-encodes to a document that decodes the same way.
      EXPECT_EQ(core::decode_prompt_snapshot(core::encode_prompt_snapshot(*decoded)), decoded);
    }
  }
}

class PromptSnapshotFiles : public HomeFixture {
protected:
  core::PromptOptions with_tools(Strings tools) const {
    core::PromptOptions o;
    o.catalog.use_cache = false;
    o.snapshot_racy_window_ns = 0;
    o.tools.tools = std::move(tools);
    return o;
  }
  bool listed(const std::string& name, const core::PromptOptions& o) {
    const auto out = core::build_skills_system_prompt(ctx, cfg, o);
    return out.text.find("    - " + name + ":") != std::string::npos;
  }
  std::string snapshot_text() {
    auto bytes = core::read_regular_file(core::prompt_snapshot_path(ctx), 1 << 24);
    return bytes ? *bytes : std::string();
  }
};

TEST_F(PromptSnapshotFiles, WrittenWithToolInfoAndUsedOnTheNextCall) {
  const auto md = skill("a", "name: a\ndescription: d\nmetadata:\n  hermes:\n    requires_tools: [aaa]\n");
  EXPECT_TRUE(listed("a", with_tools({"aaa"})));
  const std::string text = snapshot_text();
  ASSERT_NE(text.find(md.string()), std::string::npos);
  EXPECT_NE(text.find("\"requires_tools\":[\"aaa\"]"), std::string::npos);

  // Proof the snapshot is read: give the unchanged file other stored
  // conditions; the index follows the snapshot, not the file.
  std::string forged = text;
  forged.replace(forged.find("[\"aaa\"]"), 7, "[\"zzz\"]");
  write(core::prompt_snapshot_path(ctx), forged);
  EXPECT_FALSE(listed("a", with_tools({"aaa"})));
}

TEST_F(PromptSnapshotFiles, InPlaceEditWithSameSizeAndMtimeIsSeen) {
  const auto md = skill("a", "name: a\ndescription: d\nmetadata:\n  hermes:\n    requires_tools: [aaa]\n");
  EXPECT_TRUE(listed("a", with_tools({"aaa"})));
  struct stat before {};
  ASSERT_EQ(::stat(md.c_str(), &before), 0);
  // Same bytes count, same mtime: only ctime (and the content) changes.
  write(md, "---\nname: a\ndescription: d\nmetadata:\n  hermes:\n    requires_tools: [bbb]\n---\nBody text.\n");
  const struct timespec times[2] = {before.st_atim, before.st_mtim};
  ASSERT_EQ(::utimensat(AT_FDCWD, md.c_str(), times, 0), 0);
  struct stat after {};
  ASSERT_EQ(::stat(md.c_str(), &after), 0);
  ASSERT_EQ(after.st_size, before.st_size);
  ASSERT_EQ(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
  EXPECT_FALSE(listed("a", with_tools({"aaa"})));
  EXPECT_TRUE(listed("a", with_tools({"bbb"})));
}

TEST_F(PromptSnapshotFiles, CorruptSnapshotIsIgnoredAndRewritten) {
  skill("a", "name: a\ndescription: d\nmetadata:\n  hermes:\n    requires_tools: [aaa]\n");
  write(core::prompt_snapshot_path(ctx), "{\"version\":3,\"manifest\":{\"/x\":[1,2");
  EXPECT_TRUE(listed("a", with_tools({"aaa"})));
  EXPECT_FALSE(listed("a", with_tools({"bbb"})));
  EXPECT_TRUE(core::decode_prompt_snapshot(snapshot_text()).has_value());
}

TEST_F(PromptSnapshotFiles, InvalidateRemovesTheSnapshot) {
  skill("a", "name: a\ndescription: d\nmetadata:\n  hermes:\n    requires_tools: [aaa]\n");
  EXPECT_TRUE(listed("a", with_tools({"aaa"})));
  ASSERT_TRUE(std::filesystem::exists(core::prompt_snapshot_path(ctx)));
  core::invalidate_skill_caches(ctx);
  EXPECT_FALSE(std::filesystem::exists(core::prompt_snapshot_path(ctx)));
}

TEST_F(PromptSnapshotFiles, RacyFilesAreNotStored) {
  skill("a", "name: a\ndescription: d\nmetadata:\n  hermes:\n    requires_tools: [aaa]\n");
  auto o = with_tools({"aaa"});
  o.snapshot_racy_window_ns = 3600LL * 1'000'000'000; // everything is "just written"
  EXPECT_TRUE(listed("a", o));
  EXPECT_EQ(snapshot_text().find("SKILL.md"), std::string::npos);
}

TEST_F(PromptSnapshotFiles, ConcurrentWritersNeverExposeATornFile) {
  for (int i = 0; i < 30; ++i) {
    skill("s" + std::to_string(i), "name: s" + std::to_string(i) +
                                       "\ndescription: d\nmetadata:\n  hermes:\n    requires_tools: [t" +
                                       std::to_string(i % 3) + "]\n");
  }
  std::atomic<bool> stop{false};
  std::atomic<int> torn{0};
  std::atomic<int> reads{0};
  std::thread reader([&] {
    while (!stop) {
      auto bytes = core::read_regular_file(core::prompt_snapshot_path(ctx), 1 << 24);
      if (bytes) {
        ++reads;
        if (!core::decode_prompt_snapshot(*bytes)) {
          ++torn;
        }
      }
    }
  });
  std::vector<std::thread> writers;
  for (int w = 0; w < 3; ++w) {
    writers.emplace_back([&, w] {
      for (int round = 0; round < 15; ++round) {
        // Removing the snapshot forces every call to write a fresh one.
        std::error_code ec;
        std::filesystem::remove(core::prompt_snapshot_path(ctx), ec);
        const auto out = core::build_skills_system_prompt(ctx, cfg, with_tools({"t" + std::to_string(w)}));
        EXPECT_EQ(out.skills_count, 10u);
      }
    });
  }
  for (auto& writer : writers) {
    writer.join();
  }
  stop = true;
  reader.join();
  EXPECT_EQ(torn.load(), 0);
  EXPECT_GT(reads.load(), 0);
}

} // namespace
} // namespace skillrt::test
