// Sample: several plugins share one ACL initialisation.
//
// Three plugins load one after the other. Each registers an init and a
// finalize callback (type ACL_REG_TYPE_OTHER) and calls aclInit: the first
// call initialises ACL, the later ones return ACL_ERROR_REPEAT_INITIALIZE
// and only add a reference, while their init callbacks, registered on an
// initialised ACL, run at once. The plugins then unload in reverse order,
// each releasing its reference with aclFinalizeReference; only the last
// release finalizes ACL and runs every finalize callback. Prints
// "VERDICT: PASS" (exit status 0) or "VERDICT: FAIL".
#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "acl/acl.h"
#include "acl/samples/common/sample_utils.h"

#define CHECK_TRUE(condition)                    \
  do {                                           \
    if (!(condition)) {                          \
      ERROR_LOG("Check failed: %s", #condition); \
      return -1;                                 \
    }                                            \
  } while (0)

namespace {

constexpr int kPlugins = 3;

struct Plugin {
  int id = 0;
  int init_calls = 0;
  int finalize_calls = 0;
  aclInitCallbackFunc on_init = nullptr;
  aclFinalizeCallbackFunc on_finalize = nullptr;
};

// One function per plugin: unregistration matches on the function.
template <int N>
aclError OnInit(const char* config, size_t len, void* user_data) {
  (void)config;
  (void)len;
  auto* plugin = static_cast<Plugin*>(user_data);
  ++plugin->init_calls;
  INFO_LOG("plugin %d: init callback", plugin->id);
  return ACL_SUCCESS;
}

template <int N>
aclError OnFinalize(void* user_data) {
  auto* plugin = static_cast<Plugin*>(user_data);
  ++plugin->finalize_calls;
  INFO_LOG("plugin %d: finalize callback", plugin->id);
  return ACL_SUCCESS;
}

int Load(Plugin* plugin) {
  CHECK_ERROR(
      aclInitCallbackRegister(ACL_REG_TYPE_OTHER, plugin->on_init, plugin));
  CHECK_ERROR(aclFinalizeCallbackRegister(ACL_REG_TYPE_OTHER,
                                          plugin->on_finalize, plugin));
  aclError ret = aclInit(nullptr);
  if (plugin->id == 0) {
    CHECK_TRUE(ret == ACL_SUCCESS);
    INFO_LOG("plugin %d: initialised ACL", plugin->id);
  } else {
    // Already initialised: the call only adds a reference.
    CHECK_TRUE(ret == ACL_ERROR_REPEAT_INITIALIZE);
    INFO_LOG("plugin %d: joined the existing ACL initialisation", plugin->id);
  }
  CHECK_TRUE(plugin->init_calls == 1);
  return 0;
}

int Run(Plugin* plugins) {
  for (int i = 0; i < kPlugins; ++i) {
    if (Load(&plugins[i]) != 0) return -1;
  }

  CHECK_ERROR(aclrtSetDevice(0));
  int32_t device = -1;
  CHECK_ERROR(aclrtGetDevice(&device));
  CHECK_TRUE(device == 0);
  CHECK_ERROR(aclrtResetDeviceForce(0));

  for (int i = kPlugins - 1; i >= 0; --i) {
    uint64_t left = 99;
    CHECK_ERROR(aclFinalizeReference(&left));
    INFO_LOG("plugin %d: released its reference, %llu left", i,
             static_cast<unsigned long long>(left));
    CHECK_TRUE(left == static_cast<uint64_t>(i));
    for (int p = 0; p < kPlugins; ++p) {
      // Finalize callbacks run only when the last reference goes.
      CHECK_TRUE(plugins[p].finalize_calls == (i == 0 ? 1 : 0));
    }
  }

  for (int i = 0; i < kPlugins; ++i) {
    CHECK_ERROR(
        aclInitCallbackUnRegister(ACL_REG_TYPE_OTHER, plugins[i].on_init));
    CHECK_ERROR(aclFinalizeCallbackUnRegister(ACL_REG_TYPE_OTHER,
                                              plugins[i].on_finalize));
  }
  // Nothing is left to release.
  uint64_t left = 99;
  CHECK_TRUE(aclFinalizeReference(&left) == ACL_ERROR_REPEAT_FINALIZE);
  CHECK_TRUE(left == 0);
  CHECK_TRUE(aclFinalize() == ACL_ERROR_REPEAT_FINALIZE);
  return 0;
}

}  // namespace

int main() {
  Plugin plugins[kPlugins];
  plugins[0].on_init = OnInit<0>;
  plugins[1].on_init = OnInit<1>;
  plugins[2].on_init = OnInit<2>;
  plugins[0].on_finalize = OnFinalize<0>;
  plugins[1].on_finalize = OnFinalize<1>;
  plugins[2].on_finalize = OnFinalize<2>;
  for (int i = 0; i < kPlugins; ++i) plugins[i].id = i;

  bool pass = Run(plugins) == 0;
  for (const Plugin& plugin : plugins) {
    if (plugin.init_calls != 1 || plugin.finalize_calls != 1) {
      ERROR_LOG("plugin %d: %d init and %d finalize calls, expected 1 and 1",
                plugin.id, plugin.init_calls, plugin.finalize_calls);
      pass = false;
    }
  }
  return Verdict(pass);
}
