// The one-input operators against a float64 reference, and the rules of
// their pages: hicann/ops-math math/neg/docs/aclnnNeg&aclnnInplaceNeg.md,
// math/abs/docs/aclnnAbs.md, math/exp/docs/aclnnExp&aclnnInplaceExp.md,
// math/log/docs/aclnnLog&aclnnInplaceLog.md,
// math/sqrt/docs/aclnnSqrt&aclnnInplaceSqrt.md,
// math/rsqrt/docs/aclnnRsqrt&aclnnInplaceRsqrt.md,
// math/tanh/docs/aclnnTanh&aclnnInplaceTanh.md; hicann/ops-nn
// activation/relu/docs/aclnnRelu&aclnnInplaceRelu.md,
// activation/sigmoid/docs/aclnnSigmoid&aclnnInplaceSigmoid.md,
// activation/swish/docs/aclnnSilu.md, activation/gelu/docs/aclnnGelu.md
// (the parameter tables, the error-code tables, and the conversion rule of
// docs/zh/context/conversion_relationship.md).
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "aclnn/testing/op_test_util.h"
#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_rsqrt.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_tanh.h"
#include "gtest/gtest.h"

namespace ascend::nn::testing {
namespace {

using PlanFn = aclnnStatus (*)(const aclTensor*, aclTensor*, uint64_t*,
                               aclOpExecutor**);
using InplaceFn = aclnnStatus (*)(aclTensor*, uint64_t*, aclOpExecutor**);
using RunFn = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);

const double kNan = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

bool IsFloat(aclDataType t) {
  return t == ACL_FLOAT || t == ACL_FLOAT16 || t == ACL_BF16 || t == ACL_DOUBLE;
}

double Sigmoid(double x) { return 1 / (1 + std::exp(-x)); }
double Silu(double x) { return x / (1 + std::exp(-x)); }
double GeluTanh(double x) {
  return 0.5 * x *
         (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
}
double GeluErf(double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2))); }

// One operator as its page describes it.
struct Case {
  const char* name;
  PlanFn plan;
  RunFn run;
  InplaceFn inplace_plan;  // null: no Inplace form
  RunFn inplace_run;
  double (*ref)(double);
  std::vector<aclDataType> self_types;     // the page's list (A2, real)
  std::vector<aclDataType> inplace_types;  // selfRef's list
  bool float_for_integers;       // integer and BOOL inputs give a FLOAT result
  double lo, hi;                 // the inputs' range
  std::vector<double> specials;  // extra floating inputs (NaN, inf results)
};

aclnnStatus ReluPlan(const aclTensor* s, aclTensor* o, uint64_t* w,
                     aclOpExecutor** e) {
  return aclnnReluGetWorkspaceSize(s, o, w, e);
}

const std::vector<aclDataType> kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE,
                                          ACL_BF16};
const std::vector<aclDataType> kFloat32s = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const std::vector<aclDataType> kMathSelf = {
    ACL_BOOL,  ACL_INT64, ACL_INT32,   ACL_INT16,  ACL_INT8,
    ACL_UINT8, ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16};

