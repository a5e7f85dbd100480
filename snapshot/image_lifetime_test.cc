// The image settings of aclInit and the lifetime of an image on disk
// (DESIGN.md §4.15), each in a process of its own (this binary run again):
// bad settings fail aclInit with 100000 and configure nothing, the
// environment wins over the config file, a normal exit leaves no file, and
// after a crash the next process's aclInit removes the images of dead
// processes, and only those.
#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "acl/acl.h"
#include "aclsim/aclsim.h"
#include "gtest/gtest.h"
#include "snapshot/image_file.h"
#include "testing/fault_injection/snapshot_fixture.h"
#include "testing/status_matchers.h"

namespace {

constexpr const char* kChildMode = "IMAGE_LIFETIME_CHILD";

std::string MakeTempDir(const char* what) {
  const char* base = std::getenv("TEST_TMPDIR");
  std::string pattern =
      std::string(base != nullptr ? base : "/tmp") + "/" + what + "-XXXXXX";
  EXPECT_NE(mkdtemp(pattern.data()), nullptr);
  return pattern;
}

std::vector<std::string> List(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      if (e->d_name[0] != '.') names.push_back(e->d_name);
    }
    closedir(d);
  }
  return names;
}

struct ChildResult {
  int status = 0;  // as waitpid gives it
  pid_t pid = 0;
  std::string out;
};

// Runs this binary's ChildProcess test in a new process with `env` added.
ChildResult RunChild(const std::map<std::string, std::string>& env) {
  int pipe_fds[2];
  EXPECT_EQ(pipe(pipe_fds), 0);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(pipe_fds[1], STDOUT_FILENO);
    close(pipe_fds[0]);
    for (const auto& [name, value] : env)
      setenv(name.c_str(), value.c_str(), 1);
    char exe[] = "/proc/self/exe";
    char filter[] = "--gtest_filter=ChildProcess.Run";
    char* argv[] = {exe, filter, nullptr};
    execv(exe, argv);
    _exit(127);
  }
  close(pipe_fds[1]);
  ChildResult result;
  result.pid = pid;
  char buf[4096];
  ssize_t n;
  while ((n = read(pipe_fds[0], buf, sizeof(buf))) > 0) {
    result.out.append(buf, static_cast<size_t>(n));
  }
  close(pipe_fds[0]);
  EXPECT_EQ(waitpid(pid, &result.status, 0), pid);
  return result;
}

// A child running on its own: the test writes to its stdin and reads its
// stdout.
struct LiveChild {
  pid_t pid = -1;
  int in = -1;   // its stdin
  int out = -1;  // its stdout
  std::string said;
};

// Starts this binary's ChildProcess test with `env` added, like RunChild,
// but returns at once. With `own_pid_namespace`, in a new PID namespace (and
// user namespace, mapping this user), where it is PID 1, as in a container
// sharing the image directory; false when that cannot be made here.
bool StartChild(const std::map<std::string, std::string>& env,
                bool own_pid_namespace, LiveChild* child) {
  int to_child[2];
  int from_child[2];
  int verdict[2];  // the namespace was made (a byte) or not (closed)
  if (pipe(to_child) != 0 || pipe(from_child) != 0 || pipe(verdict) != 0) {
    return false;
  }
  const pid_t pid = fork();
  if (pid == 0) {
    close(verdict[0]);
    dup2(to_child[0], STDIN_FILENO);
    dup2(from_child[1], STDOUT_FILENO);
    close(to_child[1]);
    close(from_child[0]);
    if (own_pid_namespace) {
      const uid_t uid = geteuid();
      const gid_t gid = getegid();
      int flags = CLONE_NEWPID;
      if (uid != 0) flags |= CLONE_NEWUSER;
      if (unshare(flags) != 0) _exit(126);
      if (uid != 0) {
        // Map this user into the new user namespace, so that the files it
        // writes are this user's.
        std::ofstream("/proc/self/setgroups") << "deny";
        std::ofstream(absl::StrCat("/proc/self/uid_map"))
            << uid << " " << uid << " 1";
        std::ofstream(absl::StrCat("/proc/self/gid_map"))
            << gid << " " << gid << " 1";
      }
      // The first process forked now is PID 1 of the new namespace.
      const pid_t inner = fork();
      if (inner < 0) _exit(126);
      if (inner > 0) {
        (void)!write(verdict[1], "y", 1);
        int status = 0;
        waitpid(inner, &status, 0);
        _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 125);
      }
    }
    close(verdict[1]);
    for (const auto& [name, value] : env)
      setenv(name.c_str(), value.c_str(), 1);
    char exe[] = "/proc/self/exe";
    char filter[] = "--gtest_filter=ChildProcess.Run";
    char* argv[] = {exe, filter, nullptr};
    execv(exe, argv);
    _exit(127);
  }
  close(to_child[0]);
  close(from_child[1]);
  close(verdict[1]);
  char made = 0;
  const bool namespaced = read(verdict[0], &made, 1) == 1;
  close(verdict[0]);
  child->pid = pid;
  child->in = to_child[1];
  child->out = from_child[0];
  if (own_pid_namespace && !namespaced) {
    close(child->in);
    close(child->out);
    waitpid(pid, nullptr, 0);
    return false;
  }
  return true;
}

