// Operators and the data dump (DESIGN.md §5.25): aclDumpOpTensors, and the
// report of every operator an executor runs, both through the runtime's
// dump interface (ascendcl/dump.h, exported by libascendcl.so). When the
// dump wants nothing, the report costs one call that answers 0.
#include "ascendcl/dump.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl_dump.h"
#include "aclnn/acl_meta.h"
#include "aclnn/nnopbase/dtype.h"
#include "aclnn/nnopbase/entry.h"
#include "aclnn/nnopbase/executor.h"
#include "aclnn/nnopbase/objects.h"

namespace ascend::nn {
namespace {

acldumpTensorInfo Info(const DumpDesc& d, acldumpTensorType type,
                       void* storage) {
  acldumpTensorInfo t;
  std::memset(&t, 0, sizeof t);
  t.type = type;
  t.tensorSize = d.bytes;
  t.format = d.format;
  t.dataType = d.dtype;
  t.tensorAddr = reinterpret_cast<int64_t*>(static_cast<uint8_t*>(storage) +
                                            d.byte_offset);
  t.addrType = ACL_DUMP_ADDR_RAW;
  t.placement = ACL_DUMP_PLACEMENT_DEVICE;
  const size_t dims = std::min<size_t>(d.shape.size(), ACL_DUMP_MAX_SHAPE_NUM);
  t.shapeNum = static_cast<uint32_t>(dims);
  t.originShapeNum = static_cast<uint32_t>(dims);
  for (size_t i = 0; i < dims; ++i) {
    t.shape[i] = static_cast<uint64_t>(d.shape[i]);
    t.originShape[i] = static_cast<uint64_t>(d.shape[i]);
  }
  return t;
}

}  // namespace

DumpDesc DescribeForDump(const aclTensor* t) {
  DumpDesc d;
  if (t == nullptr || t->data == nullptr) return d;
  d.present = true;
  d.dtype = t->dtype;
  d.format = t->format;
  d.shape = t->view_shape;
  const int64_t element = static_cast<int64_t>(ElementSize(t->dtype));
  d.byte_offset = t->offset * element;
  // The elements the view reaches, from its first one.
  int64_t extent = t->Numel() > 0 ? 1 : 0;
  if (extent > 0) {
    for (size_t i = 0; i < t->view_shape.size(); ++i) {
      extent += (t->view_shape[i] - 1) * std::max<int64_t>(t->strides[i], 0);
    }
  }
  d.bytes = static_cast<uint64_t>(extent * element);
  return d;
}

void ReportToDump(const char* api, const aclOpExecutor& executor,
                  aclrtStream stream) {
  if (ascendclDumpOperatorSwitch() == 0) return;
  std::vector<acldumpTensorInfo> tensors;
  for (size_t i = 0; i < executor.input_descs.size(); ++i) {
    const DumpDesc& d = executor.input_descs[i];
    if (d.present && d.bytes > 0 && executor.inputs[i] != nullptr) {
      tensors.push_back(Info(d, ACL_DUMP_TENSOR_INPUT, executor.inputs[i]));
    }
  }
  for (size_t i = 0; i < executor.output_descs.size(); ++i) {
    const DumpDesc& d = executor.output_descs[i];
    if (d.present && d.bytes > 0 && executor.outputs[i] != nullptr) {
      tensors.push_back(Info(d, ACL_DUMP_TENSOR_OUTPUT, executor.outputs[i]));
    }
  }
  // The executor is named by its first phase ("aclnnAddGetWorkspaceSize"):
  // the operator is aclnnAdd, of type Add.
  std::string name = executor.op_name;
  const std::string phase = "GetWorkspaceSize";
  if (name.size() > phase.size() &&
      name.compare(name.size() - phase.size(), phase.size(), phase) == 0) {
    name.resize(name.size() - phase.size());
  }
  const std::string type =
      name.rfind("aclnn", 0) == 0 && name.size() > 5 ? name.substr(5) : name;
  const aclError ret = ascendclDumpOperator(
      type.c_str(), name.c_str(), tensors.data(), tensors.size(), stream);
  if (ret != ACL_SUCCESS) {
    LogError(api, "the data dump refused the operator's tensors with error " +
                      std::to_string(ret));
  }
}

}  // namespace ascend::nn

using ascend::nn::IsTensor;

extern "C" {

aclnnStatus aclDumpOpTensors(const char* opType, const char* opName,
                             aclTensor** tensors, size_t inputTensorNum,
                             size_t outputTensorNum, aclrtStream stream) try {
  ACLNN_REQUIRE(opType != nullptr && opName != nullptr, ACLNN_ERR_PARAM_NULLPTR,
                "opType and opName must not be null");
  const size_t count = inputTensorNum + outputTensorNum;
  ACLNN_REQUIRE(tensors != nullptr || count == 0, ACLNN_ERR_PARAM_NULLPTR,
                "tensors must not be null");
  for (size_t i = 0; i < count; ++i) {
    ACLNN_REQUIRE(IsTensor(tensors[i]), ACLNN_ERR_PARAM_NULLPTR,
                  "tensors[" + std::to_string(i) + "] is not a tensor");
  }
  // Only when the operator dump is on (CANN's rule); 0 and nothing else.
  if ((ascendclDumpOperatorSwitch() & ASCENDCL_DUMP_OPERATOR_DATA) == 0) {
    return ACLNN_SUCCESS;
  }
  std::vector<acldumpTensorInfo> infos;
  for (size_t i = 0; i < count; ++i) {
    const ascend::nn::DumpDesc d = ascend::nn::DescribeForDump(tensors[i]);
    if (!d.present || d.bytes == 0) continue;
    infos.push_back(ascend::nn::Info(
        d, i < inputTensorNum ? ACL_DUMP_TENSOR_INPUT : ACL_DUMP_TENSOR_OUTPUT,
        tensors[i]->data));
  }
  const aclError ret =
      ascendclDumpOperator(opType, opName, infos.data(), infos.size(), stream);
  ACLNN_REQUIRE(
      ret == ACL_SUCCESS, ACLNN_ERR_PARAM_INVALID,
      "the data dump refused the tensors with error " + std::to_string(ret));
  return ACLNN_SUCCESS;
}
ACLNN_ENTRY_CATCH(ACLNN_ERR_INNER)

}  // extern "C"
