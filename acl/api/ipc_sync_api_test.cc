// IPC events and IPC notifies through the ACL C API, with a real second
// process (ipc_sync_test_peer, driven one command a line): the CANN
// ipcevent and ipc-notify examples, the documented error codes, a dead
// exporter and a snapshot cycle.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <thread>

#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "runtime/rt_snapshot.h"
#include "testing/status_matchers.h"

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;

std::string PeerPath() {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  if (srcdir == nullptr || workspace == nullptr) {
    return "acl/api/ipc_sync_test_peer";
  }
  return std::string(srcdir) + "/" + workspace + "/acl/api/ipc_sync_test_peer";
}

// A second process answering one line per command.
class Peer {
 public:
  Peer() {
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0) return;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    const std::string path = PeerPath();
    char* argv[] = {const_cast<char*>(path.c_str()), nullptr};
    if (posix_spawn(&pid_, path.c_str(), &actions, nullptr, argv, environ) !=
        0) {
      pid_ = -1;
    }
    posix_spawn_file_actions_destroy(&actions);
    close(in[0]);
    close(out[1]);
    to_ = fdopen(in[1], "w");
    from_ = fdopen(out[0], "r");
  }
  ~Peer() {
    if (to_ != nullptr) fclose(to_);  // end of input: the peer exits
    if (from_ != nullptr) fclose(from_);
    Wait();
  }
  pid_t pid() const { return pid_; }
  std::string Ask(const std::string& command) {
    fprintf(to_, "%s\n", command.c_str());
    fflush(to_);
    char buf[512] = {};
    if (fgets(buf, sizeof(buf), from_) == nullptr) return "<eof>";
    std::string s(buf);
    if (!s.empty() && s.back() == '\n') s.pop_back();
    return s;
  }
  void Kill() {
    if (pid_ > 0) kill(pid_, SIGKILL);
    Wait();
  }

 private:
  void Wait() {
    if (pid_ <= 0) return;
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }
  pid_t pid_ = -1;
  FILE* to_ = nullptr;
  FILE* from_ = nullptr;
};

std::string Hex(const aclrtIpcEventHandle& h) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (char c : h.reserved) {
    const auto b = static_cast<unsigned char>(c);
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

aclrtIpcEventHandle Unhex(const std::string& s) {
  aclrtIpcEventHandle h{};
  for (size_t i = 0; i < sizeof(h.reserved) && 2 * i + 1 < s.size(); ++i) {
    h.reserved[i] =
        static_cast<char>(std::stoi(s.substr(2 * i, 2), nullptr, 16));
  }
  return h;
}

std::string Code(aclError code) { return std::to_string(code); }

class IpcSyncApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_ACL_OK(aclrtSetDevice(0));
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
    ASSERT_ACL_OK(aclrtCreateStream(&side_));
  }
  void TearDown() override {
    (void)aclrtResetDeviceForce(0);
    (void)aclrtGetLastError(ACL_RT_THREAD_LEVEL);
  }
  aclrtEvent NewIpcEvent() {
    aclrtEvent event = nullptr;
    EXPECT_ACL_OK(aclrtCreateEventExWithFlag(&event, ACL_EVENT_IPC));
    return event;
  }
  aclrtEventRecordedStatus Status(aclrtEvent event) {
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    EXPECT_ACL_OK(aclrtQueryEventStatus(event, &status));
    return status;
  }

  aclrtStream stream_ = nullptr;
  aclrtStream side_ = nullptr;
};

// --- IPC events ------------------------------------------------------------

