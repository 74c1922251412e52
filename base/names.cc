// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "base/names.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace schedsim::base {

int EditDistance(const std::string& a, const std::string& b) {
  std::vector<int> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    int diagonal = row[0];
    row[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      int above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1,
                         diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string DidYouMean(const std::string& got,
                       const std::vector<std::string>& known) {
  int limit = got.size() <= 2 ? 0 : got.size() <= 4 ? 1 : 2;
  std::string best;
  int best_distance = limit + 1;
  for (const std::string& k : known) {
    int d = EditDistance(got, k);
    if (d < best_distance) {
      best = k;
      best_distance = d;
    }
  }
  if (best.empty()) return "";
  return absl::StrCat(" (did you mean '", best, "'?)");
}

}  // namespace schedsim::base
