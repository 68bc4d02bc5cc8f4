// The guard's Python face: skillrt.ScanResult and skillrt.Finding (Hermes'
// dataclasses of the same names, read-only), scan_skill, should_allow_install
// and format_scan_report.
#pragma once

#include <pybind11/pybind11.h>

namespace skillrt::python {

void bind_guard(pybind11::module_& module);

}  // namespace skillrt::python
