// SPDX-License-Identifier: BSD-3-Clause
// _kinetree: the engine (core/, no Qt, no VTK) for Python. The package `kinetree` (python/kinetree)
// wraps it with docstrings, pandas frames and sweeps; docs/python.md describes the interface.
#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>

#include "core/analysis/rainflow.hpp"
#include "core/analysis/spectrum.hpp"
#include "core/dynamics/rnea.hpp"
#include "core/dynamics/solver.hpp"
#include "core/io/model_files.hpp"
#include "core/io/model_yaml.hpp"
#include "core/io/motion_table.hpp"
#include "core/io/robot_files.hpp"
#include "core/model/editing/model_fields.hpp"
#include "core/results/peak_loads.hpp"
#include "core/sim/batch_run.hpp"
#include "core/sim/prescribed_motion.hpp"
#include "core/sim/run_limits.hpp"
#include "core/version.hpp"

namespace py = pybind11;

namespace {

using kt::Model;

// A model with what computing on it needs, built on first use and dropped by every edit: its
// tree, the solvers asked for by name, and the RNEA workspace.
class PyModel {
 public:
  explicit PyModel(Model model) : model_(std::move(model)) {}

  const Model& model() const { return model_; }

  /// Sets a field by its YAML path, then validates the whole model: on a problem the edit is
  /// undone and kt::ModelLoadError raised (the model's diagnostics, at the field's path).
  void set(const std::string& path, double value) {
    Model edited = model_;
    kt::setModelField(edited, path, value);
    std::vector<kt::Diagnostic> problems;
    for (const kt::Diagnostic& d : kt::validateWithSettings(edited))
      if (!d.warning) problems.push_back(d);
    if (!problems.empty()) {
      // the validator names a body by its index (bodies[6]); the user wrote bodies[L16]: their
      // spelling is the one they can find in their script
      const int body = kt::modelFieldBody(edited, path);
      if (body >= 0) {
        const std::string indexed = "bodies[" + std::to_string(body) + "]";
        const std::string given = path.substr(0, path.find(']') + 1);
        for (kt::Diagnostic& d : problems)
          if (d.path.rfind(indexed, 0) == 0 && (d.path.size() == indexed.size() || d.path[indexed.size()] == '.'))
            d.path = given + d.path.substr(indexed.size());
      }
      throw kt::ModelLoadError(problems);
    }
    model_ = std::move(edited);
    tree_.reset();
    solvers_.clear();
    rnea_.reset();
  }
  void setName(const std::string& name) {
    if (name.empty()) throw std::invalid_argument("name: must not be empty");
    model_.name = name;
  }

  const kt::Tree& tree() {
    if (!tree_) tree_ = std::make_unique<kt::Tree>(kt::finalizeOrThrow(model_));
    return *tree_;
  }
  kt::Solver& solver(const std::string& name) {
    auto it = solvers_.find(name);
    if (it == solvers_.end()) {
      if (!kt::isSolverName(name)) throw std::invalid_argument("unknown solver '" + name + "'");
      it = solvers_.emplace(name, kt::makeSolver(name, tree())).first;
    }
    return *it->second;
  }
  kt::RneaWorkspace& rnea() {
    if (!rnea_) rnea_ = std::make_unique<kt::RneaWorkspace>(tree());
    return *rnea_;
  }

