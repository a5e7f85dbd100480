// Kernel argument lists (aclrtKernelArgs*; runtime/kernel/kernel.h,
// DESIGN.md §5.20).
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <new>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "acl/error_codes/rt_error_codes.h"
#include "device/base/status_macros.h"
#include "device/checksum.h"
#include "runtime/base/error.h"
#include "runtime/base/handle.h"
#include "runtime/exception_info.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_objects.h"
#include "runtime/runtime.h"
#include "runtime/stream.h"

namespace ascend::rt {

// --- Argument lists ----------------------------------------------------------

size_t Kernels::ArgsHandleSize() { return kArgsHandleBytes; }

absl::StatusOr<size_t> Kernels::ArgsMemSize(const void* func,
                                            size_t user_size) const {
  ascend::MutexLock lock(&mu_);
  if (FindFunctionLocked(func) == nullptr) return NotFunction(func);
  // Parameters and place-holder data, 8-byte aligned each, and nothing the
  // runtime adds: the simulator keeps its bookkeeping in its own memory.
  return AlignUp(user_size, 8);
}

absl::StatusOr<void*> Kernels::ArgsInit(void* func) {
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<KernelFunction> function = FindFunctionLocked(func);
  if (function == nullptr) return NotFunction(func);
  auto list = std::make_shared<KernelArgList>();
  list->function = function;
  list->key = list->own_handle.value();
  void* key = list->key;
  function->binary->arg_lists.push_back(key);
  args_[key] = std::move(list);
  return key;
}

absl::Status Kernels::ArgsInitUser(void* func, void* handle_mem, void* user_mem,
                                   size_t size) {
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<KernelFunction> function = FindFunctionLocked(func);
  if (function == nullptr) return NotFunction(func);
  if (size == 0) {
    return Error(ACL_ERROR_INVALID_PARAM, "actualArgsSize must not be 0");
  }
  // Initialising the same handle memory again starts a new list there.
  if (auto old = FindArgsLocked(handle_mem); old != nullptr) {
    auto& lists = old->function->binary->arg_lists;
    lists.erase(std::remove(lists.begin(), lists.end(), handle_mem),
                lists.end());
    args_.erase(handle_mem);
  }
  auto list = std::make_shared<KernelArgList>();
  list->function = function;
  list->key = handle_mem;
  list->data = static_cast<uint8_t*>(user_mem);
  list->capacity = size;
  std::memset(handle_mem, 0, kArgsHandleBytes);
  std::memcpy(handle_mem, kArgsHandleTag, sizeof kArgsHandleTag);
  function->binary->arg_lists.push_back(handle_mem);
  args_[handle_mem] = std::move(list);
  return absl::OkStatus();
}

namespace {

// Room for `size` more parameter bytes at `offset` of `list`.
absl::Status Reserve(KernelArgList& list, size_t end) {
  if (list.capacity != 0) {
    if (end > list.capacity) {
      return Error(ACL_ERROR_RT_PARAM_INVALID,
                   absl::StrCat("the argument list needs ", end,
                                " bytes; its memory holds ", list.capacity));
    }
    if (list.user_data_end != 0) {
      return Error(ACL_ERROR_RT_PARAM_INVALID,
                   "parameters must all be appended before a place-holder "
                   "buffer is taken");
    }
    return absl::OkStatus();
  }
  if (list.own.size() < end) {
    try {
      list.own.resize(end);
    } catch (const std::bad_alloc&) {
      return Error(ACL_ERROR_RT_MEMORY_ALLOCATION,
                   "out of host memory for the argument list");
    }
  }
  list.data = list.own.data();
  return absl::OkStatus();
}

absl::StatusOr<KernelArgList::Param*> FindParam(KernelArgList& list,
                                                void* param) {
  const uintptr_t index = reinterpret_cast<uintptr_t>(param);
  if (index == 0 || index > list.params.size()) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("paramHandle 0x", absl::Hex(index),
                              " is not a parameter of this argument list"));
  }
  return &list.params[index - 1];
}

void* ParamHandle(size_t index) {
  return reinterpret_cast<void*>(static_cast<uintptr_t>(index + 1));
}

}  // namespace

absl::StatusOr<void*> Kernels::ArgsAppend(void* args, const void* param,
                                          size_t size) {
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<KernelArgList> list = FindArgsLocked(args);
  if (list == nullptr) return NotArgs(args);
  if (size == 0) {
    return Error(ACL_ERROR_INVALID_PARAM, "paramSize must not be 0");
  }
  if (list->params.size() >= kMaxParams) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("an argument list holds at most ", kMaxParams,
                              " parameters"));
  }
  const size_t offset = AlignUp(list->used, ParamAlign(size));
  ASCEND_RETURN_IF_ERROR(Reserve(*list, offset + size));
  std::memcpy(list->data + offset, param, size);
  KernelArgList::Param p;
  p.offset = static_cast<uint32_t>(offset);
  p.size = static_cast<uint32_t>(size);
  list->params.push_back(std::move(p));
  list->used = offset + size;
  list->finalized = false;
  return ParamHandle(list->params.size() - 1);
}

