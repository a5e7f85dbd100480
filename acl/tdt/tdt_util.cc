#include "acl/tdt/tdt_util.h"

#include <cstring>

#include "absl/base/thread_annotations.h"
#include "acl/acl_rt.h"
#include "device/base/current_exception.h"
#include "device/base/mutex.h"

namespace ascend::tdt {
namespace {

void Log(aclLogLevel level, const char* api, const std::string& message) {
  aclAppLog(level, api != nullptr ? api : "", __FILE__, __LINE__, "%s",
            message.c_str());
}

// The code and a short description of the exception being handled.
aclError Classify(const char** kind, const char** what) noexcept {
  const CurrentException e = ClassifyCurrentException();
  *kind = e.description;
  *what = e.what;
  switch (e.kind) {
    case ExceptionKind::kOutOfHostMemory:
      return ACL_ERROR_RT_MEMORY_ALLOCATION;
    case ExceptionKind::kResourceExhausted:
      return ACL_ERROR_RT_RESOURCE_ALLOC_FAIL;
    default:
      return ACL_ERROR_RT_INTERNAL_ERROR;
  }
}

// Buffers the runtime refused to free for now (ReleaseBuffers).
struct Leftovers {
  ascend::Mutex mu;
  std::vector<void*> buffers ABSL_GUARDED_BY(mu);
};

Leftovers& GetLeftovers() {
  static auto* const leftovers = new Leftovers;
  return *leftovers;
}

}  // namespace

aclError Reject(const char* api, aclError code, const std::string& message) {
  try {
    Log(ACL_ERROR, api, message + " (error " + std::to_string(code) + ")");
  } catch (...) {
    // No memory for the line: the code still answers.
  }
  return code;
}

void LogWarning(const char* api, const std::string& message) {
  Log(ACL_WARNING, api, message);
}

void LogInfo(const char* api, const std::string& message) {
  Log(ACL_INFO, api, message);
}

aclError ReportEntryException(const char* api) noexcept {
  const char* kind;
  const char* what;
  const aclError code = Classify(&kind, &what);
  aclAppLog(ACL_ERROR, api != nullptr ? api : "", __FILE__, __LINE__,
            "%s (%s) (error %d)", kind, what, code);
  return code;
}

absl::Time DeadlineFor(int32_t timeout) {
  if (timeout < 0) return absl::InfiniteFuture();
  return absl::Now() + absl::Milliseconds(timeout);
}

aclError IsDeviceMemory(const void* ptr, bool* device) {
  aclrtPtrAttributes attributes;
  std::memset(&attributes, 0, sizeof attributes);
  const aclError ret = aclrtPointerGetAttributes(ptr, &attributes);
  if (ret != ACL_SUCCESS) return ret;
  const aclrtMemLocationType type = attributes.location.type;
  *device = type == ACL_MEM_LOCATION_TYPE_DEVICE ||
            type == ACL_MEM_LOCATION_TYPE_MANAGED;
  return ACL_SUCCESS;
}

aclError CopyToHost(void* host_dst, const void* src, size_t n,
                    bool src_is_device) {
  if (n == 0) return ACL_SUCCESS;
  if (src_is_device) {
    return aclrtMemcpy(host_dst, n, src, n, ACL_MEMCPY_DEVICE_TO_HOST);
  }
  std::memcpy(host_dst, src, n);
  return ACL_SUCCESS;
}

aclError CopyFromHost(void* dst, const void* host_src, size_t n,
                      bool dst_is_device) {
  if (n == 0) return ACL_SUCCESS;
  if (dst_is_device) {
    return aclrtMemcpy(dst, n, host_src, n, ACL_MEMCPY_HOST_TO_DEVICE);
  }
  std::memcpy(dst, host_src, n);
  return ACL_SUCCESS;
}

void ReleaseBuffers(const std::vector<void*>& buffers) {
  Leftovers& leftovers = GetLeftovers();
  std::vector<void*> pending;
  {
    ascend::MutexLock lock(&leftovers.mu);
    pending.swap(leftovers.buffers);
  }
  pending.insert(pending.end(), buffers.begin(), buffers.end());
  std::vector<void*> refused;
  for (void* buffer : pending) {
    const aclError ret = aclrtFreeBuf(buffer);
    if (ret == ACL_ERROR_RT_NO_PERMISSION) {
      refused.push_back(buffer);
    } else if (ret != ACL_SUCCESS) {
      LogWarning(__func__, "a queued buffer could not be freed (error " +
                               std::to_string(ret) + ")");
    }
  }
  if (!refused.empty()) {
    LogInfo(__func__, std::to_string(refused.size()) +
                          " buffer(s) kept until the runtime lets them go");
    ascend::MutexLock lock(&leftovers.mu);
    leftovers.buffers.insert(leftovers.buffers.end(), refused.begin(),
                             refused.end());
  }
}

}  // namespace ascend::tdt
