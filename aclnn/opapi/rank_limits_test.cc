// The rank every operator refuses, by its page (hicann/ops-math and
// hicann/ops-nn, the `docs/aclnn*.md` of each operator: the 维度(shape)
// column of the parameter table and the 161002 rows of the error-code
// table): more than 8 dimensions for the element-wise, reduction,
// normalization and layout operators, more than 6 for aclnnMatmul, other
// than 2 for aclnnMm and other than 3 for aclnnBatchMatMul. aclCreateTensor
// makes such tensors (nnopbase's own limit is 25 dimensions), so the
// operator is the one to refuse them: 161002, with no executor and no
// workspace size written. At the limit the operators run.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/testing/op_test_util.h"
#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_amax.h"
#include "aclnnop/aclnn_argmax.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_embedding.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_minimum.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_pow.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_rsqrt.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_tanh.h"
#include "aclnnop/aclnn_zero.h"
#include "gtest/gtest.h"

namespace ascend::nn::testing {
namespace {

using Plan = std::function<aclnnStatus(uint64_t*, aclOpExecutor**)>;

class RankLimitsTest : public OpTest {
 protected:
  // A FLOAT tensor of `dims` dimensions of size 1 (with memory).
  static DeviceTensor Ones(size_t dims, aclDataType dtype = ACL_FLOAT) {
    return DeviceTensor(std::vector<int64_t>(dims, 1), dtype, {1.0});
  }

