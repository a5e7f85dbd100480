// Cat and Permute against their pages in hicann/ops-math:
// conversion/concat_d/docs/aclnnCat.md and conversion/transpose/docs/
// aclnnPermute.md (parameter tables, Atlas A2 type lists, error tables),
// with docs/zh/context/deduction_relationship.md and
// conversion_relationship.md for Cat's types.
#include <cstdint>
#include <cstring>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/testing/op_test_util.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_permute.h"
#include "gtest/gtest.h"

namespace ascend::nn::testing {
namespace {

std::vector<double> Iota(int n, double start = 0, double step = 1) {
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i) v[i] = start + step * i;
  return v;
}

// A tensor of any type (complex ones included) over device memory filled
// with raw bytes.
class RawTensor {
 public:
  RawTensor(const std::vector<int64_t>& shape,
            const std::vector<int64_t>& strides, aclDataType dtype,
            const std::vector<uint8_t>& bytes, int64_t storage_elems)
      : bytes_(bytes.size()) {
    EXPECT_EQ(aclrtMalloc(&data_, bytes_, ACL_MEM_MALLOC_HUGE_FIRST),
              ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(data_, bytes_, bytes.data(), bytes_,
                          ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    tensor_ = aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(),
                              0, ACL_FORMAT_ND, &storage_elems, 1, data_);
    EXPECT_NE(tensor_, nullptr);
  }
  ~RawTensor() {
    aclDestroyTensor(tensor_);
    aclrtFree(data_);
  }
  aclTensor* get() const { return tensor_; }
  std::vector<uint8_t> Bytes() const {
    std::vector<uint8_t> out(bytes_);
    EXPECT_EQ(aclrtMemcpy(out.data(), bytes_, data_, bytes_,
                          ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    return out;
  }

 private:
  void* data_ = nullptr;
  size_t bytes_;
  aclTensor* tensor_ = nullptr;
};

std::vector<uint8_t> Pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(seed + i * 7);
  return v;
}

// A new tensor with t's description over t's memory (a list owns its
// tensors and destroys them with it).
aclTensor* Clone(const aclTensor* t) {
  if (t == nullptr) return nullptr;
  int64_t* view = nullptr;
  int64_t* strides = nullptr;
  int64_t* storage = nullptr;
  uint64_t nv = 0, ns = 0, nst = 0;
  int64_t offset = 0;
  aclFormat format = ACL_FORMAT_ND;
  aclDataType dtype = ACL_FLOAT;
  void* addr = nullptr;
  EXPECT_EQ(aclGetViewShape(t, &view, &nv), 0);
  EXPECT_EQ(aclGetViewStrides(t, &strides, &ns), 0);
  EXPECT_EQ(aclGetStorageShape(t, &storage, &nst), 0);
  EXPECT_EQ(aclGetViewOffset(t, &offset), 0);
  EXPECT_EQ(aclGetFormat(t, &format), 0);
  EXPECT_EQ(aclGetDataType(t, &dtype), 0);
  EXPECT_EQ(aclGetRawTensorAddr(t, &addr), 0);
  aclTensor* c = aclCreateTensor(view, nv, dtype, strides, offset, format,
                                 storage, nst, addr);
  delete[] view;
  delete[] strides;
  delete[] storage;
  return c;
}

aclTensorList* MakeList(const std::vector<aclTensor*>& ts) {
  std::vector<aclTensor*> clones;
  for (const aclTensor* t : ts) clones.push_back(Clone(t));
  return aclCreateTensorList(clones.data(), clones.size());
}

class LayoutOps : public OpTest {
 protected:
  int Cat(const std::vector<const DeviceTensor*>& in, int64_t dim,
          const DeviceTensor& out) {
    std::vector<aclTensor*> ts;
    for (const DeviceTensor* t : in) ts.push_back(t->get());
    return CatList(ts, dim, out.get());
  }
  int CatList(const std::vector<aclTensor*>& ts, int64_t dim, aclTensor* out) {
    aclTensorList* list = MakeList(ts);
    const int ret = RunOp(
        stream_,
        [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnCatGetWorkspaceSize(list, dim, out, ws, e);
        },
        aclnnCat);
    aclDestroyTensorList(list);
    return ret;
  }
  int Permute(const aclTensor* self, const std::vector<int64_t>& dims,
              const aclTensor* out) {
    aclIntArray* array = aclCreateIntArray(dims.data(), dims.size());
    const int ret = RunOp(
        stream_,
        [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnPermuteGetWorkspaceSize(
              self, array, const_cast<aclTensor*>(out), ws, e);
        },
        aclnnPermute);
    aclDestroyIntArray(array);
    return ret;
  }
  int PlanPermute(const aclTensor* self, const std::vector<int64_t>& dims,
                  const aclTensor* out) {
    aclIntArray* array = aclCreateIntArray(dims.data(), dims.size());
    uint64_t ws = 0;
    aclOpExecutor* e = nullptr;
    const int ret = aclnnPermuteGetWorkspaceSize(
        self, array, const_cast<aclTensor*>(out), &ws, &e);
    if (ret == 0) aclDestroyAclOpExecutor(e);
    aclDestroyIntArray(array);
    return ret;
  }
  int PlanCat(const std::vector<aclTensor*>& ts, int64_t dim,
              const aclTensor* out) {
    aclTensorList* list = MakeList(ts);
    uint64_t ws = 0;
    aclOpExecutor* e = nullptr;
    const int ret = aclnnCatGetWorkspaceSize(
        list, dim, const_cast<aclTensor*>(out), &ws, &e);
    if (ret == 0) aclDestroyAclOpExecutor(e);
    aclDestroyTensorList(list);
    return ret;
  }
};

// aclnnCat.md: the tensors joined along dim (negative counts from the end),
// every listed type.
TEST_F(LayoutOps, CatJoinsAlongDim) {
  for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8,
                        ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8}) {
    SCOPED_TRACE(t);
    DeviceTensor a({2, 3}, t, Iota(6)), b({2, 1}, t, Iota(2, 10)),
        c({2, 2}, t, Iota(4, 20));
    DeviceTensor out({2, 6}, t, std::vector<double>(12));
    ASSERT_EQ(Cat({&a, &b, &c}, -1, out), 0);
    ExpectNear(out.Read(), {0, 1, 2, 10, 20, 21, 3, 4, 5, 11, 22, 23}, t);
  }
  DeviceTensor a({1, 2}, ACL_BOOL, {1, 0}), b({2, 2}, ACL_BOOL, {0, 1, 1, 1});
  DeviceTensor out({3, 2}, ACL_BOOL, std::vector<double>(6));
  ASSERT_EQ(Cat({&a, &b}, 0, out), 0);
  ExpectNear(out.Read(), {1, 0, 0, 1, 1, 1}, ACL_BOOL);
}

// The page's 非连续Tensor column: strided inputs (a transpose, an offset)
// and a strided out; out's gaps stay untouched. Empty tensors join as
// nothing.
TEST_F(LayoutOps, CatStridedAndEmptyTensors) {
  // a: the transpose of {{0, 1}, {2, 3}, {4, 5}} (3 x 2), i.e. 2 x 3.
  DeviceTensor a({2, 3}, {1, 2}, 0, ACL_FLOAT, {0, 1, 2, 3, 4, 5});
  DeviceTensor b({2, 2}, {2, 1}, 1, ACL_FLOAT, {-1, 6, 7, 8, 9});
  DeviceTensor empty({2, 0}, ACL_FLOAT, {});
  DeviceTensor out({2, 5}, {8, 1}, 0, ACL_FLOAT, std::vector<double>(16, -5));
  ASSERT_EQ(Cat({&a, &empty, &b}, 1, out), 0);
  ExpectNear(out.Read(), {0, 2, 4, 6, 7, 1, 3, 5, 8, 9}, ACL_FLOAT);
  const auto storage = out.ReadStorage();
  for (int i : {5, 6, 7, 13, 14, 15}) EXPECT_EQ(storage[i], -5) << i;
}

// deduction_relationship.md: the list's types promote (INT32 with FLOAT16
// gives FLOAT16), then convert to out's (conversion_relationship.md). An
// INT32 of 2049 passes through FLOAT16 (2048) on its way to a FLOAT out,
// as CANN's cast to the promoted type does.
TEST_F(LayoutOps, CatPromotesTypes) {
  DeviceTensor i({2}, ACL_INT32, {2049, -3}), h({1}, ACL_FLOAT16, {0.5});
  DeviceTensor f({3}, ACL_FLOAT, {0, 0, 0});
  ASSERT_EQ(Cat({&i, &h}, 0, f), 0);
  EXPECT_EQ(f.Read(), (std::vector<double>{2048, -3, 0.5}));
  DeviceTensor b({2}, ACL_BOOL, {1, 0}), s({1}, ACL_INT8, {-4});
  DeviceTensor o({3}, ACL_INT64, {9, 9, 9});
  ASSERT_EQ(Cat({&b, &s}, 0, o), 0);
  EXPECT_EQ(o.Read(), (std::vector<double>{1, 0, -4}));
  DeviceTensor x({1}, ACL_FLOAT16, {1.5}), y({1}, ACL_BF16, {2.5});
  DeviceTensor z({2}, ACL_DOUBLE, {0, 0});
  ASSERT_EQ(Cat({&x, &y}, 0, z), 0);
  EXPECT_EQ(z.Read(), (std::vector<double>{1.5, 2.5}));
}

// COMPLEX64 is in Cat's list: its elements move bit for bit.
TEST_F(LayoutOps, CatCopiesComplexBitForBit) {
  const auto pa = Pattern(2 * 8, 1), pb = Pattern(3 * 8, 100);
  RawTensor a({2}, {1}, ACL_COMPLEX64, pa, 2),
      b({3}, {1}, ACL_COMPLEX64, pb, 3);
  RawTensor out({5}, {1}, ACL_COMPLEX64, std::vector<uint8_t>(40), 5);
  ASSERT_EQ(CatList({a.get(), b.get()}, 0, out.get()), 0);
  std::vector<uint8_t> want = pa;
  want.insert(want.end(), pb.begin(), pb.end());
  EXPECT_EQ(out.Bytes(), want);
}

// aclnnCat.md's error table.
TEST_F(LayoutOps, CatRefusesWhatThePageRefuses) {
  DeviceTensor a({2, 3}, ACL_FLOAT, Iota(6)), b({2, 2}, ACL_FLOAT, Iota(4));
  DeviceTensor out({2, 5}, ACL_FLOAT, std::vector<double>(10, 7));
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  // 161001: the list, an entry or out null.
  EXPECT_EQ(aclnnCatGetWorkspaceSize(nullptr, 1, out.get(), &ws, &e),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(PlanCat({a.get(), nullptr}, 1, out.get()), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(PlanCat({a.get(), b.get()}, 1, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  // 161002: a type outside the list (UINT16 on Atlas A2).
  DeviceTensor u({2, 2}, ACL_UINT16, Iota(4));
  EXPECT_EQ(PlanCat({a.get(), u.get()}, 1, out.get()), ACLNN_ERR_PARAM_INVALID);
  // 161002: the promoted type does not convert to out's (FLOAT to BOOL).
  DeviceTensor bout({2, 5}, ACL_BOOL, std::vector<double>(10));
  EXPECT_EQ(PlanCat({a.get(), b.get()}, 1, bout.get()),
            ACLNN_ERR_PARAM_INVALID);
  // 161002: shapes apart from dim differ; dimension counts differ; dim out
  // of range; out of another shape.
  DeviceTensor c({3, 2}, ACL_FLOAT, Iota(6)), d({6}, ACL_FLOAT, Iota(6));
  EXPECT_EQ(PlanCat({a.get(), c.get()}, 1, out.get()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(PlanCat({a.get(), d.get()}, 1, out.get()), ACLNN_ERR_PARAM_INVALID);
  for (int64_t dim : {2, -3}) {
    EXPECT_EQ(PlanCat({a.get(), b.get()}, dim, out.get()),
              ACLNN_ERR_PARAM_INVALID);
  }
  DeviceTensor wrong({2, 6}, ACL_FLOAT, std::vector<double>(12));
  EXPECT_EQ(PlanCat({a.get(), b.get()}, 1, wrong.get()),
            ACLNN_ERR_PARAM_INVALID);
  // 161002: an empty list; complex with a real type (no complex conversion
  // on the simulator).
  EXPECT_EQ(PlanCat({}, 0, out.get()), ACLNN_ERR_PARAM_INVALID);
  RawTensor cx({2, 2}, {2, 1}, ACL_COMPLEX64, Pattern(32, 0), 4);
  RawTensor cout({2, 5}, {5, 1}, ACL_COMPLEX64, Pattern(80, 0), 10);
  EXPECT_EQ(PlanCat({a.get(), cx.get()}, 1, cout.get()),
            ACLNN_ERR_PARAM_INVALID);
  // Nothing was written.
  EXPECT_EQ(out.Read(), std::vector<double>(10, 7));
  EXPECT_EQ(aclnnCat(nullptr, 0, nullptr, stream_), ACLNN_ERR_INNER_NULLPTR);
}

// aclnnPermute.md's example: self [2, 3, 5] with dims (2, 0, 1) gives
// [5, 2, 3]; negative dims count from the end.
TEST_F(LayoutOps, PermuteReordersDimensions) {
  for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT8,
                        ACL_UINT8, ACL_INT16, ACL_UINT16, ACL_INT32, ACL_UINT32,
                        ACL_INT64, ACL_UINT64, ACL_BOOL}) {
    SCOPED_TRACE(t);
    const std::vector<double> v =
        t == ACL_BOOL ? std::vector<double>(30, 1) : Iota(30);
    DeviceTensor x({2, 3, 5}, t, v);
    DeviceTensor out({5, 2, 3}, t, std::vector<double>(30));
    ASSERT_EQ(Permute(x.get(), {2, 0, -2}, out.get()), 0);
    std::vector<double> want;
    for (int k = 0; k < 5; ++k) {
      for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 3; ++j) want.push_back(v[i * 15 + j * 5 + k]);
      }
    }
    EXPECT_EQ(out.Read(), want);
  }
  // A 0-d tensor with no dims copies its element.
  DeviceTensor s({}, ACL_INT32, {42}), so({}, ACL_INT32, {0});
  ASSERT_EQ(Permute(s.get(), {}, so.get()), 0);
  EXPECT_EQ(so.Read()[0], 42);
}

// Strided self and out; COMPLEX128 and FLOAT16 NaN payloads move bit for
// bit.
TEST_F(LayoutOps, PermuteStridedAndBitExact) {
  // self: every other element of a 12-element storage, viewed 2 x 3.
  DeviceTensor x({2, 3}, {6, 2}, 0, ACL_FLOAT, Iota(12));
  DeviceTensor out({3, 2}, {4, 1}, 0, ACL_FLOAT, std::vector<double>(12, -1));
  ASSERT_EQ(Permute(x.get(), {1, 0}, out.get()), 0);
  EXPECT_EQ(out.Read(), (std::vector<double>{0, 6, 2, 8, 4, 10}));
  EXPECT_EQ(out.ReadStorage()[2], -1);

  const auto bytes = Pattern(6 * 16, 3);
  RawTensor c({2, 3}, {3, 1}, ACL_COMPLEX128, bytes, 6);
  RawTensor ct({3, 2}, {2, 1}, ACL_COMPLEX128, std::vector<uint8_t>(96), 6);
  ASSERT_EQ(Permute(c.get(), {1, 0}, ct.get()), 0);
  const auto got = ct.Bytes();
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 2; ++j) {
      EXPECT_EQ(std::memcmp(got.data() + (i * 2 + j) * 16,
                            bytes.data() + (j * 3 + i) * 16, 16),
                0);
    }
  }
  const std::vector<uint8_t> nan = {0x01, 0x7c, 0x23, 0xfd};  // two NaNs
  RawTensor h({2}, {1}, ACL_FLOAT16, nan, 2);
  RawTensor hout({2}, {1}, ACL_FLOAT16, std::vector<uint8_t>(4), 2);
  ASSERT_EQ(Permute(h.get(), {0}, hout.get()), 0);
  EXPECT_EQ(hout.Bytes(), nan);
}

// aclnnPermute.md's error table.
TEST_F(LayoutOps, PermuteRefusesWhatThePageRefuses) {
  DeviceTensor x({2, 3}, ACL_FLOAT, Iota(6));
  DeviceTensor out({3, 2}, ACL_FLOAT, std::vector<double>(6, 7));
  aclIntArray* dims = aclCreateIntArray(std::vector<int64_t>{1, 0}.data(), 2);
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  // 161001: self, dims or out null.
  EXPECT_EQ(aclnnPermuteGetWorkspaceSize(nullptr, dims, out.get(), &ws, &e),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnPermuteGetWorkspaceSize(x.get(), nullptr, out.get(), &ws, &e),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnPermuteGetWorkspaceSize(x.get(), dims, nullptr, &ws, &e),
            ACLNN_ERR_PARAM_NULLPTR);
  aclDestroyIntArray(dims);
  // 161002: out's type differs from self's.
  DeviceTensor h({3, 2}, ACL_FLOAT16, std::vector<double>(6));
  EXPECT_EQ(PlanPermute(x.get(), {1, 0}, h.get()), ACLNN_ERR_PARAM_INVALID);
  // 161002: dims of another length, repeated, out of range.
  EXPECT_EQ(PlanPermute(x.get(), {0}, out.get()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(PlanPermute(x.get(), {1, 1}, out.get()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(PlanPermute(x.get(), {1, -1}, out.get()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(PlanPermute(x.get(), {2, 0}, out.get()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(PlanPermute(x.get(), {1, -3}, out.get()), ACLNN_ERR_PARAM_INVALID);
  // 161002: out of another shape or dimension count.
  DeviceTensor same({2, 3}, ACL_FLOAT, std::vector<double>(6));
  DeviceTensor flat({6}, ACL_FLOAT, std::vector<double>(6));
  EXPECT_EQ(PlanPermute(x.get(), {1, 0}, same.get()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(PlanPermute(x.get(), {1, 0}, flat.get()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(out.Read(), std::vector<double>(6, 7));
  EXPECT_EQ(aclnnPermute(nullptr, 0, nullptr, stream_),
            ACLNN_ERR_INNER_NULLPTR);
}

}  // namespace
}  // namespace ascend::nn::testing