// Reads the child's stdout until it has printed `name`=...; the value.
std::string WaitFor(LiveChild* child, const std::string& name) {
  for (;;) {
    const std::string out = "\n" + child->said;
    const size_t at = out.find("\n" + name + "=");
    if (at != std::string::npos) {
      const size_t from = at + name.size() + 2;
      const size_t end = out.find('\n', from);
      if (end != std::string::npos) return out.substr(from, end - from);
    }
    char buf[1024];
    const ssize_t n = read(child->out, buf, sizeof(buf));
    if (n <= 0) return "<none>";
    child->said.append(buf, static_cast<size_t>(n));
  }
}

// Tells a "wait" child to go on, and waits for its end; its exit status.
int Finish(LiveChild* child) {
  (void)!write(child->in, "g", 1);
  close(child->in);
  WaitFor(child, "byte");
  close(child->out);
  int status = 0;
  waitpid(child->pid, &status, 0);
  return status;
}

// The value the child printed as "name=value".
std::string Field(const ChildResult& r, const std::string& name) {
  const std::string key = "\n" + name + "=";
  const std::string out = "\n" + r.out;
  const size_t at = out.find(key);
  if (at == std::string::npos) return "<none>";
  const size_t from = at + key.size();
  return out.substr(from, out.find('\n', from) - from);
}

std::string WriteConfig(const std::string& dir, const std::string& json) {
  static int n = 0;
  const std::string path = absl::StrCat(dir, "/config", ++n, ".json");
  std::ofstream(path) << json;
  return path;
}

