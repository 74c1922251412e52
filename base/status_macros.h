// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Status-propagation macros. Abseil 20220623 (Debian 12) ships no
// RETURN_IF_ERROR / ASSIGN_OR_RETURN, so schedsim keeps these two.

#ifndef SCHEDSIM_BASE_STATUS_MACROS_H_
#define SCHEDSIM_BASE_STATUS_MACROS_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

// Evaluates `expr` (an absl::Status); returns it from the enclosing function
// when it is not OK.
#define SCHEDSIM_RETURN_IF_ERROR(expr)                   \
  do {                                                   \
    ::absl::Status schedsim_status_ = (expr);            \
    if (!schedsim_status_.ok()) return schedsim_status_; \
  } while (0)

#define SCHEDSIM_STATUS_CONCAT_INNER_(a, b) a##b
#define SCHEDSIM_STATUS_CONCAT_(a, b) SCHEDSIM_STATUS_CONCAT_INNER_(a, b)

// `lhs` = value of the absl::StatusOr `rexpr`, or returns its error.
#define SCHEDSIM_ASSIGN_OR_RETURN(lhs, rexpr) \
  SCHEDSIM_ASSIGN_OR_RETURN_IMPL_(            \
      SCHEDSIM_STATUS_CONCAT_(schedsim_statusor_, __LINE__), lhs, rexpr)

#define SCHEDSIM_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, rexpr) \
  auto statusor = (rexpr);                                    \
  if (!statusor.ok()) return std::move(statusor).status();    \
  lhs = std::move(statusor).value()

#endif  // SCHEDSIM_BASE_STATUS_MACROS_H_
