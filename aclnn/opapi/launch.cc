#include "aclnn/opapi/launch.h"

#include <map>
#include <mutex>
#include <string>

#include "aclnn/nnopbase/dtype.h"
#include "aclnn/nnopbase/entry.h"

namespace ascend::nn {
namespace {

std::mutex g_mu;

int64_t CoresOfCurrentDevice() {
  static std::map<int32_t, int64_t>* cores = new std::map<int32_t, int64_t>;
  int32_t device = 0;
  if (aclrtGetDevice(&device) != ACL_SUCCESS) device = 0;
  std::lock_guard<std::mutex> lock(g_mu);
  auto it = cores->find(device);
  if (it != cores->end()) return it->second;
  int64_t n = 0;
  if (aclGetDeviceCapability(static_cast<uint32_t>(device),
                             ACL_DEVICE_INFO_AI_CORE_NUM, &n) != ACL_SUCCESS ||
      n <= 0) {
    n = 1;
  }
  (*cores)[device] = n;
  return n;
}

}  // namespace

aclrtFuncHandle KernelHandle(aclsimKernelEntry entry, const char* name) {
  // Registering the same symbol again answers the same handle, so no cache
  // is needed for correctness; this one saves the runtime's lookup.
  static std::map<aclsimKernelEntry, aclrtFuncHandle>* handles =
      new std::map<aclsimKernelEntry, aclrtFuncHandle>;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    auto it = handles->find(entry);
    if (it != handles->end()) return it->second;
  }
  aclrtFuncHandle handle = nullptr;
  const aclError ret = aclsimRegisterKernel(
      reinterpret_cast<const void*>(entry), name, entry, nullptr, &handle);
  if (ret != ACL_SUCCESS) {
    LogError("aclnn", std::string("registering kernel ") + name +
                          " failed with error " + std::to_string(ret));
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(g_mu);
  (*handles)[entry] = handle;
  return handle;
}

uint32_t BlocksFor(int64_t work, int64_t per_block) {
  if (work <= 0 || per_block <= 0) return 1;
  const int64_t cores = CoresOfCurrentDevice();
  int64_t blocks = (work + per_block - 1) / per_block;
  if (blocks > cores) blocks = cores;
  return static_cast<uint32_t>(blocks < 1 ? 1 : blocks);
}

void DescribeArg(const aclTensor& t, const std::vector<int64_t>& shape,
                 TensorArg* arg) {
  *arg = TensorArg{};
  arg->dtype = t.dtype;
  arg->ndim = static_cast<int32_t>(shape.size());
  const size_t lead = shape.size() - t.view_shape.size();
  for (size_t i = 0; i < shape.size(); ++i) {
    arg->shape[i] = shape[i];
    if (i < lead) {
      arg->strides[i] = 0;
    } else {
      const size_t j = i - lead;
      arg->strides[i] =
          t.view_shape[j] == 1 && shape[i] != 1 ? 0 : t.strides[j];
    }
  }
}

int64_t ViewByteOffset(const aclTensor& t) {
  return t.offset * static_cast<int64_t>(ElementSize(t.dtype));
}

void PatchArg(PlannedLaunch& l, uint32_t args_offset, Base base, uint32_t index,
              const aclTensor& t) {
  l.Patch(args_offset + static_cast<uint32_t>(offsetof(TensorArg, addr)), base,
          index, ViewByteOffset(t));
}

}  // namespace ascend::nn
