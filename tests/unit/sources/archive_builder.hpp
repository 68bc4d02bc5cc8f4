// Builds archives in memory with libarchive's *writer* for the extraction
// tests: good bundles and hostile ones (entries no sane tool would write).
// Nothing is committed as a binary; every fixture is made here.
#pragma once

#include <archive.h>
#include <archive_entry.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace skillrt::sources::test {

class ArchiveBuilder {
public:
  enum class Format { tar_gz, tar, zip };

  explicit ArchiveBuilder(Format format) : m_archive(archive_write_new()) {
    if (format == Format::zip) {
      check(archive_write_set_format_zip(m_archive));
      // Fast and still a real deflate stream: keeps the bomb test quick.
      check(archive_write_set_format_option(m_archive, "zip", "compression-level", "1"));
    } else {
      check(archive_write_set_format_pax_restricted(m_archive));
      if (format == Format::tar_gz) {
        check(archive_write_add_filter_gzip(m_archive));
        check(archive_write_set_filter_option(m_archive, "gzip", "compression-level", "1"));
      }
    }
    check(archive_write_set_bytes_in_last_block(m_archive, 1));
    check(archive_write_open(m_archive, this, nullptr, &ArchiveBuilder::on_write, nullptr));
  }
  ArchiveBuilder(const ArchiveBuilder&) = delete;
  ArchiveBuilder& operator=(const ArchiveBuilder&) = delete;
  ~ArchiveBuilder() {
    if (m_archive != nullptr) {
      archive_write_free(m_archive);
    }
  }

  ArchiveBuilder& file(std::string_view path, std::string_view content, int perm = 0644) {
    archive_entry* entry = header(path, AE_IFREG, perm);
    archive_entry_set_size(entry, static_cast<la_int64_t>(content.size()));
    write_header(entry);
    if (!content.empty() && archive_write_data(m_archive, content.data(), content.size()) < 0) {
      fail();
    }
    return *this;
  }

  // A file of `size` zero bytes, written in blocks (never held whole).
  ArchiveBuilder& zeros(std::string_view path, std::uint64_t size) {
    archive_entry* entry = header(path, AE_IFREG, 0644);
    archive_entry_set_size(entry, static_cast<la_int64_t>(size));
    write_header(entry);
    const std::string block(1 << 20, '\0');
    for (std::uint64_t left = size; left > 0;) {
      const std::size_t n = left < block.size() ? static_cast<std::size_t>(left) : block.size();
      if (archive_write_data(m_archive, block.data(), n) < 0) {
        fail();
      }
      left -= n;
    }
    return *this;
  }

  ArchiveBuilder& dir(std::string_view path) {
    write_header(header(path, AE_IFDIR, 0755));
    return *this;
  }

  ArchiveBuilder& symlink(std::string_view path, std::string_view target) {
    archive_entry* entry = header(path, AE_IFLNK, 0777);
    archive_entry_set_symlink(entry, std::string(target).c_str());
    write_header(entry);
    return *this;
  }

  ArchiveBuilder& hardlink(std::string_view path, std::string_view target) {
    archive_entry* entry = header(path, AE_IFREG, 0644);
    archive_entry_set_hardlink(entry, std::string(target).c_str());
    archive_entry_set_size(entry, 0);
    write_header(entry);
    return *this;
  }

  // A character device (AE_IFCHR) or fifo (AE_IFIFO) entry.
  ArchiveBuilder& special(std::string_view path, unsigned int type) {
    archive_entry* entry = header(path, type, 0644);
    if (type == AE_IFCHR) {
      archive_entry_set_rdev(entry, 0x0103); // what /dev/null is
    }
    write_header(entry);
    return *this;
  }

  // Closes the archive and returns its bytes.
  std::string finish() {
    check(archive_write_close(m_archive));
    archive_write_free(m_archive);
    m_archive = nullptr;
    return std::move(m_bytes);
  }

private:
  static la_ssize_t on_write(archive*, void* self, const void* data, size_t size) {
    static_cast<ArchiveBuilder*>(self)->m_bytes.append(static_cast<const char*>(data), size);
    return static_cast<la_ssize_t>(size);
  }

  archive_entry* header(std::string_view path, unsigned int type, int perm) {
    archive_entry_clear(m_entry.get());
    archive_entry_copy_pathname(m_entry.get(), std::string(path).c_str());
    archive_entry_set_filetype(m_entry.get(), type);
    archive_entry_set_perm(m_entry.get(), static_cast<mode_t>(perm));
    archive_entry_set_mtime(m_entry.get(), 1700000000, 0);
    return m_entry.get();
  }

  void write_header(archive_entry* entry) {
    if (archive_write_header(m_archive, entry) < ARCHIVE_WARN) {
      fail();
    }
  }

  void check(int status) {
    if (status < ARCHIVE_WARN) {
      fail();
    }
  }

  [[noreturn]] void fail() {
    const char* text = archive_error_string(m_archive);
    throw std::runtime_error(std::string("libarchive writer: ") + (text != nullptr ? text : "error"));
  }

  struct EntryFree {
    void operator()(archive_entry* entry) const { archive_entry_free(entry); }
  };
  archive* m_archive;
  std::unique_ptr<archive_entry, EntryFree> m_entry{archive_entry_new()};
  std::string m_bytes;
};

} // namespace skillrt::sources::test
