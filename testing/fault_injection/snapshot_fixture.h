// Shared pieces of the snapshot tests (snapshot/, testing/fault_injection/,
// testing/stress/): the snapshot calls through the public API, the process
// state, and device buffers with the bytes they should hold.
//
//   DeviceBuffers buffers;
//   buffers.Add(/*device=*/1, /*size=*/3 << 20, /*seed=*/7);
//   ASSERT_ACL_OK(Lock());
//   ...
//   buffers.ExpectHeldDirect("after the failed Backup");
#ifndef ASCENDCL_TESTING_FAULT_INJECTION_SNAPSHOT_FIXTURE_H_
#define ASCENDCL_TESTING_FAULT_INJECTION_SNAPSHOT_FIXTURE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "runtime/rt_snapshot.h"

namespace ascend::testing {

aclError Lock();
aclError Unlock();
aclError Backup();
aclError Restore();
// rtSnapShotProcessGetState; RT_PROCESS_STATE_MAX if it fails.
int32_t ProcessState();
// The same, and a failing rtSnapShotProcessGetState is a non-fatal test
// failure (EXPECT); callable from any thread, stage callbacks included.
int32_t State();
std::string StateName(int32_t state);

// A "<field>: N kB" line of /proc/self/status (VmRSS, VmSize, ...), in
// bytes; 0 when it cannot be read.
uint64_t ProcStatusBytes(const char* field);

// Deterministic pseudo-random bytes.
std::vector<uint8_t> Pattern(size_t size, uint32_t seed);

// Device buffers and the bytes each should hold. The simulator's device
// memory is host-addressable, so the *Direct checks work in any process
// state (an API copy would block while locked).
class DeviceBuffers {
 public:
  struct Buffer {
    int32_t device = 0;
    void* ptr = nullptr;
    std::vector<uint8_t> expected;
  };

  DeviceBuffers() = default;
  DeviceBuffers(const DeviceBuffers&) = delete;
  DeviceBuffers& operator=(const DeviceBuffers&) = delete;
  // Frees every buffer (the process must be RUNNING).
  ~DeviceBuffers();

  // Allocates on `device` (which becomes current) and fills through the API.
  void Add(int32_t device, size_t size, uint32_t seed);
  // New contents for every buffer, written through the API (RUNNING only).
  void Rewrite(uint32_t seed);
  // The same, written straight into simulated device memory (any state).
  void RewriteDirect(uint32_t seed);
  // The expected contents of every buffer, in order.
  std::vector<std::vector<uint8_t>> Expected() const;
  void SetExpected(const std::vector<std::vector<uint8_t>>& contents);
  uint64_t total_bytes() const;

  // Non-fatal expectations; `when` labels the failure message.
  void ExpectHeldDirect(const std::string& when) const;
  void ExpectAllZeroDirect(const std::string& when) const;
  void ExpectHeldViaApi(const std::string& when) const;

  const std::vector<Buffer>& buffers() const { return buffers_; }

 private:
  std::vector<Buffer> buffers_;
};

}  // namespace ascend::testing

#endif  // ASCENDCL_TESTING_FAULT_INJECTION_SNAPSHOT_FIXTURE_H_
