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

# UndefinedBehaviorSanitizer checks that trap (ud2) instead of calling the
# runtime. The runtime's per-check-site data (source location, type
# descriptors) made a sanitizer skillrt 150 MB, ~110 MB of it data the loader
# maps and LeakSanitizer scans at every exit: 0.37 s per process against
# 0.11 s trapping, and the e2e layer starts thousands. Every check still runs
# and halts at the first report; with ASAN_OPTIONS=handle_sigill=1 (set by
# scripts/test and the e2e helpers) the report is a stack trace to the file
# and line with exit code 86, but it does not name the kind of UB and gcc
# drops the vptr check. Turn it off to get the runtime's full message.
option(SKILLRT_UBSAN_TRAP "UBSan checks trap instead of calling the UBSan runtime" OFF)
if(SKILLRT_SANITIZE)
  target_compile_options(skillrt_settings INTERFACE -fsanitize=${SKILLRT_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  if(SKILLRT_UBSAN_TRAP)
    target_compile_options(skillrt_settings INTERFACE -fsanitize-undefined-trap-on-error)
  endif()
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
