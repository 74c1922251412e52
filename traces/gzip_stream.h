// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// GzipOstream: an std::ostream that gzip-compresses what is written to it
// (zlib's deflate with the gzip wrapper, RFC 1952) into another stream, for
// `schedsim run --trace-gzip`: ui.perfetto.dev and trace_processor open
// gzip-compressed traces, `zcat` and `gunzip` read them.
//
// Close() ends the gzip member (the trailer: CRC-32 and length) and flushes
// the underlying stream; the destructor calls it. Memory held: zlib's state
// (about 256 KB at level 6) and two 64 KB buffers.

#ifndef SCHEDSIM_TRACES_GZIP_STREAM_H_
#define SCHEDSIM_TRACES_GZIP_STREAM_H_

#include <memory>
#include <ostream>
#include <streambuf>

#include "absl/status/status.h"

namespace schedsim::traces {

class GzipOstream : public std::ostream {
 public:
  // `out` is not owned and must outlive this stream.
  explicit GzipOstream(std::ostream* out, int level = 6);
  ~GzipOstream() override;

  GzipOstream(const GzipOstream&) = delete;
  GzipOstream& operator=(const GzipOstream&) = delete;

  // Finishes the compressed stream. Later writes fail. An error when zlib
  // or the underlying stream failed.
  absl::Status Close();

 private:
  class Buf;
  std::unique_ptr<Buf> buf_;
};

}  // namespace schedsim::traces

#endif  // SCHEDSIM_TRACES_GZIP_STREAM_H_