TEST_F(IpcSyncApiTest, EventHandleErrors) {
  aclrtIpcEventHandle handle{};
  aclrtEvent ipc = NewIpcEvent();
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtIpcGetEventHandle(ipc, nullptr));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtIpcGetEventHandle(nullptr, &handle));
  // Only ACL_EVENT_IPC events have a handle.
  aclrtEvent plain = nullptr, flagged = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&plain));
  ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&flagged, ACL_EVENT_SYNC));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtIpcGetEventHandle(plain, &handle));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtIpcGetEventHandle(flagged, &handle));
  int foreign = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtIpcGetEventHandle(&foreign, &handle));
  // Not a handle; a handle of a gone export.
  aclrtEvent opened = nullptr;
  aclrtIpcEventHandle garbage{};
  std::memset(garbage.reserved, 0x5a, sizeof(garbage.reserved));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtIpcOpenEventHandle(garbage, &opened));
  EXPECT_EQ(opened, nullptr);
  ASSERT_ACL_OK(aclrtIpcGetEventHandle(ipc, &handle));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtIpcOpenEventHandle(handle, nullptr));
  ASSERT_ACL_OK(aclrtDestroyEvent(ipc));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtIpcOpenEventHandle(handle, &opened));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtIpcGetEventHandle(ipc, &handle));
  // IPC events still refuse what §5.13 lists.
  aclrtEvent again = NewIpcEvent();
  uint32_t id = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtGetEventId(again, &id));
  ASSERT_ACL_OK(aclrtDestroyEvent(again));
  ASSERT_ACL_OK(aclrtDestroyEvent(plain));
  ASSERT_ACL_OK(aclrtDestroyEvent(flagged));
}

TEST_F(IpcSyncApiTest, OpenInTheSameProcess) {
  aclrtEvent event = NewIpcEvent();
  aclrtIpcEventHandle a{}, b{};
  ASSERT_ACL_OK(aclrtIpcGetEventHandle(event, &a));
  ASSERT_ACL_OK(aclrtIpcGetEventHandle(event, &b));
  EXPECT_EQ(std::memcmp(a.reserved, b.reserved, sizeof(a.reserved)), 0);
  aclrtEvent opened = nullptr;
  ASSERT_ACL_OK(aclrtIpcOpenEventHandle(a, &opened));
  ASSERT_NE(opened, nullptr);
  EXPECT_NE(opened, event);
  // The opened event's handle is its origin's.
  ASSERT_ACL_OK(aclrtIpcGetEventHandle(opened, &b));
  EXPECT_EQ(std::memcmp(a.reserved, b.reserved, sizeof(a.reserved)), 0);
  // A record through either is seen through both.
  aclrtNotify gate = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&gate, 0));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(gate, stream_, 0));
  ASSERT_ACL_OK(aclrtRecordEvent(opened, stream_));
  EXPECT_EQ(Status(event), ACL_EVENT_RECORDED_STATUS_NOT_READY);
  EXPECT_EQ(Status(opened), ACL_EVENT_RECORDED_STATUS_NOT_READY);
  ASSERT_ACL_OK(aclrtRecordNotify(gate, side_));
  ASSERT_ACL_OK(aclrtSynchronizeEvent(event));
  EXPECT_EQ(Status(event), ACL_EVENT_RECORDED_STATUS_COMPLETE);
  EXPECT_EQ(Status(opened), ACL_EVENT_RECORDED_STATUS_COMPLETE);
  ASSERT_ACL_OK(aclrtStreamWaitEvent(side_, opened));
  ASSERT_ACL_OK(aclrtSynchronizeStream(side_));
  // Destroying the original leaves the opened one working.
  ASSERT_ACL_OK(aclrtDestroyEvent(event));
  ASSERT_ACL_OK(aclrtRecordEvent(opened, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeEvent(opened));
  EXPECT_EQ(Status(opened), ACL_EVENT_RECORDED_STATUS_COMPLETE);
  ASSERT_ACL_OK(aclrtDestroyEvent(opened));
  ASSERT_ACL_OK(aclrtDestroyNotify(gate));
}

