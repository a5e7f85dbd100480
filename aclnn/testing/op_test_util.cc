#include "aclnn/testing/op_test_util.h"

#include <cmath>
#include <cstring>

#include "aclnn/nnopbase/dtype.h"

namespace ascend::nn::testing {

void EncodeValue(double v, aclDataType dtype, void* out) {
  auto put = [out](auto x) { std::memcpy(out, &x, sizeof x); };
  // Integers narrower than 64 bits wrap from the 64-bit value (converting a
  // double outside a type's range straight to it is undefined).
  const int64_t whole = !(v == v)                     ? 0
                        : v >= 9223372036854775807.0  ? INT64_MAX
                        : v <= -9223372036854775808.0 ? INT64_MIN
                                                      : static_cast<int64_t>(v);
  switch (dtype) {
    case ACL_FLOAT:
      put(static_cast<float>(v));
      break;
    case ACL_DOUBLE:
      put(v);
      break;
    case ACL_FLOAT16:
      put(FloatToHalf(static_cast<float>(v)));
      break;
    case ACL_BF16:
      put(FloatToBf16(static_cast<float>(v)));
      break;
    case ACL_INT8:
      put(static_cast<int8_t>(whole));
      break;
    case ACL_UINT8:
      put(static_cast<uint8_t>(whole));
      break;
    case ACL_INT16:
      put(static_cast<int16_t>(whole));
      break;
    case ACL_UINT16:
      put(static_cast<uint16_t>(whole));
      break;
    case ACL_UINT32:
      put(static_cast<uint32_t>(whole));
      break;
    case ACL_UINT64:
      put(v < 0 ? static_cast<uint64_t>(whole) : static_cast<uint64_t>(v));
      break;
    case ACL_INT32:
      put(static_cast<int32_t>(whole));
      break;
    case ACL_INT64:
      put(static_cast<int64_t>(v));
      break;
    case ACL_BOOL:
      put(static_cast<uint8_t>(v != 0));
      break;
    default:
      ADD_FAILURE() << "no test encoding for type " << dtype;
  }
}

double DecodeValue(const void* p, aclDataType dtype) {
  auto get = [p](auto x) {
    std::memcpy(&x, p, sizeof x);
    return x;
  };
  switch (dtype) {
    case ACL_FLOAT:
      return get(float{});
    case ACL_DOUBLE:
      return get(double{});
    case ACL_FLOAT16:
      return HalfToFloat(get(uint16_t{}));
    case ACL_BF16:
      return Bf16ToFloat(get(uint16_t{}));
    case ACL_INT8:
      return get(int8_t{});
    case ACL_UINT8:
      return get(uint8_t{});
    case ACL_INT16:
      return get(int16_t{});
    case ACL_UINT16:
      return get(uint16_t{});
    case ACL_UINT32:
      return get(uint32_t{});
    case ACL_UINT64:
      return static_cast<double>(get(uint64_t{}));
    case ACL_INT32:
      return get(int32_t{});
    case ACL_INT64:
      return static_cast<double>(get(int64_t{}));
    case ACL_BOOL:
      return get(uint8_t{}) != 0;
    default:
      ADD_FAILURE() << "no test decoding for type " << dtype;
      return 0;
  }
}

double RoundTo(double v, aclDataType dtype) {
  unsigned char b[8];
  EncodeValue(v, dtype, b);
  return DecodeValue(b, dtype);
}

namespace {

std::vector<int64_t> RowMajor(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size());
  int64_t row = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    s[i] = row;
    row *= shape[i];
  }
  return s;
}

int64_t Count(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

}  // namespace

DeviceTensor::DeviceTensor(const std::vector<int64_t>& shape, aclDataType dtype,
                           const std::vector<double>& values)
    : DeviceTensor(shape, RowMajor(shape), 0, dtype, values) {}

