// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "experiments/mmtests_export.h"

#include <filesystem>
#include <fstream>
#include <system_error>
#include <variant>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace schedsim::experiments {

absl::StatusOr<std::vector<std::string>> WriteMmtestsLogs(
    const Experiment& e, const ExperimentResult& r, const std::string& dir) {
  if (e.model->name != "hackbench") {
    return absl::InvalidArgumentError(absl::StrCat(
        "--mmtests: only hackbench results have an mmtests log layout here "
        "(mmtests' ",
        e.model->name,
        " extraction reads benchmark output the model does not produce); ",
        e.filename, " runs '", e.model->name, "'"));
  }
  int time_metric = -1;
  for (size_t m = 0; m < r.metrics.size(); ++m) {
    if (r.metrics[m].name == "time_s") time_metric = static_cast<int>(m);
  }
  if (time_metric < 0) {
    return absl::InternalError("hackbench has no time_s metric");
  }
  std::vector<std::string> written;
  for (size_t v = 0; v < r.variants.size(); ++v) {
    const std::string logs =
        absl::StrCat(dir, "/", r.variants[v].name, "/iter-0/hackbench/logs");
    std::error_code ec;
    std::filesystem::create_directories(logs, ec);
    if (ec) {
      return absl::InvalidArgumentError(
          absl::StrCat("--mmtests: cannot create ", logs, ": ", ec.message()));
    }
    for (int p = 0; p < static_cast<int>(r.point_params.size()); ++p) {
      const int64_t groups = r.point_params[p].GetInt("groups");
      const std::vector<double> samples =
          r.Samples(p, static_cast<int>(v), time_metric);
      for (size_t i = 0; i < samples.size(); ++i) {
        const std::string path =
            absl::StrCat(logs, "/hackbench-", groups, "-", i + 1);
        std::ofstream f(path, std::ios::binary | std::ios::trunc);
        f << absl::StrFormat(
            "# schedsim run %s, variant %s, iteration %d (simulated)\n"
            "     Total time: %.6f [sec]\n",
            e.filename, r.variants[v].name, i, samples[i]);
        f.close();
        if (!f) {
          return absl::InvalidArgumentError(
              absl::StrCat("--mmtests: cannot write ", path));
        }
        written.push_back(path);
      }
    }
  }
  return written;
}

}  // namespace schedsim::experiments
