# INTERFACE target carrying our warning set; linked PRIVATE by every target we own.
add_library(skillrt_warnings INTERFACE)
target_compile_options(skillrt_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual
  -Wnull-dereference -Wconversion -Wsign-conversion -Wno-sign-conversion)
if(SKILLRT_WERROR)
  target_compile_options(skillrt_warnings INTERFACE -Werror)
endif()
# GCC 12 with -fsanitize=address reports -Wmaybe-uninitialized inside
# libstdc++'s own std::regex (_StateT's std::function, never read before it is
# set): a false positive in a system header we cannot change. The dev preset
# keeps the warning (and -Werror) on for everything; under sanitizers it is off.
if(SKILLRT_SANITIZE AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(skillrt_warnings INTERFACE -Wno-maybe-uninitialized)
endif()
