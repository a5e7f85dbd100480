#include "aclnn/opapi/checks.h"

#include <string>

#include "aclnn/nnopbase/dtype.h"

namespace ascend::nn {

aclnnStatus CheckNotNull(
    const char* api,
    std::initializer_list<std::pair<const char*, const void*>> args) {
  for (const auto& [name, p] : args) {
    if (p == nullptr) {
      return Refuse(api, ACLNN_ERR_PARAM_NULLPTR,
                    std::string(name) + " is a null pointer");
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckTensor(const char* api, const char* name, const aclTensor* t) {
  if (t == nullptr) {
    return Refuse(api, ACLNN_ERR_PARAM_NULLPTR,
                  std::string(name) + " is a null pointer");
  }
  if (!IsTensor(t)) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  std::string(name) + " is not a tensor (destroyed?)");
  }
  if (t->data == nullptr && t->Numel() > 0) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  std::string(name) + " has " + std::to_string(t->Numel()) +
                      " elements but no device memory");
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckScalar(const char* api, const char* name, const aclScalar* s) {
  if (s == nullptr) {
    return Refuse(api, ACLNN_ERR_PARAM_NULLPTR,
                  std::string(name) + " is a null pointer");
  }
  if (!IsScalar(s)) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  std::string(name) + " is not a scalar (destroyed?)");
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckDtype(const char* api, const char* name, aclDataType t,
                       DtypeList allowed) {
  for (aclDataType a : allowed) {
    if (a == t) return ACLNN_SUCCESS;
  }
  std::string list;
  for (aclDataType a : allowed) {
    if (!list.empty()) list += ", ";
    list += DtypeName(a);
  }
  return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                std::string(name) + " has type " + DtypeName(t) +
                    "; it must be one of " + list);
}

aclnnStatus CheckMaxDims(const char* api, const char* name, const aclTensor* t,
                         int64_t max_dims) {
  if (t->Dims() > max_dims) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  std::string(name) + " has " + std::to_string(t->Dims()) +
                      " dimensions; at most " + std::to_string(max_dims) +
                      " are allowed");
  }
  return ACLNN_SUCCESS;
}

aclnnStatus BroadcastShapes(const char* api, const char* a_name,
                            const std::vector<int64_t>& a, const char* b_name,
                            const std::vector<int64_t>& b,
                            std::vector<int64_t>* out) {
  const size_t n = a.size() > b.size() ? a.size() : b.size();
  std::vector<int64_t> r(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t x = i + a.size() >= n ? a[i + a.size() - n] : 1;
    const int64_t y = i + b.size() >= n ? b[i + b.size() - n] : 1;
    if (x != y && x != 1 && y != 1) {
      return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                    std::string("the shapes of ") + a_name + " " +
                        ShapeString(a) + " and " + b_name + " " +
                        ShapeString(b) + " do not broadcast");
    }
    r[i] = x == 1 ? y : x;
  }
  *out = std::move(r);
  return ACLNN_SUCCESS;
}

aclnnStatus CheckShape(const char* api, const char* name, const aclTensor* t,
                       const std::vector<int64_t>& expected) {
  if (t->view_shape != expected) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  std::string(name) + " has shape " +
                      ShapeString(t->view_shape) + "; it must be " +
                      ShapeString(expected));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckCastable(const char* api, const char* name, aclDataType from,
                          const aclTensor* t) {
  if (!CanCast(from, t->dtype)) {
    return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                  std::string("the result type ") + DtypeName(from) +
                      " cannot be converted to " + name + "'s type " +
                      DtypeName(t->dtype));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckPlainFormat(const char* api, const char* name,
                             const aclTensor* t) {
  switch (t->format) {
    case ACL_FORMAT_ND:
    case ACL_FORMAT_NCHW:
    case ACL_FORMAT_NHWC:
    case ACL_FORMAT_NCDHW:
    case ACL_FORMAT_NDHWC:
    case ACL_FORMAT_NCL:
    case ACL_FORMAT_NC:
      return ACLNN_SUCCESS;
    default:
      return Refuse(api, ACLNN_ERR_PARAM_INVALID,
                    std::string(name) + " has format " +
                        std::to_string(t->format) +
                        "; only ND (and plain NCHW-style) layouts are taken");
  }
}

aclnnStatus CheckOutputs(const char* api, uint64_t* workspace_size,
                         aclOpExecutor** executor) {
  return CheckNotNull(
      api, {{"workspaceSize", workspace_size}, {"executor", executor}});
}

}  // namespace ascend::nn
