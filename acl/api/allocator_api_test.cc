// Allocator descriptors and their registration per stream, through the C
// API. Mirrors CANN's 0_custom_allocator sample: create a descriptor, set
// the object and callbacks, register it for a stream, read it back.
#include <unistd.h>

#include <cstddef>
#include <cstdint>

#include "acl/acl.h"
#include "acl/acl_rt_allocator.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "runtime/rt_snapshot.h"
#include "testing/status_matchers.h"

namespace {

struct FakeAllocator {
  int allocs = 0;
};

void* Alloc(aclrtAllocator allocator, size_t) {
  ++static_cast<FakeAllocator*>(allocator)->allocs;
  return nullptr;
}
void Free(aclrtAllocator, aclrtAllocatorBlock) {}
void* AllocAdvise(aclrtAllocator, size_t, aclrtAllocatorAddr) {
  return nullptr;
}
void* GetAddr(aclrtAllocatorBlock block) { return block; }

class AllocatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_ACL_OK(aclrtSetDevice(0));
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
  }
  void TearDown() override {
    EXPECT_ACL_OK(aclrtAllocatorUnregister(stream_));
    EXPECT_ACL_OK(aclrtDestroyStream(stream_));
    EXPECT_ACL_OK(aclrtResetDeviceForce(0));
  }
  aclrtAllocatorDesc FullDesc() {
    aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc();
    EXPECT_NE(desc, nullptr);
    EXPECT_ACL_OK(aclrtAllocatorSetObjToDesc(desc, &fake_));
    EXPECT_ACL_OK(aclrtAllocatorSetAllocFuncToDesc(desc, Alloc));
    EXPECT_ACL_OK(aclrtAllocatorSetFreeFuncToDesc(desc, Free));
    EXPECT_ACL_OK(aclrtAllocatorSetAllocAdviseFuncToDesc(desc, AllocAdvise));
    EXPECT_ACL_OK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, GetAddr));
    return desc;
  }

  aclrtStream stream_ = nullptr;
  FakeAllocator fake_;
};

TEST_F(AllocatorTest, RegisterAndGetByStreamLikeTheSample) {
  aclrtAllocatorDesc desc = FullDesc();
  ASSERT_ACL_OK(aclrtAllocatorRegister(stream_, desc));
  aclrtAllocatorDesc got_desc = nullptr;
  aclrtAllocator got = nullptr;
  aclrtAllocatorAllocFunc alloc = nullptr;
  aclrtAllocatorFreeFunc free_fn = nullptr;
  aclrtAllocatorAllocAdviseFunc advise = nullptr;
  aclrtAllocatorGetAddrFromBlockFunc get_addr = nullptr;
  ASSERT_ACL_OK(aclrtAllocatorGetByStream(stream_, &got_desc, &got, &alloc,
                                          &free_fn, &advise, &get_addr));
  EXPECT_EQ(got_desc, desc);
  EXPECT_EQ(got, &fake_);
  EXPECT_EQ(alloc, &Alloc);
  EXPECT_EQ(free_fn, &Free);
  EXPECT_EQ(advise, &AllocAdvise);
  EXPECT_EQ(get_addr, &GetAddr);
  // The callbacks are the caller's: calling one reaches its object.
  alloc(got, 64);
  EXPECT_EQ(fake_.allocs, 1);
  // Optional outputs may be NULL.
  ASSERT_ACL_OK(aclrtAllocatorGetByStream(stream_, &got_desc, nullptr, nullptr,
                                          nullptr, nullptr, nullptr));
  // The registration keeps its copy after the descriptor goes.
  ASSERT_ACL_OK(aclrtAllocatorDestroyDesc(desc));
  got = nullptr;
  ASSERT_ACL_OK(aclrtAllocatorGetByStream(stream_, &got_desc, &got, nullptr,
                                          nullptr, nullptr, nullptr));
  EXPECT_EQ(got, &fake_);
  // Unregistered: nothing to get; a second unregister is a no-op.
  ASSERT_ACL_OK(aclrtAllocatorUnregister(stream_));
  ASSERT_ACL_OK(aclrtAllocatorUnregister(stream_));
  EXPECT_ACL_ERROR(
      ACL_ERROR_INVALID_PARAM,
      aclrtAllocatorGetByStream(stream_, &got_desc, nullptr, nullptr, nullptr,
                                nullptr, nullptr));
}

