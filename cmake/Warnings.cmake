# INTERFACE target carrying our warning set; linked PRIVATE by every target we own.
add_library(skillrt_warnings INTERFACE)
target_compile_options(skillrt_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual
  -Wnull-dereference -Wconversion -Wsign-conversion -Wno-sign-conversion)
if(SKILLRT_WERROR)
  target_compile_options(skillrt_warnings INTERFACE -Werror)
endif()
