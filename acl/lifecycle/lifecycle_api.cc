// The C entry points of the ACL lifecycle (declared in acl/acl_rt.h): each
// maps its arguments onto ProcessLifecycle() and reports the status through
// runtime/base/error (the thread's last error, the log, the numeric code).
#include <cstring>

#include "acl/acl_rt.h"
#include "acl/dump/dump_control.h"
#include "acl/lifecycle/lifecycle.h"
#include "runtime/base/c_entry.h"
#include "runtime/base/error.h"
#include "runtime/base/logging.h"
#include "runtime/runtime.h"
#include "snapshot/coordinator.h"
#include "snapshot/image_file.h"

namespace {

using ::ascend::acl::CallbackType;
using ::ascend::acl::ProcessLifecycle;
using ::ascend::rt::ReportError;

// Callers may pass any integer as the type (types are not range-checked);
// copying the bits avoids loading an out-of-range value as the enum type.
// `type` is taken by reference: passing it by value would load it.
CallbackType Key(const aclRegisterCallbackType& type) {
  static_assert(sizeof(type) == sizeof(CallbackType));
  CallbackType key;
  std::memcpy(&key, &type, sizeof(key));
  return key;
}

// A finalised process keeps no snapshot image (DESIGN.md §4.15); one that
// never used the runtime has none.
void ReleaseSnapshotImages() {
  if (ascend::rt::Runtime::GetIfCreated() != nullptr) {
    ascend::snapshot::Coordinator::Get().ReleaseAtFinalize();
  }
  ascend::snapshot::internal::ImageStore::Configure(std::nullopt);
}

}  // namespace

extern "C" {

aclError aclInit(const char* configPath) try {
  ascend::rt::InitLogging();
  // The data dump reads the config's "dump" section (DESIGN.md §5.25).
  static const bool dump_wired = (ProcessLifecycle().SetConfigConsumer(
                                      &ascend::acl::dump::ProcessDumpControl()),
                                  true);
  static_cast<void>(dump_wired);
  const aclError ret =
      ReportError("aclInit", ProcessLifecycle().Init(configPath));
  if (ret == ACL_SUCCESS) ascend::rt::LogEvent("aclInit: initialised");
  return ret;
}
ACL_ENTRY_CATCH(aclError)

aclError aclFinalize(void) try {
  // Kernels already handed to a device run first, and print (DESIGN.md
  // §5.20); a process that never used the runtime has none.
  if (ascend::rt::Runtime* runtime = ascend::rt::Runtime::GetIfCreated()) {
    runtime->LetHandedWorkFinish("aclFinalize");
  }
  const aclError ret =
      ReportError("aclFinalize", ProcessLifecycle().Finalize());
  if (ret == ACL_SUCCESS) {
    ReleaseSnapshotImages();
    ascend::rt::LogEvent("aclFinalize: finalised");
  }
  return ret;
}
ACL_ENTRY_CATCH(aclError)

aclError aclFinalizeReference(uint64_t* refCount) try {
  const aclError ret = ReportError(
      "aclFinalizeReference", ProcessLifecycle().FinalizeReference(refCount));
  if (ret == ACL_SUCCESS && ProcessLifecycle().ref_count() == 0) {
    ReleaseSnapshotImages();
  }
  return ret;
}
ACL_ENTRY_CATCH(aclError)

aclError aclInitCallbackRegister(aclRegisterCallbackType type,
                                 aclInitCallbackFunc cbFunc,
                                 void* userData) try {
  return ReportError(
      "aclInitCallbackRegister",
      ProcessLifecycle().RegisterInitCallback(Key(type), cbFunc, userData));
}
ACL_ENTRY_CATCH(aclError)

aclError aclInitCallbackUnRegister(aclRegisterCallbackType type,
                                   aclInitCallbackFunc cbFunc) try {
  return ReportError(
      "aclInitCallbackUnRegister",
      ProcessLifecycle().UnregisterInitCallback(Key(type), cbFunc));
}
ACL_ENTRY_CATCH(aclError)

aclError aclFinalizeCallbackRegister(aclRegisterCallbackType type,
                                     aclFinalizeCallbackFunc cbFunc,
                                     void* userData) try {
  return ReportError(
      "aclFinalizeCallbackRegister",
      ProcessLifecycle().RegisterFinalizeCallback(Key(type), cbFunc, userData));
}
ACL_ENTRY_CATCH(aclError)

aclError aclFinalizeCallbackUnRegister(aclRegisterCallbackType type,
                                       aclFinalizeCallbackFunc cbFunc) try {
  return ReportError(
      "aclFinalizeCallbackUnRegister",
      ProcessLifecycle().UnregisterFinalizeCallback(Key(type), cbFunc));
}
ACL_ENTRY_CATCH(aclError)

}  // extern "C"
