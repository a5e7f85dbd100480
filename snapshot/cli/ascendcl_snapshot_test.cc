// The ascendcl-snapshot command on a real image: this process configures an
// image directory, allocates device memory of known sizes and takes a
// Backup to disk, then runs the built command on the image (which lives as
// long as this process does) and on damaged copies of it.
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "acl/acl.h"
#include "ascendcl/snapshot.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "runtime/rt_snapshot.h"
#include "snapshot/image_file.h"
#include "snapshot/image_format.h"
#include "testing/fault_injection/snapshot_fixture.h"
#include "testing/status_matchers.h"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using ascend::snapshot::internal::ImageHeader;
using ascend::testing::DeviceBuffers;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;

constexpr uint64_t kMiB = uint64_t{1} << 20;
// Three allocations, 6 MiB in all.
constexpr uint64_t kSizes[] = {kMiB, 2 * kMiB, 3 * kMiB};
constexpr uint64_t kTotal = 6 * kMiB;

std::string MakeTempDir(const char* what) {
  const char* base = std::getenv("TEST_TMPDIR");
  std::string pattern =
      std::string(base != nullptr ? base : "/tmp") + "/" + what + "-XXXXXX";
  EXPECT_NE(mkdtemp(pattern.data()), nullptr);
  return pattern;
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

nlohmann::json ManifestOf(const std::string& dir) {
  return nlohmann::json::parse(ReadText(dir + "/image.json"));
}

// Writes `m` into `dir` with the checksum it should have.
void Seal(const std::string& dir, nlohmann::json m) {
  m["checksum"] =
      absl::StrFormat("%016x", ascend::snapshot::ManifestChecksum(m));
  WriteText(dir + "/image.json", m.dump(1));
}

struct Ran {
  int status = -1;  // the exit status; -1 when it did not exit
  std::string out;
  std::string err;
};

std::ostream& operator<<(std::ostream& os, const Ran& r) {
  return os << "status " << r.status << "\n--- stdout\n"
            << r.out << "--- stderr\n"
            << r.err;
}

// Runs the command with `args`, its output captured in files.
Ran RunCli(const std::vector<std::string>& args) {
  const char* cli = std::getenv("ASCENDCL_SNAPSHOT_CLI");
  EXPECT_NE(cli, nullptr) << "ASCENDCL_SNAPSHOT_CLI is not set";
  if (cli == nullptr) return {};
  static int runs = 0;
  const std::string base =
      absl::StrFormat("%s/run%d", std::getenv("TEST_TMPDIR"), runs++);
  const std::string out = base + ".out";
  const std::string err = base + ".err";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<std::string> argv_strings = {cli};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_strings) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned =
      posix_spawn(&pid, cli, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  EXPECT_EQ(spawned, 0) << std::strerror(spawned);
  if (spawned != 0) return {};
  int wstatus = 0;
  EXPECT_EQ(waitpid(pid, &wstatus, 0), pid);
  Ran r;
  r.status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
  EXPECT_TRUE(WIFEXITED(wstatus))
      << "the command was killed by signal " << WTERMSIG(wstatus);
  r.out = ReadText(out);
  r.err = ReadText(err);
  return r;
}

// The image is made once: the process is locked after its Backup for the
// whole suite, and tests change only copies of it.
class AscendclSnapshotTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    root_ = new std::string(MakeTempDir("images"));
    setenv("ASCENDCL_SNAPSHOT_IMAGE_DIR", root_->c_str(), 1);
    setenv("ASCENDCL_SNAPSHOT_HOST_BUFFER_MB", "2", 1);
    ASSERT_ACL_OK(aclInit(nullptr));
    buffers_ = new DeviceBuffers;
    uint32_t seed = 1;
    for (uint64_t size : kSizes) buffers_->Add(0, size, seed++);
    ASSERT_ACL_OK(ascend::testing::Lock());
    ASSERT_ACL_OK(ascend::testing::Backup());
    image_ = new std::string;
    for (const fs::directory_entry& e : fs::directory_iterator(*root_)) {
      *image_ = e.path().string();
    }
  }
  static void TearDownTestSuite() {
    EXPECT_ACL_OK(ascend::testing::Unlock());
    delete buffers_;
    EXPECT_ACL_OK(aclrtResetDevice(0));
    EXPECT_ACL_OK(aclFinalize());
    unsetenv("ASCENDCL_SNAPSHOT_IMAGE_DIR");
    unsetenv("ASCENDCL_SNAPSHOT_HOST_BUFFER_MB");
    fs::remove_all(*root_);
    delete root_;
    delete image_;
  }

  void SetUp() override {
    ASSERT_FALSE(image_->empty()) << "no image was written";
    for (const fs::directory_entry& e : fs::directory_iterator(*image_)) {
      if (e.path().extension() == ".img") file_ = e.path().filename();
    }
    ASSERT_FALSE(file_.empty());
  }

  // A copy of the image in a directory of its own.
  std::string Copy() {
    const std::string dir = MakeTempDir("copy");
    for (const fs::directory_entry& e : fs::directory_iterator(*image_)) {
      fs::copy_file(e.path(), dir / e.path().filename());
    }
    return dir;
  }
  static std::string* root_;
  static std::string* image_;
  static DeviceBuffers* buffers_;
  std::string file_;
};

