// The exit-code policy, in one place (the h5diff convention, plus one for our own failures):
// 0 all pass, 1 mismatch or broken invariant, 2 bad input, 3 internal error (a scenario or
// trainproof itself failed to run: not a change in the traces, so regenerating goldens is
// never the answer to it). `check` adds 4: a law it could not test (no kill landed in a write,
// nothing to compare), where nothing broke: neither a pass nor the team's failure.
#pragma once

#include <stdexcept>
#include <string>

namespace trainproof {

enum ExitCode : int { kExitOk = 0, kExitMismatch = 1, kExitBadInput = 2, kExitInternal = 3, kExitNotTested = 4 };

// Bad input: a missing, corrupt or malformed golden or checkpoint, an unknown
// scenario, a bad flag. The message names the file (and group/dataset) and the problem.
class BadInput : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A scenario that cannot run on a device says so with a reason; it is not a failure.
class Skipped : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace trainproof
