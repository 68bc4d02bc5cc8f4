# INTERFACE target for build-mode settings: assertions in Debug, sanitizers.
add_library(skillrt_settings INTERFACE)

# The "Sanitize" build type of the sanitizer presets (asan, fuzz). -O1 keeps
# the sanitizers' run-time overhead low and compiles about twice as fast as
# RelWithDebInfo's -O2; -g1 (line tables) is all a sanitizer stack trace needs
# and takes a third off compile time again against -g. Measured on the 2-core
# machine: CONTRIBUTING.md, "Build and test".
set(CMAKE_CXX_FLAGS_SANITIZE "-O1 -g1" CACHE STRING "C++ flags of the Sanitize build type")
set(CMAKE_C_FLAGS_SANITIZE "-O1 -g1" CACHE STRING "C flags of the Sanitize build type")
# libstdc++'s precondition checks (operator[] bounds, front() of an empty
# container, ...) where we test: Debug and Sanitize.
target_compile_definitions(skillrt_settings INTERFACE $<$<CONFIG:Debug,Sanitize>:_GLIBCXX_ASSERTIONS>)

if(SKILLRT_SANITIZE)
  target_compile_options(skillrt_settings INTERFACE -fsanitize=${SKILLRT_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  # Executables are linked without PIE: the sanitizers' per-check-site data
  # come to ~55 MB of pointers in a binary, and under PIE the loader relocates
  # all of them (~46 MB of .rela.dyn) at every process start, ~0.15 s of each
  # of the thousands of processes the e2e layer starts.
  target_link_options(skillrt_settings INTERFACE -fsanitize=${SKILLRT_SANITIZE}
    $<$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>:-no-pie>)
endif()

# The linker: lld links the large sanitizer binaries several times faster
# than GNU ld (Debian's `lld` package; scripts/bootstrap installs it).
set(SKILLRT_LINKER "" CACHE STRING "Linker passed as -fuse-ld= (lld, gold); empty: the compiler's default")
if(SKILLRT_LINKER)
  add_link_options(-fuse-ld=${SKILLRT_LINKER})
endif()
