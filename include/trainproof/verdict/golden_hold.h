// A trace held to its golden: the one way verify, compare's folders, check --golden and
// ddp-check judge a recorded trace against the trace a golden keeps.
#pragma once

#include <string>
#include <vector>

#include "trainproof/core/compare.h"
#include "trainproof/core/trace.h"
#include "trainproof/verdict/outcome.h"

namespace trainproof {

// A series against its golden (verify, check --golden, ddp-check) as every report holds it: an
// entry of kind "series", with both traces' values of it (the HTML plots them).
ReportEntry series_entry(const std::string& scenario, const std::string& dev, const SeriesComparison& c, bool cross,
                         const Trace& golden, const Trace& observed);

// A trace held to its golden's trace, the one way verify, check --golden and ddp-check hold one:
// a series entry for each series of the golden, under the cross-environment tolerances where
// `cross` (the golden was made elsewhere, or --cross). It also says whether the trace lies
// beyond the golden's exact tolerances and beyond its cross-machine envelope, which together
// with the fingerprint say what moved (verdict/fingerprint.h, environment_verdict).
struct GoldenHold {
  std::vector<ReportEntry> rows;
  size_t failed = 0;             // rows outside their tolerances
  std::string first_failure;     // "'loss' FAIL: ..." of the first of them
  bool beyond_exact = false;     // a series outside the golden's exact tolerances
  bool beyond_envelope = false;  // a series outside its cross-machine envelope
};
GoldenHold hold_to_golden(const std::string& scenario, const std::string& dev, const Trace& golden,
                          const Trace& observed, bool cross);

}  // namespace trainproof
