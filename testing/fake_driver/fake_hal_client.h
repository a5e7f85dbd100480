// Test access to the control functions (fake_hal_control.h) of a stand-in
// driver library that the code under test dlopen()ed: opening the same file
// again yields the instance already loaded, with its state.
//
//   ASSERT_OK_AND_ASSIGN(FakeHalClient hal, FakeHalClient::Attach(path));
//   hal.InjectError("halMemAlloc", DRV_ERROR_OUT_OF_MEMORY);
#ifndef ASCENDCL_TESTING_FAKE_DRIVER_FAKE_HAL_CLIENT_H_
#define ASCENDCL_TESTING_FAKE_DRIVER_FAKE_HAL_CLIENT_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace ascend::testing {

class FakeHalClient {
 public:
  // Loads (or finds loaded) the library at `path`; kUnavailable when it
  // cannot be loaded or lacks a control function.
  static absl::StatusOr<FakeHalClient> Attach(const std::string& path);

  // The next `count` calls of `function` return `error` (count < 0: all).
  void InjectError(const char* function, int error, int count = 1) const;
  void ClearError(const char* function) const { InjectError(function, 0, 0); }
  absl::Status SetCapacity(uint64_t normal_bytes, uint64_t huge_bytes) const;
  uint64_t CallCount(const char* function) const;
  uint64_t LastAllocFlag() const;
  int LastCloseType() const;

 private:
  using InjectFn = int (*)(const char*, int, int);
  using CapacityFn = int (*)(unsigned long long, unsigned long long);
  using CountFn = unsigned long long (*)(const char*);
  using FlagFn = unsigned long long (*)();
  using CloseTypeFn = int (*)();

  InjectFn inject_ = nullptr;
  CapacityFn capacity_ = nullptr;
  CountFn count_ = nullptr;
  FlagFn flag_ = nullptr;
  CloseTypeFn close_type_ = nullptr;
};

}  // namespace ascend::testing

#endif  // ASCENDCL_TESTING_FAKE_DRIVER_FAKE_HAL_CLIENT_H_
