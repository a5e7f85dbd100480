// The C entry points of aclnn's objects (aclnn/acl_meta.h): tensors,
// scalars, arrays and lists.
#include "aclnn/nnopbase/objects.h"

#include <cstring>
#include <limits>
#include <new>
#include <string>

#include "aclnn/nnopbase/dtype.h"
#include "aclnn/nnopbase/entry.h"

namespace ascend::nn {
namespace {

bool ValidFormat(int32_t f) {
  switch (f) {
    case ACL_FORMAT_NCHW:
    case ACL_FORMAT_NHWC:
    case ACL_FORMAT_ND:
    case ACL_FORMAT_NC1HWC0:
    case ACL_FORMAT_FRACTAL_Z:
    case ACL_FORMAT_NC1HWC0_C04:
    case ACL_FORMAT_HWCN:
    case ACL_FORMAT_NDHWC:
    case ACL_FORMAT_FRACTAL_NZ:
    case ACL_FORMAT_NCDHW:
    case ACL_FORMAT_NDC1HWC0:
    case ACL_FRACTAL_Z_3D:
    case ACL_FORMAT_NC:
    case ACL_FORMAT_NCL:
      return true;
    default:
      return false;
  }
}

int32_t Raw(const void* p) {
  int32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// A copy of `n` values as a new[] array (what the getters hand out).
int64_t* NewArray(const std::vector<int64_t>& v) {
  int64_t* out = new int64_t[v.empty() ? 1 : v.size()];
  for (size_t i = 0; i < v.size(); ++i) out[i] = v[i];
  return out;
}

template <typename T>
void Destroy(const T* p) {
  T* object = const_cast<T*>(p);
  object->tag = Tag::kDead;
  delete object;
}

}  // namespace

int Refuse(const char* api, int code, const std::string& message) {
  aclAppLog(ACL_ERROR, api, __FILE__, __LINE__, "%s: %s (aclnn error %d)", api,
            message.c_str(), code);
  return code;
}

void LogError(const char* api, const std::string& message) {
  aclAppLog(ACL_ERROR, api, __FILE__, __LINE__, "%s: %s", api, message.c_str());
}

bool IsTensor(const aclTensor* p) {
  return p != nullptr && p->tag == Tag::kTensor;
}
bool IsScalar(const aclScalar* p) {
  return p != nullptr && p->tag == Tag::kScalar;
}

std::string ShapeString(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) s += ", ";
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

std::string CheckTensorDescription(const int64_t* view_dims, uint64_t view_num,
                                   const aclDataType& dtype,
                                   const int64_t* stride, int64_t offset,
                                   const aclFormat& format,
                                   const int64_t* storage_dims,
                                   uint64_t storage_num) {
  const int32_t raw_type = Raw(&dtype);
  if (raw_type < 0 || ElementSize(static_cast<aclDataType>(raw_type)) == 0) {
    return "data type " + std::to_string(raw_type) +
           " is not one operators take";
  }
  if (!ValidFormat(Raw(&format))) {
    return "format " + std::to_string(Raw(&format)) + " is not an aclFormat";
  }
  if (view_num > static_cast<uint64_t>(kMaxTensorDims) ||
      storage_num > static_cast<uint64_t>(kMaxTensorDims)) {
    return "a tensor has at most " + std::to_string(kMaxTensorDims) +
           " dimensions (view " + std::to_string(view_num) + ", storage " +
           std::to_string(storage_num) + ")";
  }
  if (view_num > 0 && view_dims == nullptr) return "viewDims is null";
  if (storage_num > 0 && storage_dims == nullptr) return "storageDims is null";
  if (offset < 0) return "offset " + std::to_string(offset) + " is negative";
  int64_t storage = 1;
  for (uint64_t i = 0; i < storage_num; ++i) {
    if (storage_dims[i] < 0) return "a storage dimension is negative";
    if (storage_dims[i] != 0 &&
        storage > std::numeric_limits<int64_t>::max() / storage_dims[i]) {
      return "the storage shape overflows";
    }
    storage *= storage_dims[i];
  }
  // The last element the view reaches must lie inside the storage.
  int64_t last = offset;
  bool empty = false;
  int64_t row = 1;
  for (uint64_t i = view_num; i-- > 0;) {
    const int64_t size = view_dims[i];
    if (size < 0) return "a view dimension is negative";
    const int64_t s = stride != nullptr ? stride[i] : row;
    if (s < 0) return "a stride is negative";
    if (size == 0) empty = true;
    if (size > 0) last += (size - 1) * s;
    if (size != 0 && row > std::numeric_limits<int64_t>::max() / size) {
      return "the view shape overflows";
    }
    row *= size == 0 ? 1 : size;
  }
  if (!empty && last >= storage) {
    return "the view reaches element " + std::to_string(last) +
           " of a storage of " + std::to_string(storage) + " elements";
  }
  return "";
}

void DescribeTensor(aclTensor& t, const int64_t* view_dims, uint64_t view_num,
                    aclDataType dtype, const int64_t* stride, int64_t offset,
                    aclFormat format, const int64_t* storage_dims,
                    uint64_t storage_num, void* data) {
  t.view_shape.assign(view_dims, view_dims + view_num);
  t.strides.resize(view_num);
  int64_t row = 1;
  for (uint64_t i = view_num; i-- > 0;) {
    t.strides[i] = stride != nullptr ? stride[i] : row;
    row *= view_dims[i] == 0 ? 1 : view_dims[i];
  }
  t.offset = offset;
  t.dtype = dtype;
  t.format = format;
  t.storage_shape.assign(storage_dims, storage_dims + storage_num);
  t.data = data;
}

}  // namespace ascend::nn

using ascend::nn::Destroy;
using ascend::nn::IsScalar;
using ascend::nn::IsTensor;
using ascend::nn::NewArray;
using ascend::nn::Refuse;
using ascend::nn::Tag;

int64_t aclTensor::Numel() const {
  int64_t n = 1;
  for (int64_t d : view_shape) n *= d;
  return n;
}

bool aclTensor::IsContiguous() const {
  int64_t row = 1;
  for (size_t i = view_shape.size(); i-- > 0;) {
    if (view_shape[i] != 1 && strides[i] != row) return false;
    row *= view_shape[i];
  }
  return true;
}

int64_t aclTensor::StorageNumel() const {
  int64_t n = 1;
  for (int64_t d : storage_shape) n *= d;
  return n;
}

double aclScalar::ToDouble() const {
  switch (dtype) {
    case ACL_FLOAT: {
      float v;
      std::memcpy(&v, bytes, 4);
      return v;
    }
    case ACL_DOUBLE: {
      double v;
      std::memcpy(&v, bytes, 8);
      return v;
    }
    case ACL_FLOAT16: {
      uint16_t v;
      std::memcpy(&v, bytes, 2);
      return ascend::nn::HalfToFloat(v);
    }
    case ACL_BF16: {
      uint16_t v;
      std::memcpy(&v, bytes, 2);
      return ascend::nn::Bf16ToFloat(v);
    }
    case ACL_UINT64: {
      uint64_t v;
      std::memcpy(&v, bytes, 8);
      return static_cast<double>(v);
    }
    default:
      return static_cast<double>(ToInt());
  }
}

int64_t aclScalar::ToInt() const {
  switch (dtype) {
    case ACL_INT8:
      return static_cast<int8_t>(bytes[0]);
    case ACL_UINT8:
      return bytes[0];
    case ACL_BOOL:
      return bytes[0] != 0;
    case ACL_INT16: {
      int16_t v;
      std::memcpy(&v, bytes, 2);
      return v;
    }
    case ACL_UINT16: {
      uint16_t v;
      std::memcpy(&v, bytes, 2);
      return v;
    }
    case ACL_INT32: {
      int32_t v;
      std::memcpy(&v, bytes, 4);
      return v;
    }
    case ACL_UINT32: {
      uint32_t v;
      std::memcpy(&v, bytes, 4);
      return v;
    }
    case ACL_INT64: {
      int64_t v;
      std::memcpy(&v, bytes, 8);
      return v;
    }
    case ACL_UINT64: {
      uint64_t v;
      std::memcpy(&v, bytes, 8);
      return static_cast<int64_t>(v);
    }
    default:
      return static_cast<int64_t>(ToDouble());
  }
}

bool aclScalar::IsFloating() const { return ascend::nn::IsFloating(dtype); }

extern "C" {

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum,
                           aclDataType dataType, const int64_t* stride,
                           int64_t offset, aclFormat format,
                           const int64_t* storageDims, uint64_t storageDimsNum,
                           void* tensorData) try {
  const std::string why = ascend::nn::CheckTensorDescription(
      viewDims, viewDimsNum, dataType, stride, offset, format, storageDims,
      storageDimsNum);
  if (!why.empty()) {
    Refuse(__func__, ACLNN_ERR_PARAM_INVALID, why);
    return nullptr;
  }
  auto* t = new aclTensor;
  ascend::nn::DescribeTensor(*t, viewDims, viewDimsNum, dataType, stride,
                             offset, format, storageDims, storageDimsNum,
                             tensorData);
  return t;
}
ACLNN_ENTRY_CATCH(nullptr)

aclnnStatus aclInitTensor(aclTensor* tensor, const int64_t* viewDims,
                          uint64_t viewDimsNum, aclDataType dataType,
                          const int64_t* stride, int64_t offset,
                          aclFormat format, const int64_t* storageDims,
                          uint64_t storageDimsNum, void* tensorDataAddr) try {
  ACLNN_REQUIRE(IsTensor(tensor), ACLNN_ERR_PARAM_NULLPTR,
                "tensor is null or not a tensor");
  const std::string why = ascend::nn::CheckTensorDescription(
      viewDims, viewDimsNum, dataType, stride, offset, format, storageDims,
      storageDimsNum);
  ACLNN_REQUIRE(why.empty(), ACLNN_ERR_PARAM_INVALID, why);
  aclTensor next;
  ascend::nn::DescribeTensor(next, viewDims, viewDimsNum, dataType, stride,
                             offset, format, storageDims, storageDimsNum,
                             tensorDataAddr);
  *tensor = std::move(next);
  return ACLNN_SUCCESS;
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclScalar* aclCreateScalar(void* value, aclDataType dataType) try {
  int32_t raw;
  std::memcpy(&raw, &dataType, sizeof raw);
  const size_t size =
      raw < 0 ? 0 : ascend::nn::ElementSize(static_cast<aclDataType>(raw));
  if (value == nullptr || size == 0 || size > 8) {
    Refuse(__func__,
           value == nullptr ? ACLNN_ERR_PARAM_NULLPTR : ACLNN_ERR_PARAM_INVALID,
           value == nullptr
               ? "value is null"
               : "data type " + std::to_string(raw) + " is not a scalar type");
    return nullptr;
  }
  auto* s = new aclScalar;
  s->dtype = dataType;
  std::memcpy(s->bytes, value, size);
  return s;
}
ACLNN_ENTRY_CATCH(nullptr)

aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size) try {
  if (value == nullptr && size > 0) {
    Refuse(__func__, ACLNN_ERR_PARAM_NULLPTR, "value is null");
    return nullptr;
  }
  auto* a = new aclIntArray;
  if (size > 0) a->values.assign(value, value + size);
  return a;
}
ACLNN_ENTRY_CATCH(nullptr)

aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size) try {
  if (value == nullptr && size > 0) {
    Refuse(__func__, ACLNN_ERR_PARAM_NULLPTR, "value is null");
    return nullptr;
  }
  auto* a = new aclFloatArray;
  if (size > 0) a->values.assign(value, value + size);
  return a;
}
ACLNN_ENTRY_CATCH(nullptr)

aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size) try {
  if (value == nullptr && size > 0) {
    Refuse(__func__, ACLNN_ERR_PARAM_NULLPTR, "value is null");
    return nullptr;
  }
  auto* a = new aclBoolArray;
  if (size > 0) a->values.assign(value, value + size);
  return a;
}
ACLNN_ENTRY_CATCH(nullptr)

aclTensorList* aclCreateTensorList(const aclTensor* const* value,
                                   uint64_t size) try {
  if (value == nullptr && size > 0) {
    Refuse(__func__, ACLNN_ERR_PARAM_NULLPTR, "value is null");
    return nullptr;
  }
  for (uint64_t i = 0; i < size; ++i) {
    if (value[i] != nullptr && !IsTensor(value[i])) {
      Refuse(__func__, ACLNN_ERR_PARAM_INVALID,
             "element " + std::to_string(i) + " is not a tensor");
      return nullptr;
    }
  }
  auto* l = new aclTensorList;
  for (uint64_t i = 0; i < size; ++i) {
    l->tensors.push_back(const_cast<aclTensor*>(value[i]));
  }
  return l;
}
ACLNN_ENTRY_CATCH(nullptr)

aclScalarList* aclCreateScalarList(const aclScalar* const* value,
                                   uint64_t size) try {
  if (value == nullptr && size > 0) {
    Refuse(__func__, ACLNN_ERR_PARAM_NULLPTR, "value is null");
    return nullptr;
  }
  for (uint64_t i = 0; i < size; ++i) {
    if (value[i] != nullptr && !IsScalar(value[i])) {
      Refuse(__func__, ACLNN_ERR_PARAM_INVALID,
             "element " + std::to_string(i) + " is not a scalar");
      return nullptr;
    }
  }
  auto* l = new aclScalarList;
  for (uint64_t i = 0; i < size; ++i) {
    l->scalars.push_back(const_cast<aclScalar*>(value[i]));
  }
  return l;
}
ACLNN_ENTRY_CATCH(nullptr)