absl::StatusOr<void*> Kernels::ArgsAppendPlaceHolder(void* args) {
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<KernelArgList> list = FindArgsLocked(args);
  if (list == nullptr) return NotArgs(args);
  if (list->params.size() >= kMaxParams) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("an argument list holds at most ", kMaxParams,
                              " parameters"));
  }
  const size_t offset = AlignUp(list->used, 8);
  ASCEND_RETURN_IF_ERROR(Reserve(*list, offset + sizeof(void*)));
  std::memset(list->data + offset, 0, sizeof(void*));
  KernelArgList::Param p;
  p.offset = static_cast<uint32_t>(offset);
  p.size = sizeof(void*);
  p.place_holder = true;
  list->params.push_back(std::move(p));
  list->used = offset + sizeof(void*);
  list->finalized = false;
  return ParamHandle(list->params.size() - 1);
}

absl::StatusOr<void*> Kernels::ArgsPlaceHolderBuffer(void* args, void* param,
                                                     size_t size) {
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<KernelArgList> list = FindArgsLocked(args);
  if (list == nullptr) return NotArgs(args);
  ASCEND_ASSIGN_OR_RETURN(KernelArgList::Param * p, FindParam(*list, param));
  if (!p->place_holder) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "paramHandle is not a place-holder");
  }
  if (size == 0) {
    return Error(ACL_ERROR_INVALID_PARAM, "dataSize must not be 0");
  }
  if (p->data != nullptr && p->data_size >= size) return p->data;
  if (list->capacity != 0) {
    const size_t start = AlignUp(std::max(list->used, list->user_data_end), 8);
    if (start + size > list->capacity) {
      return Error(ACL_ERROR_RT_PARAM_INVALID,
                   absl::StrCat("the place-holder needs ", size,
                                " bytes after the parameters; the argument "
                                "memory holds ",
                                list->capacity));
    }
    p->data = list->data + start;
    list->user_data_end = start + size;
  } else {
    p->buffer.reset(new (std::nothrow) uint8_t[size]());
    if (p->buffer == nullptr) {
      return Error(ACL_ERROR_RT_MEMORY_ALLOCATION,
                   "out of host memory for a place-holder buffer");
    }
    p->data = p->buffer.get();
  }
  p->data_size = size;
  list->finalized = false;
  return p->data;
}

absl::Status Kernels::ArgsUpdate(void* args, void* param, const void* value,
                                 size_t size) {
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<KernelArgList> list = FindArgsLocked(args);
  if (list == nullptr) return NotArgs(args);
  ASCEND_ASSIGN_OR_RETURN(KernelArgList::Param * p, FindParam(*list, param));
  if (p->place_holder) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "a place-holder is updated through its buffer");
  }
  if (size != p->size) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("paramSize ", size, " differs from the ", p->size,
                              " bytes appended"));
  }
  std::memcpy(list->data + p->offset, value, size);
  list->finalized = false;
  return absl::OkStatus();
}

absl::Status Kernels::ArgsFinalize(void* args) {
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<KernelArgList> list = FindArgsLocked(args);
  if (list == nullptr) return NotArgs(args);
  for (const auto& p : list->params) {
    if (p.place_holder && p.data == nullptr) {
      return Error(ACL_ERROR_RT_PARAM_INVALID,
                   "a place-holder has no buffer "
                   "(aclrtKernelArgsGetPlaceHolderBuffer)");
    }
  }
  const auto& function = *list->function;
  if (function.has_params && function.params.size() != list->params.size()) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("kernel ", function.name, " takes ",
                              function.params.size(), " parameters; ",
                              list->params.size(), " were appended"));
  }
  list->finalized = true;
  return absl::OkStatus();
}

absl::StatusOr<std::pair<void*, LaunchArgs>> Kernels::ArgsForLaunch(
    void* args) const {
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<KernelArgList> list = FindArgsLocked(args);
  if (list == nullptr) return NotArgs(args);
  if (!list->finalized) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 "the argument list was changed and not finalized again "
                 "(aclrtKernelArgsFinalize)");
  }
  LaunchArgs launch;
  launch.bytes.assign(list->data, list->data + list->used);
  for (const auto& p : list->params) {
    if (!p.place_holder) continue;
    const size_t at = AlignUp(launch.bytes.size(), 8);
    launch.bytes.resize(at + p.data_size);
    std::memcpy(launch.bytes.data() + at, p.data, p.data_size);
    launch.place_holders.emplace_back(p.offset, static_cast<uint32_t>(at));
  }
  return std::make_pair(list->function->handle.value(), std::move(launch));
}

absl::StatusOr<LaunchArgs> Kernels::ArgsFromArray(const void* func,
                                                  void* const* values) const {
  ascend::MutexLock lock(&mu_);
  std::shared_ptr<KernelFunction> function = FindFunctionLocked(func);
  if (function == nullptr) return NotFunction(func);
  if (!function->has_params) {
    return Error(ACL_ERROR_RT_PARAM_INVALID,
                 absl::StrCat("kernel ", function->name,
                              " does not describe its parameters "
                              "(its binary's kernel description), so an "
                              "argument array "
                              "cannot be laid out"));
  }
  LaunchArgs launch;
  size_t end = 0;
  for (const auto& p : function->params) {
    end = std::max<size_t>(end, size_t{p.offset} + p.size);
  }
  launch.bytes.assign(end, 0);
  for (size_t i = 0; i < function->params.size(); ++i) {
    if (values[i] == nullptr) {
      return Error(ACL_ERROR_INVALID_PARAM,
                   absl::StrCat("args[", i, "] is NULL"));
    }
    std::memcpy(launch.bytes.data() + function->params[i].offset, values[i],
                function->params[i].size);
  }
  return launch;
}

}  // namespace ascend::rt
