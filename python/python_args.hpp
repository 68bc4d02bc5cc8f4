// Python arguments read into C++ values with the GIL held, before a call
// releases it. A value of the wrong type raises TypeError naming the
// function and the argument ("skill_view() argument 'name' must be str, not
// int"): Hermes' callers pass what a model sent, and a bad value must never
// reach the core, let alone crash the interpreter.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>

namespace skillrt::python {

// A str, as UTF-8 (a lone surrogate raises UnicodeEncodeError).
std::string text_arg(pybind11::handle value, const char* function, const char* name);

// None → nullopt, else as text_arg.
std::optional<std::string> optional_text_arg(pybind11::handle value, const char* function, const char* name);

// A bool (True/False only: 1 and "yes" are not booleans to a tool schema).
bool flag_arg(pybind11::handle value, const char* function, const char* name);

// None → nullopt; else any iterable of str except a str itself (a set, a
// list, a tuple, dict keys), as Hermes passes available_tools.
std::optional<std::vector<std::string>> optional_text_list_arg(pybind11::handle value, const char* function,
                                                               const char* name);

// A path: str, bytes or os.PathLike (os.fspath), in the filesystem's encoding.
std::string path_arg(pybind11::handle value, const char* function, const char* name);

}  // namespace skillrt::python
