// Embedding against a host gather, and the rules of its page in
// hicann/ops-nn: index/embedding/docs/aclnnEmbedding.md (the parameter
// table, the error-code table; an index outside the rows is a device
// error).
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/testing/op_test_util.h"
#include "aclnnop/aclnn_embedding.h"
#include "gtest/gtest.h"

namespace ascend::nn::testing {
namespace {

std::vector<double> Iota(int64_t n, double start = 0) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = start + static_cast<double>(i);
  return v;
}

// Rows `idx` of a rows x cols matrix w.
std::vector<double> Gather(const std::vector<double>& w, int64_t cols,
                           const std::vector<double>& idx) {
  std::vector<double> r;
  for (double i : idx) {
    for (int64_t c = 0; c < cols; ++c) {
      r.push_back(w[static_cast<int64_t>(i) * cols + c]);
    }
  }
  return r;
}

class EmbeddingOps : public OpTest {
 protected:
  int Embedding(const DeviceTensor& w, const DeviceTensor& idx,
                const DeviceTensor& out) {
    return RunOp(
        stream_,
        [&](uint64_t* ws, aclOpExecutor** e) {
          return aclnnEmbeddingGetWorkspaceSize(w.get(), idx.get(), out.get(),
                                                ws, e);
        },
        aclnnEmbedding);
  }
};

// Every weight type the page lists (complex excepted), INT32 and INT64
// indices, indices of several dimensions (out: indices' shape + [cols]).
TEST_F(EmbeddingOps, GathersRowsOfEveryListedType) {
  const std::vector<double> w = Iota(30, 1);  // 10 x 3
  const std::vector<double> idx = {1, 2, 3, 4, 9, 0};
  for (aclDataType t : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE, ACL_INT64,
                        ACL_INT32, ACL_INT16, ACL_INT8, ACL_UINT8}) {
    for (aclDataType it : {ACL_INT32, ACL_INT64}) {
      SCOPED_TRACE(t);
      SCOPED_TRACE(it);
      DeviceTensor weight({10, 3}, t, w), indices({2, 3}, it, idx);
      DeviceTensor out({2, 3, 3}, t, std::vector<double>(18));
      ASSERT_EQ(Embedding(weight, indices, out), 0);
      ExpectNear(out.Read(), Gather(w, 3, idx), t);
    }
  }
  DeviceTensor bw({2, 2}, ACL_BOOL, {0, 1, 1, 0}),
      bi({3}, ACL_INT64, {1, 0, 1});
  DeviceTensor bo({3, 2}, ACL_BOOL, std::vector<double>(6));
  ASSERT_EQ(Embedding(bw, bi, bo), 0);
  ExpectNear(bo.Read(), {1, 0, 0, 1, 1, 0}, ACL_BOOL);
}

// Non-contiguous weight, indices and out; a 0-d index; empty indices.
TEST_F(EmbeddingOps, StridedViewsScalarAndEmptyIndices) {
  const std::vector<double> w = Iota(12);            // stored 3 x 4
  DeviceTensor wt({4, 3}, {1, 4}, 0, ACL_FLOAT, w);  // the 4 x 3 transpose
  DeviceTensor idx({3}, {2}, 1, ACL_INT64, {-9, 3, -9, 0, -9, 2});
  DeviceTensor out({3, 3}, {1, 3}, 0, ACL_FLOAT, std::vector<double>(9));
  ASSERT_EQ(Embedding(wt, idx, out), 0);
  ExpectNear(out.Read(), Gather(wt.Read(), 3, {3, 0, 2}), ACL_FLOAT);
  DeviceTensor one({}, ACL_INT32, {2}), row({3}, ACL_FLOAT, {0, 0, 0});
  ASSERT_EQ(Embedding(wt, one, row), 0);
  ExpectNear(row.Read(), Gather(wt.Read(), 3, {2}), ACL_FLOAT);
  DeviceTensor none({0}, ACL_INT64, {}), empty({0, 3}, ACL_FLOAT, {});
  EXPECT_EQ(Embedding(wt, none, empty), 0);
}