 private:
  Model model_;
  std::unique_ptr<kt::Tree> tree_;
  std::map<std::string, std::unique_ptr<kt::Solver>> solvers_;
  std::unique_ptr<kt::RneaWorkspace> rnea_;
};

void checkSize(const char* what, const Eigen::VectorXd& x, int n) {
  if (x.size() != n)
    throw std::invalid_argument(std::string(what) + " has " + std::to_string(x.size()) + " entries, expected " +
                                std::to_string(n));
}

py::list diagnosticList(const std::vector<kt::Diagnostic>& diagnostics) {
  py::list out;
  for (const kt::Diagnostic& d : diagnostics) {
    py::dict item;
    item["file"] = d.file;
    item["line"] = d.line;
    item["column"] = d.column;
    item["path"] = d.path;
    item["message"] = d.message;
    item["warning"] = d.warning;
    out.append(item);
  }
  return out;
}

py::dict peakDict(const kt::JointPeaks& j) {
  py::dict d;
  d["joint"] = j.name;
  d["force"] = j.force.value;
  d["force_time"] = j.force.time;
  d["moment"] = j.moment.value;
  d["moment_time"] = j.moment.time;
  d["reaction_force"] = j.reactionForce.value;
  d["reaction_moment"] = j.reactionMoment.value;
  d["utilisation"] = j.utilisation();
  d["utilisation_of"] = j.utilisationOf();
  return d;
}

PyModel loadFile(const std::string& path, const std::vector<std::string>& packagePaths) {
  std::vector<kt::Diagnostic> warnings;
  return PyModel(kt::readModelOrRobot(path, packagePaths, warnings));
}

PyModel loadText(const std::string& text, const std::string& name, const std::string& directory) {
  std::vector<kt::Diagnostic> warnings;
  return PyModel(kt::loadModelFromString(text, name, directory, warnings));
}

// The settings of a run: the model's, with what the caller gave in their place. A given value is
// checked, never replaced: a NaN, negative or zero step, duration or tolerance is refused with the
// messages of core/sim/run_limits.hpp, the rule kinetree-cli and the model file follow.
kt::BatchRunOptions runOptions(const Model& model, const std::string& solver, const std::string& integrator,
                               std::optional<double> step, std::optional<double> duration,
                               std::optional<double> tolerance) {
  kt::BatchRunOptions options;
  options.simulator = kt::SimulatorOptions::fromSettings(model.simulation);
  if (!solver.empty()) options.simulator.solver = solver;
  if (!integrator.empty()) options.simulator.integrator = integrator;
  if (step) options.simulator.step = *step;
  if (tolerance) options.simulator.tolerance = *tolerance;
  options.duration = duration ? *duration : model.simulation.duration;
  std::string problems;
  for (const kt::RunSettingsIssue& issue :
       kt::checkRunSettings(options.simulator.step, options.duration, options.simulator.tolerance)) {
    // a value of the model that fails only together with a given one is blamed on the given one
    const bool given = issue.field == "step"       ? step.has_value()
                       : issue.field == "duration" ? duration.has_value()
                                                   : tolerance.has_value();
    const std::string where = given                                    ? issue.field
                              : duration && issue.field != "tolerance" ? std::string("duration")
                              : step && issue.field != "tolerance"     ? std::string("step")
                                                                       : "the model's simulation." + issue.field;
    problems += (problems.empty() ? "" : "; ") + where + ": " + issue.message;
  }
  if (!problems.empty()) throw std::invalid_argument(problems);
  return options;
}

py::list runSettingsProblems(const PyModel& pm, std::optional<double> step, std::optional<double> duration,
                             std::optional<double> tolerance) {
  py::list out;
  try {
    runOptions(pm.model(), "", "", step, duration, tolerance);
  } catch (const std::invalid_argument& e) {
    out.append(std::string(e.what()));
  }
  return out;
}

// How often a run in progress looks for Ctrl+C: a KeyboardInterrupt arrives within this time.
constexpr std::chrono::milliseconds kSignalPoll{50};

py::dict simulate(PyModel& pm, const std::string& solver, const std::string& integrator, std::optional<double> step,
                  std::optional<double> duration, std::optional<double> tolerance, const std::string& signals,
                  long every, bool keepRows, const std::string& motion, double cutoff) {
  kt::BatchRunOptions options = runOptions(pm.model(), solver, integrator, step, duration, tolerance);
  options.signals = signals;
  options.every = every;
  options.keepRows = keepRows;
  Model model = pm.model();  // a copy: the run does not hold the GIL
  if (!motion.empty()) {
    // the histories as a table file (written by the Python side), read with every check of
    // kinetree-cli --motion (docs/motion.md)
    std::string problems;
    try {
      const kt::MotionTable table = kt::readMotionTable(motion);
      const kt::MotionTableMatch match = kt::applyMotionTable(model, table, motion, cutoff);
      // where in the file (line 2 is the first sample), as the CLI says it
      const auto where = [](const kt::Diagnostic& d) {
        return "line " + std::to_string(d.line) + ", column " + std::to_string(d.column) + ": " + d.message + "\n";
      };
      for (const kt::Diagnostic& d : match.unmatched) problems += where(d);
      for (const kt::Diagnostic& d : match.problems) problems += where(d);
      if (problems.empty() && match.joints.empty())
        problems = "no q:<joint>[k] column: the motion prescribes no joint\n";
    } catch (const kt::TableError& e) {
      const kt::Diagnostic& d = e.diagnostic();
      problems = (d.line > 0 ? "line " + std::to_string(d.line) + ", column " + std::to_string(d.column) + ": " : "") +
                 d.message + "\n";
    }
    if (!problems.empty()) throw py::value_error("motion: " + problems.substr(0, problems.size() - 1));
  }
  // The run goes on a thread of its own while this one, without the GIL, wakes every kSignalPoll
  // to let Python's signal handlers run (PyErr_CheckSignals acts on the main thread only): a
  // Ctrl+C sets the stop flag, the run ends at its next output step, KeyboardInterrupt is raised.
  std::atomic<bool> stop{false};
  options.stop = &stop;
  kt::BatchRun run;
  bool interrupted = false;
  {
    py::gil_scoped_release release;
    std::future<kt::BatchRun> running =
        std::async(std::launch::async, [&model, &options] { return kt::runBatch(model, options); });
    while (running.wait_for(kSignalPoll) != std::future_status::ready) {
      py::gil_scoped_acquire acquire;
      if (PyErr_CheckSignals() != 0) {
        interrupted = true;
        stop.store(true, std::memory_order_relaxed);
        break;
      }
    }
    if (interrupted) {
      running.wait();
    } else {
      run = running.get();  // rethrows what the run threw (invalid settings, unknown signals)
    }
  }
  if (interrupted) throw py::error_already_set();  // the handler's exception: KeyboardInterrupt
  const std::size_t nr = run.rowCount(), nc = run.columns.size();
  py::array_t<double> data({nr, nc});
  std::copy(run.rows.begin(), run.rows.end(), data.mutable_data());
  py::list peaks;
  for (const kt::JointPeaks& j : run.peaks) peaks.append(peakDict(j));
  py::dict out;
  out["columns"] = run.columns;
  out["data"] = data;
  out["peaks"] = peaks;
  out["peaks_text"] = kt::peakLoadsTable(run.peaks);
  out["peaks_csv"] = kt::peakLoadsCsv(run.peaks);
  out["error"] = run.error;
  out["energy_start"] = run.energyStart;
  out["energy_end"] = run.energyEnd;
  out["final_time"] = run.finalTime;
  out["coordinates"] = run.coordinateNames;
  out["final_q"] = Eigen::VectorXd(
      Eigen::Map<const Eigen::VectorXd>(run.finalQ.data(), static_cast<Eigen::Index>(run.finalQ.size())));
  out["solver"] = options.simulator.solver;
  return out;
}

py::dict forwardDynamics(PyModel& pm, const Eigen::VectorXd& q, const Eigen::VectorXd& v, const Eigen::VectorXd& tau,
                         const std::string& solverName) {
  const kt::Tree& tree = pm.tree();
  checkSize("q", q, tree.nq);
  checkSize("v", v, tree.nv);
  checkSize("tau", tau, tree.nv);
  kt::Solver& solver = pm.solver(solverName);
  Eigen::VectorXd qdd(tree.nv);
  kt::JointLoads loads;
  loads.resize(tree);
  solver.forwardDynamics(q, v, tau, {}, qdd, &loads);
  Eigen::MatrixXd f(tree.nb, 6), fw(tree.nb, 6);
  for (int i = 0; i < tree.nb; ++i) {
    f.row(i) = loads.f[i].transpose();
    fw.row(i) = loads.fWorld[i].transpose();
  }
  py::dict out;
  out["qdd"] = qdd;
  out["wrench"] = f;
  out["wrench_world"] = fw;
  out["tau"] = loads.tau;
  out["reaction"] = loads.lambda;
  return out;
}

Eigen::MatrixXd massMatrix(PyModel& pm, const Eigen::VectorXd& q) {
  const kt::Tree& tree = pm.tree();
  checkSize("q", q, tree.nq);
  Eigen::MatrixXd M(tree.nv, tree.nv);
  kt::massMatrix(tree, pm.rnea(), q, M);
  return M;
}

Eigen::VectorXd bias(PyModel& pm, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  const kt::Tree& tree = pm.tree();
  checkSize("q", q, tree.nq);
  checkSize("v", v, tree.nv);
  Eigen::VectorXd h(tree.nv);
  kt::biasForces(tree, pm.rnea(), q, v, {}, h);
  return h;
}

py::list jointList(PyModel& pm) {
  const kt::Tree& tree = pm.tree();
  py::list out;
  for (int i = 0; i < tree.nb; ++i) {
    py::dict j;
    j["name"] = tree.jointNames[i];
    j["body"] = tree.bodyNames[i];
    j["parent"] = tree.parent[i] < 0 ? std::string("world") : tree.bodyNames[tree.parent[i]];
    j["type"] = std::string(kt::jointTypeName(tree.joints[i].type));
    j["nq"] = tree.joints[i].nq;
    j["nv"] = tree.joints[i].nv;
    j["q_offset"] = tree.qOffset[i];
    j["v_offset"] = tree.vOffset[i];
    out.append(j);
  }
  return out;
}

}  // namespace

