// Unguessable ids (sessions, sign-ins, reviewed installs) from the kernel's
// CSPRNG.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace skillrt::core {

// 2 × `bytes` lower-case hex digits from getrandom(2); nullopt only when the
// kernel refuses, which callers report as a server failure.
std::optional<std::string> random_hex(std::size_t bytes);

}  // namespace skillrt::core
