// ACL entry points: 2-D, batch, offset, conditional and descriptor copies,
// 32-bit fills, and cache maintenance (DESIGN.md §5.14). The core is in
// runtime/memory/memcpy_ext.cc.
//
// Gated (they block while the process is snapshot-locked, like CANN's
// runtime calls under them): every copy, fill and cache task, and the two
// descriptor writes (they write device memory). Not gated: the descriptor
// size queries and aclrtMemFlush / aclrtMemInvalidate, which CANN does not
// block either. Zero-length copies and fills return success at once,
// without blocking, as CANN's do.
#include <cstdint>

#include "acl/acl_rt.h"
#include "acl/api/api_util.h"
#include "acl/error_codes/rt_error_codes.h"
#include "runtime/memory/memcpy_ext.h"
#include "runtime/memory/memory.h"

using ascend::acl::InvalidEnum;
using ascend::acl::RawEnum;

namespace {

// The process runtime always has the memory family (runtime/process).
ascend::rt::Memory& Memory() { return ascend::acl::Fam<ascend::rt::Memory>(); }

bool IsMemcpyKind(int32_t raw) {
  return raw >= ACL_MEMCPY_HOST_TO_HOST &&
         raw <= ACL_MEMCPY_INTER_DEVICE_TO_DEVICE;
}

bool IsCmoType(int32_t raw) {
  return raw >= ACL_RT_CMO_TYPE_PREFETCH && raw <= ACL_RT_CMO_TYPE_FLUSH;
}

aclError Invalid(const char* api, aclError code, const char* message) {
  return ascend::rt::ReportErrorCode(api, code, message);
}

// The descriptor copies and offset copies work within one device only.
aclError RequireInnerDeviceKind(const char* api, int32_t raw_kind,
                                aclError code) {
  if (!IsMemcpyKind(raw_kind)) {
    return InvalidEnum(api, "kind", "aclrtMemcpyKind", raw_kind);
  }
  if (raw_kind != ACL_MEMCPY_INNER_DEVICE_TO_DEVICE) {
    return Invalid(api, code,
                   "only ACL_MEMCPY_INNER_DEVICE_TO_DEVICE is supported");
  }
  return ACL_SUCCESS;
}

bool AllZero(const size_t* sizes, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (sizes[i] != 0) return false;
  }
  return true;
}

// The ACL layer's part of a batch copy (before and after the gate), then the
// runtime's. `fail_index` is null for the V2 variants.
aclError Batch(const char* api, void** dsts, size_t* destMaxs, void** srcs,
               size_t* sizes, size_t numBatches, aclrtMemcpyBatchAttr* attrs,
               size_t* attrsIndexes, size_t numAttrs, size_t* fail_index,
               bool async, aclrtStream stream) {
  using ascend::rt::ReportError;
  using ascend::rt::ReportErrorCode;
  if (sizes == nullptr) {
    return ReportErrorCode(api, ACL_ERROR_INVALID_PARAM,
                           "sizes must not be NULL");
  }
  if (numBatches == 0) {
    return ReportErrorCode(api, ACL_ERROR_INVALID_PARAM,
                           "numBatches must be non-zero");
  }
  if (fail_index != nullptr) *fail_index = SIZE_MAX;
  // All copies empty: success at once, nothing else checked, no blocking.
  if (AllZero(sizes, numBatches)) return ACL_SUCCESS;
  ::ascend::rt::ProcessApiScope gate;
  if (gate.refused()) {
    return ReportError(api, ::ascend::rt::GateRefusal());
  }
  if (dsts == nullptr || destMaxs == nullptr || srcs == nullptr ||
      attrs == nullptr || attrsIndexes == nullptr) {
    return ReportErrorCode(
        api, ACL_ERROR_INVALID_PARAM,
        "dsts, destMaxs, srcs, attrs and attrsIndexes must not be NULL");
  }
  for (size_t i = 0; i < numBatches; ++i) {
    if (sizes[i] > destMaxs[i]) {
      return ReportErrorCode(
          api, ACL_ERROR_INVALID_PARAM,
          "a copy of the batch is larger than its destination (destMaxs)");
    }
  }
  for (size_t k = 0; k < numAttrs; ++k) {
    for (uint8_t byte : attrs[k].rsv) {
      if (byte != 0) {
        return ReportErrorCode(api, ACL_ERROR_INVALID_PARAM,
                               "the rsv bytes of every attribute must be 0");
      }
    }
  }
  const ascend::rt::Memory::BatchCopy batch{
      dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs};
  return ReportError(api,
                     Memory().MemcpyBatch(batch, async, stream, fail_index));
}

}  // namespace