DeviceTensor::DeviceTensor(const std::vector<int64_t>& shape,
                           const std::vector<int64_t>& strides, int64_t offset,
                           aclDataType dtype,
                           const std::vector<double>& storage_values)
    : dtype_(dtype), shape_(shape), strides_(strides), offset_(offset) {
  const size_t esize = ElementSize(dtype);
  const int64_t storage = static_cast<int64_t>(storage_values.size());
  bytes_ = static_cast<size_t>(storage > 0 ? storage : 1) * esize;
  EXPECT_EQ(aclrtMalloc(&data_, bytes_, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_SUCCESS);
  std::vector<unsigned char> host(bytes_);
  for (int64_t i = 0; i < storage; ++i) {
    EncodeValue(storage_values[i], dtype, host.data() + i * esize);
  }
  EXPECT_EQ(aclrtMemcpy(data_, bytes_, host.data(), bytes_,
                        ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  const int64_t storage_dims[1] = {storage};
  tensor_ = aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(),
                            offset, ACL_FORMAT_ND, storage_dims, 1, data_);
  EXPECT_NE(tensor_, nullptr);
}

DeviceTensor::DeviceTensor(DeviceTensor&& o) noexcept { *this = std::move(o); }

DeviceTensor& DeviceTensor::operator=(DeviceTensor&& o) noexcept {
  std::swap(tensor_, o.tensor_);
  std::swap(data_, o.data_);
  std::swap(bytes_, o.bytes_);
  std::swap(dtype_, o.dtype_);
  std::swap(shape_, o.shape_);
  std::swap(strides_, o.strides_);
  std::swap(offset_, o.offset_);
  return *this;
}

DeviceTensor::~DeviceTensor() {
  if (tensor_ != nullptr) aclDestroyTensor(tensor_);
  if (data_ != nullptr) aclrtFree(data_);
}

std::vector<double> DeviceTensor::ReadStorage() const {
  std::vector<unsigned char> host(bytes_);
  EXPECT_EQ(aclrtMemcpy(host.data(), bytes_, data_, bytes_,
                        ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  const size_t esize = ElementSize(dtype_);
  std::vector<double> out(bytes_ / esize);
  for (size_t i = 0; i < out.size(); ++i) {
    out[i] = DecodeValue(host.data() + i * esize, dtype_);
  }
  return out;
}

std::vector<double> DeviceTensor::Read() const {
  const std::vector<double> storage = ReadStorage();
  const int64_t n = Count(shape_);
  std::vector<double> out(static_cast<size_t>(n));
  std::vector<int64_t> idx(shape_.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t e = offset_;
    for (size_t d = 0; d < shape_.size(); ++d) e += idx[d] * strides_[d];
    out[i] = storage[e];
    for (size_t d = shape_.size(); d-- > 0;) {
      if (++idx[d] < shape_[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

int RunOp(aclrtStream stream,
          const std::function<int(uint64_t*, aclOpExecutor**)>& plan,
          const std::function<int(void*, uint64_t, aclOpExecutor*,
                                  aclrtStream)>& run) {
  uint64_t ws_size = 0;
  aclOpExecutor* executor = nullptr;
  int ret = plan(&ws_size, &executor);
  if (ret != 0) return ret;
  void* ws = nullptr;
  if (ws_size > 0 &&
      aclrtMalloc(&ws, ws_size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
    return -1;
  }
  ret = run(ws, ws_size, executor, stream);
  if (ret == 0) ret = aclrtSynchronizeStream(stream);
  if (ws != nullptr) aclrtFree(ws);
  return ret;
}

double Tolerance(aclDataType dtype) {
  switch (dtype) {
    case ACL_FLOAT:
      return 1e-4;
    case ACL_DOUBLE:
      return 1e-9;
    case ACL_FLOAT16:
      return 1e-3;
    case ACL_BF16:
      return 4e-3;
    default:
      return 0;
  }
}

void ExpectNear(const std::vector<double>& got, const std::vector<double>& want,
                aclDataType dtype, double tolerance) {
  ASSERT_EQ(got.size(), want.size());
  const double tol = tolerance >= 0 ? tolerance : Tolerance(dtype);
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << "element " << i << ": " << got[i];
      continue;
    }
    if (std::isinf(want[i])) {
      EXPECT_EQ(got[i], want[i]) << "element " << i;
      continue;
    }
    EXPECT_LE(std::fabs(got[i] - want[i]), tol * std::fabs(want[i]) + tol)
        << "element " << i << ": got " << got[i] << ", want " << want[i];
  }
}

void OpTest::SetUp() {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
}

void OpTest::TearDown() {
  if (stream_ != nullptr) aclrtDestroyStream(stream_);
  aclrtResetDevice(0);
}

}  // namespace ascend::nn::testing
