// The fd broker across real processes: fd_broker_test_child is spawned and
// driven one command a line (see that file).
#include "device/base/fd_broker.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"

extern char** environ;

namespace ascend::ipc {
namespace {

std::string ChildPath() {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  if (srcdir == nullptr || workspace == nullptr) {
    return "device/base/fd_broker_test_child";
  }
  return absl::StrCat(srcdir, "/", workspace,
                      "/device/base/fd_broker_test_child");
}

// A running child process with a line protocol over two pipes.
class Child {
 public:
  Child() {
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0) return;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    const std::string path = ChildPath();
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
  ~Child() {
    if (to_ != nullptr) fclose(to_);
    if (from_ != nullptr) fclose(from_);
    if (pid_ > 0) Wait();
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
  // Ends the child without it releasing anything.
  void Kill() {
    if (pid_ > 0) kill(pid_, SIGKILL);
    Wait();
  }
  void Wait() {
    if (pid_ <= 0) return;
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }

 private:
  pid_t pid_ = -1;
  FILE* to_ = nullptr;
  FILE* from_ = nullptr;
};

int MakeMemfd(const std::string& text) {
  const int fd = memfd_create("test", MFD_CLOEXEC);
  if (fd >= 0) (void)!write(fd, text.data(), text.size());
  return fd;
}

std::string Contents(int fd) {
  char buf[128] = {};
  const ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
}

uint32_t PublishText(const std::string& text, ExportKind kind, bool check_pid) {
  const int fd = MakeMemfd(text);
  auto id = FdBroker::Get().Publish(kind, fd, "m:" + text, check_pid);
  close(fd);  // the broker holds its own dup
  EXPECT_TRUE(id.ok()) << id.status();
  return id.ok() ? *id : 0;
}

std::string FetchCmd(int32_t pid, uint32_t id, ExportKind kind) {
  return absl::StrCat("fetch ", pid, " ", id, " ", static_cast<int>(kind));
}

// Polls until `f()` holds or 10 s pass.
template <typename F>
bool Eventually(F f) {
  const absl::Time end = absl::Now() + absl::Seconds(10);
  while (absl::Now() < end) {
    if (f()) return true;
    absl::SleepFor(absl::Milliseconds(5));
  }
  return f();
}

TEST(FdBrokerTest, ChildFetchesAndReleases) {
  const uint32_t id = PublishText("hello", ExportKind::kEvent, false);
  ASSERT_NE(id, 0u);
  EXPECT_TRUE(FdBroker::Get().Exists(id));
  Child child;
  ASSERT_GT(child.pid(), 0);
  EXPECT_EQ(child.Ask(FetchCmd(getpid(), id, ExportKind::kEvent)),
            "0 hello m:hello");
  EXPECT_EQ(FdBroker::Get().ActiveImports(id), 1);
  EXPECT_EQ(child.Ask(FetchCmd(getpid(), id, ExportKind::kEvent)),
            "0 hello m:hello");
  EXPECT_EQ(FdBroker::Get().ActiveImports(id), 2);
  EXPECT_EQ(child.Ask(absl::StrCat("release ", getpid(), " ", id)), "ok");
  EXPECT_EQ(FdBroker::Get().ActiveImports(id), 1);
  EXPECT_EQ(child.Ask(absl::StrCat("release ", getpid(), " ", id)), "ok");
  EXPECT_EQ(FdBroker::Get().ActiveImports(id), 0);
  // A release of nothing held changes nothing.
  EXPECT_EQ(child.Ask(absl::StrCat("release ", getpid(), " ", id)), "ok");
  EXPECT_EQ(FdBroker::Get().ActiveImports(id), 0);
  EXPECT_TRUE(FdBroker::Get().Withdraw(id).ok());
}

TEST(FdBrokerTest, AWithdrawnExportCountsItsImportsUntilReleased) {
  const uint32_t id = PublishText("kept", ExportKind::kMemory, false);
  ASSERT_NE(id, 0u);
  Child child;
  ASSERT_GT(child.pid(), 0);
  EXPECT_EQ(child.Ask(FetchCmd(getpid(), id, ExportKind::kMemory)),
            "0 kept m:kept");
  ASSERT_TRUE(FdBroker::Get().Withdraw(id).ok());
  // Gone for new importers ...
  EXPECT_FALSE(FdBroker::Get().Exists(id));
  EXPECT_EQ(FdBroker::Get().Withdraw(id).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(FdBroker::Get().AllowPids(id, {child.pid()}).code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(
      child.Ask(FetchCmd(getpid(), id, ExportKind::kMemory)),
      absl::StrCat(static_cast<int>(absl::StatusCode::kNotFound), " - -"));
  // ... but the import made before still counts, until it is released.
  EXPECT_EQ(FdBroker::Get().ActiveImports(id), 1);
  EXPECT_EQ(child.Ask(absl::StrCat("release ", getpid(), " ", id)), "ok");
  EXPECT_EQ(FdBroker::Get().ActiveImports(id), 0);
}

TEST(FdBrokerTest, AWithdrawnExportsImportsEndWithTheImporter) {
  const uint32_t id = PublishText("dies", ExportKind::kMemory, false);
  ASSERT_NE(id, 0u);
  {
    Child child;
    ASSERT_GT(child.pid(), 0);
    EXPECT_EQ(child.Ask(FetchCmd(getpid(), id, ExportKind::kMemory)),
              "0 dies m:dies");
    ASSERT_TRUE(FdBroker::Get().Withdraw(id).ok());
    EXPECT_EQ(FdBroker::Get().ActiveImports(id), 1);
  }
  EXPECT_TRUE(
      Eventually([&] { return FdBroker::Get().ActiveImports(id) == 0; }));
}

TEST(FdBrokerTest, IdsAreUniqueAndNeverZero) {
  const uint32_t a = PublishText("a", ExportKind::kMemory, false);
  const uint32_t b = PublishText("b", ExportKind::kMemory, false);
  EXPECT_NE(a, 0u);
  EXPECT_NE(b, 0u);
  EXPECT_NE(a, b);
  EXPECT_TRUE(FdBroker::Get().Withdraw(a).ok());
  const uint32_t c = PublishText("c", ExportKind::kMemory, false);
  EXPECT_NE(c, a);
  EXPECT_EQ(FdBroker::Get().Withdraw(a).code(), absl::StatusCode::kNotFound);
  EXPECT_FALSE(FdBroker::Get().Exists(a));
  EXPECT_TRUE(FdBroker::Get().Withdraw(b).ok());
  EXPECT_TRUE(FdBroker::Get().Withdraw(c).ok());
}

TEST(FdBrokerTest, BadArguments) {
  EXPECT_EQ(FdBroker::Get()
                .Publish(ExportKind::kMemory, -1, "", false)
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
  const int fd = MakeMemfd("x");
  EXPECT_EQ(FdBroker::Get()
                .Publish(ExportKind::kMemory, fd,
                         std::string(FdBroker::kMaxMetadata + 1, 'm'), false)
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
  close(fd);
  EXPECT_EQ(FdBroker::Get().AllowPids(0, {1}).code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(FdBroker::Get().ActiveImports(0), 0);
  EXPECT_EQ(FdBroker::Get().Fetch(0, 1, ExportKind::kMemory).status().code(),
            absl::StatusCode::kUnavailable);
}

TEST(FdBrokerTest, WhitelistDeniesThenAllows) {
  const uint32_t id = PublishText("secret", ExportKind::kNotify, true);
  Child child;
  ASSERT_GT(child.pid(), 0);
  EXPECT_EQ(child.Ask(FetchCmd(getpid(), id, ExportKind::kNotify)),
            absl::StrCat(static_cast<int>(absl::StatusCode::kPermissionDenied),
                         " - -"));
  EXPECT_EQ(FdBroker::Get().ActiveImports(id), 0);
  // Another pid on the list does not let this child in.
  ASSERT_TRUE(FdBroker::Get().AllowPids(id, {child.pid() + 100000}).ok());
  EXPECT_NE(child.Ask(FetchCmd(getpid(), id, ExportKind::kNotify))[0], '0');
  ASSERT_TRUE(FdBroker::Get().AllowPids(id, {child.pid()}).ok());
  EXPECT_EQ(child.Ask(FetchCmd(getpid(), id, ExportKind::kNotify)),
            "0 secret m:secret");
  // The exporting process itself needs no whitelisting.
  auto own = FdBroker::Get().Fetch(getpid(), id, ExportKind::kNotify);
  ASSERT_TRUE(own.ok()) << own.status();
  EXPECT_EQ(Contents(own->fd), "secret");
  EXPECT_EQ(own->owner_pid, getpid());
  close(own->fd);
  FdBroker::Get().Release(getpid(), id);
  EXPECT_TRUE(FdBroker::Get().Withdraw(id).ok());
}

TEST(FdBrokerTest, WithdrawnAndKindMismatch) {
  const uint32_t id = PublishText("gone", ExportKind::kEvent, false);
  Child child;
  ASSERT_GT(child.pid(), 0);
  EXPECT_EQ(child.Ask(FetchCmd(getpid(), id, ExportKind::kNotify)),
            absl::StrCat(static_cast<int>(absl::StatusCode::kInvalidArgument),
                         " - -"));
  EXPECT_EQ(child.Ask(FetchCmd(getpid(), id, ExportKind::kEvent)),
            "0 gone m:gone");
  ASSERT_TRUE(FdBroker::Get().Withdraw(id).ok());
  EXPECT_EQ(
      child.Ask(FetchCmd(getpid(), id, ExportKind::kEvent)),
      absl::StrCat(static_cast<int>(absl::StatusCode::kNotFound), " - -"));
  EXPECT_EQ(
      child.Ask(FetchCmd(getpid(), id + 7, ExportKind::kEvent)),
      absl::StrCat(static_cast<int>(absl::StatusCode::kNotFound), " - -"));
}

TEST(FdBrokerTest, DeadImporterCountsAsReleased) {
  const uint32_t id = PublishText("held", ExportKind::kMemory, false);
  {
    Child child;
    ASSERT_GT(child.pid(), 0);
    EXPECT_EQ(child.Ask(FetchCmd(getpid(), id, ExportKind::kMemory)),
              "0 held m:held");
    EXPECT_EQ(child.Ask(FetchCmd(getpid(), id, ExportKind::kMemory)),
              "0 held m:held");
    EXPECT_EQ(FdBroker::Get().ActiveImports(id), 2);
    child.Kill();
  }
  EXPECT_TRUE(
      Eventually([&] { return FdBroker::Get().ActiveImports(id) == 0; }));
  EXPECT_TRUE(FdBroker::Get().Withdraw(id).ok());
}

TEST(FdBrokerTest, DeadExporter) {
  Child child;
  ASSERT_GT(child.pid(), 0);
  const int32_t pid = child.pid();
  // A process that publishes nothing runs no broker.
  EXPECT_EQ(FdBroker::Get().Fetch(pid, 1, ExportKind::kMemory).status().code(),
            absl::StatusCode::kUnavailable);
  std::istringstream reply(child.Ask("publish 1 alive 0"));
  int32_t child_pid = 0;
  uint32_t id = 0;
  reply >> child_pid >> id;
  ASSERT_EQ(child_pid, pid);
  ASSERT_NE(id, 0u);
  auto got = FdBroker::Get().Fetch(pid, id, ExportKind::kMemory);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->owner_pid, pid);
  EXPECT_EQ(got->metadata, "meta-alive");
  EXPECT_EQ(child.Ask(absl::StrCat("active ", id)), "1");
  EXPECT_EQ(
      FdBroker::Get().Fetch(pid, id + 1, ExportKind::kMemory).status().code(),
      absl::StatusCode::kNotFound);
  child.Kill();
  EXPECT_FALSE(FdBroker::ProcessAlive(pid));
  // The import outlives its exporter; new fetches fail.
  EXPECT_EQ(Contents(got->fd), "alive");
  close(got->fd);
  EXPECT_EQ(FdBroker::Get().Fetch(pid, id, ExportKind::kMemory).status().code(),
            absl::StatusCode::kUnavailable);
  FdBroker::Get().Release(pid, id);  // harmless
  EXPECT_TRUE(FdBroker::ProcessAlive(getpid()));
}

TEST(FdBrokerTest, ManyConcurrentFetches) {
  const uint32_t id = PublishText("many", ExportKind::kPhysicalMemory, true);
  Child a, b;
  ASSERT_GT(a.pid(), 0);
  ASSERT_GT(b.pid(), 0);
  ASSERT_TRUE(FdBroker::Get().AllowPids(id, {a.pid(), b.pid()}).ok());
  const std::string cmd =
      absl::StrCat("fetchmany ", getpid(), " ", id, " ",
                   static_cast<int>(ExportKind::kPhysicalMemory), " 50 4");
  std::string ra, rb;
  std::thread ta([&] { ra = a.Ask(cmd); });
  std::thread tb([&] { rb = b.Ask(cmd); });
  // Threads of this process fetch their own export meanwhile.
  std::atomic<int> own{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < 4; ++t) {
    pool.emplace_back([&] {
      for (int i = 0; i < 25; ++i) {
        auto got =
            FdBroker::Get().Fetch(getpid(), id, ExportKind::kPhysicalMemory);
        if (got.ok()) {
          ++own;
          close(got->fd);
          FdBroker::Get().Release(getpid(), id);
        }
      }
    });
  }
  for (std::thread& t : pool) t.join();
  ta.join();
  tb.join();
  EXPECT_EQ(ra, "200");
  EXPECT_EQ(rb, "200");
  EXPECT_EQ(own.load(), 100);
  EXPECT_EQ(FdBroker::Get().ActiveImports(id), 400);
  a.Kill();
  b.Kill();
  EXPECT_TRUE(
      Eventually([&] { return FdBroker::Get().ActiveImports(id) == 0; }));
  EXPECT_TRUE(FdBroker::Get().Withdraw(id).ok());
}

}  // namespace
}  // namespace ascend::ipc
