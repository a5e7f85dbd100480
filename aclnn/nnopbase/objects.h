// The objects behind aclnn's opaque handles (aclnn/acl_meta.h): tensors,
// scalars, arrays and lists, with the checks aclCreateTensor makes. An
// object carries a tag so a pointer that is not one (or one destroyed) is
// refused by the entry points instead of read as one.
#ifndef ASCENDCL_ACLNN_NNOPBASE_OBJECTS_H_
#define ASCENDCL_ACLNN_NNOPBASE_OBJECTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "aclnn/acl_meta.h"

namespace ascend::nn {

// The most dimensions a tensor may have: nnopbase's own limit (its shapes
// hold 25 dimensions, opdev/common_types.h's MAX_DIM_NUM).
inline constexpr int kMaxTensorDims = 25;
// The most dimensions the operators take: each operator's page refuses a
// tensor of more (161002), and their kernels' arguments hold this many.
inline constexpr int kMaxDims = 8;

enum class Tag : uint32_t {
  kDead = 0,
  kTensor = 0x544e5352,  // "TNSR"
  kScalar = 0x53434c52,
  kIntArray = 0x49415252,
  kFloatArray = 0x46415252,
  kBoolArray = 0x42415252,
  kTensorList = 0x544c5354,
  kScalarList = 0x534c5354,
};

}  // namespace ascend::nn

struct aclTensor {
  ascend::nn::Tag tag = ascend::nn::Tag::kTensor;
  std::vector<int64_t> view_shape;
  std::vector<int64_t> strides;  // elements, one per view dimension
  int64_t offset = 0;            // elements from the storage's start
  aclDataType dtype = ACL_DT_UNDEFINED;
  aclFormat format = ACL_FORMAT_ND;
  std::vector<int64_t> storage_shape;
  void* data = nullptr;  // the storage's device address

  int64_t Numel() const;
  int64_t Dims() const { return static_cast<int64_t>(view_shape.size()); }
  // Row-major strides of view_shape.
  bool IsContiguous() const;
  // The storage's size in elements.
  int64_t StorageNumel() const;
};

struct aclScalar {
  ascend::nn::Tag tag = ascend::nn::Tag::kScalar;
  aclDataType dtype = ACL_DT_UNDEFINED;
  // The value as the type says, in the first bytes.
  alignas(8) unsigned char bytes[16] = {};

  double ToDouble() const;
  int64_t ToInt() const;
  bool IsFloating() const;
};

struct aclIntArray {
  ascend::nn::Tag tag = ascend::nn::Tag::kIntArray;
  std::vector<int64_t> values;
};
struct aclFloatArray {
  ascend::nn::Tag tag = ascend::nn::Tag::kFloatArray;
  std::vector<float> values;
};
struct aclBoolArray {
  ascend::nn::Tag tag = ascend::nn::Tag::kBoolArray;
  std::vector<bool> values;
};
struct aclTensorList {
  ascend::nn::Tag tag = ascend::nn::Tag::kTensorList;
  std::vector<aclTensor*> tensors;  // owned (may hold nulls)
};
struct aclScalarList {
  ascend::nn::Tag tag = ascend::nn::Tag::kScalarList;
  std::vector<aclScalar*> scalars;  // owned (may hold nulls)
};

namespace ascend::nn {

// Whether p is a live object of its kind (null: false).
bool IsTensor(const aclTensor* p);
bool IsScalar(const aclScalar* p);

// The reason the tensor description is invalid, or "" when it is valid. The
// type and format are taken by reference: a C caller may pass any int, and
// copying an out-of-range enum loads it (undefined).
std::string CheckTensorDescription(const int64_t* view_dims, uint64_t view_num,
                                   const aclDataType& dtype,
                                   const int64_t* stride, int64_t offset,
                                   const aclFormat& format,
                                   const int64_t* storage_dims,
                                   uint64_t storage_num);

// Fills t from a description that CheckTensorDescription accepted.
void DescribeTensor(aclTensor& t, const int64_t* view_dims, uint64_t view_num,
                    aclDataType dtype, const int64_t* stride, int64_t offset,
                    aclFormat format, const int64_t* storage_dims,
                    uint64_t storage_num, void* data);

// "[2, 3]"
std::string ShapeString(const std::vector<int64_t>& shape);

}  // namespace ascend::nn

#endif  // ASCENDCL_ACLNN_NNOPBASE_OBJECTS_H_
