// Add, Adds, InplaceAdd(s), Sub, Subs, InplaceSub(s), Mul, Muls,
// InplaceMul(s), Div, Divs, InplaceDiv(s), Maximum, Minimum
// (aclnnop/aclnn_add.h, aclnn_sub.h, aclnn_mul.h, aclnn_div.h,
// aclnn_maximum.h, aclnn_minimum.h).
#include "aclnn/opapi/binary_ops.h"
#include "aclnn/opapi/second_phase.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_minimum.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_sub.h"

namespace ascend::nn {
namespace {

// The types the pages list for Atlas A2 (complex types excepted: the
// simulator's kernels have no complex arithmetic; DESIGN.md §5.26).
constexpr DtypeList kArithTypes = {
    ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT32, ACL_INT64,
    ACL_INT16, ACL_INT8,    ACL_UINT8,  ACL_BOOL,  ACL_BF16};

BinarySpec Spec(const char* api, ElementOp op, bool alpha = false,
                bool true_division = false) {
  BinarySpec s{api, op, kArithTypes, alpha, true_division};
  return s;
}

}  // namespace
}  // namespace ascend::nn

using ascend::nn::ElementOp;
using ascend::nn::PlanBinary;
using ascend::nn::Spec;

extern "C" {

aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor* self,
                                     const aclTensor* other,
                                     const aclScalar* alpha, aclTensor* out,
                                     uint64_t* workspaceSize,
                                     aclOpExecutor** executor) try {
  return PlanBinary(Spec(__func__, ElementOp::kAdd, true), self, other, nullptr,
                    alpha, out, false, workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnAddsGetWorkspaceSize(const aclTensor* self,
                                      const aclScalar* other,
                                      const aclScalar* alpha, aclTensor* out,
                                      uint64_t* workspaceSize,
                                      aclOpExecutor** executor) try {
  return PlanBinary(Spec(__func__, ElementOp::kAdd, true), self, nullptr, other,
                    alpha, out, false, workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnInplaceAddGetWorkspaceSize(const aclTensor* selfRef,
                                            const aclTensor* other,
                                            const aclScalar* alpha,
                                            uint64_t* workspaceSize,
                                            aclOpExecutor** executor) try {
  return PlanBinary(Spec(__func__, ElementOp::kAdd, true), selfRef, other,
                    nullptr, alpha, nullptr, true, workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnInplaceAddsGetWorkspaceSize(const aclTensor* selfRef,
                                             const aclScalar* other,
                                             const aclScalar* alpha,
                                             uint64_t* workspaceSize,
                                             aclOpExecutor** executor) try {
  return PlanBinary(Spec(__func__, ElementOp::kAdd, true), selfRef, nullptr,
                    other, alpha, nullptr, true, workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnSubGetWorkspaceSize(const aclTensor* self,
                                     const aclTensor* other,
                                     const aclScalar* alpha, aclTensor* out,
                                     uint64_t* workspaceSize,
                                     aclOpExecutor** executor) try {
  return PlanBinary(Spec(__func__, ElementOp::kSub, true), self, other, nullptr,
                    alpha, out, false, workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnSubsGetWorkspaceSize(const aclTensor* self,
                                      const aclScalar* other,
                                      const aclScalar* alpha, aclTensor* out,
                                      uint64_t* workspaceSize,
                                      aclOpExecutor** executor) try {
  return PlanBinary(Spec(__func__, ElementOp::kSub, true), self, nullptr, other,
                    alpha, out, false, workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnInplaceSubGetWorkspaceSize(aclTensor* selfRef,
                                            const aclTensor* other,
                                            const aclScalar* alpha,
                                            uint64_t* workspaceSize,
                                            aclOpExecutor** executor) try {
  return PlanBinary(Spec(__func__, ElementOp::kSub, true), selfRef, other,
                    nullptr, alpha, nullptr, true, workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnInplaceSubsGetWorkspaceSize(aclTensor* selfRef,
                                             const aclScalar* other,
                                             const aclScalar* alpha,
                                             uint64_t* workspaceSize,
                                             aclOpExecutor** executor) try {
  return PlanBinary(Spec(__func__, ElementOp::kSub, true), selfRef, nullptr,
                    other, alpha, nullptr, true, workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor* self,
                                     const aclTensor* other, aclTensor* out,
                                     uint64_t* workspaceSize,
                                     aclOpExecutor** executor) try {
  return PlanBinary(Spec(__func__, ElementOp::kMul), self, other, nullptr,
                    nullptr, out, false, workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnMulsGetWorkspaceSize(const aclTensor* self,
                                      const aclScalar* other, aclTensor* out,
                                      uint64_t* workspaceSize,
                                      aclOpExecutor** executor) try {
  return PlanBinary(Spec(__func__, ElementOp::kMul), self, nullptr, other,
                    nullptr, out, false, workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnInplaceMulGetWorkspaceSize(aclTensor* selfRef,
                                            const aclTensor* other,
                                            uint64_t* workspaceSize,
                                            aclOpExecutor** executor) try {
  return PlanBinary(Spec(__func__, ElementOp::kMul), selfRef, other, nullptr,
                    nullptr, nullptr, true, workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnInplaceMulsGetWorkspaceSize(aclTensor* selfRef,
                                             const aclScalar* other,
                                             uint64_t* workspaceSize,
                                             aclOpExecutor** executor) try {
  return PlanBinary(Spec(__func__, ElementOp::kMul), selfRef, nullptr, other,
                    nullptr, nullptr, true, workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnDivGetWorkspaceSize(const aclTensor* self,
                                     const aclTensor* other, aclTensor* out,
                                     uint64_t* workspaceSize,
                                     aclOpExecutor** executor) try {
  return PlanBinary(Spec(__func__, ElementOp::kDiv, false, true), self, other,
                    nullptr, nullptr, out, false, workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnDivsGetWorkspaceSize(const aclTensor* self,
                                      const aclScalar* other, aclTensor* out,
                                      uint64_t* workspaceSize,
                                      aclOpExecutor** executor) try {
  return PlanBinary(Spec(__func__, ElementOp::kDiv, false, true), self, nullptr,
                    other, nullptr, out, false, workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnInplaceDivGetWorkspaceSize(aclTensor* selfRef,
                                            const aclTensor* other,
                                            uint64_t* workspaceSize,
                                            aclOpExecutor** executor) try {
  return PlanBinary(Spec(__func__, ElementOp::kDiv, false, true), selfRef,
                    other, nullptr, nullptr, nullptr, true, workspaceSize,
                    executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnInplaceDivsGetWorkspaceSize(aclTensor* selfRef,
                                             const aclScalar* other,
                                             uint64_t* workspaceSize,
                                             aclOpExecutor** executor) try {
  return PlanBinary(Spec(__func__, ElementOp::kDiv, false, true), selfRef,
                    nullptr, other, nullptr, nullptr, true, workspaceSize,
                    executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnMaximumGetWorkspaceSize(const aclTensor* self,
                                         const aclTensor* other, aclTensor* out,
                                         uint64_t* workspaceSize,
                                         aclOpExecutor** executor) try {
  return PlanBinary(Spec(__func__, ElementOp::kMaximum), self, other, nullptr,
                    nullptr, out, false, workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

aclnnStatus aclnnMinimumGetWorkspaceSize(const aclTensor* self,
                                         const aclTensor* other, aclTensor* out,
                                         uint64_t* workspaceSize,
                                         aclOpExecutor** executor) try {
  return PlanBinary(Spec(__func__, ElementOp::kMinimum), self, other, nullptr,
                    nullptr, out, false, workspaceSize, executor);
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

}  // extern "C"

ACLNN_SECOND_PHASE(aclnnAdd)
ACLNN_SECOND_PHASE(aclnnAdds)
ACLNN_SECOND_PHASE(aclnnInplaceAdd)
ACLNN_SECOND_PHASE(aclnnInplaceAdds)
ACLNN_SECOND_PHASE(aclnnSub)
ACLNN_SECOND_PHASE(aclnnSubs)
ACLNN_SECOND_PHASE(aclnnInplaceSub)
ACLNN_SECOND_PHASE(aclnnInplaceSubs)
ACLNN_SECOND_PHASE(aclnnMul)
ACLNN_SECOND_PHASE(aclnnMuls)
ACLNN_SECOND_PHASE(aclnnInplaceMul)
ACLNN_SECOND_PHASE(aclnnInplaceMuls)
ACLNN_SECOND_PHASE(aclnnDiv)
ACLNN_SECOND_PHASE(aclnnDivs)
ACLNN_SECOND_PHASE(aclnnInplaceDiv)
ACLNN_SECOND_PHASE(aclnnInplaceDivs)
ACLNN_SECOND_PHASE(aclnnMaximum)
ACLNN_SECOND_PHASE(aclnnMinimum)
