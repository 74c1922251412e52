// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// Helpers of the libFuzzer targets (fuzz/README.md): inputs that a parser
// reads from a path are written to a per-process temporary file.

#ifndef SCHEDSIM_FUZZ_FUZZ_UTIL_H_
#define SCHEDSIM_FUZZ_FUZZ_UTIL_H_

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace schedsim::fuzz {

// A directory of this process under $TMPDIR (or /tmp).
inline const std::string& ScratchDir() {
  static const std::string* dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::string base = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
    std::string templ = base + "/schedsim-fuzz-XXXXXX";
    char* made = mkdtemp(templ.data());
    return new std::string(made != nullptr ? made : base);
  }();
  return *dir;
}

// Writes `data` to ScratchDir()/name and returns the path.
inline std::string WriteScratch(const std::string& name, const uint8_t* data,
                                size_t size) {
  const std::string path = ScratchDir() + "/" + name;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f != nullptr) {
    if (size > 0) std::fwrite(data, 1, size, f);
    std::fclose(f);
  }
  return path;
}

inline std::string Text(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

}  // namespace schedsim::fuzz

#endif  // SCHEDSIM_FUZZ_FUZZ_UTIL_H_
