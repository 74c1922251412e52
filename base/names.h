// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Suggestions for mistyped names, as every error that lists the known
// names (config keys, policies, machines, JSON keys) gives them.

#ifndef SCHEDSIM_BASE_NAMES_H_
#define SCHEDSIM_BASE_NAMES_H_

#include <string>
#include <vector>

namespace schedsim::base {

// The Levenshtein distance (insertions, deletions, substitutions).
int EditDistance(const std::string& a, const std::string& b);

// " (did you mean 'x'?)" when one of `known` is a likely typo of `got` (an
// edit distance of at most 0, 1 or 2 for names of up to 2, 4 or more
// characters); "" otherwise.
std::string DidYouMean(const std::string& got,
                       const std::vector<std::string>& known);

}  // namespace schedsim::base

#endif  // SCHEDSIM_BASE_NAMES_H_
