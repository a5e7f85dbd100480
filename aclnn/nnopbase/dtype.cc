#include "aclnn/nnopbase/dtype.h"

namespace ascend::nn {
namespace {

// Column/row order of CANN's promotion tables.
enum Code : int8_t {
  kF32,
  kF16,
  kF64,
  kBf16,
  kS8,
  kU8,
  kS16,
  kU16,
  kS32,
  kU32,
  kS64,
  kU64,
  kBool,
  kC32,
  kC64,
  kC128,
  kCount,
  kNone = -1
};

Code ToCode(aclDataType t) {
  switch (t) {
    case ACL_FLOAT:
      return kF32;
    case ACL_FLOAT16:
      return kF16;
    case ACL_DOUBLE:
      return kF64;
    case ACL_BF16:
      return kBf16;
    case ACL_INT8:
      return kS8;
    case ACL_UINT8:
      return kU8;
    case ACL_INT16:
      return kS16;
    case ACL_UINT16:
      return kU16;
    case ACL_INT32:
      return kS32;
    case ACL_UINT32:
      return kU32;
    case ACL_INT64:
      return kS64;
    case ACL_UINT64:
      return kU64;
    case ACL_BOOL:
      return kBool;
    case ACL_COMPLEX32:
      return kC32;
    case ACL_COMPLEX64:
      return kC64;
    case ACL_COMPLEX128:
      return kC128;
    default:
      return kNone;
  }
}

constexpr aclDataType kFromCode[kCount] = {
    ACL_FLOAT, ACL_FLOAT16,   ACL_DOUBLE,    ACL_BF16,
    ACL_INT8,  ACL_UINT8,     ACL_INT16,     ACL_UINT16,
    ACL_INT32, ACL_UINT32,    ACL_INT64,     ACL_UINT64,
    ACL_BOOL,  ACL_COMPLEX32, ACL_COMPLEX64, ACL_COMPLEX128};

constexpr Code X = kNone;
// Tensor with tensor: row = first operand, column = second.
constexpr Code kTensorTensor[kCount][kCount] = {
    /* f32  */ {kF32, kF32, kF64, kF32, kF32, kF32, kF32, X, kF32, X, kF32, X,
                kF32, kC64, kC64, kC128},
    /* f16  */
    {kF32, kF16, kF64, kF32, kF16, kF16, kF16, X, kF16, X, kF16, X, kF16, kC32,
     kC64, kC128},
    /* f64  */
    {kF64, kF64, kF64, kF64, kF64, kF64, kF64, X, kF64, X, kF64, X, kF64, kC128,
     kC128, kC128},
    /* bf16 */
    {kF32, kF32, kF64, kBf16, kBf16, kBf16, kBf16, X, kBf16, X, kBf16, X, kBf16,
     kC32, kC64, kC128},
    /* s8   */
    {kF32, kF16, kF64, kBf16, kS8, kS16, kS16, X, kS32, X, kS64, X, kS8, kC32,
     kC64, kC128},
    /* u8   */
    {kF32, kF16, kF64, kBf16, kS16, kU8, kS16, X, kS32, X, kS64, X, kU8, kC32,
     kC64, kC128},
    /* s16  */
    {kF32, kF16, kF64, kBf16, kS16, kS16, kS16, X, kS32, X, kS64, X, kS16, kC32,
     kC64, kC128},
    /* u16  */ {X, X, X, X, X, X, X, kU16, X, X, X, X, X, X, X, X},
    /* s32  */
    {kF32, kF16, kF64, kBf16, kS32, kS32, kS32, X, kS32, X, kS64, X, kS32, kC32,
     kC64, kC128},
    /* u32  */ {X, X, X, X, X, X, X, X, X, kU32, X, X, X, X, X, X},
    /* s64  */
    {kF32, kF16, kF64, kBf16, kS64, kS64, kS64, X, kS64, X, kS64, X, kS64, kC32,
     kC64, kC128},
    /* u64  */ {X, X, X, X, X, X, X, X, X, X, X, kU64, X, X, X, X},
    /* bool */
    {kF32, kF16, kF64, kBf16, kS8, kU8, kS16, X, kS32, X, kS64, X, kBool, kC32,
     kC64, kC128},
    /* c32  */
    {kC64, kC32, kC128, kC32, kC32, kC32, kC32, X, kC32, X, kC32, X, kC32, kC32,
     kC64, kC128},
    /* c64  */
    {kC64, kC64, kC128, kC64, kC64, kC64, kC64, X, kC64, X, kC64, X, kC64, kC64,
     kC64, kC128},
    /* c128 */
    {kC128, kC128, kC128, kC128, kC128, kC128, kC128, X, kC128, X, kC128, X,
     kC128, kC128, kC128, kC128},
};

// Tensor with scalar: row = the scalar's type, column = the tensor's.
constexpr Code kFloatScalarRow[kCount] = {kF32, kF16, kF64, kBf16, kF32, kF32,
                                          kF32, X,    kF32, X,     kF32, X,
                                          kF32, kC32, kC64, kC128};
constexpr Code kIntScalarRow[kCount] = {kF32,  kF16, kF64, kBf16, kS8,  kU8,
                                        kS16,  kU16, kS32, kU32,  kS64, kU64,
                                        kBool, kC32, kC64, kC128};

}  // namespace

size_t ElementSize(aclDataType t) {
  // The runtime's table is the one table of element sizes (FP8 and the other
  // one-byte types included); nnopbase reads it through the public API.
  return aclDataTypeSize(t);
}

const char* DtypeName(aclDataType t) {
  switch (t) {
    case ACL_FLOAT:
      return "FLOAT";
    case ACL_FLOAT16:
      return "FLOAT16";
    case ACL_DOUBLE:
      return "DOUBLE";
    case ACL_BF16:
      return "BFLOAT16";
    case ACL_INT8:
      return "INT8";
    case ACL_UINT8:
      return "UINT8";
    case ACL_INT16:
      return "INT16";
    case ACL_UINT16:
      return "UINT16";
    case ACL_INT32:
      return "INT32";
    case ACL_UINT32:
      return "UINT32";
    case ACL_INT64:
      return "INT64";
    case ACL_UINT64:
      return "UINT64";
    case ACL_BOOL:
      return "BOOL";
    case ACL_COMPLEX32:
      return "COMPLEX32";
    case ACL_COMPLEX64:
      return "COMPLEX64";
    case ACL_COMPLEX128:
      return "COMPLEX128";
    case ACL_DT_UNDEFINED:
      return "UNDEFINED";
    default:
      return "an unsupported type";
  }
}

bool IsFloating(aclDataType t) {
  return t == ACL_FLOAT || t == ACL_FLOAT16 || t == ACL_BF16 || t == ACL_DOUBLE;
}

bool IsIntegral(aclDataType t) {
  switch (t) {
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_INT16:
    case ACL_UINT16:
    case ACL_INT32:
    case ACL_UINT32:
    case ACL_INT64:
    case ACL_UINT64:
      return true;
    default:
      return false;
  }
}

bool IsComplex(aclDataType t) {
  return t == ACL_COMPLEX32 || t == ACL_COMPLEX64 || t == ACL_COMPLEX128;
}

aclDataType PromoteTypes(aclDataType a, aclDataType b) {
  const Code ca = ToCode(a), cb = ToCode(b);
  if (ca == kNone || cb == kNone) return ACL_DT_UNDEFINED;
  const Code r = kTensorTensor[ca][cb];
  return r == kNone ? ACL_DT_UNDEFINED : kFromCode[r];
}

aclDataType PromoteWithScalar(aclDataType tensor, aclDataType scalar) {
  const Code ct = ToCode(tensor), cs = ToCode(scalar);
  if (ct == kNone || cs == kNone) return ACL_DT_UNDEFINED;
  Code r;
  if (IsComplex(scalar)) {
    r = kTensorTensor[cs][ct];  // complex scalars: as a tensor would
  } else if (IsFloating(scalar)) {
    r = kFloatScalarRow[ct];
  } else if (scalar == ACL_BOOL) {
    r = ct;
  } else {
    const bool wide_unsigned =
        scalar == ACL_UINT16 || scalar == ACL_UINT32 || scalar == ACL_UINT64;
    r = wide_unsigned && ct == kBool ? kNone : kIntScalarRow[ct];
  }
  return r == kNone ? ACL_DT_UNDEFINED : kFromCode[r];
}

bool CanCast(aclDataType from, aclDataType to) {
  if (ToCode(from) == kNone || ToCode(to) == kNone) return false;
  if (from == to) return true;
  if (to == ACL_BOOL) return false;
  if (from == ACL_BOOL || IsIntegral(from) || IsFloating(from)) return true;
  // Complex converts to complex and floating types.
  return IsComplex(to) || IsFloating(to);
}

}  // namespace ascend::nn
