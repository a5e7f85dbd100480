// Runs a multi-process HCCL job for tests: spawns one hccl_rank process per
// rank (the binary named by $HCCL_RANK_BIN), each with its own output file,
// waits for all with a deadline, and kills every one left when it passes,
// so a test never hangs.
//
//   Job job(RankBinary(), TempDir());
//   JobResult r = job.Run(4, {"--scenario=collectives", "--root=" + hex},
//                         std::chrono::seconds(60));
#ifndef ASCENDCL_HCCL_TESTING_JOB_H_
#define ASCENDCL_HCCL_TESTING_JOB_H_

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "hccl/hccl_types.h"

namespace ascend::hccl::testing {

struct RankResult {
  int exit_code = -1;  // -1: killed at the deadline or by a signal
  int signal = 0;      // the signal that ended it, if one did
  std::string output;  // stdout and stderr
};

struct JobResult {
  std::vector<RankResult> ranks;
  bool timed_out = false;
};

// A TCP port free on 127.0.0.1 now (for rank tables: tests running at the
// same time must not share one).
uint16_t FreePort();

// The hccl_rank binary ($HCCL_RANK_BIN).
std::string RankBinary();
// The root information as hex, for --root=.
std::string Hex(const HcclRootInfo& root);

// Runs `n` ranks: rank i gets args + {"--nranks=n" (unless args give
// --nranks), "--rank=i"}; `prefix`
// (e.g. {"ip", "netns", "exec", "ns1"}) runs before the binary, per rank,
// when given.
JobResult RunJob(uint32_t n, const std::vector<std::string>& args,
                 std::chrono::seconds deadline,
                 const std::vector<std::vector<std::string>>& prefix = {});

}  // namespace ascend::hccl::testing

#endif  // ASCENDCL_HCCL_TESTING_JOB_H_
