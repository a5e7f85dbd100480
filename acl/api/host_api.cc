// ACL entry points that need no device and no aclInit: data buffers,
// application logging and the runtime version.
#include <cstdarg>
#include <cstdio>
#include <new>
#include <string>

#include "acl/acl.h"
#include "acl/api/api_util.h"
#include "glog/logging.h"
#include "runtime/base/logging.h"

// The descriptor behind the opaque aclDataBuffer handle.
struct aclDataBuffer {
  void* data;
  size_t size;
};

namespace {

// printf-style formatting into a string; an empty string when fmt is bad.
std::string FormatV(const char* fmt, va_list args) {
  va_list copy;
  va_copy(copy, args);
  const int length = std::vsnprintf(nullptr, 0, fmt, copy);
  va_end(copy);
  if (length <= 0) return std::string();
  std::string text(static_cast<size_t>(length) + 1, '\0');
  std::vsnprintf(text.data(), text.size(), fmt, args);
  text.resize(static_cast<size_t>(length));
  return text;
}

}  // namespace

extern "C" {

aclDataBuffer* aclCreateDataBuffer(void* data, size_t size) try {
  return new (std::nothrow) aclDataBuffer{data, size};
}
ACL_ENTRY_CATCH(aclDataBuffer*)

aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer) try {
  ACL_REQUIRE_NOT_NULL(dataBuffer);
  delete dataBuffer;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclUpdateDataBuffer(aclDataBuffer* dataBuffer, void* data,
                             size_t size) try {
  ACL_REQUIRE_NOT_NULL(dataBuffer);
  dataBuffer->data = data;
  dataBuffer->size = size;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

void* aclGetDataBufferAddr(const aclDataBuffer* dataBuffer) try {
  return dataBuffer == nullptr ? nullptr : dataBuffer->data;
}
ACL_ENTRY_CATCH(void*)

uint32_t aclGetDataBufferSize(const aclDataBuffer* dataBuffer) try {
  return dataBuffer == nullptr ? 0 : static_cast<uint32_t>(dataBuffer->size);
}
ACL_ENTRY_CATCH(uint32_t)

size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer) try {
  return dataBuffer == nullptr ? 0 : dataBuffer->size;
}
ACL_ENTRY_CATCH(size_t)

void aclAppLog(aclLogLevel logLevel, const char* func, const char* file,
               uint32_t line, const char* fmt, ...) try {
  const int32_t level = ascend::acl::RawEnum(logLevel);
  if (fmt == nullptr || level < ACL_DEBUG || level > ACL_ERROR) return;
  ascend::rt::InitLogging();  // ASCEND_GLOBAL_LOG_LEVEL, before aclInit too
  if (level == ACL_DEBUG && !VLOG_IS_ON(1)) return;
  std::string text;
  va_list args;
  va_start(args, fmt);
  try {
    text = FormatV(fmt, args);
  } catch (...) {
    text = fmt;  // no memory for the formatted text: the format itself
  }
  va_end(args);
  const google::LogSeverity severity = level == ACL_ERROR     ? google::ERROR
                                       : level == ACL_WARNING ? google::WARNING
                                                              : google::INFO;
  google::LogMessage(file != nullptr ? file : "", static_cast<int>(line),
                     severity)
          .stream()
      << (func != nullptr ? func : "") << ": " << text;
}
ACL_ENTRY_CATCH(void)

aclError aclrtGetVersion(int32_t* majorVersion, int32_t* minorVersion,
                         int32_t* patchVersion) try {
  ACL_REQUIRE_NOT_NULL(majorVersion);
  ACL_REQUIRE_NOT_NULL(minorVersion);
  ACL_REQUIRE_NOT_NULL(patchVersion);
  *majorVersion = ACL_MAJOR_VERSION;
  *minorVersion = ACL_MINOR_VERSION;
  *patchVersion = ACL_PATCH_VERSION;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