// CANN's ipcevent example, and records flowing both ways.
TEST_F(IpcSyncApiTest, EventAcrossProcesses) {
  aclrtEvent event = NewIpcEvent();
  ASSERT_ACL_OK(aclrtRecordEvent(event, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeEvent(event));
  aclrtIpcEventHandle handle{};
  ASSERT_ACL_OK(aclrtIpcGetEventHandle(event, &handle));
  Peer peer;
  ASSERT_GT(peer.pid(), 0);
  ASSERT_EQ(peer.Ask("open_event " + Hex(handle)), "0");
  EXPECT_EQ(peer.Ask("query_event"), "0 1");  // complete, as here
  EXPECT_EQ(peer.Ask("wait_event").substr(0, 2), "0 ");

  // B's wait is released only by A's pending record.
  aclrtNotify gate = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&gate, 0));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(gate, stream_, 0));
  ASSERT_ACL_OK(aclrtRecordEvent(event, stream_));
  EXPECT_EQ(peer.Ask("query_event"), "0 0");  // not ready, seen from B
  std::string waited;
  std::thread waiter([&] { waited = peer.Ask("wait_event"); });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ASSERT_ACL_OK(aclrtRecordNotify(gate, side_));
  waiter.join();
  int code = -1, ms = 0;
  std::istringstream(waited) >> code >> ms;
  EXPECT_EQ(code, 0);
  EXPECT_GE(ms, 250) << waited;
  EXPECT_EQ(Status(event), ACL_EVENT_RECORDED_STATUS_COMPLETE);

  // A sees B's records: pending while B's stream is blocked.
  ASSERT_EQ(peer.Ask("record_blocked"), "0");
  EXPECT_EQ(Status(event), ACL_EVENT_RECORDED_STATUS_NOT_READY);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
                   aclrtSynchronizeEventWithTimeout(event, 50));
  ASSERT_EQ(peer.Ask("unblock"), "0");
  ASSERT_ACL_OK(aclrtSynchronizeEvent(event));
  EXPECT_EQ(Status(event), ACL_EVENT_RECORDED_STATUS_COMPLETE);
  EXPECT_EQ(peer.Ask("record_event"), "0");
  EXPECT_EQ(Status(event), ACL_EVENT_RECORDED_STATUS_COMPLETE);

  // Destroyed here: B's event keeps working, new opens fail.
  ASSERT_ACL_OK(aclrtDestroyEvent(event));
  EXPECT_EQ(peer.Ask("record_event"), "0");
  EXPECT_EQ(peer.Ask("destroy_event"), "0");
  EXPECT_EQ(peer.Ask("open_event " + Hex(handle)),
            Code(ACL_ERROR_RT_PARAM_INVALID));
  ASSERT_ACL_OK(aclrtDestroyNotify(gate));
}

// An exporter that dies with a record pending: waits here end (its record
// can never complete) instead of hanging.
TEST_F(IpcSyncApiTest, DeadExporterReleasesWaits) {
  Peer peer;
  ASSERT_GT(peer.pid(), 0);
  std::istringstream reply(peer.Ask("export_pending"));
  int code = -1;
  std::string hex;
  reply >> code >> hex;
  ASSERT_EQ(code, 0);
  aclrtEvent opened = nullptr;
  ASSERT_ACL_OK(aclrtIpcOpenEventHandle(Unhex(hex), &opened));
  EXPECT_EQ(Status(opened), ACL_EVENT_RECORDED_STATUS_NOT_READY);
  EXPECT_ACL_ERROR(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
                   aclrtSynchronizeEventWithTimeout(opened, 50));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(stream_, opened));
  peer.Kill();
  const Clock::time_point start = Clock::now();
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream_, 10000));
  EXPECT_ACL_OK(aclrtSynchronizeEventWithTimeout(opened, 10000));
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
  // Its own records still work.
  ASSERT_ACL_OK(aclrtRecordEvent(opened, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  // A gone process's handle does not open.
  aclrtEvent again = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtIpcOpenEventHandle(Unhex(hex), &again));
  ASSERT_ACL_OK(aclrtDestroyEvent(opened));
}

// An importer that dies with a record pending does not hold the
// exporter's waits either; records of live processes still do.
TEST_F(IpcSyncApiTest, DeadImporterRecordDoesNotHoldWaits) {
  aclrtEvent event = NewIpcEvent();
  aclrtIpcEventHandle handle{};
  ASSERT_ACL_OK(aclrtIpcGetEventHandle(event, &handle));
  Peer peer;
  ASSERT_GT(peer.pid(), 0);
  ASSERT_EQ(peer.Ask("open_event " + Hex(handle)), "0");
  ASSERT_EQ(peer.Ask("record_blocked"), "0");
  // A pending record of this process, behind a blocked stream, too.
  aclrtNotify gate = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&gate, 0));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(gate, stream_, 0));
  ASSERT_ACL_OK(aclrtRecordEvent(event, stream_));
  EXPECT_EQ(Status(event), ACL_EVENT_RECORDED_STATUS_NOT_READY);
  peer.Kill();
  // Ours still holds the wait...
  EXPECT_ACL_ERROR(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
                   aclrtSynchronizeEventWithTimeout(event, 100));
  EXPECT_EQ(Status(event), ACL_EVENT_RECORDED_STATUS_NOT_READY);
  // ...the dead peer's does not.
  ASSERT_ACL_OK(aclrtRecordNotify(gate, side_));
  ASSERT_ACL_OK(aclrtSynchronizeEventWithTimeout(event, 10000));
  EXPECT_EQ(Status(event), ACL_EVENT_RECORDED_STATUS_COMPLETE);
  ASSERT_ACL_OK(aclrtDestroyEvent(event));
  ASSERT_ACL_OK(aclrtDestroyNotify(gate));
}