// An index outside [0, rows) (negative: the page's error; past the end:
// unspecified on the hardware) raises the kernel's device exception, which
// the stream's synchronization reports.
TEST_F(EmbeddingOps, IndexOutsideTheRowsIsADeviceError) {
  DeviceTensor w({4, 2}, ACL_FLOAT, Iota(8));
  DeviceTensor out({2, 2}, ACL_FLOAT, {0, 0, 0, 0});
  for (double bad : {-1.0, 4.0}) {
    DeviceTensor idx({2}, ACL_INT64, {0, bad});
    EXPECT_EQ(Embedding(w, idx, out), ACL_ERROR_RT_AICORE_EXCEPTION);
    // The stream reports the error once; the next operator runs.
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  }
  DeviceTensor good({2}, ACL_INT64, {3, 1});
  ASSERT_EQ(Embedding(w, good, out), 0);
  ExpectNear(out.Read(), {6, 7, 2, 3}, ACL_FLOAT);
}

// aclnnEmbedding's error table.
TEST_F(EmbeddingOps, RefusesWhatThePageRefuses) {
  DeviceTensor w({4, 2}, ACL_FLOAT, Iota(8)), idx({3}, ACL_INT64, {0, 1, 2});
  DeviceTensor out({3, 2}, ACL_FLOAT, std::vector<double>(6, 9));
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  EXPECT_EQ(
      aclnnEmbeddingGetWorkspaceSize(nullptr, idx.get(), out.get(), &ws, &e),
      ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(
      aclnnEmbeddingGetWorkspaceSize(w.get(), nullptr, out.get(), &ws, &e),
      ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(
      aclnnEmbeddingGetWorkspaceSize(w.get(), idx.get(), nullptr, &ws, &e),
      ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnEmbeddingGetWorkspaceSize(w.get(), idx.get(), out.get(),
                                           nullptr, &e),
            ACLNN_ERR_PARAM_NULLPTR);
  DeviceTensor fi({3}, ACL_FLOAT, {0, 1, 2});  // indices INT32 / INT64
  EXPECT_EQ(
      aclnnEmbeddingGetWorkspaceSize(w.get(), fi.get(), out.get(), &ws, &e),
      ACLNN_ERR_PARAM_INVALID);
  DeviceTensor h({3, 2}, ACL_FLOAT16, std::vector<double>(6));  // out type
  EXPECT_EQ(
      aclnnEmbeddingGetWorkspaceSize(w.get(), idx.get(), h.get(), &ws, &e),
      ACLNN_ERR_PARAM_INVALID);
  DeviceTensor u({4, 2}, ACL_UINT16, Iota(8)), uo({3, 2}, ACL_UINT16, Iota(6));
  EXPECT_EQ(
      aclnnEmbeddingGetWorkspaceSize(u.get(), idx.get(), uo.get(), &ws, &e),
      ACLNN_ERR_PARAM_INVALID);
  DeviceTensor wrong({3, 3}, ACL_FLOAT, std::vector<double>(9));
  EXPECT_EQ(
      aclnnEmbeddingGetWorkspaceSize(w.get(), idx.get(), wrong.get(), &ws, &e),
      ACLNN_ERR_PARAM_INVALID);
  DeviceTensor flat({3}, ACL_FLOAT, {0, 0, 0});
  EXPECT_EQ(
      aclnnEmbeddingGetWorkspaceSize(w.get(), idx.get(), flat.get(), &ws, &e),
      ACLNN_ERR_PARAM_INVALID);
  DeviceTensor w3({2, 2, 2}, ACL_FLOAT, Iota(8));  // weight is 2-d
  DeviceTensor o3({3, 2}, ACL_FLOAT, std::vector<double>(6));
  EXPECT_EQ(
      aclnnEmbeddingGetWorkspaceSize(w3.get(), idx.get(), o3.get(), &ws, &e),
      ACLNN_ERR_PARAM_INVALID);
  ExpectNear(out.Read(), std::vector<double>(6, 9), ACL_FLOAT);
}

}  // namespace
}  // namespace ascend::nn::testing
