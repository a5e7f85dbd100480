// An HCCL operation as stream work (DESIGN.md §5.27): a launch, through the
// public C API, of a simulated kernel registered under the operation's
// name (aclsimRegisterKernel). The runtime therefore orders it with the
// stream's other tasks, synchronises, captures and replays it, drains it
// before a Backup and shows it in the profiling timeline; nothing in
// libascendcl.so knows HCCL. The kernel (one block) runs the operation on
// the communicator's transport when the stream reaches it and raises the
// outcome's code when it fails.
#ifndef ASCENDCL_HCCL_CORE_LAUNCH_H_
#define ASCENDCL_HCCL_CORE_LAUNCH_H_

#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "hccl/core/op.h"
#include "hccl/hccl_types.h"

namespace ascend::hccl {

// Queues the operation (its argument bytes) on `stream`. HCCL_E_PARA when
// the runtime calls the stream invalid, HCCL_E_RUNTIME for another refusal
// (its code logged).
HcclResult Submit(const char* api, const std::vector<uint8_t>& bytes,
                  aclrtStream stream);

}  // namespace ascend::hccl

#endif  // ASCENDCL_HCCL_CORE_LAUNCH_H_
