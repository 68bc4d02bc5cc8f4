#include "python_args.hpp"

namespace py = pybind11;

namespace skillrt::python {
namespace {

[[noreturn]] void wrong_type(const char* function, const char* name, const char* expected, py::handle value) {
  throw py::type_error(std::string(function) + "() argument '" + name + "' must be " + expected + ", not " +
                       Py_TYPE(value.ptr())->tp_name);
}

std::string utf8_of(py::handle value) {
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(value.ptr(), &size);
  if (data == nullptr) {
    throw py::error_already_set();
  }
  return std::string(data, static_cast<std::size_t>(size));
}

}  // namespace

std::string text_arg(py::handle value, const char* function, const char* name) {
  if (!PyUnicode_Check(value.ptr())) {
    wrong_type(function, name, "str", value);
  }
  return utf8_of(value);
}

std::optional<std::string> optional_text_arg(py::handle value, const char* function, const char* name) {
  if (value.is_none()) {
    return std::nullopt;
  }
  if (!PyUnicode_Check(value.ptr())) {
    wrong_type(function, name, "str or None", value);
  }
  return utf8_of(value);
}

bool flag_arg(py::handle value, const char* function, const char* name) {
  if (!PyBool_Check(value.ptr())) {
    wrong_type(function, name, "bool", value);
  }
  return value.ptr() == Py_True;
}

std::optional<std::vector<std::string>> optional_text_list_arg(py::handle value, const char* function,
                                                               const char* name) {
  if (value.is_none()) {
    return std::nullopt;
  }
  // A str is iterable, but "terminal" is one tool name, not eight.
  if (PyUnicode_Check(value.ptr()) || PyBytes_Check(value.ptr()) || !py::isinstance<py::iterable>(value)) {
    wrong_type(function, name, "an iterable of str or None", value);
  }
  std::vector<std::string> items;
  for (py::handle item : value) {
    if (!PyUnicode_Check(item.ptr())) {
      throw py::type_error(std::string(function) + "() argument '" + name + "' must hold only str, not " +
                           Py_TYPE(item.ptr())->tp_name);
    }
    items.push_back(utf8_of(item));
  }
  return items;
}

std::string path_arg(py::handle value, const char* function, const char* name) {
  PyObject* fspath = PyOS_FSPath(value.ptr());
  if (fspath == nullptr) {
    PyErr_Clear();
    wrong_type(function, name, "str, bytes or os.PathLike", value);
  }
  py::object path = py::reinterpret_steal<py::object>(fspath);
  if (PyBytes_Check(path.ptr())) {
    return std::string(PyBytes_AS_STRING(path.ptr()), static_cast<std::size_t>(PyBytes_GET_SIZE(path.ptr())));
  }
  // str: the filesystem encoding with surrogateescape, so a name that is not
  // UTF-8 on disk comes back to the same bytes.
  py::object encoded = py::reinterpret_steal<py::object>(PyUnicode_EncodeFSDefault(path.ptr()));
  if (!encoded) {
    throw py::error_already_set();
  }
  return std::string(PyBytes_AS_STRING(encoded.ptr()), static_cast<std::size_t>(PyBytes_GET_SIZE(encoded.ptr())));
}

}  // namespace skillrt::python
