// The law of a golden curve (--golden): every recorded series within the golden's tolerances
// (check_golden.cpp judges it).
#include "src/check/check_golden.h"
#include "src/check/checking.h"
#include "trainproof/check/findings.h"

namespace trainproof {
namespace {

// --golden: the recorded series within the golden's tolerances (golden_law).
void judge_golden(Checking& c) {
  if (c.golden) c.add(golden_law(c.straight(), *c.golden, c.o, c.report.series));
}

}  // namespace

extern const CheckLaw check_law_golden{law::kGoldenCurve, judge_golden};

}  // namespace trainproof
