// Folder hashes of skills (see dir_hash.hpp), over the filesystem layer's one
// walker: its limits, its runtime-cache rule, links and specials recorded,
// never followed or opened.
#include "core/sync/dir_hash.hpp"

#include <algorithm>

#include "core/files/content_manifest.hpp"
#include "core/files/tree_walk.hpp"
#include "core/util/sha256.hpp"

namespace skillrt::core::sync {
namespace {

namespace fs = std::filesystem;

// One record field and its NUL terminator.
void feed_field(Sha256& digest, std::string_view field) {
  digest.update(field);
  digest.update(std::string_view("\0", 1));
}

} // namespace

bool is_known_origin_hash(std::string_view hash) {
  return hash.size() == 64 &&
         std::all_of(hash.begin(), hash.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

Result<std::string> skill_dir_hash(const fs::path& dir) {
  Sha256 digest;
  files::WalkOptions options;
  options.links = files::LinkPolicy::record;
  options.specials = files::SpecialPolicy::record;
  auto tree = files::list_tree(dir, options);
  if (!tree) {
    if (tree.error().code == ErrorCode::not_found) {
      return digest.hex_digest();
    }
    return tl::unexpected(tree.error());
  }
  for (const files::TreeEntry& entry : tree->entries) {
    switch (entry.kind) {
    case files::EntryKind::folder:
      break; // empty folders do not count; the others through their entries
    case files::EntryKind::file: {
      auto fd = files::open_tree_file(dir, entry);
      if (!fd) {
        return tl::unexpected(fd.error());
      }
      const auto size = static_cast<std::uint64_t>(entry.st.st_size);
      feed_field(digest, "f");
      feed_field(digest, entry.path);
      feed_field(digest, std::to_string(size));
      const std::string shown = (dir / entry.path).string();
      if (auto read = files::read_file_exactly(fd->get(), size, shown,
                                               [&digest](std::string_view bytes) { digest.update(bytes); });
          !read) {
        return tl::unexpected(read.error());
      }
      break;
    }
    case files::EntryKind::link:
      feed_field(digest, "l");
      feed_field(digest, entry.path);
      feed_field(digest, entry.link_target);
      break;
    case files::EntryKind::special:
      feed_field(digest, "s");
      feed_field(digest, entry.path);
      break;
    }
  }
  return digest.hex_digest();
}

} // namespace skillrt::core::sync
