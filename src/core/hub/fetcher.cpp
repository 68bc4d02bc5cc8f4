// Names of the fetcher port's source kinds (fetcher.hpp), as lock.json records them.
#include "core/hub/fetcher.hpp"

namespace skillrt::core::hub {

const char* source_kind_name(SourceKind kind) {
  switch (kind) {
  case SourceKind::folder:
    return "folder";
  case SourceKind::archive:
    return "archive";
  case SourceKind::git:
    return "git";
  case SourceKind::url:
    return "url";
  }
  return "folder";
}

std::optional<SourceKind> parse_source_kind(std::string_view name) {
  for (const SourceKind kind : {SourceKind::folder, SourceKind::archive, SourceKind::git, SourceKind::url}) {
    if (name == source_kind_name(kind)) {
      return kind;
    }
  }
  return std::nullopt;
}

} // namespace skillrt::core::hub