// Lock → Backup → device memory loss → Restore → Unlock: the IPC event
// keeps its handle, and the other process's view keeps working.
TEST_F(IpcSyncApiTest, EventSurvivesSnapshot) {
  aclrtEvent event = NewIpcEvent();
  aclrtIpcEventHandle before{}, after{};
  ASSERT_ACL_OK(aclrtIpcGetEventHandle(event, &before));
  Peer peer;
  ASSERT_GT(peer.pid(), 0);
  ASSERT_EQ(peer.Ask("open_event " + Hex(before)), "0");
  ASSERT_ACL_OK(aclrtRecordEvent(event, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeEvent(event));
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessBackup(getpid(), nullptr));
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(aclrtSnapShotProcessRestore(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtIpcGetEventHandle(event, &after));
  EXPECT_EQ(std::memcmp(before.reserved, after.reserved, sizeof(before)), 0);
  EXPECT_EQ(Status(event), ACL_EVENT_RECORDED_STATUS_COMPLETE);
  EXPECT_EQ(peer.Ask("query_event"), "0 1");
  ASSERT_EQ(peer.Ask("record_blocked"), "0");
  EXPECT_EQ(Status(event), ACL_EVENT_RECORDED_STATUS_NOT_READY);
  ASSERT_EQ(peer.Ask("unblock"), "0");
  ASSERT_ACL_OK(aclrtSynchronizeEvent(event));
  ASSERT_ACL_OK(aclrtDestroyEvent(event));
}

// --- IPC notifies ----------------------------------------------------------

TEST_F(IpcSyncApiTest, NotifyErrors) {
  aclrtNotify notify = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&notify, 0));
  char key[65] = {};
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtNotifyGetExportKey(nullptr, key, sizeof(key), 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtNotifyGetExportKey(notify, nullptr, sizeof(key), 0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtNotifyGetExportKey(notify, key, 64, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtNotifyGetExportKey(notify, key, sizeof(key), 1));
  int foreign = 0;
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtNotifyGetExportKey(&foreign, key, sizeof(key), 0));
  int32_t pid = getpid();
  // Not exported yet.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtNotifySetImportPid(notify, &pid, 1));
  ASSERT_ACL_OK(aclrtNotifyGetExportKey(notify, key, sizeof(key), 0));
  EXPECT_LT(std::strlen(key), sizeof(key));
  // A notify is exported once.
  char second[80] = {};
  EXPECT_ACL_ERROR(ACL_ERROR_RT_INTERNAL_ERROR,
                   aclrtNotifyGetExportKey(notify, second, sizeof(second), 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtNotifySetImportPid(nullptr, &pid, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtNotifySetImportPid(notify, nullptr, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtNotifySetImportPid(notify, &pid, 0));
  ASSERT_ACL_OK(aclrtNotifySetImportPid(notify, &pid, 1));
  aclrtNotify imported = nullptr;
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtNotifyImportByKey(nullptr, key, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_INVALID_PARAM,
                   aclrtNotifyImportByKey(&imported, nullptr, 0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtNotifyImportByKey(&imported, key, 4));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtNotifyImportByKey(&imported, "no-such-key", 0));
  EXPECT_EQ(imported, nullptr);
  // Cross-server whitelists are not offered.
  int32_t pids[1] = {pid};
  aclrtServerPid server{0, pids, 1};
  EXPECT_ACL_ERROR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                   aclrtNotifySetImportPidInterServer(notify, &server, 1));
  // Imported in the same process: one flag, two handles; an imported
  // notify neither exports nor takes a whitelist.
  ASSERT_ACL_OK(aclrtNotifyImportByKey(
      &imported, key, ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS));
  EXPECT_ACL_ERROR(
      ACL_ERROR_RT_INTERNAL_ERROR,
      aclrtNotifyGetExportKey(imported, second, sizeof(second), 0));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtNotifySetImportPid(imported, &pid, 1));
  ASSERT_ACL_OK(aclrtRecordNotify(imported, stream_));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify, stream_, 5));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify, stream_, 1));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_WAIT_TIMEOUT, aclrtSynchronizeStream(stream_));
  ASSERT_ACL_OK(aclrtDestroyNotify(imported));
  ASSERT_ACL_OK(aclrtDestroyNotify(notify));
  // A withdrawn key does not import.
  EXPECT_ACL_ERROR(ACL_ERROR_RT_PARAM_INVALID,
                   aclrtNotifyImportByKey(&imported, key, 0));
}

