// `trainproof compare REFERENCE OBSERVED`: the traces of two golden files, or of two folders
// of them (verdict/golden_compare.h).
#include <memory>

#include <CLI/CLI.hpp>

#include "src/cli/commands.h"
#include "trainproof/report/report.h"
#include "trainproof/verdict/golden_compare.h"

namespace trainproof::cli {

CliCommand compare_command() {
  auto o = std::make_shared<CompareOptions>();
  auto reports = std::make_shared<ReportFiles>();
  return {[o, reports](CLI::App& app) {
            auto* cmp = app.add_subcommand(
                "compare",
                "Compare the traces of two golden files, or two folders of them (OBSERVED against REFERENCE)");
            cmp->add_option("reference", o->reference, "Reference .h5, or a folder of them")->required();
            cmp->add_option("observed", o->observed, "Observed .h5, or a folder of them")->required();
            cmp->add_option("--device", o->device, "Device group to compare")->capture_default_str();
            cmp->add_option("--observed-device", o->observed_device,
                            "The observed file's device group, when it is another (cpu against cuda)");
            cmp->add_option("--tolerance", o->tolerance,
                            "One policy for every series, or 'ceiling': each series within its scenario's ceiling "
                            "(default: each reference series' own tolerance)");
            cmp->add_flag("--cross", o->cross, "Apply the reference's cross-environment tolerances");
            add_report_options(cmp, *reports, ReportKind::kCompare);
            return cmp;
          },
          [o, reports] {
            const VerifyReport r = trainproof::compare(*o);
            emit_report(*reports, [&](const Reporter& x) { return x.verify(r); });
            return exit_code(r);
          }};
}

}  // namespace trainproof::cli
