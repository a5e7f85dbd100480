// The executor (aclnn/nnopbase/executor.h) and its C entry points:
// repeatable executors, tensor address updates, aclnnInit / aclnnFinalize.
#include "aclnn/nnopbase/executor.h"

#include <atomic>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "aclnn/nnopbase/entry.h"

namespace ascend::nn {
namespace {

constexpr uint32_t kLiveTag = 0x45584543;
std::atomic<bool> g_debug_kernels{false};

bool IsExecutor(const aclOpExecutor* e) {
  return e != nullptr && e->tag == kLiveTag;
}

void Release(aclOpExecutor* e) {
  e->tag = 0;
  delete e;
}

// The value of "key": "value" inside the object "object" of a small JSON
// document, or "" when absent. Enough for aclnnInit's one setting;
// anything that is not an object with string values is refused.
bool FindSetting(const std::string& text, const std::string& object,
                 const std::string& key, std::string* value, bool* found) {
  *found = false;
  const size_t o = text.find("\"" + object + "\"");
  if (o == std::string::npos) return true;
  const size_t open = text.find('{', o);
  const size_t close = text.find('}', o);
  if (open == std::string::npos || close == std::string::npos || close < open) {
    return false;
  }
  const std::string body = text.substr(open + 1, close - open - 1);
  const size_t k = body.find("\"" + key + "\"");
  if (k == std::string::npos) return true;
  const size_t colon = body.find(':', k);
  const size_t q1 = body.find('"', colon);
  const size_t q2 = q1 == std::string::npos ? q1 : body.find('"', q1 + 1);
  if (colon == std::string::npos || q1 == std::string::npos ||
      q2 == std::string::npos) {
    return false;
  }
  *value = body.substr(q1 + 1, q2 - q1 - 1);
  *found = true;
  return true;
}

// Whether the braces and quotes of `text` balance (a cheap structural check
// of a JSON document).
bool Balanced(const std::string& text) {
  int depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"')
      in_string = true;
    else if (c == '{' || c == '[')
      ++depth;
    else if (c == '}' || c == ']') {
      if (--depth < 0) return false;
    }
  }
  return depth == 0 && !in_string && text.find('{') != std::string::npos;
}

}  // namespace

bool DebugKernels() { return g_debug_kernels.load(std::memory_order_relaxed); }

aclnnStatus RunExecutor(const char* api, void* workspace,
                        uint64_t workspace_size, aclOpExecutor* executor,
                        aclrtStream stream) {
  if (!IsExecutor(executor)) {
    return Refuse(api, ACLNN_ERR_INNER_NULLPTR,
                  "executor is null or already used (make it repeatable with "
                  "aclSetAclOpExecutorRepeatable to run it again)");
  }
  if (workspace_size < executor->workspace_size ||
      (executor->workspace_size > 0 && workspace == nullptr)) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  "the workspace (" + std::to_string(workspace_size) +
                      " bytes) is smaller than the " +
                      std::to_string(executor->workspace_size) +
                      " bytes the first phase asked for");
  }
  std::vector<uint8_t> bytes;
  for (const PlannedLaunch& launch : executor->launches) {
    if (launch.func == nullptr) {
      return Refuse(api, ACLNN_ERR_INNER_FIND_KERNEL_ERROR,
                    "a kernel of " + executor->op_name +
                        " is not registered with the runtime (the device "
                        "backend runs no simulator kernels)");
    }
    bytes = launch.args;
    for (const AddrPatch& p : launch.patches) {
      const uint8_t* base = nullptr;
      switch (p.base) {
        case Base::kInput:
          base = static_cast<const uint8_t*>(executor->inputs[p.index]);
          break;
        case Base::kOutput:
          base = static_cast<const uint8_t*>(executor->outputs[p.index]);
          break;
        case Base::kWorkspace:
          base = static_cast<const uint8_t*>(workspace);
          break;
      }
      const uint64_t addr = base == nullptr
                                ? 0
                                : reinterpret_cast<uint64_t>(base) +
                                      static_cast<uint64_t>(p.byte_offset);
      std::memcpy(bytes.data() + p.args_offset, &addr, sizeof addr);
    }
    const aclError ret = aclrtLaunchKernelWithHostArgs(
        launch.func, launch.blocks, stream, nullptr, bytes.data(), bytes.size(),
        nullptr, 0);
    if (ret != ACL_SUCCESS) {
      return Refuse(api, ACLNN_ERR_RUNTIME_ERROR,
                    "the runtime refused the kernel launch of " +
                        executor->op_name + " with error " +
                        std::to_string(ret));
    }
    if (DebugKernels()) {
      const aclError sync = aclrtSynchronizeStream(stream);
      if (sync != ACL_SUCCESS) {
        return Refuse(api, ACLNN_ERR_RUNTIME_ERROR,
                      "a kernel of " + executor->op_name +
                          " failed on the device with error " +
                          std::to_string(sync));
      }
    }
  }
  // The data dump, the operator record and the exception dump take the
  // operator now that its kernels are queued (DESIGN.md §5.25).
  ReportToDump(api, *executor, stream);
  if (!executor->repeatable) Release(executor);
  return ACLNN_SUCCESS;
}

}  // namespace ascend::nn

