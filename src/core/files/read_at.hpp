// Positional reads that either fill the whole buffer or fail, for the files
// the core reads block by block (the listing cache, the description spill).
#pragma once

#include <cstddef>
#include <cstdint>

namespace skillrt::core::files {

// Reads exactly `size` bytes at `offset` of `fd` into `data`, retrying short
// reads and EINTR; false on an error or when the file ends first.
bool read_exactly_at(int fd, std::uint64_t offset, char* data, std::size_t size);

} // namespace skillrt::core::files
