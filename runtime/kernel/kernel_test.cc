// Kernels in the runtime (runtime/kernel/kernel.h): launches of program kernels
// on a private runtime, the in-flight count a synchronous copy waits on, and
// the work of a launch on the device's cores.
#include "runtime/kernel/kernel.h"

#include <atomic>
#include <cstdint>

#include "gtest/gtest.h"
#include "runtime/private_runtime.h"
#include "runtime/streams/streams.h"
#include "testing/status_matchers.h"

// The simulated kernel ABI's block context, declared here (the runtime does
// not include the simulator's headers): program kernels take it first, and a
// kernel of another type would be called through a mismatched pointer.
struct aclsimKernelContext;

namespace ascend::rt {
namespace {

std::atomic<int> g_blocks{0};
std::atomic<bool> g_release{false};

// Program kernels of the private runtime's (simulated) backend: it calls
// them with a block's context and the arguments, neither of which they read.
void CountBlocks(const aclsimKernelContext*, void*) { g_blocks++; }
// Holds its core until released.
void Hold(const aclsimKernelContext*, void*) {
  while (!g_release.load()) {
  }
}

device::KernelSymbol Kernel(void (*entry)(const aclsimKernelContext*, void*)) {
  device::KernelSymbol kernel;
  kernel.entry = reinterpret_cast<const void*>(entry);
  return kernel;
}

TEST(KernelTest, LaunchesInFlightCountEveryLaunchOnceUntilItRan) {
  PrivateRuntime rt;
  ASSERT_OK(rt->SetDevice(0));
  Kernels& kernels = *Kernels::Of(*rt);
  ASSERT_OK_AND_ASSIGN(
      void* count,
      kernels.RegisterProgramKernel(reinterpret_cast<const void*>(&CountBlocks),
                                    "CountBlocks", Kernel(&CountBlocks)));
  ASSERT_OK_AND_ASSIGN(void* hold, kernels.RegisterProgramKernel(
                                       reinterpret_cast<const void*>(&Hold),
                                       "Hold", Kernel(&Hold)));
  EXPECT_EQ(kernels.LaunchesInFlight(), 0);
  g_release = false;
  ASSERT_OK(kernels.Launch(hold, 1, nullptr, {}, {}));
  for (int i = 0; i < 3; ++i) {
    ASSERT_OK(kernels.Launch(count, 4, nullptr, {}, {}));
  }
  EXPECT_EQ(kernels.LaunchesInFlight(), 4);
  g_release = true;
  ASSERT_OK(Streams::Of(*rt)->SynchronizeDevice(absl::InfiniteFuture()));
  EXPECT_EQ(g_blocks.load(), 12);
  EXPECT_EQ(kernels.LaunchesInFlight(), 0);
  // Refused launches are not counted.
  EXPECT_FALSE(kernels.Launch(count, 0, nullptr, {}, {}).ok());
  EXPECT_EQ(kernels.LaunchesInFlight(), 0);
  // Discarded ones are uncounted when they go.
  g_release = false;
  ASSERT_OK(kernels.Launch(hold, 1, nullptr, {}, {}));
  ASSERT_OK(kernels.Launch(count, 1, nullptr, {}, {}));
  ASSERT_OK_AND_ASSIGN(void* stream, Streams::Of(*rt)->CurrentDefaultStream());
  ASSERT_OK_AND_ASSIGN(std::shared_ptr<Stream> s, rt->ResolveStream(stream));
  s->DiscardPending();
  g_release = true;
  ASSERT_OK(Streams::Of(*rt)->SynchronizeDevice(absl::InfiniteFuture()));
  EXPECT_EQ(kernels.LaunchesInFlight(), 0);
  EXPECT_EQ(g_blocks.load(), 12);
}

}  // namespace
}  // namespace ascend::rt
