# The skills hub (spec §2.14): lock.json, audit log, quarantine, install,
# uninstall, check, update, audit; bundle manifests and ed25519 signatures
# (ed25519.cpp is the only file that includes sodium.h). Fetching lives in
# src/sources behind fetcher.hpp.
file(GLOB _hub_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp)
list(APPEND SKILLRT_CORE_SOURCES ${_hub_sources})