uint32_t aclOpExecutor::AddInput(const aclTensor* t) {
  input_params.push_back(static_cast<uint32_t>(inputs.size()));
  inputs.push_back(t != nullptr ? t->data : nullptr);
  input_descs.push_back(ascend::nn::DescribeForDump(t));
  return static_cast<uint32_t>(inputs.size() - 1);
}

uint32_t aclOpExecutor::AddInputList(const aclTensorList* list) {
  const auto first = static_cast<uint32_t>(inputs.size());
  input_params.push_back(first);
  for (const aclTensor* t : list->tensors) {
    inputs.push_back(t != nullptr ? t->data : nullptr);
    input_descs.push_back(ascend::nn::DescribeForDump(t));
  }
  return first;
}

uint32_t aclOpExecutor::AddOutput(const aclTensor* t) {
  output_params.push_back(static_cast<uint32_t>(outputs.size()));
  outputs.push_back(t != nullptr ? t->data : nullptr);
  output_descs.push_back(ascend::nn::DescribeForDump(t));
  return static_cast<uint32_t>(outputs.size() - 1);
}

ascend::nn::PlannedLaunch& aclOpExecutor::AddLaunch(aclrtFuncHandle func,
                                                    uint32_t blocks,
                                                    const void* args,
                                                    size_t size) {
  ascend::nn::PlannedLaunch launch;
  launch.func = func;
  launch.blocks = blocks;
  const auto* b = static_cast<const uint8_t*>(args);
  launch.args.assign(b, b + size);
  launches.push_back(std::move(launch));
  return launches.back();
}

using ascend::nn::IsExecutor;
using ascend::nn::Refuse;

namespace {

aclnnStatus SetAddr(const char* api, aclOpExecutor* executor, bool output,
                    size_t index, aclTensor* tensor, void* addr) {
  if (!IsExecutor(executor) || tensor == nullptr) {
    return Refuse(api, ACLNN_ERR_INNER_NULLPTR,
                  "executor and tensor must not be null");
  }
  std::vector<void*>& slots = output ? executor->outputs : executor->inputs;
  if (index >= slots.size()) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  "index " + std::to_string(index) + " is past the " +
                      std::to_string(slots.size()) + " " +
                      (output ? "outputs" : "inputs") + " of " +
                      executor->op_name);
  }
  if (ascend::nn::IsTensor(tensor)) tensor->data = addr;
  slots[index] = addr;
  return ACLNN_SUCCESS;
}

// Tensors of all inputs, then all outputs, counted one by one.
aclnnStatus SetAnyAddr(const char* api, aclOpExecutor* executor, size_t index,
                       aclTensor* tensor, void* addr) {
  if (!IsExecutor(executor) || tensor == nullptr) {
    return Refuse(api, ACLNN_ERR_INNER_NULLPTR,
                  "executor and tensor must not be null");
  }
  const size_t inputs = executor->inputs.size();
  return index < inputs
             ? SetAddr(api, executor, false, index, tensor, addr)
             : SetAddr(api, executor, true, index - inputs, tensor, addr);
}

// Tensor `relative` of the list that is parameter `ir` of the inputs
// (outputs): the executor records where each parameter's tensors begin.
aclnnStatus SetListAddr(const char* api, aclOpExecutor* executor, bool output,
                        size_t ir, size_t relative, aclTensorList* tensors,
                        void* addr) {
  if (!IsExecutor(executor) || tensors == nullptr) {
    return Refuse(api, ACLNN_ERR_INNER_NULLPTR,
                  "executor and tensors must not be null");
  }
  if (tensors->tag != ascend::nn::Tag::kTensorList ||
      relative >= tensors->tensors.size()) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  "relativeIndex " + std::to_string(relative) +
                      " is past the tensor list");
  }
  const std::vector<uint32_t>& params =
      output ? executor->output_params : executor->input_params;
  if (ir >= params.size()) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  "irIndex " + std::to_string(ir) + " is past the " +
                      std::to_string(params.size()) + " tensor parameters of " +
                      executor->op_name);
  }
  return SetAddr(api, executor, output, params[ir] + relative,
                 tensors->tensors[relative], addr);
}

}  // namespace