  // `plan` answers `code` (161002, or what the page names) and writes
  // neither output.
  static void ExpectRefused(const std::string& name, const Plan& plan,
                            aclnnStatus code = ACLNN_ERR_PARAM_INVALID) {
    uint64_t workspace = 12345;
    aclOpExecutor* executor = nullptr;
    EXPECT_EQ(plan(&workspace, &executor), code) << name;
    EXPECT_EQ(workspace, 12345u) << name;
    EXPECT_EQ(executor, nullptr) << name;
  }
};

TEST_F(RankLimitsTest, ElementWiseOperatorsRefuseMoreThanEightDimensions) {
  DeviceTensor a = Ones(9), b = Ones(9), out = Ones(9);
  DeviceTensor small = Ones(2), small_out = Ones(2);
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  aclScalar* two = aclCreateScalar(&one, ACL_FLOAT);
  const aclTensor* x = a.get();
  aclTensor* y = b.get();
  aclTensor* o = out.get();
  aclTensor* s = small.get();
  aclTensor* so = small_out.get();
  const std::vector<std::pair<std::string, Plan>> plans = {
      // math/abs, math/exp, math/log, math/neg, math/rsqrt, math/sqrt,
      // math/tanh; activation/relu, sigmoid, swish (Silu), gelu.
      {"Abs",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnAbsGetWorkspaceSize(x, o, w, e);
       }},
      {"Exp",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnExpGetWorkspaceSize(x, o, w, e);
       }},
      {"Log",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnLogGetWorkspaceSize(x, o, w, e);
       }},
      {"Neg",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnNegGetWorkspaceSize(x, o, w, e);
       }},
      {"Rsqrt",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnRsqrtGetWorkspaceSize(x, o, w, e);
       }},
      {"Sqrt",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnSqrtGetWorkspaceSize(x, o, w, e);
       }},
      {"Tanh",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnTanhGetWorkspaceSize(x, o, w, e);
       }},
      {"Relu",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnReluGetWorkspaceSize(x, o, w, e);
       }},
      {"Sigmoid",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnSigmoidGetWorkspaceSize(x, o, w, e);
       }},
      {"Silu",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnSiluGetWorkspaceSize(x, o, w, e);
       }},
      {"Gelu",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnGeluGetWorkspaceSize(x, o, w, e);
       }},
      {"InplaceExp",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnInplaceExpGetWorkspaceSize(y, w, e);
       }},
      {"InplaceLog",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnInplaceLogGetWorkspaceSize(y, w, e);
       }},
      {"InplaceNeg",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnInplaceNegGetWorkspaceSize(y, w, e);
       }},
      {"InplaceRsqrt",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnInplaceRsqrtGetWorkspaceSize(y, w, e);
       }},
      {"InplaceSqrt",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnInplaceSqrtGetWorkspaceSize(y, w, e);
       }},
      {"InplaceTanh",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnInplaceTanhGetWorkspaceSize(y, w, e);
       }},
      {"InplaceRelu",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnInplaceReluGetWorkspaceSize(y, w, e);
       }},
      {"InplaceSigmoid",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnInplaceSigmoidGetWorkspaceSize(y, w, e);
       }},
      // math/add, sub, mul, muls, div, maximum, minimum: self, other or out
      // of more than 8 dimensions.
      {"Add",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnAddGetWorkspaceSize(x, y, alpha, o, w, e);
       }},
      {"Add(other)",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnAddGetWorkspaceSize(s, y, alpha, so, w, e);
       }},
      {"Add(out)",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnAddGetWorkspaceSize(s, s, alpha, o, w, e);
       }},
      {"Sub",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnSubGetWorkspaceSize(x, y, alpha, o, w, e);
       }},
      {"Mul",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnMulGetWorkspaceSize(x, y, o, w, e);
       }},
      {"Div",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnDivGetWorkspaceSize(x, y, o, w, e);
       }},
      {"Maximum",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnMaximumGetWorkspaceSize(x, y, o, w, e);
       }},
      {"Minimum",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnMinimumGetWorkspaceSize(x, y, o, w, e);
       }},
      {"Adds",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnAddsGetWorkspaceSize(x, two, alpha, o, w, e);
       }},
      {"Subs",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnSubsGetWorkspaceSize(x, two, alpha, o, w, e);
       }},
      {"Muls",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnMulsGetWorkspaceSize(x, two, o, w, e);
       }},
      {"Divs",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnDivsGetWorkspaceSize(x, two, o, w, e);
       }},
      {"InplaceAdd",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnInplaceAddGetWorkspaceSize(y, x, alpha, w, e);
       }},
      {"InplaceSub",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnInplaceSubGetWorkspaceSize(y, x, alpha, w, e);
       }},
      {"InplaceMul",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnInplaceMulGetWorkspaceSize(y, x, w, e);
       }},
      {"InplaceDiv",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnInplaceDivGetWorkspaceSize(y, x, w, e);
       }},
      {"InplaceAdds",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnInplaceAddsGetWorkspaceSize(y, two, alpha, w, e);
       }},
      {"InplaceSubs",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnInplaceSubsGetWorkspaceSize(y, two, alpha, w, e);
       }},
      {"InplaceMuls",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnInplaceMulsGetWorkspaceSize(y, two, w, e);
       }},
      {"InplaceDivs",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnInplaceDivsGetWorkspaceSize(y, two, w, e);
       }},
      // math/pow.
      {"PowTensorScalar",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnPowTensorScalarGetWorkspaceSize(x, two, o, w, e);
       }},
      {"InplacePowTensorScalar",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnInplacePowTensorScalarGetWorkspaceSize(y, two, w, e);
       }},
      {"PowScalarTensor",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnPowScalarTensorGetWorkspaceSize(two, x, o, w, e);
       }},
      // math/cast, conversion/view_copy, fill, math/zero_op.
      {"Cast",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnCastGetWorkspaceSize(x, ACL_FLOAT, o, w, e);
       }},
      {"InplaceCopy",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnInplaceCopyGetWorkspaceSize(y, x, w, e);
       }},
      {"InplaceCopy(src)",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnInplaceCopyGetWorkspaceSize(s, x, w, e);
       }},
      {"InplaceFillScalar",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnInplaceFillScalarGetWorkspaceSize(y, two, w, e);
       }},
  };
  for (const auto& [name, plan] : plans) ExpectRefused(name, plan);
  aclDestroyScalar(alpha);
  aclDestroyScalar(two);

  // At the limit they run.
  DeviceTensor p = Ones(8), q = Ones(8), r = Ones(8);
  float unit = 1.0f;
  aclScalar* alpha8 = aclCreateScalar(&unit, ACL_FLOAT);
  ASSERT_EQ(RunOp(
                stream_,
                [&](uint64_t* w, aclOpExecutor** e) {
                  return aclnnAddGetWorkspaceSize(p.get(), q.get(), alpha8,
                                                  r.get(), w, e);
                },
                aclnnAdd),
            0);
  EXPECT_EQ(r.Read(), std::vector<double>{2.0});
  aclDestroyScalar(alpha8);
}

