#include "testing/device_conformance/device_conformance.h"

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "device/device.h"
#include "gtest/gtest.h"

namespace ascend::device::conformance {

std::string BackendName(
    const ::testing::TestParamInfo<BackendUnderTest>& info) {
  return info.param.name;
}

void PrintTo(const BackendUnderTest& backend, std::ostream* os) {
  *os << backend.name;
}

BackendUnderTest RequireAvailable(BackendUnderTest backend) {
  BackendFactory factory = std::move(backend.factory);
  std::string name = backend.name;
  backend.factory = [factory = std::move(factory),
                     name = std::move(name)](const BackendOptions& options)
      -> absl::StatusOr<std::unique_ptr<Backend>> {
    if (!factory) return absl::InvalidArgumentError("no factory");
    absl::StatusOr<std::unique_ptr<Backend>> made = factory(options);
    if (made.status().code() == absl::StatusCode::kUnavailable ||
        made.status().code() == absl::StatusCode::kUnimplemented) {
      return absl::FailedPreconditionError(
          absl::StrCat("backend ", name,
                       " must run here (its driver is built in this "
                       "repository), but: ",
                       made.status().ToString()));
    }
    if (!made.ok() || *made == nullptr) return made;
    const int32_t count = (*made)->DeviceCount();
    if (count < options.device_count) {
      return absl::FailedPreconditionError(
          absl::StrCat("backend ", name, " must run here with ",
                       options.device_count, " devices, but reports ", count));
    }
    return made;
  };
  return backend;
}

void DeviceConformanceTest::SetUp() {
  const BackendUnderTest& under_test = GetParam();
  ASSERT_TRUE(under_test.factory)
      << "backend " << under_test.name << " has no factory";
  absl::StatusOr<std::unique_ptr<Backend>> backend =
      under_test.factory(options_);
  if (backend.status().code() == absl::StatusCode::kUnavailable ||
      backend.status().code() == absl::StatusCode::kUnimplemented) {
    GTEST_SKIP() << "backend " << under_test.name
                 << " is not available here: " << backend.status();
  }
  ASSERT_TRUE(backend.ok()) << "cannot create backend " << under_test.name
                            << ": " << backend.status();
  ASSERT_NE(*backend, nullptr);
  backend_ = std::move(backend).value();
  if (backend_->DeviceCount() <= 0) {
    GTEST_SKIP() << "backend " << under_test.name << " reports no devices";
  }
  absl::StatusOr<std::unique_ptr<Device>> device = backend_->Open(0);
  ASSERT_TRUE(device.ok()) << "cannot open device 0: " << device.status();
  device_ = std::move(device).value();
  ASSERT_NE(device_, nullptr);
}

void DeviceConformanceTest::TearDown() {
  // Devices go before their backend.
  device_.reset();
  backend_.reset();
}

std::vector<unsigned char> Pattern(size_t size, uint32_t seed) {
  std::vector<unsigned char> data(size);
  uint32_t x = seed * 2654435761u + 1;
  if (x == 0) x = 1;  // xorshift's one fixed point
  for (auto& byte : data) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    byte = static_cast<unsigned char>(x);
  }
  return data;
}

absl::StatusOr<std::vector<unsigned char>> ReadBack(Device& device,
                                                    DeviceAddr addr,
                                                    uint64_t size) {
  std::vector<unsigned char> data(size);
  absl::Status status = device.CopyFromDevice(data.data(), addr, size);
  if (!status.ok()) return status;
  return data;
}

}  // namespace ascend::device::conformance