extern "C" {

// --- 2-D copies
// ---------------------------------------------------------------

aclError aclrtMemcpy2d(void* dst, size_t dpitch, const void* src, size_t spitch,
                       size_t width, size_t height, aclrtMemcpyKind kind) try {
  if (width == 0 || height == 0) return ACL_SUCCESS;
  ACL_GATE();
  const int32_t raw_kind = RawEnum(kind);
  if (!IsMemcpyKind(raw_kind)) {
    return InvalidEnum(__func__, "kind", "aclrtMemcpyKind", raw_kind);
  }
  return ACL_RESULT(Memory().Memcpy2d(dst, dpitch, src, spitch, width, height,
                                      kind, /*async=*/false, nullptr));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemcpy2dAsync(void* dst, size_t dpitch, const void* src,
                            size_t spitch, size_t width, size_t height,
                            aclrtMemcpyKind kind, aclrtStream stream) try {
  if (width == 0 || height == 0) return ACL_SUCCESS;
  ACL_GATE();
  const int32_t raw_kind = RawEnum(kind);
  if (!IsMemcpyKind(raw_kind)) {
    return InvalidEnum(__func__, "kind", "aclrtMemcpyKind", raw_kind);
  }
  return ACL_RESULT(Memory().Memcpy2d(dst, dpitch, src, spitch, width, height,
                                      kind, /*async=*/true, stream));
}
ACL_ENTRY_CATCH(aclError)

// --- Batch copies
// -------------------------------------------------------------

aclError aclrtMemcpyBatch(void** dsts, size_t* destMaxs, void** srcs,
                          size_t* sizes, size_t numBatches,
                          aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes,
                          size_t numAttrs, size_t* failIndex) try {
  ACL_REQUIRE_NOT_NULL(failIndex);
  return Batch(__func__, dsts, destMaxs, srcs, sizes, numBatches, attrs,
               attrsIndexes, numAttrs, failIndex, /*async=*/false, nullptr);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemcpyBatchV2(void** dsts, size_t* destMaxs, void** srcs,
                            size_t* sizes, size_t numBatches,
                            aclrtMemcpyBatchAttr* attrs, size_t* attrsIndexes,
                            size_t numAttrs) try {
  return Batch(__func__, dsts, destMaxs, srcs, sizes, numBatches, attrs,
               attrsIndexes, numAttrs, nullptr, /*async=*/false, nullptr);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemcpyBatchAsync(void** dsts, size_t* destMaxs, void** srcs,
                               size_t* sizes, size_t numBatches,
                               aclrtMemcpyBatchAttr* attrs,
                               size_t* attrsIndexes, size_t numAttrs,
                               size_t* failIndex, aclrtStream stream) try {
  ACL_REQUIRE_NOT_NULL(failIndex);
  return Batch(__func__, dsts, destMaxs, srcs, sizes, numBatches, attrs,
               attrsIndexes, numAttrs, failIndex, /*async=*/true, stream);
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemcpyBatchAsyncV2(void** dsts, size_t* destMaxs, void** srcs,
                                 size_t* sizes, size_t numBatches,
                                 aclrtMemcpyBatchAttr* attrs,
                                 size_t* attrsIndexes, size_t numAttrs,
                                 aclrtStream stream) try {
  return Batch(__func__, dsts, destMaxs, srcs, sizes, numBatches, attrs,
               attrsIndexes, numAttrs, nullptr, /*async=*/true, stream);
}
ACL_ENTRY_CATCH(aclError)

// --- Conditional, offset and descriptor copies
// --------------------------------

aclError aclrtMemcpyAsyncWithCondition(void* dst, size_t destMax,
                                       const void* src, size_t count,
                                       aclrtMemcpyKind kind,
                                       aclrtStream stream) try {
  if (count == 0) return ACL_SUCCESS;
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(dst);
  ACL_REQUIRE_NOT_NULL(src);
  const int32_t raw_kind = RawEnum(kind);
  if (!IsMemcpyKind(raw_kind)) {
    return InvalidEnum(__func__, "kind", "aclrtMemcpyKind", raw_kind);
  }
  return ACL_RESULT(Memory().MemcpyAsyncWithCondition(dst, destMax, src, count,
                                                      kind, stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemcpyAsyncWithOffset(void** dst, size_t destMax,
                                    size_t dstDataOffset, const void** src,
                                    size_t count, size_t srcDataOffset,
                                    aclrtMemcpyKind kind,
                                    aclrtStream stream) try {
  if (count == 0) return ACL_SUCCESS;
  ACL_GATE();
  const int32_t raw_kind = RawEnum(kind);
  if (raw_kind != ACL_MEMCPY_INNER_DEVICE_TO_DEVICE) {
    return InvalidEnum(__func__, "kind",
                       "aclrtMemcpyKind (only INNER_DEVICE_TO_DEVICE)",
                       raw_kind, ACL_ERROR_RT_PARAM_INVALID);
  }
  return ACL_RESULT(Memory().MemcpyAsyncWithOffset(
      dst, destMax, dstDataOffset, src, count, srcDataOffset, stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind kind, size_t* descSize) try {
  ACL_REQUIRE_NOT_NULL(descSize);
  const aclError bad = RequireInnerDeviceKind(__func__, RawEnum(kind),
                                              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  if (bad != ACL_SUCCESS) return bad;
  *descSize = ascend::rt::kMemcpyDescSize;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtSetMemcpyDesc(void* desc, aclrtMemcpyKind kind, void* srcAddr,
                            void* dstAddr, size_t count, void* config) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(desc);
  const int32_t raw_kind = RawEnum(kind);
  if (!IsMemcpyKind(raw_kind)) {
    return InvalidEnum(__func__, "kind", "aclrtMemcpyKind", raw_kind);
  }
  ACL_REQUIRE_NOT_NULL(srcAddr);
  ACL_REQUIRE_NOT_NULL(dstAddr);
  if (count == 0) {
    return Invalid(__func__, ACL_ERROR_INVALID_PARAM, "count must be non-zero");
  }
  if (config != nullptr) {
    return Invalid(__func__, ACL_ERROR_INVALID_PARAM,
                   "config is reserved and must be NULL");
  }
  const aclError bad = RequireInnerDeviceKind(__func__, raw_kind,
                                              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  if (bad != ACL_SUCCESS) return bad;
  return ACL_RESULT(Memory().SetMemcpyDesc(desc, srcAddr, dstAddr, count));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemcpyAsyncWithDesc(void* desc, aclrtMemcpyKind kind,
                                  aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(desc);
  const int32_t raw_kind = RawEnum(kind);
  if (!IsMemcpyKind(raw_kind)) {
    return InvalidEnum(__func__, "kind", "aclrtMemcpyKind", raw_kind);
  }
  ACL_REQUIRE_NOT_NULL(stream);
  const aclError bad = RequireInnerDeviceKind(__func__, raw_kind,
                                              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  if (bad != ACL_SUCCESS) return bad;
  return ACL_RESULT(Memory().MemcpyAsyncWithDesc(desc, stream));
}
ACL_ENTRY_CATCH(aclError)

// --- 32-bit fills
// ---------------------------------------------------------------

aclError aclrtMemsetD32(void* ptr, size_t memSize, uint32_t value,
                        size_t N) try {
  if (N == 0) return ACL_SUCCESS;
  ACL_GATE();
  return ACL_RESULT(Memory().MemsetD32(ptr, memSize, value, N,
                                       /*async=*/false, nullptr));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemsetD32Async(void* ptr, size_t memSize, uint32_t value,
                             size_t N, aclrtStream stream) try {
  if (N == 0) return ACL_SUCCESS;
  ACL_GATE();
  return ACL_RESULT(
      Memory().MemsetD32(ptr, memSize, value, N, /*async=*/true, stream));
}
ACL_ENTRY_CATCH(aclError)

// --- Cache maintenance: validated no-ops on the coherent simulator -----------

aclError aclrtMemFlush(void* devPtr, size_t size) try {
  ACL_REQUIRE_NOT_NULL(devPtr);
  if (size == 0) {
    return Invalid(__func__, ACL_ERROR_INVALID_PARAM, "size must be non-zero");
  }
  return ACL_RESULT(Memory().CheckCacheRange(devPtr, size));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtMemInvalidate(void* devPtr, size_t size) try {
  ACL_REQUIRE_NOT_NULL(devPtr);
  if (size == 0) {
    return Invalid(__func__, ACL_ERROR_INVALID_PARAM, "size must be non-zero");
  }
  return ACL_RESULT(Memory().CheckCacheRange(devPtr, size));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtCmoAsync(void* src, size_t size, aclrtCmoType cmoType,
                       aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(src);
  if (size == 0) {
    return Invalid(__func__, ACL_ERROR_INVALID_PARAM, "size must be non-zero");
  }
  const int32_t raw_type = RawEnum(cmoType);
  if (!IsCmoType(raw_type)) {
    return InvalidEnum(__func__, "cmoType", "aclrtCmoType", raw_type,
                       ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  }
  return ACL_RESULT(Memory().CmoAsync(src, size, cmoType, 0, stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtCmoAsyncWithBarrier(void* src, size_t size, aclrtCmoType cmoType,
                                  uint32_t barrierId, aclrtStream stream) try {
  ACL_GATE();
  ACL_REQUIRE_NOT_NULL(src);
  if (size == 0) {
    return Invalid(__func__, ACL_ERROR_RT_PARAM_INVALID,
                   "size must be non-zero");
  }
  const int32_t raw_type = RawEnum(cmoType);
  if (!IsCmoType(raw_type)) {
    return InvalidEnum(__func__, "cmoType", "aclrtCmoType", raw_type,
                       ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  }
  if (raw_type == ACL_RT_CMO_TYPE_INVALID && barrierId == 0) {
    return Invalid(__func__, ACL_ERROR_RT_PARAM_INVALID,
                   "an INVALID operation needs a barrierId greater than 0");
  }
  if (raw_type != ACL_RT_CMO_TYPE_INVALID && barrierId != 0) {
    return Invalid(__func__, ACL_ERROR_RT_PARAM_INVALID,
                   "barrierId must be 0 unless cmoType is INVALID");
  }
  return ACL_RESULT(Memory().CmoAsync(src, size, cmoType, barrierId, stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtCmoWaitBarrier(aclrtBarrierTaskInfo* taskInfo, aclrtStream stream,
                             uint32_t flag) try {
  ACL_GATE();
  if (taskInfo == nullptr) {
    return Invalid(__func__, ACL_ERROR_RT_PARAM_INVALID,
                   "taskInfo must not be NULL");
  }
  if (taskInfo->barrierNum == 0 ||
      taskInfo->barrierNum > ACL_RT_CMO_MAX_BARRIER_NUM) {
    return Invalid(__func__, ACL_ERROR_RT_PARAM_INVALID,
                   "barrierNum must be in [1, ACL_RT_CMO_MAX_BARRIER_NUM]");
  }
  for (size_t i = 0; i < taskInfo->barrierNum; ++i) {
    const aclrtBarrierCmoInfo& info = taskInfo->cmoInfo[i];
    if (RawEnum(info.cmoType) != ACL_RT_CMO_TYPE_INVALID ||
        info.barrierId == 0) {
      return Invalid(__func__, ACL_ERROR_RT_PARAM_INVALID,
                     "each barrier must be an INVALID operation with a "
                     "barrierId greater than 0");
    }
  }
  if (flag != 0) {
    return Invalid(__func__, ACL_ERROR_INVALID_PARAM,
                   "flag is reserved and must be 0");
  }
  return ACL_RESULT(Memory().CmoWaitBarrier(*taskInfo, stream));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtCmoGetDescSize(size_t* size) try {
  if (size == nullptr) {
    return Invalid(__func__, ACL_ERROR_RT_PARAM_INVALID,
                   "size must not be NULL");
  }
  *size = ascend::rt::kCmoDescSize;
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtCmoSetDesc(void* cmoDesc, void* src, size_t size) try {
  ACL_GATE();
  if (cmoDesc == nullptr || src == nullptr) {
    return Invalid(__func__, ACL_ERROR_RT_PARAM_INVALID,
                   "cmoDesc and src must not be NULL");
  }
  if (size == 0) {
    return Invalid(__func__, ACL_ERROR_RT_PARAM_INVALID,
                   "size must be non-zero");
  }
  return ACL_RESULT(Memory().SetCmoDesc(cmoDesc, src, size));
}
ACL_ENTRY_CATCH(aclError)

aclError aclrtCmoAsyncWithDesc(void* cmoDesc, aclrtCmoType cmoType,
                               aclrtStream stream, const void* reserve) try {
  ACL_GATE();
  if (cmoDesc == nullptr) {
    return Invalid(__func__, ACL_ERROR_RT_PARAM_INVALID,
                   "cmoDesc must not be NULL");
  }
  if (reserve != nullptr) {
    return Invalid(__func__, ACL_ERROR_RT_PARAM_INVALID,
                   "reserve must be NULL");
  }
  const int32_t raw_type = RawEnum(cmoType);
  if (!IsCmoType(raw_type)) {
    return InvalidEnum(__func__, "cmoType", "aclrtCmoType", raw_type,
                       ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  }
  return ACL_RESULT(Memory().CmoAsyncWithDesc(cmoDesc, cmoType, stream));
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
