// The files of src/web/assets, built into the binary by cmake/EmbedAssets.cmake
// (one generated .cpp), sorted by name.
#pragma once

#include <span>
#include <string_view>

namespace skillrt::web {

struct EmbeddedFile {
  std::string_view name;   // the file name in src/web/assets ("app.js")
  std::string_view bytes;
};

extern const std::span<const EmbeddedFile> k_embedded_assets;

}  // namespace skillrt::web
