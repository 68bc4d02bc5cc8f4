// The canonical manifest of a skill bundle (bundle_manifest.hpp), built by the
// filesystem layer's one manifest builder: a link planted inside the bundle is
// refused, never followed, and the bundle limits are the one set of tree limits.
#include "core/hub/bundle_manifest.hpp"

#include "core/files/content_manifest.hpp"
#include "core/util/sha256.hpp"

namespace skillrt::core::hub {

Result<BundleManifest> build_bundle_manifest(const std::filesystem::path& bundle_dir) {
  files::WalkOptions options;
  options.links = files::LinkPolicy::refuse;
  options.specials = files::SpecialPolicy::refuse;
  // A newline in a name could forge a second manifest line, so two different
  // trees could share one manifest.
  options.refuse_control_names = true;
  // Left out of the manifest (it signs the rest), but it must still be a plain
  // file: a link there could make `sign` write outside the bundle. (A link is
  // refused by the link policy before this is asked.)
  bool signature_is_odd = false;
  options.leave_out = [&signature_is_odd](const files::WalkEntry& entry) {
    if (entry.depth != 1 || entry.name != k_signature_file_name || entry.kind == files::EntryKind::link) {
      return false;
    }
    signature_is_odd = entry.kind != files::EntryKind::file;
    return true;
  };
  auto entries = files::build_content_manifest(bundle_dir, options);
  if (!entries) {
    if (entries.error().code == ErrorCode::not_found) {
      return fail(ErrorCode::not_found, "bundle folder " + bundle_dir.string() + " does not exist");
    }
    return tl::unexpected(entries.error());
  }
  if (signature_is_odd) {
    return fail(ErrorCode::refused, "the signature file " + std::string(k_signature_file_name) +
                                        " is not a regular file");
  }
  BundleManifest manifest;
  std::size_t text_size = 0;
  for (const files::ContentEntry& entry : *entries) {
    text_size += entry.sha256.size() + 2 + entry.path.size() + 1;
  }
  manifest.text.reserve(text_size);
  for (const files::ContentEntry& entry : *entries) {
    manifest.text += entry.sha256;
    manifest.text += "  ";
    manifest.text += entry.path;
    manifest.text += '\n';
  }
  manifest.content_hash = "sha256:" + sha256_hex(manifest.text);
  manifest.entries = std::move(*entries);
  return manifest;
}

Result<std::string> bundle_content_hash(const std::filesystem::path& bundle_dir) {
  auto manifest = build_bundle_manifest(bundle_dir);
  if (!manifest) {
    return tl::unexpected(manifest.error());
  }
  return std::move(manifest->content_hash);
}

} // namespace skillrt::core::hub