std::string* AscendclSnapshotTest::root_ = nullptr;
std::string* AscendclSnapshotTest::image_ = nullptr;
DeviceBuffers* AscendclSnapshotTest::buffers_ = nullptr;

TEST_F(AscendclSnapshotTest, InspectTellsWhatTheImageHolds) {
  const Ran r = RunCli({"inspect", *image_});
  ASSERT_EQ(r.status, 0) << r;
  EXPECT_EQ(r.err, "");
  EXPECT_THAT(r.out, HasSubstr("Snapshot image " + *image_));
  EXPECT_THAT(r.out, HasSubstr(absl::StrFormat("pid %d,", getpid())));
  EXPECT_THAT(r.out, HasSubstr("(still running)"));
  EXPECT_THAT(r.out, HasSubstr("UTC"));
  EXPECT_THAT(r.out, HasSubstr("\nDevice 0\n"));
  // The allocations by kind: three, of 6 MiB.
  EXPECT_THAT(r.out,
              MatchesRegex(absl::StrFormat(
                  "(.|\n)*\n +device +3 +%d +%d bytes \\(6\\.0 MiB\\)\n(.|\n)*",
                  kTotal, kTotal)));
  // The file, from the first Backup, holding every byte of them.
  EXPECT_THAT(r.out,
              MatchesRegex(absl::StrFormat(
                  "(.|\n)*\n +%s +1 +%d +[0-9]+\n(.|\n)*", file_, kTotal)));
  EXPECT_THAT(r.out, HasSubstr("Total: 1 device; 3 allocations of 6291456 "
                               "bytes (6.0 MiB); 1 file holding 6291456"));
}

TEST_F(AscendclSnapshotTest, InspectAsJsonAndFromTheImageDirectoryAbove) {
  const Ran r = RunCli({"--json", "inspect", *root_});
  ASSERT_EQ(r.status, 0) << r;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["directory"], *image_);
  EXPECT_EQ(j["pid"], getpid());
  EXPECT_EQ(j["process_running"], true);
  EXPECT_EQ(j["totals"]["allocations"], 3);
  EXPECT_EQ(j["totals"]["allocation_bytes"], kTotal);
  EXPECT_EQ(j["totals"]["files"], 1);
  EXPECT_EQ(j["totals"]["data_bytes"], kTotal);
  EXPECT_EQ(j["devices"][0]["files"][0]["name"], file_);
}

TEST_F(AscendclSnapshotTest, VerifyPassesAnIntactImageAndItsCopy) {
  for (const std::string& dir : {*image_, Copy(), *root_}) {
    const Ran r = RunCli({"verify", dir});
    EXPECT_EQ(r.status, 0) << r;
    EXPECT_THAT(r.out, MatchesRegex("verify: .* is intact: .*, 1 file, [0-9]+ "
                                    "pieces, 6291456 data bytes checked\n"));
    EXPECT_EQ(r.err, "");
  }
}

// Each kind of damage to a copy: verify's status and words.
struct DamageCase {
  const char* name;
  std::function<void(const std::string& dir, const std::string& file)> damage;
  int status;
  const char* says;
  bool names_file;  // the image file (else image.json) is named
};

void FlipByte(const std::string& path, uint64_t offset) {
  std::string bytes = ReadText(path);
  ASSERT_LT(offset, bytes.size());
  bytes[offset] ^= 0x01;
  WriteText(path, bytes);
}