// The child: what IMAGE_LIFETIME_CHILD says. Skipped when run as a test.
TEST(ChildProcess, Run) {
  const char* mode = std::getenv(kChildMode);
  if (mode == nullptr) GTEST_SKIP() << "run by the tests below";
  const char* config = std::getenv("IMAGE_LIFETIME_CONFIG");
  const aclError init = aclInit(config);
  std::printf("init=%d\nconfigured=%d\n", init,
              ascend::snapshot::internal::ImageStore::Current() != nullptr);
  std::fflush(stdout);
  if (std::strcmp(mode, "init") == 0) {
    if (init == ACL_SUCCESS) (void)aclFinalize();
    std::exit(0);
  }
  // "exit", "crash", "wait" or "fork": an image on disk, then the end.
  void* p = nullptr;
  if (aclrtSetDevice(0) != ACL_SUCCESS ||
      aclrtMalloc(&p, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
      aclrtMemset(p, 1 << 20, 0x3C, 1 << 20) != ACL_SUCCESS ||
      ascend::testing::Lock() != ACL_SUCCESS ||
      ascend::testing::Backup() != ACL_SUCCESS) {
    std::exit(3);
  }
  std::printf("backed_up=1\n");
  std::fflush(stdout);
  if (std::strcmp(mode, "crash") == 0) raise(SIGKILL);
  if (std::strcmp(mode, "fork") == 0) {
    // A child of this process (fork without exec, as a program starting a
    // helper does) that ends normally: its exit handlers run.
    const pid_t child = fork();
    if (child == 0) std::exit(0);
    int status = 0;
    waitpid(child, &status, 0);
    std::printf("child_exited=%d\n", WIFEXITED(status) ? 1 : 0);
  }
  if (std::strcmp(mode, "wait") == 0) {
    // Alive with its image until told to go on (a line on stdin).
    char go = 0;
    if (read(STDIN_FILENO, &go, 1) != 1) std::exit(4);
  }
  if (std::strcmp(mode, "wait") == 0 || std::strcmp(mode, "fork") == 0) {
    // Its image must still be there: a Restore after a memory loss.
    (void)aclsimInjectFault(0, ACLSIM_FAULT_DEVICE_MEMORY_LOSS);
    const aclError restored = ascend::testing::Restore();
    uint8_t byte = 0;
    if (restored == ACL_SUCCESS) byte = *static_cast<uint8_t*>(p);
    std::printf("restore=%d\nbyte=%d\n", restored, byte);
    std::fflush(stdout);
  }
  std::exit(0);  // no Unlock, no aclFinalize
}

class ImageSettingsTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = MakeTempDir("settings"); }
  // aclInit's code in a fresh process, with `config` (a path, or none) and
  // `env`; checks that a failure configured nothing.
  int Init(const std::string& config,
           std::map<std::string, std::string> env = {}) {
    env[kChildMode] = "init";
    if (!config.empty()) env["IMAGE_LIFETIME_CONFIG"] = config;
    const ChildResult r = RunChild(env);
    EXPECT_TRUE(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0) << r.out;
    const int code = std::atoi(Field(r, "init").c_str());
    configured_ = Field(r, "configured") == "1";
    if (code != 0) {
      EXPECT_FALSE(configured_) << "a failed aclInit configured";
    }
    return code;
  }
  std::string dir_;
  bool configured_ = false;
};

TEST_F(ImageSettingsTest, BadEnvironmentValuesFailAclInit) {
  std::ofstream(dir_ + "/file") << "x";
  const std::vector<std::map<std::string, std::string>> bad = {
      {{"ASCENDCL_SNAPSHOT_IMAGE_DIR", "relative/images"}},
      {{"ASCENDCL_SNAPSHOT_IMAGE_DIR", dir_ + "/missing"}},
      {{"ASCENDCL_SNAPSHOT_IMAGE_DIR", dir_ + "/file"}},
      {{"ASCENDCL_SNAPSHOT_IMAGE_DIR", dir_},
       {"ASCENDCL_SNAPSHOT_HOST_BUFFER_MB", "0"}},
      {{"ASCENDCL_SNAPSHOT_IMAGE_DIR", dir_},
       {"ASCENDCL_SNAPSHOT_HOST_BUFFER_MB", "lots"}},
      // Above any host's memory.
      {{"ASCENDCL_SNAPSHOT_IMAGE_DIR", dir_},
       {"ASCENDCL_SNAPSHOT_HOST_BUFFER_MB", "1000000000"}},
  };
  for (const auto& env : bad) {
    EXPECT_EQ(Init("", env), ACL_ERROR_INVALID_PARAM)
        << env.begin()->second << " " << env.rbegin()->second;
  }
  EXPECT_EQ(Init("", {{"ASCENDCL_SNAPSHOT_IMAGE_DIR", dir_},
                      {"ASCENDCL_SNAPSHOT_HOST_BUFFER_MB", "16"}}),
            ACL_SUCCESS);
  EXPECT_TRUE(configured_);
}

TEST_F(ImageSettingsTest, ANotWritableDirectoryFailsAclInit) {
  if (geteuid() == 0) GTEST_SKIP() << "root writes anywhere";
  const std::string ro = dir_ + "/read-only";
  ASSERT_EQ(mkdir(ro.c_str(), 0500), 0);
  EXPECT_EQ(Init("", {{"ASCENDCL_SNAPSHOT_IMAGE_DIR", ro}}),
            ACL_ERROR_INVALID_PARAM);
}

