#include "guard_binding.hpp"

#include <string>
#include <utility>

#include "core/guard/guard.hpp"
#include "hermes_tools.hpp"
#include "python_args.hpp"

#include <pybind11/stl.h>

namespace py = pybind11;

namespace skillrt::python {
namespace {

// The policy's inputs from a result that is not ours: Hermes' own
// ScanResult, or any object with trust_level, verdict and findings. Unknown
// trust levels take the community row and unknown verdicts the dangerous
// column (spec §3.3), so nothing unknown is ever allowed by accident.
core::ScanResult policy_inputs_of(py::handle result) {
  for (const char* attribute : {"trust_level", "verdict", "findings"}) {
    if (!py::hasattr(result, attribute)) {
      throw py::type_error(std::string("should_allow_install() argument 'result' must be a ScanResult (an object "
                                       "with trust_level, verdict and findings), not ") +
                           Py_TYPE(result.ptr())->tp_name);
    }
  }
  core::ScanResult inputs;
  const std::string trust = text_arg(result.attr("trust_level"), "should_allow_install", "result.trust_level");
  const std::string verdict = text_arg(result.attr("verdict"), "should_allow_install", "result.verdict");
  inputs.trust = core::parse_trust_level(trust).value_or(core::TrustLevel::community);
  inputs.verdict = core::parse_verdict(verdict).value_or(core::Verdict::dangerous);
  const py::ssize_t count = PyObject_Length(result.attr("findings").ptr());
  if (count < 0) {
    PyErr_Clear();
    throw py::type_error("should_allow_install() argument 'result.findings' must be a sized collection");
  }
  inputs.findings.resize(static_cast<std::size_t>(count));
  return inputs;
}

// Hermes' (allowed, reason): True, False, or None for "ask".
py::tuple decision_tuple(const core::PolicyDecision& decision) {
  py::object allowed = py::none();
  if (decision.decision == core::InstallDecision::allow) {
    allowed = py::bool_(true);
  } else if (decision.decision == core::InstallDecision::block) {
    allowed = py::bool_(false);
  }
  return py::make_tuple(allowed, decision.reason);
}

}  // namespace

void bind_guard(py::module_& module) {
  py::class_<core::GuardFinding>(module, "Finding",
                                 "One guard finding (Hermes' Finding): pattern_id, severity, category, file, line, "
                                 "match, description; plus column.")
      .def_readonly("pattern_id", &core::GuardFinding::pattern_id)
      .def_property_readonly("severity",
                             [](const core::GuardFinding& f) { return core::threat_severity_name(f.severity); })
      .def_property_readonly("category", [](const core::GuardFinding& f) { return core::category_name(f.category); })
      .def_readonly("file", &core::GuardFinding::file)
      .def_readonly("line", &core::GuardFinding::line)
      .def_readonly("column", &core::GuardFinding::column)
      .def_readonly("match", &core::GuardFinding::snippet)
      .def_readonly("description", &core::GuardFinding::description)
      .def("__repr__", [](const core::GuardFinding& f) {
        return "Finding(" + f.pattern_id + ", " + core::threat_severity_name(f.severity) + ", " + f.file + ":" +
               std::to_string(f.line) + ")";
      });

  py::class_<core::ScanResult>(module, "ScanResult",
                               "The guard's verdict on a skill (Hermes' ScanResult): skill_name, source, "
                               "trust_level, verdict, findings, scanned_at, summary; plus content_hash, "
                               "dismissed_count, files_scanned, bytes_scanned. to_json() is `skillrt --json scan`.")
      .def_readonly("skill_name", &core::ScanResult::skill_name)
      .def_readonly("source", &core::ScanResult::source)
      .def_property_readonly("trust_level", [](const core::ScanResult& r) { return core::trust_level_name(r.trust); })
      .def_property_readonly("verdict", [](const core::ScanResult& r) { return core::verdict_name(r.verdict); })
      .def_property_readonly("findings", [](const core::ScanResult& r) { return py::cast(r.findings); })
      .def_readonly("scanned_at", &core::ScanResult::scanned_at)
      .def_readonly("summary", &core::ScanResult::summary)
      .def_readonly("content_hash", &core::ScanResult::content_hash)
      .def_property_readonly("dismissed_count", [](const core::ScanResult& r) { return r.dismissed.size(); })
      .def_readonly("files_scanned", &core::ScanResult::files_scanned)
      .def_readonly("bytes_scanned", &core::ScanResult::bytes_scanned)
      .def("to_json", &scan_result_json, "The JSON `skillrt --json scan PATH --source S` prints for this result.")
      .def("__repr__", [](const core::ScanResult& r) {
        return "ScanResult(" + r.skill_name + ", " + core::trust_level_name(r.trust) + ", " +
               core::verdict_name(r.verdict) + ", " + std::to_string(r.findings.size()) + " findings)";
      });

  module.def(
      "scan_skill",
      [](py::object path, py::object source) {
        const std::string path_text = path_arg(path, "scan_skill", "path");
        const std::string source_text = text_arg(source, "scan_skill", "source");
        Result<core::ScanResult> result = [&] {
          py::gil_scoped_release unlocked;
          return python::scan_skill(path_text, source_text);
        }();
        if (!result) {
          // Hermes would scan a missing path as "safe, nothing found"; an
          // unreadable skill must not pass a policy check, so it raises.
          PyErr_SetString(PyExc_OSError, result.error().message.c_str());
          throw py::error_already_set();
        }
        return std::move(*result);
      },
      py::arg("path"), py::arg("source") = "community",
      "Scan a skill folder or file with the skills guard (Hermes' skills_guard.scan_skill). Raises OSError "
      "when the path cannot be opened.");

  module.def(
      "should_allow_install",
      [](py::object result, py::object force) {
        const bool forced = flag_arg(force, "should_allow_install", "force");
        if (py::isinstance<core::ScanResult>(result)) {
          return decision_tuple(core::decide_install(result.cast<const core::ScanResult&>(), forced));
        }
        return decision_tuple(core::decide_install(policy_inputs_of(result), forced));
      },
      py::arg("result"), py::arg("force") = false,
      "The install policy of spec §3.3: (True|False|None, reason); None means the write needs confirmation.");

  module.def(
      "format_scan_report",
      [](const core::ScanResult& result) {
        return core::format_scan_report(result, core::decide_install(result, false));
      },
      py::arg("result"), "The guard's text report of a ScanResult (Hermes' format_scan_report).");
}

}  // namespace skillrt::python