TEST_F(AscendclSnapshotTest, VerifyNamesEachDamagedFile) {
  const std::vector<DamageCase> cases = {
      {"a flipped data byte",
       [](const std::string& dir, const std::string& file) {
         FlipByte(dir + "/" + file,
                  ascend::snapshot::internal::kImageHeaderBytes + kMiB + 77);
       },
       1, "fails its checksum", true},
      {"a flipped header byte",
       [](const std::string& dir, const std::string& file) {
         FlipByte(dir + "/" + file, offsetof(ImageHeader, data_bytes));
       },
       1, "header checksum mismatch", true},
      {"a flipped piece table byte",
       [](const std::string& dir, const std::string& file) {
         FlipByte(dir + "/" + file, fs::file_size(dir + "/" + file) - 20);
       },
       1, "piece table checksum mismatch", true},
      {"a truncated file",
       [](const std::string& dir, const std::string& file) {
         fs::resize_file(dir + "/" + file, fs::file_size(dir + "/" + file) / 2);
       },
       1, "truncated", true},
      {"a deleted file",
       [](const std::string& dir, const std::string& file) {
         fs::remove(dir + "/" + file);
       },
       1, "is missing (image.json lists it)", true},
      {"a manifest naming another process",
       [](const std::string& dir, const std::string&) {
         nlohmann::json m = ManifestOf(dir);
         m["pid"] = m["pid"].get<uint32_t>() + 1;
         Seal(dir, m);
       },
       1, "is not the one image.json lists: pid", true},
      {"a changed manifest",
       [](const std::string& dir, const std::string&) {
         nlohmann::json m = ManifestOf(dir);
         m["devices"][0]["files"][0]["data_bytes"] = 4096;
         WriteText(dir + "/image.json", m.dump(1));
       },
       1, "DAMAGED image.json", false},
      {"a manifest of a later version",
       [](const std::string& dir, const std::string&) {
         nlohmann::json m = ManifestOf(dir);
         m["version"] = 2;
         Seal(dir, m);
       },
       2, "manifest version 2; this tool reads version 1", false},
      {"garbage for a manifest",
       [](const std::string& dir, const std::string&) {
         WriteText(dir + "/image.json",
                   "\x7f"
                   "ELF garbage {{{");
       },
       2, "is not JSON", false},
      {"a manifest member of the wrong type",
       [](const std::string& dir, const std::string&) {
         nlohmann::json m = ManifestOf(dir);
         m["devices"][0]["files"] = "dev0-1.img";
         Seal(dir, m);
       },
       2, "devices[0].files is not an array", false},
  };
  for (const DamageCase& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string dir = Copy();
    c.damage(dir, file_);
    const Ran r = RunCli({"verify", dir});
    EXPECT_EQ(r.status, c.status) << r;
    const std::string& said = c.status == 1 ? r.out : r.err;
    EXPECT_THAT(said, HasSubstr(c.says)) << r;
    EXPECT_THAT(said, HasSubstr(c.names_file ? "DAMAGED " + file_ + ": "
                                             : std::string("image.json")))
        << r;
    if (c.status == 1) {
      EXPECT_THAT(r.out, HasSubstr("is damaged")) << r;
    } else {
      EXPECT_EQ(r.out, "") << r;
    }
  }
  // Another file beside the listed one is not damage.
  const std::string dir = Copy();
  WriteText(dir + "/dev0-99.img", "not listed");
  EXPECT_EQ(RunCli({"verify", dir}).status, 0);
}

TEST_F(AscendclSnapshotTest, InputThatIsNoImageIsRefused) {
  const std::string empty = MakeTempDir("empty");
  const std::string garbage = MakeTempDir("garbage");
  WriteText(garbage + "/image.json", "garbage");
  const std::string two = MakeTempDir("two");
  fs::copy(*image_, two + "/ascendcl-snapshot-1-1");
  fs::copy(*image_, two + "/ascendcl-snapshot-2-2");
  const struct {
    std::string dir;
    std::string says;
  } cases[] = {
      {empty + "/nonexistent",
       "cannot open " + empty + "/nonexistent: No such file or directory"},
      {empty, "holds no snapshot image"},
      {garbage, "image.json is not JSON"},
      {two,
       "holds 2 snapshot images; name one: ascendcl-snapshot-1-1, "
       "ascendcl-snapshot-2-2"},
      {*image_ + "/image.json", "is not a directory"},
  };
  for (const std::string command : {"inspect", "verify"}) {
    for (const auto& c : cases) {
      const Ran r = RunCli({command, c.dir});
      EXPECT_EQ(r.status, 2) << r;
      EXPECT_THAT(r.err, HasSubstr(c.says)) << r;
      // One line, no usage: the command line was fine.
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r;
      EXPECT_EQ(r.out, "");
    }
  }
}

TEST_F(AscendclSnapshotTest, BadUsagePrintsTheUsage) {
  const std::vector<std::vector<std::string>> bad = {
      {},
      {"inspect"},
      {"check", *image_},
      {"verify", *image_, "more"},
      {"--frobnicate", "verify", *image_}};
  for (const std::vector<std::string>& args : bad) {
    const Ran r = RunCli(args);
    EXPECT_EQ(r.status, 2) << r;
    EXPECT_THAT(r.err, HasSubstr("usage: ascendcl-snapshot inspect")) << r;
  }
  const Ran help = RunCli({"--help"});
  EXPECT_EQ(help.status, 0) << help;
  EXPECT_THAT(help.out, HasSubstr("usage: ascendcl-snapshot inspect"));
  EXPECT_THAT(help.out, HasSubstr("verify DIR"));
}

}  // namespace