extern "C" {

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor) try {
  if (!IsExecutor(executor)) {
    return Refuse(__func__, ACLNN_ERR_INNER_NULLPTR, "executor is null");
  }
  executor->repeatable = true;
  return ACLNN_SUCCESS;
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor) try {
  if (!IsExecutor(executor)) {
    return Refuse(__func__, ACLNN_ERR_INNER_NULLPTR, "executor is null");
  }
  ascend::nn::Release(executor);
  return ACLNN_SUCCESS;
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclSetInputTensorAddr(aclOpExecutor* executor, const size_t index,
                                  aclTensor* tensor, void* addr) try {
  return SetAddr(__func__, executor, false, index, tensor, addr);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclSetOutputTensorAddr(aclOpExecutor* executor, const size_t index,
                                   aclTensor* tensor, void* addr) try {
  return SetAddr(__func__, executor, true, index, tensor, addr);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclSetTensorAddr(aclOpExecutor* executor, const size_t index,
                             aclTensor* tensor, void* addr) try {
  return SetAnyAddr(__func__, executor, index, tensor, addr);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclSetDynamicInputTensorAddr(aclOpExecutor* executor,
                                         size_t irIndex,
                                         const size_t relativeIndex,
                                         aclTensorList* tensors,
                                         void* addr) try {
  return SetListAddr(__func__, executor, false, irIndex, relativeIndex, tensors,
                     addr);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclSetDynamicOutputTensorAddr(aclOpExecutor* executor,
                                          size_t irIndex,
                                          const size_t relativeIndex,
                                          aclTensorList* tensors,
                                          void* addr) try {
  return SetListAddr(__func__, executor, true, irIndex, relativeIndex, tensors,
                     addr);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclSetDynamicTensorAddr(aclOpExecutor* executor, size_t irIndex,
                                    const size_t relativeIndex,
                                    aclTensorList* tensors, void* addr) try {
  return SetListAddr(__func__, executor, false, irIndex, relativeIndex, tensors,
                     addr);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus AclSetInputTensorAddr(aclOpExecutor* executor, const size_t index,
                                  aclTensor* tensor, void* addr) try {
  return SetAddr(__func__, executor, false, index, tensor, addr);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus AclSetOutputTensorAddr(aclOpExecutor* executor, const size_t index,
                                   aclTensor* tensor, void* addr) try {
  return SetAddr(__func__, executor, true, index, tensor, addr);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus AclSetTensorAddr(aclOpExecutor* executor, const size_t index,
                             aclTensor* tensor, void* addr) try {
  return SetAnyAddr(__func__, executor, index, tensor, addr);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus AclSetDynamicInputTensorAddr(aclOpExecutor* executor,
                                         size_t irIndex,
                                         const size_t relativeIndex,
                                         aclTensorList* tensors,
                                         void* addr) try {
  return SetListAddr(__func__, executor, false, irIndex, relativeIndex, tensors,
                     addr);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus AclSetDynamicOutputTensorAddr(aclOpExecutor* executor,
                                          size_t irIndex,
                                          const size_t relativeIndex,
                                          aclTensorList* tensors,
                                          void* addr) try {
  return SetListAddr(__func__, executor, true, irIndex, relativeIndex, tensors,
                     addr);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus AclSetDynamicTensorAddr(aclOpExecutor* executor, size_t irIndex,
                                    const size_t relativeIndex,
                                    aclTensorList* tensors, void* addr) try {
  return SetListAddr(__func__, executor, false, irIndex, relativeIndex, tensors,
                     addr);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnInit(const char* configPath) try {
  bool debug = false;
  if (configPath != nullptr) {
    std::ifstream in(configPath);
    if (!in) {
      return Refuse(__func__, ACLNN_ERR_PARAM_INVALID,
                    std::string("cannot read the config file ") + configPath);
    }
    std::stringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    std::string value;
    bool found = false;
    if (!s.empty() &&
        (!ascend::nn::Balanced(s) ||
         !ascend::nn::FindSetting(s, "op_debug_config", "enable_debug_kernel",
                                  &value, &found))) {
      return Refuse(
          __func__, ACLNN_ERR_PARAM_INVALID,
          std::string("the config file ") + configPath + " is not valid JSON");
    }
    if (found && value != "on" && value != "off") {
      return Refuse(__func__, ACLNN_ERR_PARAM_INVALID,
                    "enable_debug_kernel must be \"on\" or \"off\", not \"" +
                        value + "\"");
    }
    debug = found && value == "on";
  }
  ascend::nn::g_debug_kernels.store(debug, std::memory_order_relaxed);
  return ACLNN_SUCCESS;
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnFinalize(void) try {
  ascend::nn::g_debug_kernels.store(false, std::memory_order_relaxed);
  return ACLNN_SUCCESS;
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

}  // extern "C"
