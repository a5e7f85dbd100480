#include "hccl/core/dtype.h"

#include <cstdint>

#include "hccl/core/log.h"

namespace ascend::hccl {

size_t ElementSize(HcclDataType type) {
  switch (type) {
    case HCCL_DATA_TYPE_INT8:
    case HCCL_DATA_TYPE_UINT8:
    case HCCL_DATA_TYPE_HIF8:
    case HCCL_DATA_TYPE_FP8E4M3:
    case HCCL_DATA_TYPE_FP8E5M2:
    case HCCL_DATA_TYPE_FP8E8M0:
      return 1;
    case HCCL_DATA_TYPE_INT16:
    case HCCL_DATA_TYPE_UINT16:
    case HCCL_DATA_TYPE_FP16:
    case HCCL_DATA_TYPE_BFP16:
      return 2;
    case HCCL_DATA_TYPE_INT32:
    case HCCL_DATA_TYPE_UINT32:
    case HCCL_DATA_TYPE_FP32:
      return 4;
    case HCCL_DATA_TYPE_INT64:
    case HCCL_DATA_TYPE_UINT64:
    case HCCL_DATA_TYPE_FP64:
      return 8;
    case HCCL_DATA_TYPE_INT128:
      return 16;
    default:
      return 0;
  }
}

std::string TypeName(HcclDataType type) {
  switch (type) {
    case HCCL_DATA_TYPE_INT8:
      return "int8";
    case HCCL_DATA_TYPE_INT16:
      return "int16";
    case HCCL_DATA_TYPE_INT32:
      return "int32";
    case HCCL_DATA_TYPE_FP16:
      return "float16";
    case HCCL_DATA_TYPE_FP32:
      return "float32";
    case HCCL_DATA_TYPE_INT64:
      return "int64";
    case HCCL_DATA_TYPE_UINT64:
      return "uint64";
    case HCCL_DATA_TYPE_UINT8:
      return "uint8";
    case HCCL_DATA_TYPE_UINT16:
      return "uint16";
    case HCCL_DATA_TYPE_UINT32:
      return "uint32";
    case HCCL_DATA_TYPE_FP64:
      return "float64";
    case HCCL_DATA_TYPE_BFP16:
      return "bfp16";
    case HCCL_DATA_TYPE_INT128:
      return "int128";
    case HCCL_DATA_TYPE_HIF8:
      return "hifloat8";
    case HCCL_DATA_TYPE_FP8E4M3:
      return "float8-e4m3";
    case HCCL_DATA_TYPE_FP8E5M2:
      return "float8-e5m2";
    case HCCL_DATA_TYPE_FP8E8M0:
      return "float8-e8m0";
    default:
      return "type " + std::to_string(static_cast<int>(type));
  }
}

std::string ReduceName(HcclReduceOp op) {
  switch (op) {
    case HCCL_REDUCE_SUM:
      return "sum";
    case HCCL_REDUCE_PROD:
      return "prod";
    case HCCL_REDUCE_MAX:
      return "max";
    case HCCL_REDUCE_MIN:
      return "min";
    default:
      return "op " + std::to_string(static_cast<int>(op));
  }
}

HcclResult CheckType(const char* api, HcclDataType type, TypeUse use) {
  bool ok = false;
  switch (type) {
    case HCCL_DATA_TYPE_INT8:
    case HCCL_DATA_TYPE_INT16:
    case HCCL_DATA_TYPE_INT32:
    case HCCL_DATA_TYPE_INT64:
    case HCCL_DATA_TYPE_FP16:
    case HCCL_DATA_TYPE_FP32:
    case HCCL_DATA_TYPE_BFP16:
      ok = true;
      break;
    case HCCL_DATA_TYPE_UINT64:
    case HCCL_DATA_TYPE_FP64:
      ok = use != TypeUse::kReduceScatterV;
      break;
    case HCCL_DATA_TYPE_UINT8:
    case HCCL_DATA_TYPE_UINT16:
    case HCCL_DATA_TYPE_UINT32:
    case HCCL_DATA_TYPE_HIF8:
    case HCCL_DATA_TYPE_FP8E4M3:
    case HCCL_DATA_TYPE_FP8E5M2:
    case HCCL_DATA_TYPE_FP8E8M0:
      ok = use == TypeUse::kMove;
      break;
    default:
      ok = false;
  }
  if (ok) return HCCL_SUCCESS;
  return Refuse(api, HCCL_E_NOT_SUPPORT,
                "data type " + TypeName(type) + " is not supported by " + api);
}

HcclResult CheckReduce(const char* api, HcclDataType type, HcclReduceOp op) {
  if (op != HCCL_REDUCE_SUM && op != HCCL_REDUCE_PROD &&
      op != HCCL_REDUCE_MAX && op != HCCL_REDUCE_MIN) {
    return Refuse(api, HCCL_E_NOT_SUPPORT,
                  "reduce " + ReduceName(op) + " is not supported");
  }
  if (op == HCCL_REDUCE_PROD &&
      (type == HCCL_DATA_TYPE_INT16 || type == HCCL_DATA_TYPE_BFP16)) {
    return Refuse(api, HCCL_E_NOT_SUPPORT,
                  "reduce prod does not take " + TypeName(type));
  }
  return HCCL_SUCCESS;
}

HcclResult CheckCount(const char* api, uint64_t count, HcclDataType type) {
  if (count > kMaxCount) {
    return Refuse(api, HCCL_E_PARA,
                  "count " + std::to_string(count) + " exceeds the maximum " +
                      std::to_string(kMaxCount));
  }
  return HCCL_SUCCESS;
}

HcclResult CheckAligned(const char* api, const void* buf, HcclDataType type,
                        const char* name) {
  size_t align = ElementSize(type);
  if (align > 8) align = 8;
  if (align > 1 && reinterpret_cast<uintptr_t>(buf) % align != 0) {
    return Refuse(api, HCCL_E_PARA,
                  std::string(name) + " is not aligned to " +
                      std::to_string(align) + " bytes for " + TypeName(type));
  }
  return HCCL_SUCCESS;
}

}  // namespace ascend::hccl
