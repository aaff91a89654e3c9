// The exact lane of `trainproof check` as it goes (check.cpp), and its laws: each law is a file
// of src/check/laws/ that judges the check so far and adds its verdict. A new law is one such
// file and its row in law_catalog() (trainproof/check/findings.h); the build lists the files
// (check_laws.inc), and the lane runs their laws in the catalog's order.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/check/check_laws.h"
#include "src/check/check_runs.h"
#include "src/check/op_reruns.h"
#include "src/check/processes.h"
#include "trainproof/check/check.h"
#include "trainproof/core/recorded_trace.h"
#include "trainproof/golden/golden_store.h"
#include "trainproof/verdict/outcome.h"

namespace trainproof {

// The exact lane as it goes: what it was given, the evidence so far, and what each law adds.
struct Checking {
  const CheckOptions& o;
  Launcher& launch;
  Progress& progress;
  const std::optional<DeviceGolden>& golden;
  ProcessRun first = {};  // the uninterrupted run (or --reference's)
  std::unique_ptr<OpReruns> reruns = {};
  std::optional<RecordedTrace> again = {};     // the second uninterrupted run
  std::optional<PreemptedRun> preempted = {};  // the killed and restarted run
  std::string runs_differ = {};                // where the two uninterrupted runs differ ("" bitwise equal)
  bool determinism_judged = false;             // a second uninterrupted run was held to the first
  std::vector<Law> laws = {};
  CheckReport report = {};

  const RecordedTrace& straight() const { return first.main(); }
  void add(Law law, const std::vector<Finding>& findings = {}) {
    laws.push_back(std::move(law));
    report.findings.insert(report.findings.end(), findings.begin(), findings.end());
  }
};

// A law of the exact lane: `law`, its row of law_catalog(), and `judge`, which adds its verdict
// to the check (Checking::add), or nothing where the check was not asked for it. The file
// src/check/laws/NAME.cpp defines it as `extern const CheckLaw check_law_NAME`.
struct CheckLaw {
  std::string_view law;
  void (*judge)(Checking&);
};

// The laws of the exact lane, in the order of law_catalog() (check.cpp).
const std::vector<const CheckLaw*>& exact_laws();

// Where two uninterrupted runs differ ("" bitwise equal, or not judged), as a resume's judge asks
// it (RunsDiffer, check_laws.h): judged already (--runs 2), or, with `ask`, judged now, a second
// run held to the first by the law of determinism, which the check then reports too (--runs 1,
// --reference: a resume that departs is the resume's fault only where the loop is
// deterministic; the fault resume-trusts-one-run, a negative control, never asks).
// laws/determinism.cpp.
std::string runs_differ_as_asked(Checking& c, bool ask);

// The recorded lr of every step against --expect-lr's schedule, with the usual culprits named
// (laws/schedule.cpp; the band lane holds its first run to it too).
Law schedule_law(const RecordedTrace& t, const CheckOptions& o);

}  // namespace trainproof
