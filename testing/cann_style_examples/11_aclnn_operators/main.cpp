// y = x * w + b with aclnnMul and aclnnAdd on one stream: the Mul executor
// is made repeatable and pointed at a second batch with
// aclSetInputTensorAddr; the Add broadcasts a bias row over the batch.
#include <cmath>
#include <cstdio>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"
#include "common/example_utils.h"

namespace {

constexpr int64_t kRows = 4, kCols = 8, kCount = kRows * kCols;

aclTensor* Tensor(void* data, std::vector<int64_t> shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size() - 1; i > 0; --i) {
    strides[i - 1] = strides[i] * shape[i];
  }
  return aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(),
                         0, ACL_FORMAT_ND, shape.data(), shape.size(), data);
}

void* Upload(const std::vector<float>& host) {
  void* dev = nullptr;
  const size_t bytes = host.size() * sizeof(float);
  if (aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
    return nullptr;
  }
  aclrtMemcpy(dev, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  return dev;
}

}  // namespace

int main() {
  EXAMPLE_CHECK(aclInit(nullptr));
  EXAMPLE_CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  EXAMPLE_CHECK(aclrtCreateStream(&stream));

  std::vector<float> x0(kCount), x1(kCount), w(kCount), b(kCols);
  for (int64_t i = 0; i < kCount; ++i) {
    x0[i] = 0.5f * i;
    x1[i] = -0.25f * i;
    w[i] = 1.0f + (i % 3);
  }
  for (int64_t j = 0; j < kCols; ++j) b[j] = 100.0f * j;
  void* dx0 = Upload(x0);
  void* dx1 = Upload(x1);
  void* dw = Upload(w);
  void* db = Upload(b);
  void* dt = Upload(std::vector<float>(kCount));
  void* dy = Upload(std::vector<float>(2 * kCount));
  aclTensor* x = Tensor(dx0, {kRows, kCols});
  aclTensor* wt = Tensor(dw, {kRows, kCols});
  aclTensor* bias = Tensor(db, {kCols});
  aclTensor* t = Tensor(dt, {kRows, kCols});
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);

  uint64_t ws = 0;
  aclOpExecutor* mul = nullptr;
  EXAMPLE_CHECK(aclnnMulGetWorkspaceSize(x, wt, t, &ws, &mul));
  EXAMPLE_CHECK(aclSetAclOpExecutorRepeatable(mul));
  for (int batch = 0; batch < 2; ++batch) {
    // The Mul reads batch `batch`; the Add writes its half of y.
    EXAMPLE_CHECK(aclSetInputTensorAddr(mul, 0, x, batch == 0 ? dx0 : dx1));
    EXAMPLE_CHECK(aclnnMul(nullptr, 0, mul, stream));
    aclTensor* y =
        Tensor(static_cast<float*>(dy) + batch * kCount, {kRows, kCols});
    aclOpExecutor* add = nullptr;
    EXAMPLE_CHECK(aclnnAddGetWorkspaceSize(t, bias, alpha, y, &ws, &add));
    EXAMPLE_CHECK(aclnnAdd(nullptr, 0, add, stream));
    aclDestroyTensor(y);
  }
  EXAMPLE_CHECK(aclrtSynchronizeStream(stream));
  EXAMPLE_CHECK(aclDestroyAclOpExecutor(mul));

  std::vector<float> y(2 * kCount);
  EXAMPLE_CHECK(aclrtMemcpy(y.data(), y.size() * sizeof(float), dy,
                            y.size() * sizeof(float),
                            ACL_MEMCPY_DEVICE_TO_HOST));
  bool equal = true;
  for (int batch = 0; batch < 2; ++batch) {
    const std::vector<float>& xs = batch == 0 ? x0 : x1;
    for (int64_t i = 0; i < kCount; ++i) {
      const float want = xs[i] * w[i] + b[i % kCols];
      if (std::fabs(y[batch * kCount + i] - want) > 1e-4f) equal = false;
    }
  }
  std::printf("aclnn: y = x * w + b for 2 batches: %s\n",
              equal ? "equal" : "DIFFERENT");

  // A bias of 3 columns does not broadcast against 8.
  aclTensor* bad = Tensor(db, {3});
  aclOpExecutor* refused = nullptr;
  const aclnnStatus ret =
      aclnnAddGetWorkspaceSize(t, bad, alpha, t, &ws, &refused);
  if (ret == ACLNN_ERR_PARAM_INVALID) {
    std::printf("aclnn: bad shapes refused with %d\n", ret);
  }

  aclDestroyTensor(bad);
  aclDestroyTensor(x);
  aclDestroyTensor(wt);
  aclDestroyTensor(bias);
  aclDestroyTensor(t);
  aclDestroyScalar(alpha);
  for (void* p : {dx0, dx1, dw, db, dt, dy}) aclrtFree(p);
  EXAMPLE_CHECK(aclrtDestroyStream(stream));
  EXAMPLE_CHECK(aclrtResetDevice(0));
  EXAMPLE_CHECK(aclFinalize());
  return equal && ret == ACLNN_ERR_PARAM_INVALID ? 0 : 1;
}
