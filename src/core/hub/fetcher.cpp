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

} // namespace skillrt::core::hub