std::vector<Case> Cases() {
  return {
      {"Neg",
       aclnnNegGetWorkspaceSize,
       aclnnNeg,
       aclnnInplaceNegGetWorkspaceSize,
       aclnnInplaceNeg,
       [](double x) { return -x; },
       {ACL_INT8, ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_BF16, ACL_FLOAT,
        ACL_DOUBLE},
       {ACL_INT8, ACL_INT32, ACL_INT64, ACL_FLOAT16, ACL_BF16, ACL_FLOAT,
        ACL_DOUBLE},
       false,
       -20,
       20,
       {}},
      {"Abs",
       aclnnAbsGetWorkspaceSize,
       aclnnAbs,
       nullptr,
       nullptr,
       [](double x) { return std::fabs(x); },
       {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16, ACL_INT8, ACL_INT16,
        ACL_INT32, ACL_INT64, ACL_UINT8, ACL_BOOL},
       {},
       false,
       -20,
       20,
       {}},
      {"Exp",
       aclnnExpGetWorkspaceSize,
       aclnnExp,
       aclnnInplaceExpGetWorkspaceSize,
       aclnnInplaceExp,
       [](double x) { return std::exp(x); },
       {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BOOL, ACL_INT64, ACL_BF16},
       kFloats,
       true,
       -8,
       8,
       {-kInf}},
      {"Log",
       aclnnLogGetWorkspaceSize,
       aclnnLog,
       aclnnInplaceLogGetWorkspaceSize,
       aclnnInplaceLog,
       [](double x) { return std::log(x); },
       kMathSelf,
       kFloats,
       true,
       0.05,
       40,
       {0, -1}},
      {"Sqrt",
       aclnnSqrtGetWorkspaceSize,
       aclnnSqrt,
       aclnnInplaceSqrtGetWorkspaceSize,
       aclnnInplaceSqrt,
       [](double x) { return std::sqrt(x); },
       kMathSelf,
       kFloats,
       true,
       0,
       40,
       {-4}},
      {"Rsqrt",
       aclnnRsqrtGetWorkspaceSize,
       aclnnRsqrt,
       aclnnInplaceRsqrtGetWorkspaceSize,
       aclnnInplaceRsqrt,
       [](double x) { return 1 / std::sqrt(x); },
       kMathSelf,
       kFloats,
       true,
       0.05,
       40,
       {0, -4}},
      {"Tanh",
       aclnnTanhGetWorkspaceSize,
       aclnnTanh,
       aclnnInplaceTanhGetWorkspaceSize,
       aclnnInplaceTanh,
       [](double x) { return std::tanh(x); },
       {ACL_FLOAT, ACL_FLOAT16, ACL_BOOL, ACL_UINT8, ACL_INT8, ACL_INT16,
        ACL_INT32, ACL_INT64, ACL_BF16},
       kFloat32s,
       true,
       -5,
       5,
       {}},
      {"Relu",
       ReluPlan,
       aclnnRelu,
       aclnnInplaceReluGetWorkspaceSize,
       aclnnInplaceRelu,
       [](double x) { return x > 0 || x != x ? x : 0; },
       {ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_INT32, ACL_INT64, ACL_BF16},
       {ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_INT32, ACL_INT64, ACL_BF16,
        ACL_UINT8},
       false,
       -20,
       20,
       {}},
      {"Sigmoid",
       aclnnSigmoidGetWorkspaceSize,
       aclnnSigmoid,
       aclnnInplaceSigmoidGetWorkspaceSize,
       aclnnInplaceSigmoid,
       Sigmoid,
       kFloat32s,
       kFloats,
       false,
       -10,
       10,
       {}},
      {"Silu",
       aclnnSiluGetWorkspaceSize,
       aclnnSilu,
       nullptr,
       nullptr,
       Silu,
       kFloat32s,
       {},
       false,
       -10,
       10,
       {}},
      {"Gelu",
       aclnnGeluGetWorkspaceSize,
       aclnnGelu,
       nullptr,
       nullptr,
       GeluTanh,
       kFloat32s,
       {},
       false,
       -5,
       5,
       {}},
  };
}

// n inputs spread over [lo, hi] as type t holds them (integers rounded and
// kept in t's range), then the specials for floating types.
std::vector<double> Inputs(const Case& c, aclDataType t, int n = 37) {
  std::vector<double> v;
  if (t == ACL_BOOL) return {0, 1, 1, 0};
  double lo = c.lo, hi = c.hi;
  if (t == ACL_UINT8) lo = std::max(lo, 0.0);
  for (int i = 0; i < n; ++i) {
    double x = lo + (hi - lo) * i / (n - 1);
    if (!IsFloat(t)) x = std::round(x);
    v.push_back(RoundTo(x, t));
  }
  if (IsFloat(t)) {
    for (double s : c.specials) v.push_back(s);
    v.push_back(kNan);
  }
  return v;
}

// The out type the page's rules give for a self of type t.
aclDataType OutFor(const Case& c, aclDataType t) {
  return IsFloat(t) || !c.float_for_integers ? t : ACL_FLOAT;
}

std::vector<double> Reference(const Case& c, const std::vector<double>& in,
                              aclDataType out) {
  std::vector<double> want;
  for (double x : in) want.push_back(RoundTo(c.ref(x), out));
  return want;
}

