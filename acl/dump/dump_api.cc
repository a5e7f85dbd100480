// The data dump's C entry points in libascendcl.so (DESIGN.md §5.25): the
// aclmdl dump trio of acl_rt.h, and the ascendclDump* interface of
// ascendcl/dump.h that libascend_dump.so (acl_dump.h) and the operator
// library call. Codes follow CANN's dump library
// (docs/zh/api_ref/18_dump_configuration.md).
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "acl/api/api_util.h"
#include "acl/dump/dump_control.h"
#include "acl/lifecycle/config.h"
#include "acl/lifecycle/lifecycle.h"
#include "ascendcl/dump.h"
#include "glog/logging.h"
#include "runtime/dump/dump.h"

using ascend::acl::dump::ProcessDumpControl;
using ascend::rt::ReportError;
using ascend::rt::ReportErrorCode;

namespace {

aclError RequireAclInit(const char* api) {
  if (ascend::acl::ProcessLifecycle().ref_count() > 0) return ACL_SUCCESS;
  return ReportErrorCode(api, ACL_ERROR_UNINITIALIZE,
                         std::string("aclInit must be called before ") + api);
}

// The process runtime's dump family (creating the runtime).
ascend::rt::Dumps& Dumps() { return ascend::acl::Fam<ascend::rt::Dumps>(); }

bool ValidTensorType(const acldumpTensorInfo& t) {
  int32_t raw;
  std::memcpy(&raw, &t.type, sizeof raw);
  return raw == ACL_DUMP_TENSOR_INPUT || raw == ACL_DUMP_TENSOR_OUTPUT ||
         raw == ACL_DUMP_TENSOR_WORKSPACE;
}

int32_t Raw(const acldumpTensorAddressType& v) {
  return ascend::acl::RawEnum(v);
}
int32_t Raw(const acldumpTensorPlacement& v) { return ascend::acl::RawEnum(v); }

// Checks one tensor as acldumpSaveExceptionInfo does; "" when it is good.
std::string TensorProblem(const acldumpTensorInfo& t, size_t i) {
  const std::string name = absl::StrCat("tensors[", i, "].");
  if (t.shapeNum > ACL_DUMP_MAX_SHAPE_NUM) {
    return absl::StrCat(name, "shapeNum ", t.shapeNum, " exceeds ",
                        ACL_DUMP_MAX_SHAPE_NUM);
  }
  if (t.originShapeNum > ACL_DUMP_MAX_SHAPE_NUM) {
    return absl::StrCat(name, "originShapeNum ", t.originShapeNum, " exceeds ",
                        ACL_DUMP_MAX_SHAPE_NUM);
  }
  if (!ValidTensorType(t)) return name + "type is not an acldumpTensorType";
  if (Raw(t.addrType) != ACL_DUMP_ADDR_RAW) {
    return name + "addrType must be ACL_DUMP_ADDR_RAW";
  }
  if (Raw(t.placement) != ACL_DUMP_PLACEMENT_DEVICE) {
    return name + "placement must be ACL_DUMP_PLACEMENT_DEVICE";
  }
  if (t.tensorAddr == nullptr) return name + "tensorAddr must not be NULL";
  if (t.tensorSize == 0) return name + "tensorSize must be greater than 0";
  return "";
}

ascend::rt::DumpTensorSpec Spec(const acldumpTensorInfo& t, uint32_t index) {
  ascend::rt::DumpTensorSpec s;
  int32_t type;
  std::memcpy(&type, &t.type, sizeof type);
  s.role = type == ACL_DUMP_TENSOR_INPUT ? ascend::rt::dump::TensorRole::kInput
           : type == ACL_DUMP_TENSOR_OUTPUT
               ? ascend::rt::dump::TensorRole::kOutput
               : ascend::rt::dump::TensorRole::kWorkspace;
  s.data_type = t.dataType;
  s.format = t.format;
  s.address = t.tensorAddr;
  s.size = t.tensorSize;
  s.arg_index = index;
  s.shape.assign(t.shape, t.shape + t.shapeNum);
  s.origin_shape.assign(t.originShape, t.originShape + t.originShapeNum);
  return s;
}

// A file name with a ".." segment would leave the dump directory.
bool HasParentSegment(const char* name) {
  for (absl::string_view part : absl::StrSplit(name, '/')) {
    if (part == "..") return true;
  }
  return false;
}

}  // namespace