TEST_F(RankLimitsTest, ReductionNormAndLayoutOperatorsRefuseMoreThanEight) {
  DeviceTensor a = Ones(9), out = Ones(9), index = Ones(9, ACL_INT64);
  DeviceTensor one_d = Ones(1), two_d = Ones(2), index_2d = Ones(2, ACL_INT64);
  DeviceTensor joined(std::vector<int64_t>{2, 1, 1, 1, 1, 1, 1, 1, 1},
                      ACL_FLOAT, {1.0, 1.0});
  const aclTensor* x = a.get();
  aclTensor* o = out.get();
  const int64_t zero = 0;
  aclIntArray* dim0 = aclCreateIntArray(&zero, 1);
  const int64_t unit = 1;
  aclIntArray* norm_shape = aclCreateIntArray(&unit, 1);
  std::vector<int64_t> order = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  aclIntArray* perm = aclCreateIntArray(order.data(), order.size());
  // A list owns its tensors: two of its own over a's memory.
  const std::vector<int64_t> shape9(9, 1);
  const aclTensor* pair[2] = {};
  for (const aclTensor*& t : pair) {
    t = aclCreateTensor(shape9.data(), shape9.size(), ACL_FLOAT, nullptr, 0,
                        ACL_FORMAT_ND, shape9.data(), shape9.size(), a.data());
  }
  aclTensorList* list = aclCreateTensorList(pair, 2);
  const std::vector<std::pair<std::string, Plan>> plans = {
      // math/reduce_sum, reduce_mean, reduce_max (Amax), arg_max_v2.
      {"ReduceSum",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnReduceSumGetWorkspaceSize(x, dim0, true, ACL_FLOAT, o, w,
                                               e);
       }},
      {"Mean",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnMeanGetWorkspaceSize(x, dim0, true, ACL_FLOAT, o, w, e);
       }},
      {"Amax",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnAmaxGetWorkspaceSize(x, dim0, true, o, w, e);
       }},
      {"ArgMax",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnArgMaxGetWorkspaceSize(x, 0, true, index.get(), w, e);
       }},
      // activation/softmax_v2, norm/layer_norm_v4, norm/rms_norm.
      {"Softmax",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnSoftmaxGetWorkspaceSize(x, 0, o, w, e);
       }},
      {"LayerNorm",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnLayerNormGetWorkspaceSize(x, norm_shape, nullptr, nullptr,
                                               1e-5, o, nullptr, nullptr, w, e);
       }},
      {"LayerNormWithImplMode",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnLayerNormWithImplModeGetWorkspaceSize(
             x, norm_shape, nullptr, nullptr, 1e-5, o, nullptr, nullptr, 0, w,
             e);
       }},
      {"FastLayerNorm",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnFastLayerNormGetWorkspaceSize(
             x, norm_shape, nullptr, nullptr, 1e-5, o, nullptr, nullptr, w, e);
       }},
      // conversion/concat_d (Cat), conversion/transpose (Permute),
      // index/embedding.
      {"Cat",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnCatGetWorkspaceSize(list, 0, joined.get(), w, e);
       }},
      {"Permute",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnPermuteGetWorkspaceSize(x, perm, o, w, e);
       }},
      {"Embedding(indices)",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnEmbeddingGetWorkspaceSize(two_d.get(), index.get(), o, w,
                                               e);
       }},
      {"Embedding(weight)",
       [&](uint64_t* w, aclOpExecutor** e) {
         return aclnnEmbeddingGetWorkspaceSize(x, index_2d.get(), o, w, e);
       }},
  };
  for (const auto& [name, plan] : plans) ExpectRefused(name, plan);
  // norm/rms_norm's error table names 561002 for parameters outside its
  // table (x: 1 to 8 dimensions).
  ExpectRefused(
      "RmsNorm",
      [&](uint64_t* w, aclOpExecutor** e) {
        return aclnnRmsNormGetWorkspaceSize(x, one_d.get(), 1e-6, o, o, w, e);
      },
      ACLNN_ERR_INNER_TILING_ERROR);
  aclDestroyTensorList(list);
  aclDestroyIntArray(dim0);
  aclDestroyIntArray(norm_shape);
  aclDestroyIntArray(perm);
}

