// Helpers of the operator tests: device tensors filled from host vectors,
// read back, and a float64 reference.
//
//   OpTest fixture: a device and a stream for each test.
//   DeviceTensor x = DeviceTensor::Make<float>({2, 3}, ACL_FLOAT, {1, 2, ...});
//   ASSERT_EQ(RunOp(...), 0);
//   std::vector<double> got = x.Read();
#ifndef ASCENDCL_ACLNN_TESTING_OP_TEST_UTIL_H_
#define ASCENDCL_ACLNN_TESTING_OP_TEST_UTIL_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "gtest/gtest.h"

namespace ascend::nn::testing {

// A tensor with its own device memory (freed with it).
class DeviceTensor {
 public:
  DeviceTensor() = default;
  // A contiguous tensor of `shape` holding `values` converted to dtype.
  DeviceTensor(const std::vector<int64_t>& shape, aclDataType dtype,
               const std::vector<double>& values);
  // A view of `storage_elems` elements of storage with the given strides and
  // offset; the storage is filled from `storage_values`.
  DeviceTensor(const std::vector<int64_t>& shape,
               const std::vector<int64_t>& strides, int64_t offset,
               aclDataType dtype, const std::vector<double>& storage_values);
  DeviceTensor(DeviceTensor&& other) noexcept;
  DeviceTensor& operator=(DeviceTensor&& other) noexcept;
  ~DeviceTensor();

  aclTensor* get() const { return tensor_; }
  void* data() const { return data_; }
  aclDataType dtype() const { return dtype_; }
  // The view's elements in row-major order, as doubles.
  std::vector<double> Read() const;
  // The whole storage, as doubles.
  std::vector<double> ReadStorage() const;

 private:
  aclTensor* tensor_ = nullptr;
  void* data_ = nullptr;
  size_t bytes_ = 0;
  aclDataType dtype_ = ACL_FLOAT;
  std::vector<int64_t> shape_, strides_;
  int64_t offset_ = 0;
};

// Host value <-> element bytes of dtype (16-bit floats round to nearest
// even).
void EncodeValue(double v, aclDataType dtype, void* out);
double DecodeValue(const void* p, aclDataType dtype);
// v as the hardware stores it in dtype and reads it back.
double RoundTo(double v, aclDataType dtype);

// Runs a two-phase operator: `plan` is the first phase (given the
// workspace size and executor outputs), `run` the second; allocates the
// workspace and synchronizes the stream. Answers the first non-zero code.
int RunOp(aclrtStream stream,
          const std::function<int(uint64_t*, aclOpExecutor**)>& plan,
          const std::function<int(void*, uint64_t, aclOpExecutor*,
                                  aclrtStream)>& run);

// The tolerance CANN's operator test kit allows for dtype (relative and
// absolute): fp32 1e-4, fp16 1e-3, bf16 4e-3 (8e-3 for accumulations),
// integers exact.
double Tolerance(aclDataType dtype);
// EXPECTs got[i] within the tolerance of want[i] (NaNs match NaNs).
void ExpectNear(const std::vector<double>& got, const std::vector<double>& want,
                aclDataType dtype, double tolerance = -1);

class OpTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  aclrtStream stream_ = nullptr;
};

}  // namespace ascend::nn::testing

#endif  // ASCENDCL_ACLNN_TESTING_OP_TEST_UTIL_H_
