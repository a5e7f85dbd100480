// The executor an operator's first phase returns (DESIGN.md §5.26): the
// kernel launches it planned, with the argument bytes of each and where
// their device pointers point, so the second phase only patches addresses
// and queues the launches on the stream.
//
//   auto exec = std::make_unique<aclOpExecutor>("aclnnAdd");
//   uint32_t x = exec->AddInput(self), out = exec->AddOutput(result);
//   PlannedLaunch& l = exec->AddLaunch(kernel, blocks, &args, sizeof args);
//   l.Patch(offsetof(Args, x_addr), Base::kInput, x, 0);
//   *executor = exec.release();
//   ...
//   return RunExecutor("aclnnAdd", workspace, size, executor, stream);
//
// Pointers inside the argument bytes are patched at every run from the
// executor's current tensor addresses (aclSetInputTensorAddr moves them) and
// the workspace, so a repeatable executor runs anywhere the caller points it.
// Arguments carry everything a kernel reads (shapes, strides, scalars), so a
// launch captured into a model and replayed later, after the executor is
// gone, still has all it needs.
#ifndef ASCENDCL_ACLNN_NNOPBASE_EXECUTOR_H_
#define ASCENDCL_ACLNN_NNOPBASE_EXECUTOR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnn/nnopbase/objects.h"

namespace ascend::nn {

enum class Base : uint8_t { kInput, kOutput, kWorkspace };

struct AddrPatch {
  uint32_t args_offset;  // where the 8-byte pointer goes in the arguments
  Base base;
  uint32_t index;       // the input's or output's index (kWorkspace: 0)
  int64_t byte_offset;  // added to the base address
};

// What the data dump needs of a tensor parameter besides its address
// (DESIGN.md §5.25): kept when the parameter is registered, so a repeatable
// executor can report its operator after its tensors are gone.
struct DumpDesc {
  bool present = false;  // false for an optional tensor left out
  aclDataType dtype = ACL_DT_UNDEFINED;
  aclFormat format = ACL_FORMAT_ND;
  std::vector<int64_t> shape;
  int64_t byte_offset = 0;  // of the view's first element in the storage
  uint64_t bytes = 0;       // the view's extent
};

struct PlannedLaunch {
  aclrtFuncHandle func = nullptr;
  uint32_t blocks = 1;
  std::vector<uint8_t> args;
  std::vector<AddrPatch> patches;

  void Patch(uint32_t args_offset, Base base, uint32_t index,
             int64_t byte_offset) {
    patches.push_back(AddrPatch{args_offset, base, index, byte_offset});
  }
};

// Whether operators synchronize after each launch to report a kernel's
// failure at the operator that caused it (aclnnInit's
// "enable_debug_kernel": "on").
bool DebugKernels();

// The description of `t` the dump keeps (null: not present).
DumpDesc DescribeForDump(const aclTensor* t);
// Reports the operator `executor` runs to the data dump (aclnn/nnopbase/
// dump.cc): its tensors, at their current addresses, when the dump wants
// them (ascendcl/dump.h); a refusal is logged, never the operator's failure.
void ReportToDump(const char* api, const aclOpExecutor& executor,
                  aclrtStream stream);

// Runs `executor` on `stream` (the second phase of every operator) and
// releases it unless it is repeatable. 561103 for a null or dead executor,
// 161002 for a workspace smaller than planned (or null with a size), 361001
// when the runtime refuses a launch (its code is logged).
aclnnStatus RunExecutor(const char* api, void* workspace,
                        uint64_t workspace_size, aclOpExecutor* executor,
                        aclrtStream stream);

}  // namespace ascend::nn

struct aclOpExecutor {
  explicit aclOpExecutor(std::string op) : op_name(std::move(op)) {}

  // Registers a tensor parameter of the operator, in parameter order;
  // answers its index among the inputs (outputs). A null tensor (an optional
  // one left out) takes an index with no address.
  uint32_t AddInput(const aclTensor* t);
  uint32_t AddOutput(const aclTensor* t);
  // A tensor-list parameter: its tensors take consecutive indexes; answers
  // the first.
  uint32_t AddInputList(const aclTensorList* list);
  ascend::nn::PlannedLaunch& AddLaunch(aclrtFuncHandle func, uint32_t blocks,
                                       const void* args, size_t size);

  uint32_t tag = 0x45584543;  // "EXEC"; 0 once destroyed
  std::string op_name;
  uint64_t workspace_size = 0;
  bool repeatable = false;
  std::vector<void*> inputs;  // storage addresses, tensor by tensor
  std::vector<void*> outputs;
  // The tensors' descriptions, index by index (the data dump's).
  std::vector<ascend::nn::DumpDesc> input_descs;
  std::vector<ascend::nn::DumpDesc> output_descs;
  // The first tensor index of each parameter (aclSetDynamic*TensorAddr).
  std::vector<uint32_t> input_params;
  std::vector<uint32_t> output_params;
  std::vector<ascend::nn::PlannedLaunch> launches;
};

#endif  // ASCENDCL_ACLNN_NNOPBASE_EXECUTOR_H_