// math/zero_op (InplaceZero): its page sets no rank limit, so a tensor of
// more than 8 dimensions is zeroed; only a view whose dimensions do not
// merge into 8 is beyond the simulator's kernels (161002, DESIGN.md §5.26).
TEST_F(RankLimitsTest, InplaceZeroTakesAnyRankThatMergesIntoEight) {
  DeviceTensor big(std::vector<int64_t>{2, 1, 3, 1, 1, 2, 1, 1, 1, 2, 1},
                   ACL_FLOAT, std::vector<double>(24, 5.0));
  ASSERT_EQ(RunOp(
                stream_,
                [&](uint64_t* w, aclOpExecutor** e) {
                  return aclnnInplaceZeroGetWorkspaceSize(big.get(), w, e);
                },
                aclnnInplaceZero),
            0);
  EXPECT_EQ(big.Read(), std::vector<double>(24, 0.0));
  // Nine dimensions of 2 whose strides (3^k) merge with none.
  std::vector<int64_t> shape(9, 2), strides(9, 1);
  for (int d = 7; d >= 0; --d) strides[d] = strides[d + 1] * 3;
  DeviceTensor gaps(shape, strides, 0, ACL_FLOAT,
                    std::vector<double>(9842, 5.0));
  ExpectRefused("InplaceZero(9 unmerged)", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnInplaceZeroGetWorkspaceSize(gaps.get(), w, e);
  });
  EXPECT_EQ(gaps.ReadStorage(), std::vector<double>(9842, 5.0));
}

// matmul/mat_mul_v3 (Matmul: 1 to 6 dimensions; Mm: 2) and
// batch_mat_mul_v3 (BatchMatMul: 3).
TEST_F(RankLimitsTest, MatrixProductsRefuseTheRanksTheirPagesRefuse) {
  DeviceTensor seven = Ones(7), seven_out = Ones(7);
  DeviceTensor three = Ones(3), four = Ones(4), two = Ones(2);
  ExpectRefused("Matmul", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnMatmulGetWorkspaceSize(seven.get(), seven.get(),
                                       seven_out.get(), 0, w, e);
  });
  ExpectRefused("Mm", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnMmGetWorkspaceSize(three.get(), three.get(), three.get(), 0, w,
                                   e);
  });
  ExpectRefused("BatchMatMul", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnBatchMatMulGetWorkspaceSize(four.get(), four.get(), four.get(),
                                            0, w, e);
  });
  ExpectRefused("BatchMatMul(2-D)", [&](uint64_t* w, aclOpExecutor** e) {
    return aclnnBatchMatMulGetWorkspaceSize(two.get(), two.get(), two.get(), 0,
                                            w, e);
  });
}

}  // namespace
}  // namespace ascend::nn::testing