TEST_F(ImageSettingsTest, TheConfigFileSetsThemAndBadOnesFailAclInit) {
  EXPECT_EQ(Init(WriteConfig(
                dir_, absl::StrCat(R"({"snapshot": {"image_dir": ")", dir_,
                                   R"(", "host_buffer_mb": 64}})"))),
            ACL_SUCCESS);
  EXPECT_TRUE(configured_);
  // Without image_dir images stay in host memory.
  EXPECT_EQ(Init(WriteConfig(dir_, R"({"snapshot": {"host_buffer_mb": 64}})")),
            ACL_SUCCESS);
  EXPECT_FALSE(configured_);
  const std::vector<std::string> bad = {
      R"({"snapshot": 5})",
      R"({"snapshot": {"image_dir": 7}})",
      R"({"snapshot": {"image_dir": "relative"}})",
      absl::StrCat(R"({"snapshot": {"image_dir": ")", dir_, R"(/missing"}})"),
      absl::StrCat(R"({"snapshot": {"image_dir": ")", dir_,
                   R"(", "host_buffer_mb": -1}})"),
      absl::StrCat(R"({"snapshot": {"image_dir": ")", dir_,
                   R"(", "host_buffer_mb": "256"}})"),
      absl::StrCat(R"({"snapshot": {"image_dir": ")", dir_,
                   R"(", "host_buffer_mb": 0}})"),
  };
  for (const std::string& json : bad) {
    EXPECT_EQ(Init(WriteConfig(dir_, json)), ACL_ERROR_INVALID_PARAM) << json;
  }
}

TEST_F(ImageSettingsTest, TheEnvironmentWinsOverTheConfigFile) {
  const std::string missing = WriteConfig(
      dir_,
      absl::StrCat(R"({"snapshot": {"image_dir": ")", dir_, R"(/missing"}})"));
  EXPECT_EQ(Init(missing, {{"ASCENDCL_SNAPSHOT_IMAGE_DIR", dir_}}),
            ACL_SUCCESS);
  EXPECT_TRUE(configured_);
  const std::string good = WriteConfig(
      dir_, absl::StrCat(R"({"snapshot": {"image_dir": ")", dir_, R"("}})"));
  EXPECT_EQ(Init(good, {{"ASCENDCL_SNAPSHOT_HOST_BUFFER_MB", "0"}}),
            ACL_ERROR_INVALID_PARAM);
}

// The image subdirectory of process `pid` in `dir`, or "".
std::string ImageOf(const std::string& dir, pid_t pid) {
  const std::string prefix = absl::StrCat("ascendcl-snapshot-", pid, "-");
  for (const std::string& name : List(dir)) {
    if (absl::StartsWith(name, prefix)) return dir + "/" + name;
  }
  return "";
}

TEST(ImageLifetimeTest, ANormalExitLeavesNoFile) {
  const std::string dir = MakeTempDir("exit");
  const ChildResult r =
      RunChild({{kChildMode, "exit"}, {"ASCENDCL_SNAPSHOT_IMAGE_DIR", dir}});
  ASSERT_EQ(Field(r, "backed_up"), "1") << r.out;
  ASSERT_TRUE(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0);
  EXPECT_EQ(ImageOf(dir, r.pid), "");
  EXPECT_EQ(List(dir), std::vector<std::string>{});
}