extern "C" {

// --- The aclmdl dump trio (acl_rt.h) ----------------------------------------

aclError aclmdlInitDump(void) try {
  if (aclError bad = RequireAclInit(__func__)) return bad;
  return ACL_RESULT(ProcessDumpControl().BeginRound());
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlSetDump(const char* dumpCfgPath) try {
  if (aclError bad = RequireAclInit(__func__)) return bad;
  // The round is checked before the argument, as CANN does; SetRound
  // checks it again under its lock.
  if (!ProcessDumpControl().RoundOpen()) {
    return ReportErrorCode(__func__, ACL_ERROR_DUMP_NOT_RUN,
                           "aclmdlInitDump must be called first");
  }
  ACL_REQUIRE_NOT_NULL(dumpCfgPath);
  absl::StatusOr<std::string> bytes = ascend::acl::ReadConfigFile(dumpCfgPath);
  if (!bytes.ok()) return ReportError(__func__, bytes.status());
  absl::StatusOr<ascend::acl::Config> config =
      ascend::acl::Config::Parse(*bytes);
  if (!config.ok()) return ReportError(__func__, config.status());
  return ACL_RESULT(ProcessDumpControl().SetRound(*bytes));
}
ACL_ENTRY_CATCH(aclError)

aclError aclmdlFinalizeDump(void) try {
  if (aclError bad = RequireAclInit(__func__)) return bad;
  return ACL_RESULT(ProcessDumpControl().EndRound());
}
ACL_ENTRY_CATCH(aclError)

// --- ascendcl/dump.h --------------------------------------------------------

uint32_t ascendclDumpOperatorSwitch(void) try {
  return ProcessDumpControl().OperatorSwitch();
}
ACL_ENTRY_CATCH(uint32_t)

aclError ascendclDumpOperator(const char* opType, const char* opName,
                              const acldumpTensorInfo* tensors, size_t count,
                              aclrtStream stream) try {
  ACL_GATE();
  if (opType == nullptr || opType[0] == '\0' || opName == nullptr ||
      opName[0] == '\0') {
    return ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                           "opType and opName must be non-empty strings");
  }
  if (tensors == nullptr && count > 0) {
    return ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                           "tensors must not be NULL");
  }
  for (size_t i = 0; i < count; ++i) {
    const acldumpTensorInfo& t = tensors[i];
    std::string problem;
    if (t.shapeNum > ACL_DUMP_MAX_SHAPE_NUM ||
        t.originShapeNum > ACL_DUMP_MAX_SHAPE_NUM) {
      problem = "more than ACL_DUMP_MAX_SHAPE_NUM dimensions";
    } else if (!ValidTensorType(t)) {
      problem = "a type that is not an acldumpTensorType";
    } else if (Raw(t.addrType) != ACL_DUMP_ADDR_RAW) {
      problem = "an address type other than ACL_DUMP_ADDR_RAW";
    } else if (t.tensorAddr == nullptr && t.tensorSize > 0) {
      problem = "a NULL address";
    }
    if (!problem.empty()) {
      return ReportErrorCode(__func__, ACL_ERROR_INVALID_PARAM,
                             absl::StrCat("tensors[", i, "] has ", problem));
    }
  }
  ascend::acl::dump::DumpControl& control = ProcessDumpControl();
  const uint32_t bits = control.OperatorSwitch();
  if (bits == 0) return ACL_SUCCESS;
  ascend::rt::OperatorDump op;
  op.op_type = opType;
  op.op_name = opName;
  for (size_t i = 0; i < count; ++i) {
    // Host tensors are not dumped (CANN's dump skips them too).
    if (Raw(tensors[i].placement) != ACL_DUMP_PLACEMENT_DEVICE ||
        tensors[i].tensorSize == 0) {
      continue;
    }
    op.tensors.push_back(Spec(tensors[i], static_cast<uint32_t>(i)));
  }
  if ((bits & ascend::acl::dump::kOperatorInfo) != 0) {
    control.RecordOperator(op);
  }
  if ((bits & ascend::acl::dump::kOperatorException) != 0) {
    if (aclError bad = ACL_RESULT(Dumps().NoteOperator(op, stream))) {
      return bad;
    }
  }
  if ((bits & ascend::acl::dump::kOperatorData) != 0) {
    return ACL_RESULT(Dumps().DumpOperator(std::move(op), stream));
  }
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError ascendclDumpRegCallback(int32_t (*messageCallback)(const acldumpChunk*,
                                                            int32_t),
                                 int32_t flag) try {
  if (messageCallback == nullptr) {
    return ReportErrorCode("acldumpRegCallback", ACL_ERROR_FAILURE,
                           "messageCallback must not be NULL");
  }
  if (flag != 0) {
    return ReportErrorCode("acldumpRegCallback", ACL_ERROR_FAILURE,
                           absl::StrCat("flag ", flag, " must be 0"));
  }
  if (!Dumps().RegisterCallback(messageCallback)) {
    LOG(WARNING) << "acldumpRegCallback: a callback is registered already; "
                    "this registration does not take effect";
  }
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

void ascendclDumpUnregCallback(void) try {
  if (ascend::rt::Runtime* runtime = ascend::rt::Runtime::GetIfCreated()) {
    ascend::rt::Dumps::Of(*runtime)->UnregisterCallback();
  }
}
ACL_ENTRY_CATCH(void)

const char* ascendclDumpGetPath(int32_t dumpType) try {
  return ProcessDumpControl().PathOf(dumpType);
}
ACL_ENTRY_CATCH(const char*)

aclError ascendclDumpSaveExceptionInfo(const char* fileName,
                                       const char* userTag,
                                       const acldumpTensorInfo* tensors,
                                       size_t tensorCount) try {
  ACL_GATE();
  const char* api = "acldumpSaveExceptionInfo";
  if (fileName == nullptr || fileName[0] == '\0') {
    return ReportErrorCode(api, ACL_ERROR_INVALID_PARAM,
                           "fileName must be a non-empty string");
  }
  if (HasParentSegment(fileName)) {
    return ReportErrorCode(
        api, ACL_ERROR_INVALID_PARAM,
        absl::StrCat("fileName ", fileName, " has a \"..\" segment"));
  }
  if (tensors == nullptr || tensorCount == 0) {
    return ReportErrorCode(api, ACL_ERROR_INVALID_PARAM,
                           "tensors must not be NULL and tensorCount must be "
                           "greater than 0");
  }
  ascend::acl::dump::DumpControl& control = ProcessDumpControl();
  if (!control.ExceptionEnabled()) {
    return ReportErrorCode(api, ACL_ERROR_FAILURE,
                           "exception dump is not enabled");
  }
  std::vector<ascend::rt::DumpTensorSpec> specs;
  for (size_t i = 0; i < tensorCount; ++i) {
    const std::string problem = TensorProblem(tensors[i], i);
    if (!problem.empty()) {
      return ReportErrorCode(api, ACL_ERROR_INVALID_PARAM, problem);
    }
    specs.push_back(Spec(tensors[i], static_cast<uint32_t>(i)));
  }
  const size_t length = std::strlen(fileName);
  if (fileName[0] == '/' || fileName[length - 1] == '/') {
    return ReportErrorCode(api, ACL_ERROR_FAILURE,
                           absl::StrCat("fileName ", fileName,
                                        " does not name a file below the "
                                        "exception dump directory"));
  }
  absl::StatusOr<int32_t> device = ascend::acl::CurrentDeviceId();
  if (!device.ok()) {
    return ReportErrorCode(
        api, ACL_ERROR_FAILURE,
        absl::StrCat("no current device: ", device.status().message()));
  }
  absl::StatusOr<std::string> path = Dumps().SaveCustom(
      *device, fileName, userTag != nullptr ? userTag : "", specs);
  if (!path.ok()) {
    return ReportErrorCode(api, ACL_ERROR_FAILURE, path.status().message());
  }
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError ascendclDumpGetExceptionInfoPath(char* path, size_t maxLen) try {
  const char* api = "acldumpGetExceptionInfoPath";
  if (path == nullptr) {
    return ReportErrorCode(api, ACL_ERROR_INVALID_PARAM,
                           "path must not be NULL");
  }
  if (maxLen <= 1) {
    return ReportErrorCode(
        api, ACL_ERROR_INVALID_PARAM,
        absl::StrCat("maxLen ", maxLen, " must be greater than 1"));
  }
  if (!ProcessDumpControl().ExceptionEnabled()) {
    return ReportErrorCode(api, ACL_ERROR_FAILURE,
                           "exception dump is not enabled");
  }
  absl::StatusOr<int32_t> device = ascend::acl::CurrentDeviceId();
  if (!device.ok()) {
    return ReportErrorCode(
        api, ACL_ERROR_FAILURE,
        absl::StrCat("no current device: ", device.status().message()));
  }
  absl::StatusOr<std::string> directory = Dumps().ExceptionDirectory(*device);
  if (!directory.ok()) {
    return ReportErrorCode(api, ACL_ERROR_FAILURE,
                           directory.status().message());
  }
  if (directory->size() + 1 > maxLen) {
    return ReportErrorCode(
        api, ACL_ERROR_INVALID_PARAM,
        absl::StrCat("maxLen ", maxLen, " is below the ", directory->size() + 1,
                     " bytes the path needs"));
  }
  std::memcpy(path, directory->c_str(), directory->size() + 1);
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError ascendclDumpStartArgs(uint32_t dumpType, const char* path) try {
  const char* api = "aclopStartDumpArgs";
  if (path == nullptr) {
    return ReportErrorCode(api, ACL_ERROR_FAILURE, "path must not be NULL");
  }
  if ((dumpType & ACL_OP_DUMP_OP_AICORE_ARGS) == 0) {
    return ReportErrorCode(api, ACL_ERROR_FAILURE,
                           absl::StrCat("dumpType ", dumpType,
                                        " must include "
                                        "ACL_OP_DUMP_OP_AICORE_ARGS"));
  }
  absl::Status started = ProcessDumpControl().StartOperatorInfo(path);
  if (!started.ok()) {
    return ReportErrorCode(api, ACL_ERROR_FAILURE, started.message());
  }
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

aclError ascendclDumpStopArgs(uint32_t dumpType) try {
  if ((dumpType & ACL_OP_DUMP_OP_AICORE_ARGS) != 0) {
    ProcessDumpControl().StopOperatorInfo();
  }
  return ACL_SUCCESS;
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"

// --- acl_dump.h in libascendcl.so
// --------------------------------------------- CANN's header declares
// acldumpSaveExceptionInfo and acldumpGetExceptionInfoPath weak: a program that
// only calls those holds weak references, and a linker with --as-needed then
// drops libascend_dump.so, leaving them NULL. So the runtime exports every
// function of acl_dump.h too (the same behaviour as libascend_dump.so's,
// which forwards here); whichever library the loader finds first serves
// the call (DESIGN.md §5.25).
extern "C" {

aclError acldumpRegCallback(
    int32_t (*const messageCallback)(const acldumpChunk*, int32_t),
    int32_t flag) try {
  return ascendclDumpRegCallback(messageCallback, flag);
}
ACL_ENTRY_CATCH(aclError)

void acldumpUnregCallback(void) try { ascendclDumpUnregCallback(); }
ACL_ENTRY_CATCH(void)

aclError aclopStartDumpArgs(uint32_t dumpType, const char* path) try {
  return ascendclDumpStartArgs(dumpType, path);
}
ACL_ENTRY_CATCH(aclError)

aclError aclopStopDumpArgs(uint32_t dumpType) try {
  return ascendclDumpStopArgs(dumpType);
}
ACL_ENTRY_CATCH(aclError)

const char* acldumpGetPath(acldumpType dumpType) try {
  return ascendclDumpGetPath(ascend::acl::RawEnum(dumpType));
}
ACL_ENTRY_CATCH(const char*)

aclError acldumpSaveExceptionInfo(const char* fileName, const char* userTag,
                                  const acldumpTensorInfo* tensors,
                                  size_t tensorCount) try {
  return ascendclDumpSaveExceptionInfo(fileName, userTag, tensors, tensorCount);
}
ACL_ENTRY_CATCH(aclError)

aclError acldumpGetExceptionInfoPath(char* path, size_t maxLen) try {
  return ascendclDumpGetExceptionInfoPath(path, maxLen);
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
