// The npu backend on a machine without the driver library: the BUILD file
// points ASCEND_HAL_LIBRARY_PATH at a file that does not exist. The factory
// still answers, the backend reports no devices, every device call fails with
// kUnavailable (ACL 207004) and a log line says what is missing.
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "device/device.h"
#include "device/npu/npu_backend.h"
#include "glog/logging.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/status_matchers.h"

namespace ascend::device::npu {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;

constexpr char kMissing[] = "/nonexistent/ascend/libascend_hal.so";

class CapturingSink : public google::LogSink {
 public:
  void send(google::LogSeverity severity, const char* full_filename,
            const char* base_filename, int line,
            const google::LogMessageTime& time, const char* message,
            size_t message_len) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (severity >= google::GLOG_WARNING) {
      lines_.emplace_back(message, message_len);
    }
  }
  std::vector<std::string> lines() {
    std::lock_guard<std::mutex> lock(mu_);
    return lines_;
  }

 private:
  std::mutex mu_;
  std::vector<std::string> lines_;
};

bool AnyLineHas(const std::vector<std::string>& lines, const std::string& a,
                const std::string& b) {
  for (const std::string& line : lines) {
    if (line.find(a) != std::string::npos &&
        line.find(b) != std::string::npos) {
      return true;
    }
  }
  return false;
}

class NpuNoDriverTest : public ::testing::Test {
 protected:
  void SetUp() override { google::AddLogSink(&sink_); }
  void TearDown() override { google::RemoveLogSink(&sink_); }
  CapturingSink sink_;
};

TEST_F(NpuNoDriverTest, ReportsZeroDevicesAndSaysWhy) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Backend> backend, CreateNpuBackend());
  EXPECT_TRUE(AnyLineHas(sink_.lines(), kMissing, "0 devices"));
  EXPECT_EQ(backend->name(), "npu");
  EXPECT_EQ(backend->DeviceCount(), 0);
  EXPECT_EQ(backend->SocName(), "");
  EXPECT_FALSE(backend->CanAccessPeer(0, 1));

  absl::StatusOr<std::unique_ptr<Device>> device = backend->Open(0);
  EXPECT_EQ(device.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(device.status().message(), HasSubstr(kMissing));
  EXPECT_THAT(device.status().message(), HasSubstr("ASCEND_HAL_LIBRARY_PATH"));
  EXPECT_EQ(backend->BackupProcessResources().code(),
            absl::StatusCode::kUnavailable);
  EXPECT_EQ(backend->RestoreProcessResources().code(),
            absl::StatusCode::kUnavailable);
  EXPECT_TRUE(AnyLineHas(sink_.lines(), "npu backend", "cannot load"));
  EXPECT_EQ(backend->InjectFault(0, Fault::kMemoryLoss).code(),
            absl::StatusCode::kUnimplemented);
  EXPECT_FALSE(backend->WaitHealthEvent(absl::Milliseconds(1)).has_value());
}

TEST_F(NpuNoDriverTest, ExplicitPathWins) {
  NpuBackendOptions options;
  options.library_path = "/also/missing/libascend_hal.so";
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Backend> backend,
                       CreateNpuBackend(options));
  EXPECT_EQ(backend->DeviceCount(), 0);
  EXPECT_THAT(backend->Open(0).status().message(),
              HasSubstr("/also/missing/libascend_hal.so"));
}

}  // namespace
}  // namespace ascend::device::npu
