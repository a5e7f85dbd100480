#include "testing/fake_driver/fake_hal_client.h"

#include <dlfcn.h>

#include "absl/strings/str_cat.h"

namespace ascend::testing {
namespace {

template <typename Fn>
bool Resolve(void* handle, const char* name, Fn& slot) {
  slot = reinterpret_cast<Fn>(dlsym(handle, name));
  return slot != nullptr;
}

}  // namespace

absl::StatusOr<FakeHalClient> FakeHalClient::Attach(const std::string& path) {
  // Never closed: the library stays loaded for the code under test anyway.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    return absl::UnavailableError(
        absl::StrCat("cannot load ", path, ": ", dlerror()));
  }
  FakeHalClient client;
  if (!Resolve(handle, "fakeHalInjectError", client.inject_) ||
      !Resolve(handle, "fakeHalSetCapacity", client.capacity_) ||
      !Resolve(handle, "fakeHalCallCount", client.count_) ||
      !Resolve(handle, "fakeHalLastAllocFlag", client.flag_) ||
      !Resolve(handle, "fakeHalLastCloseType", client.close_type_)) {
    return absl::UnavailableError(
        absl::StrCat(path, " is not the stand-in driver library"));
  }
  return client;
}

void FakeHalClient::InjectError(const char* function, int error,
                                int count) const {
  inject_(function, error, count);
}

absl::Status FakeHalClient::SetCapacity(uint64_t normal_bytes,
                                        uint64_t huge_bytes) const {
  const int err = capacity_(normal_bytes, huge_bytes);
  if (err == 0) return absl::OkStatus();
  return absl::FailedPreconditionError(
      absl::StrCat("fakeHalSetCapacity failed with driver error ", err));
}

uint64_t FakeHalClient::CallCount(const char* function) const {
  return count_(function);
}

uint64_t FakeHalClient::LastAllocFlag() const { return flag_(); }

int FakeHalClient::LastCloseType() const { return close_type_(); }

}  // namespace ascend::testing