class UnaryOps : public OpTest {
 protected:
  int Run(const Case& c, const DeviceTensor& self, const DeviceTensor& out) {
    return RunOp(
        stream_,
        [&](uint64_t* ws, aclOpExecutor** e) {
          return c.plan(self.get(), out.get(), ws, e);
        },
        c.run);
  }
  int RunInplace(const Case& c, const DeviceTensor& self) {
    return RunOp(
        stream_,
        [&](uint64_t* ws, aclOpExecutor** e) {
          return c.inplace_plan(self.get(), ws, e);
        },
        c.inplace_run);
  }
  // The first phase's code alone (the executor of a success is run, so
  // nothing leaks).
  int Plan(const Case& c, const aclTensor* self, aclTensor* out) {
    uint64_t ws = 0;
    aclOpExecutor* e = nullptr;
    const int ret = c.plan(self, out, &ws, &e);
    if (ret == 0) {
      EXPECT_EQ(c.run(nullptr, 0, e, stream_), 0);  // no workspace needed
      EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    }
    return ret;
  }
};

Case Find(const char* name) {
  for (const Case& c : Cases()) {
    if (std::string(c.name) == name) return c;
  }
  ADD_FAILURE() << "no case " << name;
  return Cases()[0];
}

// Every operator, every type its page lists for self on Atlas A2 (complex
// excepted): out = op(self) within the test kit's tolerance of the float64
// reference rounded to out's type. Integer and BOOL inputs of Exp, Log,
// Sqrt, Rsqrt and Tanh give FLOAT results.
TEST_F(UnaryOps, EveryListedTypeMatchesTheReference) {
  for (const Case& c : Cases()) {
    for (aclDataType t : c.self_types) {
      SCOPED_TRACE(std::string(c.name) + " type " + std::to_string(t));
      const std::vector<double> in = Inputs(c, t);
      const aclDataType ot = OutFor(c, t);
      const int64_t n = static_cast<int64_t>(in.size());
      DeviceTensor x({n}, t, in), out({n}, ot, std::vector<double>(n, 0));
      ASSERT_EQ(Run(c, x, out), 0);
      ExpectNear(out.Read(), Reference(c, in, ot), ot);
    }
  }
}

// The Inplace forms: selfRef = op(selfRef) for every type of their lists.
TEST_F(UnaryOps, InplaceFormsMatchTheReference) {
  for (const Case& c : Cases()) {
    if (c.inplace_plan == nullptr) continue;
    for (aclDataType t : c.inplace_types) {
      SCOPED_TRACE(std::string(c.name) + " in place, type " +
                   std::to_string(t));
      const std::vector<double> in = Inputs(c, t);
      DeviceTensor x({static_cast<int64_t>(in.size())}, t, in);
      ASSERT_EQ(RunInplace(c, x), 0);
      ExpectNear(x.Read(), Reference(c, in, t), t);
    }
  }
}

// The pages' 非连续Tensor column: a transposed input with a storage offset
// and an output that is every other element of its storage; the gaps stay.
TEST_F(UnaryOps, EveryOperatorReadsAndWritesStridedViews) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    const std::vector<double> storage = {-1, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5};
    // x = the transpose of a 3x2 matrix stored after one element.
    DeviceTensor x({2, 3}, {1, 2}, 1, ACL_FLOAT, storage);
    DeviceTensor out({2, 3}, {6, 2}, 0, ACL_FLOAT, std::vector<double>(12, -7));
    ASSERT_EQ(Run(c, x, out), 0);
    ExpectNear(out.Read(),
               Reference(c, {0.5, 2.5, 4.5, 1.5, 3.5, 5.5}, ACL_FLOAT),
               ACL_FLOAT);
    const std::vector<double> all = out.ReadStorage();
    for (int i = 1; i < 12; i += 2) EXPECT_EQ(all[i], -7) << i;
    if (c.inplace_plan == nullptr) continue;
    // In place on a strided view: only the view's elements change.
    DeviceTensor y({3}, {2}, 1, ACL_FLOAT, {9, 0.5, 9, 1.5, 9, 2.5});
    ASSERT_EQ(RunInplace(c, y), 0);
    ExpectNear(y.Read(), Reference(c, {0.5, 1.5, 2.5}, ACL_FLOAT), ACL_FLOAT);
    const std::vector<double> ys = y.ReadStorage();
    EXPECT_EQ(ys[0], 9);
    EXPECT_EQ(ys[2], 9);
    EXPECT_EQ(ys[4], 9);
  }
}