aclnnStatus aclDestroyTensor(const aclTensor* tensor) try {
  if (tensor == nullptr) return ACLNN_SUCCESS;
  ACLNN_REQUIRE(IsTensor(tensor), ACLNN_ERR_PARAM_INVALID, "not a live tensor");
  Destroy(tensor);
  return ACLNN_SUCCESS;
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclDestroyScalar(const aclScalar* scalar) try {
  if (scalar == nullptr) return ACLNN_SUCCESS;
  ACLNN_REQUIRE(IsScalar(scalar), ACLNN_ERR_PARAM_INVALID, "not a live scalar");
  Destroy(scalar);
  return ACLNN_SUCCESS;
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

#define ACLNN_DESTROY_ARRAY(Name, Type, TagValue)                       \
  aclnnStatus Name(const Type* array) try {                             \
    if (array == nullptr) return ACLNN_SUCCESS;                         \
    ACLNN_REQUIRE(array->tag == Tag::TagValue, ACLNN_ERR_PARAM_INVALID, \
                  "not a live " #Type);                                 \
    Destroy(array);                                                     \
    return ACLNN_SUCCESS;                                               \
  }                                                                     \
  ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

ACLNN_DESTROY_ARRAY(aclDestroyIntArray, aclIntArray, kIntArray)
ACLNN_DESTROY_ARRAY(aclDestroyFloatArray, aclFloatArray, kFloatArray)
ACLNN_DESTROY_ARRAY(aclDestroyBoolArray, aclBoolArray, kBoolArray)
#undef ACLNN_DESTROY_ARRAY

aclnnStatus aclDestroyTensorList(const aclTensorList* array) try {
  if (array == nullptr) return ACLNN_SUCCESS;
  ACLNN_REQUIRE(array->tag == Tag::kTensorList, ACLNN_ERR_PARAM_INVALID,
                "not a live tensor list");
  for (aclTensor* t : array->tensors) {
    if (IsTensor(t)) Destroy(t);
  }
  Destroy(array);
  return ACLNN_SUCCESS;
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclDestroyScalarList(const aclScalarList* array) try {
  if (array == nullptr) return ACLNN_SUCCESS;
  ACLNN_REQUIRE(array->tag == Tag::kScalarList, ACLNN_ERR_PARAM_INVALID,
                "not a live scalar list");
  for (aclScalar* s : array->scalars) {
    if (IsScalar(s)) Destroy(s);
  }
  Destroy(array);
  return ACLNN_SUCCESS;
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims,
                            uint64_t* viewDimsNum) try {
  ACLNN_REQUIRE(
      IsTensor(tensor) && viewDims != nullptr && viewDimsNum != nullptr,
      ACLNN_ERR_PARAM_NULLPTR,
      "tensor, viewDims and viewDimsNum must not be null");
  *viewDims = NewArray(tensor->view_shape);
  *viewDimsNum = tensor->view_shape.size();
  return ACLNN_SUCCESS;
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclGetStorageShape(const aclTensor* tensor, int64_t** storageDims,
                               uint64_t* storageDimsNum) try {
  ACLNN_REQUIRE(
      IsTensor(tensor) && storageDims != nullptr && storageDimsNum != nullptr,
      ACLNN_ERR_PARAM_NULLPTR,
      "tensor, storageDims and storageDimsNum must not be null");
  *storageDims = NewArray(tensor->storage_shape);
  *storageDimsNum = tensor->storage_shape.size();
  return ACLNN_SUCCESS;
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclGetViewStrides(const aclTensor* tensor, int64_t** stridesValue,
                              uint64_t* stridesNum) try {
  ACLNN_REQUIRE(
      IsTensor(tensor) && stridesValue != nullptr && stridesNum != nullptr,
      ACLNN_ERR_PARAM_NULLPTR,
      "tensor, stridesValue and stridesNum must not be null");
  *stridesValue = NewArray(tensor->strides);
  *stridesNum = tensor->strides.size();
  return ACLNN_SUCCESS;
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclGetViewOffset(const aclTensor* tensor, int64_t* offset) try {
  ACLNN_REQUIRE(IsTensor(tensor) && offset != nullptr, ACLNN_ERR_PARAM_NULLPTR,
                "tensor and offset must not be null");
  *offset = tensor->offset;
  return ACLNN_SUCCESS;
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclGetFormat(const aclTensor* tensor, aclFormat* format) try {
  ACLNN_REQUIRE(IsTensor(tensor) && format != nullptr, ACLNN_ERR_PARAM_NULLPTR,
                "tensor and format must not be null");
  *format = tensor->format;
  return ACLNN_SUCCESS;
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclGetDataType(const aclTensor* tensor, aclDataType* dataType) try {
  ACLNN_REQUIRE(IsTensor(tensor) && dataType != nullptr,
                ACLNN_ERR_PARAM_NULLPTR,
                "tensor and dataType must not be null");
  *dataType = tensor->dtype;
  return ACLNN_SUCCESS;
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

#define ACLNN_GET_SIZE(Name, Type, TagValue, member)                         \
  aclnnStatus Name(const Type* array, uint64_t* size) try {                  \
    ACLNN_REQUIRE(                                                           \
        array != nullptr && array->tag == Tag::TagValue && size != nullptr,  \
        ACLNN_ERR_PARAM_NULLPTR, "the " #Type " and size must not be null"); \
    *size = array->member.size();                                            \
    return ACLNN_SUCCESS;                                                    \
  }                                                                          \
  ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

ACLNN_GET_SIZE(aclGetIntArraySize, aclIntArray, kIntArray, values)
ACLNN_GET_SIZE(aclGetFloatArraySize, aclFloatArray, kFloatArray, values)
ACLNN_GET_SIZE(aclGetBoolArraySize, aclBoolArray, kBoolArray, values)
ACLNN_GET_SIZE(aclGetTensorListSize, aclTensorList, kTensorList, tensors)
ACLNN_GET_SIZE(aclGetScalarListSize, aclScalarList, kScalarList, scalars)
#undef ACLNN_GET_SIZE

aclnnStatus aclSetRawTensorAddr(aclTensor* tensor, void* addr) try {
  ACLNN_REQUIRE(IsTensor(tensor), ACLNN_ERR_PARAM_NULLPTR,
                "tensor is null or not a tensor");
  tensor->data = addr;
  return ACLNN_SUCCESS;
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclGetRawTensorAddr(const aclTensor* tensor, void** addr) try {
  ACLNN_REQUIRE(IsTensor(tensor) && addr != nullptr, ACLNN_ERR_PARAM_NULLPTR,
                "tensor and addr must not be null");
  *addr = tensor->data;
  return ACLNN_SUCCESS;
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

}  // extern "C"
