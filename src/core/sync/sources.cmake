# Bundled skills sync (spec §2.13): the manifest, folder hashes, sync and reset.
file(GLOB _sync_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp)
list(APPEND SKILLRT_CORE_SOURCES ${_sync_sources})
