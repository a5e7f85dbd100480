// The image settings of aclInit and the lifetime of an image on disk
// (DESIGN.md §4.15), each in a process of its own (this binary run again):
// bad settings fail aclInit with 100000 and configure nothing, the
// environment wins over the config file, a normal exit leaves no file, and
// after a crash the next process's aclInit removes the images of dead
// processes, and only those.
#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "acl/acl.h"
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
  // "exit" or "crash": an image on disk, then the end.
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

}  // namespace
