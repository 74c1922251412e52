// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Shadow evaluation lives in its own package, shadow/ (shadow/shadow.h);
// this header, and //traces:shadow, forward to it for existing users.

#ifndef SCHEDSIM_TRACES_SHADOW_H_
#define SCHEDSIM_TRACES_SHADOW_H_

#include "shadow/shadow.h"  // IWYU pragma: export

#endif  // SCHEDSIM_TRACES_SHADOW_H_