TEST(ImageLifetimeTest, AfterACrashTheNextProcessRemovesOnlyDeadImages) {
  const std::string dir = MakeTempDir("crash");
  const ChildResult r =
      RunChild({{kChildMode, "crash"}, {"ASCENDCL_SNAPSHOT_IMAGE_DIR", dir}});
  ASSERT_EQ(Field(r, "backed_up"), "1") << r.out;
  ASSERT_TRUE(WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGKILL);
  const std::string crashed = ImageOf(dir, r.pid);
  ASSERT_NE(crashed, "");
  EXPECT_FALSE(List(crashed).empty());
  // A live process's image (this one's pid and start time), and one named
  // after this pid with another start time (a dead process whose pid was
  // reused).
  std::ifstream self_stat("/proc/self/stat");
  std::string stat_line;
  std::getline(self_stat, stat_line);
  std::vector<std::string> fields;
  std::string rest = stat_line.substr(stat_line.rfind(')') + 2);
  for (size_t at = 0; at != std::string::npos;) {
    const size_t space = rest.find(' ', at);
    fields.push_back(rest.substr(at, space - at));
    at = space == std::string::npos ? space : space + 1;
  }
  ASSERT_GE(fields.size(), 20u);
  const std::string live =
      absl::StrCat(dir, "/ascendcl-snapshot-", getpid(), "-", fields[19]);
  const std::string reused =
      absl::StrCat(dir, "/ascendcl-snapshot-", getpid(), "-1");
  ASSERT_EQ(mkdir(live.c_str(), 0700), 0);
  ASSERT_EQ(mkdir(reused.c_str(), 0700), 0);
  std::ofstream(live + "/dev0-1.img") << "a live process's image";
  std::ofstream(reused + "/dev0-1.img") << "a dead process's image";
  const std::string unrelated = dir + "/not-an-image";
  ASSERT_EQ(mkdir(unrelated.c_str(), 0700), 0);

  const ChildResult next =
      RunChild({{kChildMode, "init"}, {"ASCENDCL_SNAPSHOT_IMAGE_DIR", dir}});
  ASSERT_EQ(Field(next, "init"), "0") << next.out;
  struct stat st;
  EXPECT_NE(stat(crashed.c_str(), &st), 0) << "the crashed image is left";
  EXPECT_NE(stat(reused.c_str(), &st), 0) << "the reused pid's image is left";
  EXPECT_EQ(stat((live + "/dev0-1.img").c_str(), &st), 0)
      << "a live process's image was removed";
  EXPECT_EQ(stat(unrelated.c_str(), &st), 0);
  unlink((live + "/dev0-1.img").c_str());
  rmdir(live.c_str());
  rmdir(unrelated.c_str());
}

// The image subdirectories of `dir`.
std::set<std::string> ImageDirs(const std::string& dir) {
  std::set<std::string> dirs;
  for (const std::string& name : List(dir)) {
    if (absl::StartsWith(name, "ascendcl-snapshot-")) dirs.insert(name);
  }
  return dirs;
}

// Three processes share one image directory: the first backs up and is
// killed, the second backs up and waits, alive, the third starts and backs
// up. Only the first's image may go; the second restores from its own.
void ThreeProcessesShareADirectory(bool second_in_own_pid_namespace) {
  const std::string dir = MakeTempDir("shared");
  const ChildResult first =
      RunChild({{kChildMode, "crash"}, {"ASCENDCL_SNAPSHOT_IMAGE_DIR", dir}});
  ASSERT_EQ(Field(first, "backed_up"), "1") << first.out;
  ASSERT_TRUE(WIFSIGNALED(first.status));
  const std::string crashed = ImageOf(dir, first.pid);
  ASSERT_NE(crashed, "");

  LiveChild second;
  if (!StartChild({{kChildMode, "wait"}, {"ASCENDCL_SNAPSHOT_IMAGE_DIR", dir}},
                  second_in_own_pid_namespace, &second)) {
    GTEST_SKIP() << "no new PID namespace here";
  }
  ASSERT_EQ(WaitFor(&second, "backed_up"), "1") << second.said;
  // The second's aclInit removed the first's image, the dead one.
  struct stat st;
  EXPECT_NE(stat(crashed.c_str(), &st), 0);
  const std::set<std::string> with_second = ImageDirs(dir);
  ASSERT_EQ(with_second.size(), 1u);
  const std::string second_dir = dir + "/" + *with_second.begin();
  const std::vector<std::string> second_files = List(second_dir);
  ASSERT_FALSE(second_files.empty());

  const ChildResult third =
      RunChild({{kChildMode, "exit"}, {"ASCENDCL_SNAPSHOT_IMAGE_DIR", dir}});
  EXPECT_EQ(Field(third, "backed_up"), "1") << third.out;
  EXPECT_EQ(List(second_dir), second_files)
      << "the third process removed the image of the second, alive";

  const int status = Finish(&second);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << second.said;
  EXPECT_EQ(WaitFor(&second, "restore"), "0") << second.said;
  EXPECT_EQ(WaitFor(&second, "byte"), "60") << second.said;
  // Every process has ended normally or been killed: nothing is left.
  const ChildResult last =
      RunChild({{kChildMode, "init"}, {"ASCENDCL_SNAPSHOT_IMAGE_DIR", dir}});
  EXPECT_EQ(Field(last, "init"), "0");
  EXPECT_EQ(List(dir), std::vector<std::string>{});
  rmdir(dir.c_str());
}