// CANN's 0_ipc_notify_withpid example: A waits, B records.
TEST_F(IpcSyncApiTest, NotifyWithPidAcrossProcesses) {
  aclrtNotify notify = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&notify, 0));
  char key[65] = {};
  ASSERT_ACL_OK(aclrtNotifyGetExportKey(notify, key, sizeof(key),
                                        ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT));
  Peer peer;
  ASSERT_GT(peer.pid(), 0);
  const std::string import = std::string("import_notify ") + key + " 0";
  // Not whitelisted yet.
  EXPECT_EQ(peer.Ask(import), Code(ACL_ERROR_RT_NO_PERMISSION));
  int32_t pid = std::stoi(peer.Ask("pid"));
  ASSERT_EQ(pid, peer.pid());
  ASSERT_ACL_OK(aclrtNotifySetImportPid(notify, &pid, 1));
  ASSERT_EQ(peer.Ask(import), "0");
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify, stream_, 0));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_ACL_ERROR(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
                   aclrtSynchronizeStreamWithTimeout(stream_, 50));
  EXPECT_EQ(peer.Ask("record_notify"), "0");
  ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream_, 10000));
  // And the other way: B waits for A's record.
  std::string waited;
  std::thread waiter([&] { waited = peer.Ask("wait_notify 10"); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_ACL_OK(aclrtRecordNotify(notify, side_));
  waiter.join();
  EXPECT_EQ(waited, "0");
  // A wait nobody records times out there.
  EXPECT_EQ(peer.Ask("wait_notify 1"), Code(ACL_ERROR_RT_WAIT_TIMEOUT));
  EXPECT_EQ(peer.Ask("destroy_notify"), "0");
  ASSERT_ACL_OK(aclrtDestroyNotify(notify));
}

// 1_ipc_notify_withoutpid: pid validation off, no whitelist needed.
TEST_F(IpcSyncApiTest, NotifyWithoutPidValidation) {
  aclrtNotify notify = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&notify, 0));
  // A record before the export is carried over to the shared flag.
  ASSERT_ACL_OK(aclrtRecordNotify(notify, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  char key[128] = {};
  ASSERT_ACL_OK(aclrtNotifyGetExportKey(
      notify, key, sizeof(key),
      ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION));
  Peer peer;
  ASSERT_GT(peer.pid(), 0);
  ASSERT_EQ(peer.Ask(std::string("import_notify ") + key + " 2"), "0");
  EXPECT_EQ(peer.Ask("wait_notify 5"), "0");
  EXPECT_EQ(peer.Ask("record_notify"), "0");
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify, stream_, 5000));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  // A snapshot cycle keeps the shared flag and the export.
  EXPECT_EQ(peer.Ask("record_notify"), "0");
  ASSERT_ACL_OK(aclrtSnapShotProcessLock(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessBackup(getpid(), nullptr));
  ASSERT_ACL_OK(aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS));
  ASSERT_ACL_OK(aclrtSnapShotProcessRestore(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtSnapShotProcessUnlock(getpid(), nullptr));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify, stream_, 5000));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  Peer second;
  ASSERT_EQ(second.Ask(std::string("import_notify ") + key + " 0"), "0");
  // Destroying it releases a queued wait here.
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify, stream_, 0));
  ASSERT_ACL_OK(aclrtDestroyNotify(notify));
  EXPECT_NE(aclrtSynchronizeStreamWithTimeout(stream_, 10000),
            ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
}

}  // namespace
