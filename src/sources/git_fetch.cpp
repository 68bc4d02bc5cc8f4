// git over libgit2 (the only file that includes git2.h); see git_fetch.hpp.
#include "sources/git_fetch.hpp"

#include <git2.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <optional>
#include <system_error>

#include "core/limits.hpp"
#include "sources/bundle_path.hpp"
#include "sources/watched_child.hpp"

namespace skillrt::sources {

namespace {

namespace fs = std::filesystem;

// libgit2's global state, set up on first use and torn down at exit.
struct GitLibrary {
  GitLibrary() { git_libgit2_init(); }
  ~GitLibrary() { git_libgit2_shutdown(); }
  GitLibrary(const GitLibrary&) = delete;
  GitLibrary& operator=(const GitLibrary&) = delete;
};

void ensure_library() {
  static const GitLibrary library;
}

std::string last_git_error() {
  const git_error* error = git_error_last();
  return error != nullptr && error->message != nullptr ? std::string(error->message)
                                                       : std::string("unknown libgit2 error");
}

template <typename T, void (*Free)(T*)> struct GitFree {
  void operator()(T* object) const { Free(object); }
};
using RepoPtr = std::unique_ptr<git_repository, GitFree<git_repository, git_repository_free>>;
using ObjectPtr = std::unique_ptr<git_object, GitFree<git_object, git_object_free>>;
using TreePtr = std::unique_ptr<git_tree, GitFree<git_tree, git_tree_free>>;
using TreeEntryPtr = std::unique_ptr<git_tree_entry, GitFree<git_tree_entry, git_tree_entry_free>>;
using BlobPtr = std::unique_ptr<git_blob, GitFree<git_blob, git_blob_free>>;
using OdbPtr = std::unique_ptr<git_odb, GitFree<git_odb, git_odb_free>>;

struct TransferState {
  ChildChannel* channel = nullptr;
  // A clone brings history too, which may outgrow a bundle, within this cap.
  std::uint64_t max_bytes = limits::k_max_git_transfer_bytes;
  std::string error; // set when a callback stopped the transfer
};

int on_transfer(const git_indexer_progress* stats, void* payload) {
  auto* state = static_cast<TransferState*>(payload);
  if (stats->received_bytes > state->max_bytes) {
    state->error = "the repository transfer is larger than " + std::to_string(state->max_bytes) + " bytes";
    return -1;
  }
  state->channel->progress(stats->received_objects, stats->total_objects);
  return 0;
}

// The server's own messages ("Counting objects…") come before any pack data:
// they show a busy server, not a stalled one.
int on_sideband(const char* /*text*/, int /*length*/, void* payload) {
  static_cast<TransferState*>(payload)->channel->heartbeat();
  return 0;
}

// TLS verification stays on: an invalid certificate is never accepted.
int on_certificate(git_cert* /*cert*/, int valid, const char* host, void* payload) {
  if (valid != 0) {
    return 0;
  }
  auto* state = static_cast<TransferState*>(payload);
  state->error = std::string("the TLS certificate of ") + (host != nullptr ? host : "the server") + " is not valid";
  return GIT_ECERTIFICATE;
}

// Removes the scratch clone however fetch_git ends.
struct ScratchRemover {
  fs::path path;
  ~ScratchRemover() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

bool is_hex(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(),
                                      [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
}

// The object `ref` names: a branch, a tag or a (possibly abbreviated) commit
// id. A full 40-hex id is an object id and nothing else, as git reads it: a
// branch or tag someone named after a reviewed commit must not replace what
// a pinned install gets. An abbreviated id that is also a branch or tag name
// is refused as ambiguous. nullptr when nothing matches.
Result<ObjectPtr> lookup_ref(git_repository* repo, const std::string& ref) {
  const bool hex = is_hex(ref) && ref.size() >= 4 && ref.size() <= GIT_OID_HEXSZ;
  ObjectPtr by_id;
  if (hex) {
    git_oid oid;
    git_object* object = nullptr;
    if (git_oid_fromstrn(&oid, ref.c_str(), ref.size()) == 0 &&
        git_object_lookup_prefix(&object, repo, &oid, ref.size(), GIT_OBJECT_ANY) == 0) {
      by_id = ObjectPtr(object);
    }
    if (ref.size() == GIT_OID_HEXSZ) {
      return by_id;
    }
  }
  for (const std::string& candidate : {"refs/remotes/origin/" + ref, "refs/heads/" + ref, "refs/tags/" + ref}) {
    git_object* object = nullptr;
    if (git_revparse_single(&object, repo, candidate.c_str()) == 0) {
      ObjectPtr by_name(object);
      if (by_id && git_oid_cmp(git_object_id(by_id.get()), git_object_id(by_name.get())) != 0) {
        return fail(ErrorCode::ambiguous, "ref \"" + ref +
                                              "\" is both an abbreviated commit id and a branch or tag name; "
                                              "give the full 40-character commit id");
      }
      return by_name;
    }
  }
  return by_id;
}

class TreeWriter {
public:
  TreeWriter(git_repository* repo, git_odb* odb, BundleWriter& writer) : m_repo(repo), m_odb(odb), m_writer(writer) {}

  Result<void> write(git_tree* tree) {
    const int status = git_tree_walk(tree, GIT_TREEWALK_PRE, &TreeWriter::visit, this);
    if (m_error) {
      return tl::unexpected(*m_error);
    }
    if (status < 0) {
      return fail(ErrorCode::io_error, "cannot read the git tree: " + last_git_error());
    }
    return {};
  }

private:
  static int visit(const char* root, const git_tree_entry* entry, void* payload) {
    auto* self = static_cast<TreeWriter*>(payload);
    auto outcome = self->visit_entry(root, entry);
    if (!outcome) {
      self->m_error = outcome.error();
      return -1;
    }
    return *outcome;
  }

  // 0: go on; 1: skip this subtree.
  Result<int> visit_entry(const char* root, const git_tree_entry* entry) {
    const std::string name = git_tree_entry_name(entry);
    const std::string path = std::string(root) + name;
    const git_filemode_t mode = git_tree_entry_filemode(entry);
    if (name == ".git") {
      return 1;
    }
    switch (mode) {
    case GIT_FILEMODE_TREE: {
      auto made = m_writer.add_directory(path);
      if (!made) {
        return tl::unexpected(made.error());
      }
      return 0;
    }
    case GIT_FILEMODE_BLOB:
    case GIT_FILEMODE_BLOB_EXECUTABLE:
      return write_blob(path, entry, mode == GIT_FILEMODE_BLOB_EXECUTABLE);
    case GIT_FILEMODE_LINK: {
      auto normalized = m_writer.check_path(path);
      if (!normalized) {
        return tl::unexpected(normalized.error());
      }
      return fail(ErrorCode::refused, "skill bundles may not contain symlinks: " + *normalized);
    }
    case GIT_FILEMODE_COMMIT:
      return fail(ErrorCode::refused, entry_prefix(path) + "git submodules are not supported");
    default:
      return fail(ErrorCode::refused, entry_prefix(path) + "unsupported git entry type");
    }
  }

  Result<int> write_blob(const std::string& path, const git_tree_entry* entry, bool executable) {
    if (auto normalized = m_writer.check_path(path); !normalized) {
      return tl::unexpected(normalized.error());
    }
    // The size from the object header: a huge blob is refused before it is inflated.
    std::size_t size = 0;
    git_object_t type = GIT_OBJECT_INVALID;
    if (git_odb_read_header(&size, &type, m_odb, git_tree_entry_id(entry)) != 0) {
      return fail(ErrorCode::io_error, entry_prefix(path) + "cannot read the git object: " + last_git_error());
    }
    const BundleLimits& limits = m_writer.limits();
    if (size > limits.max_file_bytes) {
      return fail(ErrorCode::limit_exceeded,
                  entry_prefix(path) + "the file is larger than " + std::to_string(limits.max_file_bytes) + " bytes");
    }
    if (size > limits.max_bytes - m_writer.bytes()) {
      return fail(ErrorCode::limit_exceeded, entry_prefix(path) + "the bundle is larger than " +
                                                 std::to_string(limits.max_bytes) + " bytes (uncompressed)");
    }
    git_blob* raw_blob = nullptr;
    if (git_blob_lookup(&raw_blob, m_repo, git_tree_entry_id(entry)) != 0) {
      return fail(ErrorCode::io_error, entry_prefix(path) + "cannot read the git blob: " + last_git_error());
    }
    const BlobPtr blob(raw_blob);
    const std::string_view content(static_cast<const char*>(git_blob_rawcontent(blob.get())),
                                   static_cast<std::size_t>(git_blob_rawsize(blob.get())));
    auto written = m_writer.add_file_bytes(path, executable, content);
    if (!written) {
      return tl::unexpected(written.error());
    }
    return 0;
  }

  git_repository* m_repo;
  git_odb* m_odb;
  BundleWriter& m_writer;
  std::optional<Error> m_error;
};

// Runs in the watched child: clones `request` bare into `scratch`.
Result<void> clone_bare(const GitRequest& request, const fs::path& scratch, std::uint64_t max_bytes,
                        ChildChannel& channel) {
  ensure_library();
  TransferState state;
  state.channel = &channel;
  state.max_bytes = max_bytes;

  git_clone_options options;
  git_clone_options_init(&options, GIT_CLONE_OPTIONS_VERSION);
  // Bare: nothing is checked out by libgit2; the tree is written out below,
  // entry by entry, under the bundle rules.
  options.bare = 1;
  // Objects of a local repository are copied, never hardlinked to the user's.
  options.local = GIT_CLONE_LOCAL_NO_LINKS;
  options.fetch_opts.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_ALL;
  options.fetch_opts.callbacks.transfer_progress = on_transfer;
  options.fetch_opts.callbacks.sideband_progress = on_sideband;
  options.fetch_opts.callbacks.certificate_check = on_certificate;
  options.fetch_opts.callbacks.payload = &state;

  git_repository* raw_repo = nullptr;
  if (git_clone(&raw_repo, request.location.c_str(), scratch.c_str(), &options) != 0) {
    const std::string why = state.error.empty() ? last_git_error() : state.error;
    const ErrorCode code =
        state.error.rfind("the repository transfer", 0) == 0 ? ErrorCode::limit_exceeded : ErrorCode::io_error;
    return fail(code, why);
  }
  git_repository_free(raw_repo);
  return {};
}

} // namespace

ChildDeadlines default_git_deadlines() {
  return ChildDeadlines{std::chrono::seconds(limits::k_git_stall_timeout_s),
                        std::chrono::seconds(limits::k_git_fetch_timeout_s)};
}

Result<std::string> fetch_git(const GitRequest& request, const fs::path& scratch, BundleWriter& writer,
                              core::hub::Progress* progress) {
  const ScratchRemover remover{scratch};
  // The clone is the only step that talks to a server, and libgit2 1.5 cannot
  // time it out; it runs in a watched child process with deadlines. The rest
  // reads the finished clone here.
  const std::uint64_t max_bytes = writer.limits().max_bytes;
  auto cloned = run_watched_child(
      [&](ChildChannel& channel) { return clone_bare(request, scratch, max_bytes, channel); }, request.deadlines,
      [progress](std::uint64_t done, std::uint64_t total) {
        if (progress != nullptr) {
          progress->update("fetch", done, total);
        }
      });
  if (!cloned) {
    return fail(cloned.error().code, "cannot clone " + request.identifier + ": " + cloned.error().message);
  }
  ensure_library();
  git_repository* raw_repo = nullptr;
  if (git_repository_open_bare(&raw_repo, scratch.c_str()) != 0) {
    return fail(ErrorCode::io_error, "cannot open the clone of " + request.identifier + ": " + last_git_error());
  }
  const RepoPtr repo(raw_repo);

  ObjectPtr target;
  if (request.ref.empty()) {
    git_object* head = nullptr;
    if (git_revparse_single(&head, repo.get(), "HEAD") != 0) {
      return fail(ErrorCode::not_found, request.identifier + " has no commits on its default branch");
    }
    target.reset(head);
  } else {
    auto found = lookup_ref(repo.get(), request.ref);
    if (!found) {
      return fail(found.error().code, found.error().message + " (" + request.identifier + ")");
    }
    target = std::move(*found);
    if (!target) {
      return fail(ErrorCode::not_found, "ref \"" + request.ref + "\" not found in " + request.identifier +
                                            " (no such branch, tag or commit)");
    }
  }
  git_object* raw_commit = nullptr;
  if (git_object_peel(&raw_commit, target.get(), GIT_OBJECT_COMMIT) != 0) {
    return fail(ErrorCode::invalid_argument,
                "ref \"" + request.ref + "\" of " + request.identifier + " does not name a commit");
  }
  const ObjectPtr commit(raw_commit);
  char commit_id[GIT_OID_HEXSZ + 1] = {};
  git_oid_tostr(commit_id, sizeof(commit_id), git_object_id(commit.get()));

  git_tree* raw_tree = nullptr;
  if (git_commit_tree(&raw_tree, reinterpret_cast<git_commit*>(commit.get())) != 0) {
    return fail(ErrorCode::io_error, "cannot read the tree of " + std::string(commit_id) + ": " + last_git_error());
  }
  TreePtr tree(raw_tree);
  const std::string at = (request.ref.empty() ? std::string("HEAD") : request.ref) + " of " + request.identifier;
  if (!request.subdir.empty()) {
    git_tree_entry* raw_entry = nullptr;
    if (git_tree_entry_bypath(&raw_entry, tree.get(), request.subdir.c_str()) != 0) {
      return fail(ErrorCode::not_found, "//subdir \"" + request.subdir + "\" does not exist in " + at);
    }
    const TreeEntryPtr entry(raw_entry);
    if (git_tree_entry_type(entry.get()) != GIT_OBJECT_TREE) {
      return fail(ErrorCode::invalid_argument, "//subdir \"" + request.subdir + "\" is not a folder in " + at);
    }
    git_tree* raw_subtree = nullptr;
    if (git_tree_lookup(&raw_subtree, repo.get(), git_tree_entry_id(entry.get())) != 0) {
      return fail(ErrorCode::io_error, "cannot read //subdir \"" + request.subdir + "\": " + last_git_error());
    }
    tree.reset(raw_subtree);
  }
  git_odb* raw_odb = nullptr;
  if (git_repository_odb(&raw_odb, repo.get()) != 0) {
    return fail(ErrorCode::io_error, "cannot open the object database of the clone: " + last_git_error());
  }
  const OdbPtr odb(raw_odb);
  TreeWriter tree_writer(repo.get(), odb.get(), writer);
  if (auto written = tree_writer.write(tree.get()); !written) {
    return tl::unexpected(written.error());
  }
  return std::string(commit_id);
}

} // namespace skillrt::sources
