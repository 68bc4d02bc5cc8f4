// Keeps the store's search index of file skills current with the files.
//
// Database rows are indexed by the store in the same transaction as their
// write; file skills change behind our back (an editor, git pull, another
// process), so every search first compares each listed SKILL.md's stat stamp
// with the stamp stored beside its document and re-reads only what changed.
// The index can therefore never answer from a stale file, and a warm check
// costs one stat per skill plus one read of the stored stamps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

#include "core/context.hpp"
#include "core/discovery/catalog.hpp"
#include "core/limits.hpp"
#include "core/store/skill_store.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

// What one sync did (for the benchmark and for tests).
struct IndexSyncStats {
  std::size_t checked = 0;    // catalog records compared with the index
  std::size_t unchanged = 0;  // stamp equal: nothing read
  std::size_t indexed = 0;    // new or changed SKILL.md files read and upserted
  std::size_t removed = 0;    // documents of vanished files dropped
  std::size_t store_calls = 0;  // sync_file_docs calls (0 when nothing changed)
  std::size_t racy = 0;       // of `indexed`, read within the racy window: read again next sync
};

// The stamp stored beside a file document: the file's identity (device,
// inode, size, mtime, ctime in nanoseconds). A file changed within
// limits::k_search_racy_window_ns of being read gets a stamp that never
// matches, so an edit inside the timestamp granularity is read again.
std::string search_doc_stamp(const std::string& path, std::int64_t now_ns,
                             std::int64_t racy_window_ns = limits::k_search_racy_window_ns);

// Brings the index of ctx's file skills up to date with `catalog` (built for
// ctx): the shared documents (owner "") and, with a user, that user's own
// file documents (owner = user id, source "user"). Every parsed record is
// indexed, hidden ones included, so contexts with other gates do not undo
// each other's work; search filters hits to what ctx lists. A stored shared
// document disappears when its file is gone or when it lies under one of this
// catalog's roots and is no longer a skill there.
// `racy_window_ns` is limits::k_search_racy_window_ns except in tests.
Result<IndexSyncStats> sync_search_index(const Context& ctx, const Catalog& catalog, SkillStore& store,
                                         std::int64_t racy_window_ns = limits::k_search_racy_window_ns);

// For a host that keeps a catalog while its files stay unchanged (the
// servers' snapshots, which their watcher drops on any change under the
// roots): one sync per catalog instead of one per search. At 50,000 skills
// the sync's check is ~0.3 s of stats and stored stamps, the query under a
// millisecond. A sync that read a file inside the racy window, or failed,
// does not count: the next search syncs again.
class IndexSyncMemo {
 public:
  // sync_search_index, unless it already ran for `catalog` with nothing left
  // to read again (then an empty IndexSyncStats). Searches of one catalog
  // wait for each other's sync rather than check the same files twice.
  Result<IndexSyncStats> sync(const Context& ctx, const Catalog& catalog, SkillStore& store,
                              std::int64_t racy_window_ns = limits::k_search_racy_window_ns);

 private:
  std::mutex m_mutex;
  bool m_current = false;
};

}  // namespace skillrt::core
