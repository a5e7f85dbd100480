// HCCL's element types and reductions: sizes, names, and which operation
// takes which (the data-type and op sections of the operation pages of
// hicann/hccl docs/zh/api_ref/comm_op_interface; we take the widest product
// list, Ascend 950's, which matches hccl.h's comments).
#ifndef ASCENDCL_HCCL_CORE_DTYPE_H_
#define ASCENDCL_HCCL_CORE_DTYPE_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "hccl/hccl_types.h"

namespace ascend::hccl {

// Bytes per element; 0 for a value that is no HcclDataType.
size_t ElementSize(HcclDataType type);
std::string TypeName(HcclDataType type);
std::string ReduceName(HcclReduceOp op);

// Which types an operation takes.
enum class TypeUse {
  kMove,            // Broadcast, AllGather(V), Scatter, AlltoAll*, Send, Recv
  kReduce,          // AllReduce, Reduce, ReduceScatter
  kReduceScatterV,  // ReduceScatterV: no uint64 or fp64
};
// HCCL_SUCCESS, or HCCL_E_NOT_SUPPORT (logged under `api`).
HcclResult CheckType(const char* api, HcclDataType type, TypeUse use);
// The reduction for `type` (already checked): HCCL_E_NOT_SUPPORT for an op
// outside SUM..MIN, and PROD of int16 or bfp16.
HcclResult CheckReduce(const char* api, HcclDataType type, HcclReduceOp op);

// Counts above this are refused (HCCL's system maximum).
constexpr uint64_t kMaxCount = 0x7FFFFFFFFULL;
// HCCL_E_PARA when count > kMaxCount or count * size overflows.
HcclResult CheckCount(const char* api, uint64_t count, HcclDataType type);
// HCCL_E_PARA when `buf` is not aligned to its type's size (up to 8 bytes),
// as the reductions' constraint sections require.
HcclResult CheckAligned(const char* api, const void* buf, HcclDataType type,
                        const char* name);

}  // namespace ascend::hccl

#endif  // ASCENDCL_HCCL_CORE_DTYPE_H_
