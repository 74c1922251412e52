// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0

#include "traces/gzip_stream.h"

#include <zlib.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"

namespace schedsim::traces {

class GzipOstream::Buf : public std::streambuf {
 public:
  Buf(std::ostream* out, int level) : out_(out), in_(1 << 16), zout_(1 << 16) {
    // 15 + 16: a 32 KB window with the gzip header and trailer.
    inited_ = deflateInit2(&z_, level, Z_DEFLATED, 15 + 16, 8,
                           Z_DEFAULT_STRATEGY) == Z_OK;
    ok_ = inited_;
    if (!ok_) error_ = "zlib deflateInit2 failed";
    setp(in_.data(), in_.data() + in_.size());
  }
  ~Buf() override {
    if (!closed_) Close().IgnoreError();
    if (inited_) deflateEnd(&z_);
  }

  absl::Status Close() {
    if (!closed_) {
      closed_ = true;
      if (ok_) Deflate(Z_FINISH);
      out_->flush();
      if (!*out_ && ok_) {
        ok_ = false;
        error_ = "writing the compressed stream failed";
      }
    }
    if (!ok_) return absl::InternalError(absl::StrCat("gzip: ", error_));
    return absl::OkStatus();
  }

 protected:
  int_type overflow(int_type ch) override {
    if (closed_ || !ok_) return traits_type::eof();
    if (!Deflate(Z_NO_FLUSH)) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  int sync() override {
    // Compressed data is written as zlib produces it; a sync does not force
    // a flush point (that would cost compression).
    return ok_ ? 0 : -1;
  }

 private:
  // Compresses the put area (and, with Z_FINISH, ends the stream).
  bool Deflate(int flush) {
    z_.next_in = reinterpret_cast<Bytef*>(pbase());
    z_.avail_in = static_cast<uInt>(pptr() - pbase());
    while (true) {
      z_.next_out = reinterpret_cast<Bytef*>(zout_.data());
      z_.avail_out = static_cast<uInt>(zout_.size());
      const int rc = deflate(&z_, flush);
      if (rc == Z_STREAM_ERROR) {
        ok_ = false;
        error_ = "zlib deflate failed";
        return false;
      }
      const size_t have = zout_.size() - z_.avail_out;
      if (have > 0) {
        out_->write(zout_.data(), static_cast<std::streamsize>(have));
        if (!*out_) {
          ok_ = false;
          error_ = "writing the compressed stream failed";
          return false;
        }
      }
      if (flush == Z_FINISH ? rc == Z_STREAM_END
                            : (z_.avail_in == 0 && z_.avail_out != 0)) {
        break;
      }
    }
    setp(in_.data(), in_.data() + in_.size());
    return true;
  }

  std::ostream* out_;
  std::vector<char> in_;
  std::vector<char> zout_;
  z_stream z_{};
  bool inited_ = false;
  bool ok_ = false;
  bool closed_ = false;
  std::string error_;
};

GzipOstream::GzipOstream(std::ostream* out, int level)
    : std::ostream(nullptr), buf_(std::make_unique<Buf>(out, level)) {
  rdbuf(buf_.get());
}

GzipOstream::~GzipOstream() { Close().IgnoreError(); }

absl::Status GzipOstream::Close() {
  flush();
  return buf_->Close();
}

}  // namespace schedsim::traces
