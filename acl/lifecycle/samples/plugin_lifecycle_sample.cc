// Sample: a plugin hooks the ACL lifecycle with init and finalize callbacks.
//
// It registers two init and two finalize callbacks of type
// ACL_REG_TYPE_OTHER and cancels one of each before it can run, initialises
// ACL without a config file, uses device 0, then releases the device and
// its reference to ACL and unregisters everything. Each callback counts its
// calls; the sample checks that only the active ones ran, once each, and
// prints "VERDICT: PASS" (exit status 0) or "VERDICT: FAIL".
#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "acl/acl.h"
#include "acl/samples/common/sample_utils.h"

namespace {

struct CallCounts {
  int active_init = 0;
  int cancelled_init = 0;
  int active_finalize = 0;
  int cancelled_finalize = 0;
};

aclError ActiveInit(const char* config, size_t len, void* user_data) {
  (void)config;
  ++static_cast<CallCounts*>(user_data)->active_init;
  INFO_LOG("active init callback called with %zu config bytes", len);
  return ACL_SUCCESS;
}

aclError CancelledInit(const char* config, size_t len, void* user_data) {
  (void)config;
  (void)len;
  ++static_cast<CallCounts*>(user_data)->cancelled_init;
  ERROR_LOG("cancelled init callback was called");
  return ACL_SUCCESS;
}

aclError ActiveFinalize(void* user_data) {
  ++static_cast<CallCounts*>(user_data)->active_finalize;
  INFO_LOG("active finalize callback called");
  return ACL_SUCCESS;
}

aclError CancelledFinalize(void* user_data) {
  ++static_cast<CallCounts*>(user_data)->cancelled_finalize;
  ERROR_LOG("cancelled finalize callback was called");
  return ACL_SUCCESS;
}

bool Expect(const char* what, uint64_t actual, uint64_t expected) {
  bool ok = actual == expected;
  if (ok) {
    INFO_LOG("%s: %llu", what, static_cast<unsigned long long>(actual));
  } else {
    ERROR_LOG("%s: %llu, expected %llu", what,
              static_cast<unsigned long long>(actual),
              static_cast<unsigned long long>(expected));
  }
  return ok;
}

int RunPlugin(CallCounts* counts, uint64_t* reference) {
  const aclRegisterCallbackType type = ACL_REG_TYPE_OTHER;
  CHECK_ERROR(aclInitCallbackRegister(type, ActiveInit, counts));
  CHECK_ERROR(aclInitCallbackRegister(type, CancelledInit, counts));
  CHECK_ERROR(aclInitCallbackUnRegister(type, CancelledInit));
  INFO_LOG("init callbacks registered, one cancelled");

  CHECK_ERROR(aclInit(nullptr));
  INFO_LOG("ACL initialised");

  const int32_t device_id = 0;
  CHECK_ERROR(aclrtSetDevice(device_id));
  int32_t current = -1;
  CHECK_ERROR(aclrtGetDevice(&current));
  if (current != device_id) {
    ERROR_LOG("current device is %d, expected %d", current, device_id);
    return -1;
  }
  INFO_LOG("device %d is current", current);

  CHECK_ERROR(aclFinalizeCallbackRegister(type, ActiveFinalize, counts));
  CHECK_ERROR(aclFinalizeCallbackRegister(type, CancelledFinalize, counts));
  CHECK_ERROR(aclFinalizeCallbackUnRegister(type, CancelledFinalize));
  INFO_LOG("finalize callbacks registered, one cancelled");

  CHECK_ERROR(aclrtResetDeviceForce(device_id));
  // This process holds the only reference: releasing it finalizes ACL.
  CHECK_ERROR(aclFinalizeReference(reference));
  INFO_LOG("ACL reference released");

  CHECK_ERROR(aclInitCallbackUnRegister(type, ActiveInit));
  CHECK_ERROR(aclFinalizeCallbackUnRegister(type, ActiveFinalize));
  return 0;
}

}  // namespace

int main() {
  CallCounts counts;
  uint64_t reference = 1;
  bool pass = RunPlugin(&counts, &reference) == 0;
  pass = Expect("active init callback calls", counts.active_init, 1) && pass;
  pass =
      Expect("cancelled init callback calls", counts.cancelled_init, 0) && pass;
  pass = Expect("active finalize callback calls", counts.active_finalize, 1) &&
         pass;
  pass = Expect("cancelled finalize callback calls", counts.cancelled_finalize,
                0) &&
         pass;
  pass = Expect("ACL references left", reference, 0) && pass;
  return Verdict(pass);
}
