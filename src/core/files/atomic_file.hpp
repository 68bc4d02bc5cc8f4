// Crash-safe file replacement: readers see the old content or the new, never a mix.
#pragma once

#include <filesystem>
#include <string_view>

#include "core/files/unique_fd.hpp"
#include "skillrt/result.hpp"

namespace skillrt::core {

// A file being replaced: bytes go to a temporary file beside the target, and
// nothing is published before commit(). Destroying an uncommitted writer
// removes the temporary file, so readers only ever see the old file or the
// whole new one.
class AtomicFileWriter {
 public:
  // Creates the temporary file beside `path`. An existing file's permission
  // bits are kept (a new one gets 0600); a symlink at `path` is followed so the
  // link survives. Fails when `path` exists and is not a regular file.
  static Result<AtomicFileWriter> open(const std::filesystem::path& path);

  AtomicFileWriter(AtomicFileWriter&& other) noexcept;
  AtomicFileWriter& operator=(AtomicFileWriter&&) = delete;
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;
  ~AtomicFileWriter();

  // Appends `bytes` to the temporary file.
  Result<void> append(std::string_view bytes);

  // fsyncs the temporary file, renames it over the target and fsyncs the directory.
  Result<void> commit();

 private:
  AtomicFileWriter(std::filesystem::path target, std::string temp, files::UniqueFd fd);
  void discard();

  std::filesystem::path m_target;
  std::string m_temp;  // empty once committed or discarded
  files::UniqueFd m_fd;
};

// Writes `content` to a temporary file beside `path`, fsyncs it, renames it over
// `path` and fsyncs the directory. An existing file keeps its permission bits
// (a new one gets 0600); a symlink at `path` is followed so the link survives.
// The parent directory must exist.
Result<void> write_file_atomic(const std::filesystem::path& path, std::string_view content);

}  // namespace skillrt::core
