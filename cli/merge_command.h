// Copyright 2026 The schedsim Authors. SPDX-License-Identifier: Apache-2.0
//
// `schedsim merge DIR... [--format=...] [--out=DIR]`: merges the partial
// results of the shards of one `schedsim run FILE --shard=I/N` or
// `schedsim validate --shard=I/N` (shard.h) into the result the unsharded
// command gives, printed and written as that command prints and writes it
// (docs/scale-out.md). Refuses shards of different files, seeds, settings
// or builds, and names missing and duplicate shards.

#ifndef SCHEDSIM_CLI_MERGE_COMMAND_H_
#define SCHEDSIM_CLI_MERGE_COMMAND_H_

#include <ostream>
#include <string>
#include <vector>

namespace schedsim::cli {

// `args` excludes "schedsim" and "merge". Returns 0 on success, 1 when the
// partial results cannot be merged (or an output cannot be written), 2 on a
// usage error.
int MergeCommand(const std::vector<std::string>& args, std::ostream& out,
                 std::ostream& err);

}  // namespace schedsim::cli

#endif  // SCHEDSIM_CLI_MERGE_COMMAND_H_