PYBIND11_MODULE(_kinetree, m) {
  m.doc() = "The Kinetree engine; use the package `kinetree`, which documents every function.";
  m.attr("__version__") = kt::kVersion;
  // the peak tables' dead band (core/results/peak_loads.hpp): a fraction of the largest of a kind,
  // and the lever arm beside which a whole kind is rounding noise
  m.attr("LOAD_DEAD_BAND") = kt::kLoadDeadBand;
  m.attr("NOISE_ARM") = kt::kNoiseArm;

  static py::exception<kt::ModelLoadError> modelError(m, "ModelError", PyExc_ValueError);
  modelError.attr("__doc__") =
      "A model that cannot be read or an edit the model rejects. The message lists every problem as\n"
      "'file:line:col: error: path: message'; .diagnostics holds them as dicts (file, line, column,\n"
      "path, message, warning).";
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const kt::ModelLoadError& e) {
      const py::object type = py::reinterpret_borrow<py::object>(modelError.ptr());
      py::object error = type(py::str(kt::formatDiagnostics(e.diagnostics())));
      error.attr("diagnostics") = diagnosticList(e.diagnostics());
      PyErr_SetObject(modelError.ptr(), error.ptr());
    } catch (const kt::TableError& e) {
      // a motion or drive table that cannot be used: bad input, as the model's own problems
      const kt::Diagnostic& d = e.diagnostic();
      const std::string where =
          d.line > 0 ? "line " + std::to_string(d.line) + ", column " + std::to_string(d.column) + ": " : "";
      PyErr_SetString(PyExc_ValueError, ("motion: " + where + d.message).c_str());
    }
  });

  py::class_<PyModel>(m, "Model",
                      "A multibody model (docs/model-format.md): read it with kinetree.load or kinetree.loads.\n\n"
                      "Its numeric fields are read and changed by their YAML path (get, set, fields); every change\n"
                      "is validated as the file would be. bodies, joints, nq, nv and mass describe it.")
      .def_property_readonly(
          "name", [](const PyModel& pm) { return pm.model().name; }, "The model's name.")
      .def("set_name", &PyModel::setName, py::arg("name"), "Renames the model.")
      .def_property_readonly(
          "description", [](const PyModel& pm) { return pm.model().description; }, "The model's description.")
      .def_property_readonly(
          "bodies",
          [](const PyModel& pm) {
            std::vector<std::string> names;
            for (const kt::BodySpec& b : pm.model().bodies) names.push_back(b.name);
            return names;
          },
          "The body names, in the file's order.")
      .def_property_readonly("joints", &jointList,
                             "The joints in tree order (the order of q and v): dicts with name, body, parent, type, "
                             "nq, nv, q_offset, v_offset.")
      .def_property_readonly(
          "nq", [](PyModel& pm) { return pm.tree().nq; }, "Number of position coordinates.")
      .def_property_readonly(
          "nv", [](PyModel& pm) { return pm.tree().nv; }, "Number of velocity coordinates (degrees of freedom).")
      .def_property_readonly(
          "mass", [](PyModel& pm) { return pm.tree().totalMass(); }, "Total mass, kg.")
      .def_property_readonly(
          "initial_q", [](PyModel& pm) { return pm.tree().initialQ; }, "The initial position q (nq).")
      .def_property_readonly(
          "initial_v", [](PyModel& pm) { return pm.tree().initialV; }, "The initial velocity v (nv).")
      .def_property_readonly(
          "source_directory", [](const PyModel& pm) { return pm.model().sourceDirectory; },
          "The directory mesh paths are relative to (the model file's).")
      .def(
          "get", [](const PyModel& pm, const std::string& path) { return kt::getModelField(pm.model(), path); },
          py::arg("path"),
          "The value of a numeric field by its YAML path, e.g. 'bodies[L16].inertial.mass', 'gravity[2]',\n"
          "'bodies[L11].joint.drive.kp' (core/model/editing/model_fields.hpp lists them; fields() names them).")
      .def("set", &PyModel::set, py::arg("path"), py::arg("value"),
           "Sets a numeric field by its YAML path (a vector without an index: every entry). The model is\n"
           "then validated; on a problem the change is undone and ModelError raised with the diagnostics.")
      .def(
          "fields", [](const PyModel& pm) { return kt::modelFieldPaths(pm.model()); },
          "The paths of the numeric fields get and set accept, for every body.")
      .def(
          "to_yaml", [](const PyModel& pm) { return kt::saveModelToString(pm.model()); },
          "The model as canonical YAML text (what save writes).")
      .def(
          "save", [](const PyModel& pm, const std::string& path) { kt::saveModelToFile(pm.model(), path); },
          py::arg("path"), "Writes the model file atomically (a temporary file renamed over the target).")
      .def(
          "copy", [](const PyModel& pm) { return PyModel(pm.model()); }, "An independent copy of the model.")
      .def("__repr__", [](PyModel& pm) {
        return "<kinetree.Model '" + pm.model().name + "': " + std::to_string(pm.model().bodies.size()) +
               " bodies, nv = " + std::to_string(pm.tree().nv) + ">";
      });

  m.def("load", &loadFile);
  m.def("loads", &loadText);
  m.def("simulate", &simulate);
  m.def("run_settings_problems", &runSettingsProblems);
  m.def("forward_dynamics", &forwardDynamics);
  m.def("mass_matrix", &massMatrix);
  m.def("bias", &bias);
  m.def("rainflow", [](const std::vector<double>& x) {
    py::list out;
    for (const kt::Cycle& c : kt::rainflow(x)) out.append(py::make_tuple(c.range, c.mean, c.count, c.first, c.last));
    return out;
  });
  m.def("damage_equivalent_load", [](const std::vector<double>& x, double m, double nEq) {
    const std::vector<kt::Cycle> cycles = kt::rainflow(x);
    return py::make_tuple(kt::cycleCount(cycles), kt::damageEquivalentLoad(cycles, m, nEq));
  });
  m.def("spectrum", [](const std::vector<double>& x, double rate, std::size_t segment, const std::string& detrend) {
    kt::SpectrumOptions o;
    o.segment = segment;
    if (detrend == "none")
      o.detrend = kt::Detrend::None;
    else if (detrend == "linear")
      o.detrend = kt::Detrend::Linear;
    else if (detrend != "mean")
      throw std::invalid_argument("detrend: expected none, mean or linear, got '" + detrend + "'");
    const kt::Spectrum s = kt::welchSpectrum(x, rate, o);  // std::invalid_argument is ValueError
    py::dict out;
    out["frequency"] = py::array_t<double>(static_cast<py::ssize_t>(s.frequency.size()), s.frequency.data());
    out["amplitude"] = py::array_t<double>(static_cast<py::ssize_t>(s.amplitude.size()), s.amplitude.data());
    out["psd"] = py::array_t<double>(static_cast<py::ssize_t>(s.psd.size()), s.psd.data());
    out["segment"] = s.segment;
    out["segments"] = s.segments;
    out["resolution"] = s.resolution;
    return out;
  });
  m.def("solvers", [] {
    std::vector<std::string> names;
    for (const kt::SolverInfo& info : kt::solverRegistry()) names.push_back(info.name);
    return names;
  });
}
