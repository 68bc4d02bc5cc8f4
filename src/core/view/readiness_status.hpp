// Hermes' readiness_status of a skill, as a value; the protocol layer spells it.
#pragma once

namespace skillrt::core {

// unsupported is a platform refusal (a ViewFailure); the other two describe a
// skill that was served (Readiness).
enum class ReadinessStatus : unsigned char { available, setup_needed, unsupported };

const char* readiness_status_name(ReadinessStatus status); // "available" | "setup_needed" | "unsupported"

} // namespace skillrt::core