TEST_F(AllocatorTest, LastRegistrationWins) {
  aclrtAllocatorDesc first = FullDesc();
  aclrtAllocatorDesc second = FullDesc();
  FakeAllocator other;
  ASSERT_ACL_OK(aclrtAllocatorSetObjToDesc(second, &other));
  ASSERT_ACL_OK(aclrtAllocatorRegister(stream_, first));
  ASSERT_ACL_OK(aclrtAllocatorRegister(stream_, second));
  aclrtAllocatorDesc got_desc = nullptr;
  aclrtAllocator got = nullptr;
  ASSERT_ACL_OK(aclrtAllocatorGetByStream(stream_, &got_desc, &got, nullptr,
                                          nullptr, nullptr, nullptr));
  EXPECT_EQ(got_desc, second);
  EXPECT_EQ(got, &other);
  ASSERT_ACL_OK(aclrtAllocatorDestroyDesc(first));
  ASSERT_ACL_OK(aclrtAllocatorDestroyDesc(second));
}

TEST_F(AllocatorTest, RegistrationSurvivesASnapshot) {
  aclrtAllocatorDesc desc = FullDesc();
  ASSERT_ACL_OK(aclrtAllocatorRegister(stream_, desc));
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessBackup(getpid(), nullptr));
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(aclrtSnapShotProcessRestore(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));
  aclrtAllocatorDesc got_desc = nullptr;
  aclrtAllocator got = nullptr;
  aclrtAllocatorAllocFunc alloc = nullptr;
  ASSERT_ACL_OK(aclrtAllocatorGetByStream(stream_, &got_desc, &got, &alloc,
                                          nullptr, nullptr, nullptr));
  EXPECT_EQ(got_desc, desc);
  EXPECT_EQ(got, &fake_);
  EXPECT_EQ(alloc, &Alloc);
  ASSERT_ACL_OK(aclrtAllocatorDestroyDesc(desc));
}

TEST_F(AllocatorTest, Errors) {
  aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc();
  ASSERT_NE(desc, nullptr);
  int bogus = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtAllocatorSetObjToDesc(nullptr, &fake_));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtAllocatorSetObjToDesc(desc, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtAllocatorSetObjToDesc(&bogus, &fake_));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtAllocatorSetAllocFuncToDesc(desc, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtAllocatorSetFreeFuncToDesc(desc, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtAllocatorSetAllocAdviseFuncToDesc(desc, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, nullptr));
  // Incomplete descriptors are refused, one missing piece at a time.
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtAllocatorRegister(stream_, desc));
  ASSERT_ACL_OK(aclrtAllocatorSetObjToDesc(desc, &fake_));
  ASSERT_ACL_OK(aclrtAllocatorSetAllocFuncToDesc(desc, Alloc));
  ASSERT_ACL_OK(aclrtAllocatorSetFreeFuncToDesc(desc, Free));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtAllocatorRegister(stream_, desc));
  ASSERT_ACL_OK(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, GetAddr));
  // Alloc-advise is optional.
  EXPECT_ACL_OK(aclrtAllocatorRegister(stream_, desc));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtAllocatorRegister(nullptr, desc));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtAllocatorRegister(stream_, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtAllocatorRegister(stream_, &bogus));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtAllocatorRegister(&bogus, desc));  // not a stream
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorUnregister(nullptr));
  aclrtAllocatorDesc got = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtAllocatorGetByStream(stream_, nullptr, nullptr, nullptr,
                                             nullptr, nullptr, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtAllocatorGetByStream(nullptr, &got, nullptr, nullptr,
                                             nullptr, nullptr, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorDestroyDesc(nullptr));
  ASSERT_ACL_OK(aclrtAllocatorDestroyDesc(desc));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM, aclrtAllocatorDestroyDesc(desc));
}

}  // namespace
