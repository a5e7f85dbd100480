// How operators reach the simulated device (DESIGN.md §5.26): their
// kernels are compiled into libopapi.so and registered with the runtime as
// the program's own kernels (aclsimRegisterKernel), so a launch is an
// ordinary kernel task on the stream — ordered with the stream's other
// work, captured into models, replayed, and covered by a snapshot.
//
//   aclrtFuncHandle f = KernelHandle(&ElementwiseKernel, "aclnn_elementwise");
//   uint32_t blocks = BlocksFor(numel, 1 << 14);
//   TensorArg& x = ...; DescribeArg(*tensor, shape, &x);
#ifndef ASCENDCL_ACLNN_OPAPI_LAUNCH_H_
#define ASCENDCL_ACLNN_OPAPI_LAUNCH_H_

#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "aclnn/nnopbase/executor.h"
#include "aclnn/nnopbase/objects.h"
#include "aclnn/opapi/kernel_args.h"
#include "aclsim/aclsim_kernel.h"

namespace ascend::nn {

// The runtime's handle of kernel `entry` (registered on first use), or null
// when the runtime refused it (logged).
aclrtFuncHandle KernelHandle(aclsimKernelEntry entry, const char* name);

// How many blocks to split `work` units over: one per `per_block` units, at
// least 1, at most the current device's AI cores.
uint32_t BlocksFor(int64_t work, int64_t per_block);

// Fills `arg` with tensor t's type and view, broadcast to `shape` (t's
// dimensions align to the right; a dimension of size 1 gets stride 0). The
// address is left 0 for the executor's patch.
void DescribeArg(const aclTensor& t, const std::vector<int64_t>& shape,
                 TensorArg* arg);
// The byte offset of t's element 0 from its storage address.
int64_t ViewByteOffset(const aclTensor& t);

// Patches `arg`'s address in launch `l` (arg lies in l.args at args_offset)
// to input or output `index` of the executor, at t's view offset.
void PatchArg(PlannedLaunch& l, uint32_t args_offset, Base base, uint32_t index,
              const aclTensor& t);

}  // namespace ascend::nn

#endif  // ASCENDCL_ACLNN_OPAPI_LAUNCH_H_
