// Checks how the conformance suite treats backends that cannot run: every
// test of a backend whose factory says kUnavailable / kUnimplemented, or that
// reports no devices, is SKIPPED with the reason; a factory failing with any
// other error FAILS every test, and so does every test of a backend under
// RequireAvailable (a stand-in we build) that cannot run or lacks devices. The
// test cases run through the real suite; main() then inspects the results (the
// failures of the "broken" backend are the expected outcome, not a failure of
// this binary).
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "device/device.h"
#include "gtest/gtest.h"
#include "testing/device_conformance/device_conformance.h"
#include "testing/stub_backend.h"

namespace ascend::device::conformance {
namespace {

using ::ascend::testing::StubBackend;
using ::ascend::testing::StubBackendOptions;

BackendUnderTest Failing(std::string name, absl::Status status) {
  return {std::move(name),
          [status](const BackendOptions&)
              -> absl::StatusOr<std::unique_ptr<Backend>> { return status; }};
}

BackendUnderTest Unavailable() {
  return Failing("unavailable",
                 absl::UnavailableError("libascend_hal.so: not found"));
}
BackendUnderTest Unimplemented() {
  return Failing("unimplemented", absl::UnimplementedError("no such driver"));
}
BackendUnderTest Broken() {
  return Failing("broken", absl::InternalError("driver crashed"));
}
BackendUnderTest NoDevices() {
  return {
      "nodevices",
      [](const BackendOptions&) -> absl::StatusOr<std::unique_ptr<Backend>> {
        // A backend with no devices (a driver that found no hardware).
        StubBackendOptions options;
        options.name = "nodevice";
        return std::unique_ptr<Backend>(new StubBackend(options));
      }};
}
// The same two, for a backend that must run (its stand-in driver is ours).
BackendUnderTest RequiredUnavailable() {
  BackendUnderTest backend = Unavailable();
  backend.name = "required_unavailable";
  return RequireAvailable(std::move(backend));
}
BackendUnderTest RequiredNoDevices() {
  BackendUnderTest backend = NoDevices();
  backend.name = "required_nodevices";
  return RequireAvailable(std::move(backend));
}

// What each instantiation's tests must end as, and with which message.
struct Expectation {
  const char* suffix;
  bool skipped;
  const char* message;
};
constexpr Expectation kExpectations[] = {
    {"/unavailable", true, "libascend_hal.so: not found"},
    {"/unimplemented", true, "no such driver"},
    {"/nodevices", true, "reports no devices"},
    {"/broken", false, "driver crashed"},
    {"/required_unavailable", false, "libascend_hal.so: not found"},
    {"/required_nodevices", false, "reports 0"},
};

bool Check() {
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  int checked = 0;
  bool ok = true;
  for (int s = 0; s < unit.total_test_suite_count(); ++s) {
    const ::testing::TestSuite& suite = *unit.GetTestSuite(s);
    for (int t = 0; t < suite.total_test_count(); ++t) {
      const ::testing::TestInfo& info = *suite.GetTestInfo(t);
      if (!info.should_run()) continue;
      const std::string name = std::string(suite.name()) + "." + info.name();
      const Expectation* expected = nullptr;
      for (const Expectation& e : kExpectations) {
        if (absl::EndsWith(info.name(), e.suffix)) expected = &e;
      }
      const ::testing::TestResult& result = *info.result();
      std::string messages;
      for (int i = 0; i < result.total_part_count(); ++i) {
        messages += result.GetTestPartResult(i).message();
      }
      if (expected == nullptr) {
        std::fprintf(stderr, "unexpected test %s\n", name.c_str());
        ok = false;
      } else if (result.Skipped() != expected->skipped ||
                 result.Failed() == expected->skipped ||
                 !absl::StrContains(messages, expected->message)) {
        std::fprintf(stderr,
                     "%s: expected %s with \"%s\", got skipped=%d failed=%d "
                     "messages \"%s\"\n",
                     name.c_str(), expected->skipped ? "a skip" : "a failure",
                     expected->message, result.Skipped(), result.Failed(),
                     messages.c_str());
        ok = false;
      }
      ++checked;
    }
  }
  // Six backends times every test of the suite (there are dozens).
  if (checked < 6 * 20) {
    std::fprintf(stderr, "only %d tests ran\n", checked);
    ok = false;
  }
  std::fprintf(stderr, "%s: checked %d test results\n", ok ? "OK" : "FAILED",
               checked);
  return ok;
}

}  // namespace
}  // namespace ascend::device::conformance

ASCEND_INSTANTIATE_DEVICE_CONFORMANCE_SUITE(
    Unavailable, ::ascend::device::conformance::Unavailable());
ASCEND_INSTANTIATE_DEVICE_CONFORMANCE_SUITE(
    Unimplemented, ::ascend::device::conformance::Unimplemented());
ASCEND_INSTANTIATE_DEVICE_CONFORMANCE_SUITE(
    NoDevices, ::ascend::device::conformance::NoDevices());
ASCEND_INSTANTIATE_DEVICE_CONFORMANCE_SUITE(
    Broken, ::ascend::device::conformance::Broken());
ASCEND_INSTANTIATE_DEVICE_CONFORMANCE_SUITE(
    RequiredUnavailable, ::ascend::device::conformance::RequiredUnavailable());
ASCEND_INSTANTIATE_DEVICE_CONFORMANCE_SUITE(
    RequiredNoDevices, ::ascend::device::conformance::RequiredNoDevices());

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  std::fprintf(
      stderr,
      "Note: the failures of the */broken and */required_* tests below "
      "are expected; main() checks them.\n");
  // The exit status of the run reflects the expected failures; Check()
  // decides instead.
  if (RUN_ALL_TESTS() == 0) {
    std::fprintf(stderr, "the broken backend's tests unexpectedly passed\n");
  }
  return ascend::device::conformance::Check() ? 0 : 1;
}
