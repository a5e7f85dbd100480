// nnopbase's objects and executor, checked against the rules of CANN's
// nnopbase pages (aclCreateTensor.md, aclGetViewShape.md, aclCreateScalar.md,
// aclCreateTensorList.md, aclSetAclOpExecutorRepeatable.md,
// aclSetInputTensorAddr.md, aclnnInit.md in hicann/opbase docs/.../aclnn/).
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "aclnn/aclnn_base.h"
#include "aclnn/nnopbase/dtype.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnn/testing/op_test_util.h"
#include "aclnnop/aclnn_add.h"
#include "gtest/gtest.h"

namespace ascend::nn::testing {
namespace {

// aclCreateTensor.md: the getters give back what the tensor was made of;
// their arrays are released with delete[] (aclGetViewShape.md).
TEST(NnopbaseObjects, TensorGettersReturnTheDescription) {
  const int64_t view[2] = {2, 4};
  const int64_t strides[2] = {1, 2};  // a transposed view
  const int64_t storage[2] = {4, 2};
  float dummy[8];
  aclTensor* t = aclCreateTensor(view, 2, ACL_FLOAT16, strides, 0,
                                 ACL_FORMAT_ND, storage, 2, dummy);
  ASSERT_NE(t, nullptr);
  int64_t* dims = nullptr;
  uint64_t n = 0;
  ASSERT_EQ(aclGetViewShape(t, &dims, &n), 0);
  ASSERT_EQ(n, 2u);
  EXPECT_EQ(dims[0], 2);
  EXPECT_EQ(dims[1], 4);
  delete[] dims;
  ASSERT_EQ(aclGetViewStrides(t, &dims, &n), 0);
  EXPECT_EQ(dims[0], 1);
  EXPECT_EQ(dims[1], 2);
  delete[] dims;
  ASSERT_EQ(aclGetStorageShape(t, &dims, &n), 0);
  EXPECT_EQ(dims[0], 4);
  delete[] dims;
  int64_t offset = -1;
  ASSERT_EQ(aclGetViewOffset(t, &offset), 0);
  EXPECT_EQ(offset, 0);
  aclFormat format;
  ASSERT_EQ(aclGetFormat(t, &format), 0);
  EXPECT_EQ(format, ACL_FORMAT_ND);
  aclDataType type;
  ASSERT_EQ(aclGetDataType(t, &type), 0);
  EXPECT_EQ(type, ACL_FLOAT16);
  void* addr = nullptr;
  ASSERT_EQ(aclGetRawTensorAddr(t, &addr), 0);
  EXPECT_EQ(addr, dummy);
  ASSERT_EQ(aclSetRawTensorAddr(t, nullptr), 0);
  ASSERT_EQ(aclGetRawTensorAddr(t, &addr), 0);
  EXPECT_EQ(addr, nullptr);
  EXPECT_EQ(aclDestroyTensor(t), 0);
}

// aclGetViewShape.md and its siblings: 161001 for any null argument.
TEST(NnopbaseObjects, GettersRefuseNullArguments) {
  const int64_t view[1] = {3};
  aclTensor* t = aclCreateTensor(view, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND,
                                 view, 1, nullptr);
  ASSERT_NE(t, nullptr);
  int64_t* dims = nullptr;
  uint64_t n = 0;
  EXPECT_EQ(aclGetViewShape(nullptr, &dims, &n), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetViewShape(t, nullptr, &n), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetViewShape(t, &dims, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetStorageShape(t, nullptr, &n), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetViewStrides(t, &dims, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetViewOffset(t, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetFormat(nullptr, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetDataType(t, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetRawTensorAddr(t, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclDestroyTensor(t), 0);
  EXPECT_EQ(aclDestroyTensor(nullptr), 0);
}

// aclCreateTensor.md: sizes, strides and offset are non-negative; the view
// must lie inside its storage; at most 8 dimensions; a NULL stride means
// contiguous.
TEST(NnopbaseObjects, CreateTensorRefusesInvalidDescriptions) {
  const int64_t view[2] = {2, 3};
  const int64_t storage[1] = {6};
  const int64_t neg_stride[2] = {-3, 1};
  EXPECT_EQ(aclCreateTensor(view, 2, ACL_FLOAT, neg_stride, 0, ACL_FORMAT_ND,
                            storage, 1, nullptr),
            nullptr);
  EXPECT_EQ(aclCreateTensor(view, 2, ACL_FLOAT, nullptr, -1, ACL_FORMAT_ND,
                            storage, 1, nullptr),
            nullptr);
  EXPECT_EQ(aclCreateTensor(view, 2, ACL_FLOAT, nullptr, 1, ACL_FORMAT_ND,
                            storage, 1, nullptr),
            nullptr);  // reaches element 6 of 6
  const int64_t nine[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  EXPECT_EQ(aclCreateTensor(nine, 9, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND,
                            storage, 1, nullptr),
            nullptr);
  EXPECT_EQ(aclCreateTensor(view, 2, static_cast<aclDataType>(99), nullptr, 0,
                            ACL_FORMAT_ND, storage, 1, nullptr),
            nullptr);
  EXPECT_EQ(aclCreateTensor(view, 2, ACL_FLOAT, nullptr, 0,
                            static_cast<aclFormat>(12345), storage, 1, nullptr),
            nullptr);
  aclTensor* ok = aclCreateTensor(view, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND,
                                  storage, 1, nullptr);
  ASSERT_NE(ok, nullptr);
  int64_t* strides = nullptr;
  uint64_t n = 0;
  ASSERT_EQ(aclGetViewStrides(ok, &strides, &n), 0);
  EXPECT_EQ(strides[0], 3);
  EXPECT_EQ(strides[1], 1);
  delete[] strides;
  aclDestroyTensor(ok);
  // A 0-d tensor (a single element) and an empty one are valid.
  aclTensor* scalar_like = aclCreateTensor(nullptr, 0, ACL_FLOAT, nullptr, 0,
                                           ACL_FORMAT_ND, storage, 1, nullptr);
  EXPECT_NE(scalar_like, nullptr);
  aclDestroyTensor(scalar_like);
}

// nnopbase sizes elements by the runtime's one table (aclDataTypeSize), so
// the two can never disagree: a one-byte FP8 tensor is a tensor of 1-byte
// elements, and a type without a whole-byte size is no tensor type.
TEST(NnopbaseObjects, ElementSizesAreTheRuntimeTable) {
  for (int32_t raw = ACL_DT_UNDEFINED; raw <= ACL_FLOAT4_E1M2; ++raw) {
    const auto type = static_cast<aclDataType>(raw);
    EXPECT_EQ(ElementSize(type), aclDataTypeSize(type)) << "type " << raw;
  }
  const int64_t view[1] = {4};
  const int64_t storage[1] = {4};
  aclTensor* fp8 = aclCreateTensor(view, 1, ACL_FLOAT8_E4M3FN, nullptr, 0,
                                   ACL_FORMAT_ND, storage, 1, nullptr);
  ASSERT_NE(fp8, nullptr);
  aclDestroyTensor(fp8);
  EXPECT_EQ(aclCreateTensor(view, 1, ACL_FLOAT4_E2M1, nullptr, 0, ACL_FORMAT_ND,
                            storage, 1, nullptr),
            nullptr);
}

// aclInitTensor.md: re-describes a tensor; an invalid description leaves it
// as it was.
TEST(NnopbaseObjects, InitTensorRedescribesOrLeavesUnchanged) {
  const int64_t a[1] = {4};
  aclTensor* t = aclCreateTensor(a, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, a,
                                 1, nullptr);
  ASSERT_NE(t, nullptr);
  const int64_t b[2] = {2, 2};
  EXPECT_EQ(aclInitTensor(t, b, 2, ACL_INT32, nullptr, 0, ACL_FORMAT_ND, b, 2,
                          nullptr),
            0);
  aclDataType type;
  aclGetDataType(t, &type);
  EXPECT_EQ(type, ACL_INT32);
  EXPECT_EQ(aclInitTensor(t, b, 2, ACL_FLOAT, nullptr, 3, ACL_FORMAT_ND, b, 2,
                          nullptr),
            ACLNN_ERR_PARAM_INVALID);
  aclGetDataType(t, &type);
  EXPECT_EQ(type, ACL_INT32);
  EXPECT_EQ(aclInitTensor(nullptr, b, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND,
                          b, 2, nullptr),
            ACLNN_ERR_PARAM_NULLPTR);
  aclDestroyTensor(t);
}

// aclCreateScalar.md, aclCreateIntArray.md, aclCreateTensorList.md and the
// size getters.
TEST(NnopbaseObjects, ScalarsArraysAndLists) {
  float v = 1.5f;
  EXPECT_EQ(aclCreateScalar(nullptr, ACL_FLOAT), nullptr);
  aclScalar* s = aclCreateScalar(&v, ACL_FLOAT);
  ASSERT_NE(s, nullptr);
  v = 7;  // the scalar copied the value
  EXPECT_EQ(aclDestroyScalar(s), 0);

  const int64_t ints[3] = {1, 2, 3};
  aclIntArray* ia = aclCreateIntArray(ints, 3);
  uint64_t size = 0;
  ASSERT_EQ(aclGetIntArraySize(ia, &size), 0);
  EXPECT_EQ(size, 3u);
  EXPECT_EQ(aclGetIntArraySize(ia, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclDestroyIntArray(ia), 0);
  EXPECT_EQ(aclCreateIntArray(nullptr, 2), nullptr);

  const float floats[2] = {1, 2};
  aclFloatArray* fa = aclCreateFloatArray(floats, 2);
  ASSERT_EQ(aclGetFloatArraySize(fa, &size), 0);
  EXPECT_EQ(size, 2u);
  aclDestroyFloatArray(fa);
  const bool bools[1] = {true};
  aclBoolArray* ba = aclCreateBoolArray(bools, 1);
  ASSERT_EQ(aclGetBoolArraySize(ba, &size), 0);
  EXPECT_EQ(size, 1u);
  aclDestroyBoolArray(ba);

  const int64_t shape[1] = {2};
  const aclTensor* items[2] = {
      aclCreateTensor(shape, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 1,
                      nullptr),
      aclCreateTensor(shape, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 1,
                      nullptr)};
  aclTensorList* list = aclCreateTensorList(items, 2);
  ASSERT_NE(list, nullptr);
  ASSERT_EQ(aclGetTensorListSize(list, &size), 0);
  EXPECT_EQ(size, 2u);
  EXPECT_EQ(aclDestroyTensorList(list), 0);  // destroys its tensors too

  const aclScalar* scalars[1] = {aclCreateScalar(&v, ACL_FLOAT)};
  aclScalarList* sl = aclCreateScalarList(scalars, 1);
  ASSERT_EQ(aclGetScalarListSize(sl, &size), 0);
  EXPECT_EQ(size, 1u);
  EXPECT_EQ(aclDestroyScalarList(sl), 0);
}

class NnopbaseExecutor : public OpTest {};

// aclSetAclOpExecutorRepeatable.md: a repeatable executor runs many times
// until aclDestroyAclOpExecutor; aclSetInputTensorAddr.md: 561103 for null
// executor or tensor, 161002 for an index past the inputs; a plain executor
// is used up by its run.
TEST_F(NnopbaseExecutor, RepeatableExecutorRunsAgainAtNewAddresses) {
  DeviceTensor x({4}, ACL_FLOAT, {1, 2, 3, 4});
  DeviceTensor y({4}, ACL_FLOAT, {10, 20, 30, 40});
  DeviceTensor y2({4}, ACL_FLOAT, {100, 200, 300, 400});
  DeviceTensor out({4}, ACL_FLOAT, {0, 0, 0, 0});
  float one = 1;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  ASSERT_EQ(
      aclnnAddGetWorkspaceSize(x.get(), y.get(), alpha, out.get(), &ws, &exec),
      0);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(exec), 0);
  ASSERT_EQ(aclnnAdd(nullptr, 0, exec, stream_), 0);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ExpectNear(out.Read(), {11, 22, 33, 44}, ACL_FLOAT);

  EXPECT_EQ(aclSetInputTensorAddr(exec, 2, y.get(), y2.data()),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclSetInputTensorAddr(nullptr, 1, y.get(), y2.data()),
            ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(aclSetInputTensorAddr(exec, 1, nullptr, y2.data()),
            ACLNN_ERR_INNER_NULLPTR);
  ASSERT_EQ(aclSetInputTensorAddr(exec, 1, y.get(), y2.data()), 0);
  ASSERT_EQ(aclnnAdd(nullptr, 0, exec, stream_), 0);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ExpectNear(out.Read(), {101, 202, 303, 404}, ACL_FLOAT);
  // aclSetTensorAddr counts inputs then outputs: index 2 is out.
  DeviceTensor out2({4}, ACL_FLOAT, {0, 0, 0, 0});
  ASSERT_EQ(aclSetTensorAddr(exec, 2, out.get(), out2.data()), 0);
  ASSERT_EQ(aclnnAdd(nullptr, 0, exec, stream_), 0);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ExpectNear(out2.Read(), {101, 202, 303, 404}, ACL_FLOAT);
  EXPECT_EQ(aclDestroyAclOpExecutor(exec), 0);
  EXPECT_EQ(aclSetAclOpExecutorRepeatable(nullptr), ACLNN_ERR_INNER_NULLPTR);
  aclDestroyScalar(alpha);
}

// aclnnInit.md: a JSON config may turn enable_debug_kernel on or off; other
// values and unreadable files are refused.
TEST(NnopbaseInit, ConfigFile) {
  EXPECT_EQ(aclnnInit(nullptr), 0);
  const std::string dir = ::testing::TempDir();
  auto write = [&](const char* name, const char* text) {
    const std::string path = dir + "/" + name;
    std::ofstream(path) << text;
    return path;
  };
  EXPECT_EQ(aclnnInit(write("on.json",
                            "{\"op_debug_config\":{\"enable_debug_kernel\":"
                            "\"on\"}}")
                          .c_str()),
            0);
  EXPECT_EQ(aclnnInit(write("bad.json",
                            "{\"op_debug_config\":{\"enable_debug_kernel\":"
                            "\"maybe\"}}")
                          .c_str()),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnInit(write("broken.json", "{\"op_debug_config\": {").c_str()),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnInit((dir + "/missing.json").c_str()),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnFinalize(), 0);
}

}  // namespace
}  // namespace ascend::nn::testing