// Empty tensors (the pages' 支持空Tensor) succeed and touch nothing; a 0-d
// tensor is one element.
TEST_F(UnaryOps, EmptyAndZeroDimensionalTensors) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    DeviceTensor x({2, 0}, ACL_FLOAT, {}), out({2, 0}, ACL_FLOAT, {});
    EXPECT_EQ(Run(c, x, out), 0);
    DeviceTensor s({}, ACL_FLOAT, {1.25}), r({}, ACL_FLOAT, {0});
    ASSERT_EQ(Run(c, s, r), 0);
    ExpectNear(r.Read(), {RoundTo(c.ref(1.25), ACL_FLOAT)}, ACL_FLOAT);
  }
}

// Every operator's error table: 161001 for a null self, out, workspaceSize
// or executor; 161002 for a self type outside the list, an out type
// outside the list, an out of another shape, a private format; 561103 from
// the second phase for a null executor.
TEST_F(UnaryOps, EveryOperatorRefusesWhatItsPageRefuses) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    DeviceTensor x({2, 3}, ACL_FLOAT, {1, 2, 3, 4, 5, 6});
    DeviceTensor out({2, 3}, ACL_FLOAT, std::vector<double>(6, -3));
    uint64_t ws = 0;
    aclOpExecutor* e = nullptr;
    EXPECT_EQ(c.plan(nullptr, out.get(), &ws, &e), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(c.plan(x.get(), nullptr, &ws, &e), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(c.plan(x.get(), out.get(), nullptr, &e), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(c.plan(x.get(), out.get(), &ws, nullptr),
              ACLNN_ERR_PARAM_NULLPTR);
    // UINT16 is on no page; complex types compute nowhere in the simulator.
    DeviceTensor u16({2, 3}, ACL_UINT16, {1, 2, 3, 4, 5, 6});
    EXPECT_EQ(Plan(c, u16.get(), out.get()), ACLNN_ERR_PARAM_INVALID);
    DeviceTensor pairs({12}, ACL_FLOAT, std::vector<double>(12));
    const int64_t dims[2] = {2, 3}, storage[1] = {6};
    aclTensor* c64 = aclCreateTensor(dims, 2, ACL_COMPLEX64, nullptr, 0,
                                     ACL_FORMAT_ND, storage, 1, pairs.data());
    EXPECT_EQ(Plan(c, x.get(), c64), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(Plan(c, c64, out.get()), ACLNN_ERR_PARAM_INVALID);
    aclDestroyTensor(c64);
    DeviceTensor wrong({3, 2}, ACL_FLOAT, std::vector<double>(6));
    EXPECT_EQ(Plan(c, x.get(), wrong.get()), ACLNN_ERR_PARAM_INVALID);
    DeviceTensor flat({6}, ACL_FLOAT, std::vector<double>(6));
    EXPECT_EQ(Plan(c, x.get(), flat.get()), ACLNN_ERR_PARAM_INVALID);
    aclTensor* nz =
        aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_FRACTAL_NZ,
                        storage, 1, x.data());
    EXPECT_EQ(Plan(c, nz, out.get()), ACLNN_ERR_PARAM_INVALID);
    aclDestroyTensor(nz);
    // A refusal writes nothing.
    ExpectNear(out.Read(), std::vector<double>(6, -3), ACL_FLOAT);
    EXPECT_EQ(c.run(nullptr, 0, nullptr, stream_), ACLNN_ERR_INNER_NULLPTR);
    if (c.inplace_plan == nullptr) continue;
    EXPECT_EQ(c.inplace_plan(nullptr, &ws, &e), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(c.inplace_plan(x.get(), nullptr, &e), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(c.inplace_plan(u16.get(), &ws, &e), ACLNN_ERR_PARAM_INVALID);
  }
}

// aclnnAbs, aclnnRelu, aclnnSilu, aclnnGelu: out has self's type (their
// error tables: "self和out的数据类型不一致"), even where the result would
// convert.
TEST_F(UnaryOps, SameTypeOperatorsRefuseAnotherOutType) {
  DeviceTensor x({3}, ACL_FLOAT, {-1, 0, 1});
  DeviceTensor h({3}, ACL_FLOAT16, {0, 0, 0});
  for (const char* name : {"Abs", "Relu", "Silu", "Gelu"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(Plan(Find(name), x.get(), h.get()), ACLNN_ERR_PARAM_INVALID);
  }
  // Relu lists no UINT8 self (its Inplace form does: max(x, 0) = x).
  DeviceTensor u({3}, ACL_UINT8, {0, 7, 255}), uo({3}, ACL_UINT8, {1, 1, 1});
  EXPECT_EQ(Plan(Find("Relu"), u.get(), uo.get()), ACLNN_ERR_PARAM_INVALID);
  ASSERT_EQ(RunInplace(Find("Relu"), u), 0);
  ExpectNear(u.Read(), {0, 7, 255}, ACL_UINT8);
  // |x| of UINT8 and BOOL is x.
  ASSERT_EQ(Run(Find("Abs"), u, uo), 0);
  ExpectNear(uo.Read(), {0, 7, 255}, ACL_UINT8);
}

// conversion_relationship.md: the result converts to any out type the page
// lists: Neg of INT32 into FLOAT, of FLOAT into INT32 (toward zero);
// Sigmoid of FLOAT16 into FLOAT; Exp of INT64 into FLOAT16. Outside the out
// list (Exp into INT32, Neg into BOOL) is 161002.
TEST_F(UnaryOps, ResultsConvertToTheOutType) {
  DeviceTensor i({3}, ACL_INT32, {-2, 0, 7}), f({3}, ACL_FLOAT, {0, 0, 0});
  ASSERT_EQ(Run(Find("Neg"), i, f), 0);
  ExpectNear(f.Read(), {2, 0, -7}, ACL_FLOAT);
  DeviceTensor g({3}, ACL_FLOAT, {1.7, -2.5, 0.2}),
      k({3}, ACL_INT32, {9, 9, 9});
  ASSERT_EQ(Run(Find("Neg"), g, k), 0);
  ExpectNear(k.Read(), {-1, 2, 0}, ACL_INT32);
  DeviceTensor h({3}, ACL_FLOAT16, {-1, 0, 2});
  ASSERT_EQ(Run(Find("Sigmoid"), h, f), 0);
  ExpectNear(f.Read(), {Sigmoid(-1), 0.5, Sigmoid(2)}, ACL_FLOAT16);
  DeviceTensor l({3}, ACL_INT64, {0, 1, 3}), lh({3}, ACL_FLOAT16, {0, 0, 0});
  ASSERT_EQ(Run(Find("Exp"), l, lh), 0);
  ExpectNear(lh.Read(), {1, std::exp(1.0), std::exp(3.0)}, ACL_FLOAT16);
  DeviceTensor li({3}, ACL_INT32, {0, 0, 0});
  EXPECT_EQ(Plan(Find("Exp"), l.get(), li.get()), ACLNN_ERR_PARAM_INVALID);
  // Exp lists no INT32 self (only BOOL and INT64 of the integers).
  EXPECT_EQ(Plan(Find("Exp"), i.get(), f.get()), ACLNN_ERR_PARAM_INVALID);
  DeviceTensor b({3}, ACL_BOOL, {0, 0, 0});
  EXPECT_EQ(Plan(Find("Neg"), i.get(), b.get()), ACLNN_ERR_PARAM_INVALID);
  // Tanh's out list has no DOUBLE, Sigmoid's self list none either.
  DeviceTensor d({3}, ACL_DOUBLE, {0, 0, 0});
  EXPECT_EQ(Plan(Find("Tanh"), g.get(), d.get()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(Plan(Find("Sigmoid"), d.get(), f.get()), ACLNN_ERR_PARAM_INVALID);
  // Rsqrt of integers computes in out's type.
  DeviceTensor q({3}, ACL_INT16, {4, 16, 0}), qh({3}, ACL_FLOAT16, {0, 0, 0});
  ASSERT_EQ(Run(Find("Rsqrt"), q, qh), 0);
  ExpectNear(qh.Read(), {0.5, 0.25, kInf}, ACL_FLOAT16);
}

// The Inplace lists differ from self's: InplaceSigmoid takes DOUBLE
// (Sigmoid does not), InplaceExp/Log/Sqrt/Rsqrt/Tanh take only floating
// types, InplaceTanh no DOUBLE.
TEST_F(UnaryOps, InplaceListsAreTheirOwn) {
  DeviceTensor d({3}, ACL_DOUBLE, {-1, 0, 1});
  ASSERT_EQ(RunInplace(Find("Sigmoid"), d), 0);
  ExpectNear(d.Read(), {Sigmoid(-1), 0.5, Sigmoid(1)}, ACL_DOUBLE);
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  DeviceTensor l({3}, ACL_INT64, {1, 2, 3});
  for (const char* name : {"Exp", "Log", "Sqrt", "Rsqrt", "Tanh"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(Find(name).inplace_plan(l.get(), &ws, &e),
              ACLNN_ERR_PARAM_INVALID);
  }
  EXPECT_EQ(aclnnInplaceTanhGetWorkspaceSize(d.get(), &ws, &e),
            ACLNN_ERR_PARAM_INVALID);
  ExpectNear(l.Read(), {1, 2, 3}, ACL_INT64);  // untouched
}

// Integer arithmetic wraps as the hardware's does: -(-128) of INT8 is
// -128; Sqrt of an INT64 computes in DOUBLE; Sqrt of a negative is NaN.
TEST_F(UnaryOps, IntegerEdges) {
  DeviceTensor x({2}, ACL_INT8, {-128, 127}), o({2}, ACL_INT8, {0, 0});
  ASSERT_EQ(Run(Find("Neg"), x, o), 0);
  ExpectNear(o.Read(), {-128, -127}, ACL_INT8);
  ASSERT_EQ(Run(Find("Abs"), x, o), 0);
  ExpectNear(o.Read(), {-128, 127}, ACL_INT8);
  DeviceTensor big({2}, ACL_INT64, {1e15, -9}), r({2}, ACL_DOUBLE, {0, 0});
  ASSERT_EQ(Run(Find("Sqrt"), big, r), 0);
  ExpectNear(r.Read(), {std::sqrt(1e15), kNan}, ACL_DOUBLE);
}

// aclnnGelu.md's formula is the tanh form: at -2.5 and -3 it differs from
// the erf form by four times the FLOAT tolerance, and the result follows
// the tanh form.
TEST_F(UnaryOps, GeluIsTheTanhForm) {
  DeviceTensor x({2}, ACL_FLOAT, {-2.5, -3}), out({2}, ACL_FLOAT, {0, 0});
  ASSERT_EQ(Run(Find("Gelu"), x, out), 0);
  const std::vector<double> got = out.Read();
  ExpectNear(got, {GeluTanh(-2.5), GeluTanh(-3)}, ACL_FLOAT, 1e-5);
  for (int i = 0; i < 2; ++i) {
    const double v = i == 0 ? -2.5 : -3;
    EXPECT_GT(std::fabs(got[i] - GeluErf(v)), 3e-4) << v;
  }
}

// An out that overlaps self other than element for element (a view of the
// same storage shifted by one) reads self as it was: the input is copied
// to the workspace first. The same view in and out needs no workspace.
TEST_F(UnaryOps, OverlappingOutReadsTheInputAsItWas) {
  std::vector<double> storage(9);
  for (int i = 0; i < 9; ++i) storage[i] = i + 1;
  DeviceTensor buf({9}, ACL_FLOAT, storage);
  const int64_t n[1] = {8}, s[1] = {9};
  aclTensor* self = aclCreateTensor(n, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND,
                                    s, 1, buf.data());
  aclTensor* out = aclCreateTensor(n, 1, ACL_FLOAT, nullptr, 1, ACL_FORMAT_ND,
                                   s, 1, buf.data());
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  ASSERT_EQ(aclnnNegGetWorkspaceSize(self, out, &ws, &e), 0);
  EXPECT_GE(ws, 8 * sizeof(float));
  void* workspace = nullptr;
  ASSERT_EQ(aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_SUCCESS);
  ASSERT_EQ(aclnnNeg(workspace, ws, e, stream_), 0);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ExpectNear(buf.ReadStorage(), {1, -1, -2, -3, -4, -5, -6, -7, -8}, ACL_FLOAT);
  aclrtFree(workspace);
  // self as its own out: element for element, no workspace.
  ASSERT_EQ(aclnnNegGetWorkspaceSize(self, self, &ws, &e), 0);
  EXPECT_EQ(ws, 0u);
  ASSERT_EQ(aclnnNeg(nullptr, 0, e, stream_), 0);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ExpectNear(buf.ReadStorage(), {-1, 1, 2, 3, 4, 5, 6, 7, -8}, ACL_FLOAT);
  aclDestroyTensor(self);
  aclDestroyTensor(out);
}

}  // namespace
}  // namespace ascend::nn::testing
