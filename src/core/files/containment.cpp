#include "core/files/containment.hpp"

#include <system_error>

#include "core/files/path_within.hpp"

namespace skillrt::core {

namespace fs = std::filesystem;

Result<fs::path> resolve_inside(const fs::path& folder, const fs::path& relative) {
  std::error_code ec;
  const fs::path root = fs::canonical(folder, ec);
  if (ec) {
    return tl::unexpected(Error{ErrorCode::io_error, "cannot resolve " + folder.string() + ": " + ec.message()});
  }
  // weakly_canonical resolves every symlink that exists, so a link pointing
  // out is caught before anything is opened; callers read the returned path,
  // so a link swapped after the check cannot redirect them.
  const fs::path resolved = fs::weakly_canonical(folder / relative, ec);
  if (ec || !is_within(resolved, root)) {
    return tl::unexpected(
        Error{ErrorCode::refused, "'" + relative.generic_string() + "' escapes " + folder.string()});
  }
  return resolved;
}

Result<fs::path> resolve_entry_file(const fs::path& file) {
  const fs::path folder = file.parent_path().empty() ? fs::path(".") : file.parent_path();
  auto resolved = resolve_inside(folder, file.filename());
  if (!resolved && resolved.error().code == ErrorCode::refused) {
    return tl::unexpected(Error{ErrorCode::refused, file.string() +
                                                        " is a symlink to a file outside its skill folder " +
                                                        folder.string()});
  }
  return resolved;
}

bool stays_inside(const fs::path& folder, const fs::path& path) {
  std::error_code ec;
  const fs::path root = fs::canonical(folder, ec);
  return !ec && stays_inside_canonical(root, path);
}

bool stays_inside_canonical(const fs::path& canonical_folder, const fs::path& path) {
  std::error_code ec;
  const fs::path resolved = fs::weakly_canonical(path, ec);
  return !ec && is_within(resolved, canonical_folder);
}

}  // namespace skillrt::core
