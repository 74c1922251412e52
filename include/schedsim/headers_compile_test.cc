// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// The other translation units of this test (first_*.cc, generated) each
// include one public header first; that they compiled is the test.

int main() { return 0; }