TEST(ImageLifetimeTest, ALiveProcessKeepsItsImage) {
  ThreeProcessesShareADirectory(false);
}

// The second in a PID namespace of its own (a container sharing the image
// directory): its PID means another process, or none, where the third
// looks. Its image is still alive.
TEST(ImageLifetimeTest, ALiveProcessInAnotherPidNamespaceKeepsItsImage) {
  ThreeProcessesShareADirectory(true);
}

// A process with an image on disk forks a child that exits normally (its
// exit handlers run, as in any program that forks a helper): the parent's
// image stays, and its Restore works.
TEST(ImageLifetimeTest, AForkedChildLeavesItsParentsImage) {
  const std::string dir = MakeTempDir("fork");
  const ChildResult r =
      RunChild({{kChildMode, "fork"}, {"ASCENDCL_SNAPSHOT_IMAGE_DIR", dir}});
  ASSERT_EQ(Field(r, "backed_up"), "1") << r.out;
  EXPECT_EQ(Field(r, "child_exited"), "1") << r.out;
  EXPECT_EQ(Field(r, "restore"), "0") << r.out;
  EXPECT_EQ(Field(r, "byte"), "60") << r.out;
  EXPECT_TRUE(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0);
  EXPECT_EQ(List(dir), std::vector<std::string>{});
  rmdir(dir.c_str());
}

// Several processes start at once over images of dead processes (and one
// live one): each stale image is removed, whoever gets to it first, and
// the live one is kept.
TEST(ImageLifetimeTest, ConcurrentStartsRemoveOnlyStaleImages) {
  const std::string dir = MakeTempDir("concurrent");
  // Names of images of dead processes (each crashed child's own).
  std::vector<std::string> stale;
  for (int i = 0; i < 3; ++i) {
    const ChildResult r =
        RunChild({{kChildMode, "crash"}, {"ASCENDCL_SNAPSHOT_IMAGE_DIR", dir}});
    ASSERT_EQ(Field(r, "backed_up"), "1") << r.out;
    const std::string image = ImageOf(dir, r.pid);
    ASSERT_NE(image, "");
    stale.push_back(image);
  }
  LiveChild alive;
  ASSERT_TRUE(
      StartChild({{kChildMode, "wait"}, {"ASCENDCL_SNAPSHOT_IMAGE_DIR", dir}},
                 false, &alive));
  ASSERT_EQ(WaitFor(&alive, "backed_up"), "1") << alive.said;
  const std::string alive_dir = ImageOf(dir, alive.pid);
  ASSERT_NE(alive_dir, "");
  const std::vector<std::string> alive_files = List(alive_dir);
  // The stale images (the live child's start removed them; made again, as
  // a crash would leave them): its files' names under dead processes'.
  for (const std::string& image : stale) {
    ASSERT_EQ(mkdir(image.c_str(), 0700), 0);
    for (const std::string& name : alive_files) {
      std::ofstream(image + "/" + name) << "a dead process's file";
    }
  }
  std::vector<pid_t> starters;
  for (int i = 0; i < 4; ++i) {
    const pid_t pid = fork();
    if (pid == 0) {
      setenv(kChildMode, "init", 1);
      setenv("ASCENDCL_SNAPSHOT_IMAGE_DIR", dir.c_str(), 1);
      char exe[] = "/proc/self/exe";
      char filter[] = "--gtest_filter=ChildProcess.Run";
      char* argv[] = {exe, filter, nullptr};
      int null = open("/dev/null", O_WRONLY);
      dup2(null, STDOUT_FILENO);
      execv(exe, argv);
      _exit(127);
    }
    starters.push_back(pid);
  }
  for (const pid_t pid : starters) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  struct stat st;
  for (const std::string& image : stale) {
    EXPECT_NE(stat(image.c_str(), &st), 0) << image << " is left";
  }
  EXPECT_EQ(List(alive_dir), alive_files) << "a live image was touched";
  const int status = Finish(&alive);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_EQ(WaitFor(&alive, "restore"), "0") << alive.said;
  EXPECT_EQ(List(dir), std::vector<std::string>{});
  rmdir(dir.c_str());
}

}  // namespace
