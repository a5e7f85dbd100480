// The command's parts on images made here by hand (no runtime): manifests
// of every wrong shape are refused without a crash, verification finds each
// kind of damage, and the command line is parsed as its usage says.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "device/checksum.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "snapshot/cli/command.h"
#include "snapshot/cli/image_reader.h"
#include "snapshot/cli/inspect.h"
#include "snapshot/cli/verify.h"
#include "snapshot/image_file.h"
#include "snapshot/image_format.h"

namespace ascend::snapshot::cli {
namespace {

using internal::ImageHeader;
using internal::ImagePiece;
using ::testing::HasSubstr;

constexpr uint32_t kPid = 4242;
constexpr uint64_t kStart = 777;
constexpr uint64_t kPieceBytes = 3000;  // not a multiple of the block
constexpr int kPieces = 4;

std::string TempDir() {
  const char* base = std::getenv("TEST_TMPDIR");
  std::string pattern =
      std::string(base != nullptr ? base : "/tmp") + "/cli-XXXXXX";
  EXPECT_NE(mkdtemp(pattern.data()), nullptr);
  return pattern;
}

void WriteText(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Writes dev0-1.img and image.json into `dir` as the runtime would.
nlohmann::json WriteImage(const std::string& dir) {
  ImageHeader h{};
  std::memcpy(h.magic, internal::kImageMagic, sizeof(h.magic));
  h.version = internal::kImageFormatVersion;
  h.header_bytes = internal::kImageHeaderBytes;
  for (size_t i = 0; i < sizeof(h.image_id); ++i) h.image_id[i] = i * 17;
  h.backup = 1;
  h.pid = kPid;
  h.device = 0;
  h.process_start = kStart;
  h.written_unix_us = 1700000000000000;
  h.data_bytes = kPieces * kPieceBytes;
  h.piece_count = kPieces;
  h.header_checksum =
      device::Checksum(&h, offsetof(ImageHeader, header_checksum));
  std::vector<uint8_t> data(h.data_bytes);
  for (size_t i = 0; i < data.size(); ++i) data[i] = (i * 131) >> 3;
  std::vector<ImagePiece> pieces;
  for (int p = 0; p < kPieces; ++p) {
    pieces.push_back(
        {0x10000000u + p * 0x10000u, kPieceBytes, p * kPieceBytes,
         device::Checksum(data.data() + p * kPieceBytes, kPieceBytes)});
  }
  const uint64_t table =
      device::Checksum(pieces.data(), pieces.size() * sizeof(ImagePiece));
  std::string file(internal::kImageHeaderBytes, '\0');
  std::memcpy(file.data(), &h, sizeof(h));
  file.append(reinterpret_cast<const char*>(data.data()), data.size());
  file.append(reinterpret_cast<const char*>(pieces.data()),
              pieces.size() * sizeof(ImagePiece));
  file.append(reinterpret_cast<const char*>(&table), sizeof(table));
  WriteText(dir + "/dev0-1.img", file);

  std::string id;
  for (uint8_t b : h.image_id) id += absl::StrFormat("%02x", b);
  nlohmann::json m = {
      {"format", "ascendcl-snapshot-image"},
      {"version", 1},
      {"pid", kPid},
      {"process_start", kStart},
      {"image_id", id},
      {"written_unix_us", 1700000000000000},
      {"backup_duration_us", 1234},
      {"devices",
       {{{"device", 0},
         {"participants",
          {{{"name", "memory"}, {"host_bytes", 100}, {"disk_bytes", 12000}}}},
         {"allocations", {{{"kind", "device"}, {"count", 2}, {"bytes", 8192}}}},
         {"files",
          {{{"name", "dev0-1.img"},
            {"backup", 1},
            {"data_bytes", uint64_t{h.data_bytes}},
            {"pieces", kPieces},
            {"table_checksum", absl::StrFormat("%016x", table)}}}}}}},
      {"process", {{{"name", "runtime"}, {"host_bytes", 50}}}},
  };
  m["checksum"] = absl::StrFormat("%016x", ManifestChecksum(m));
  WriteText(dir + "/image.json", m.dump(1));
  return m;
}

std::string Sealed(nlohmann::json m) {
  m["checksum"] = absl::StrFormat("%016x", ManifestChecksum(m));
  return m.dump();
}

TEST(ManifestTest, ReadsWhatTheWriterWrites) {
  const std::string dir = TempDir();
  WriteImage(dir);
  absl::StatusOr<Manifest> m = ReadManifest(dir);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->pid, kPid);
  EXPECT_EQ(m->process_start, kStart);
  ASSERT_EQ(m->devices.size(), 1u);
  ASSERT_EQ(m->devices[0].files.size(), 1u);
  EXPECT_EQ(m->devices[0].files[0].name, "dev0-1.img");
  EXPECT_EQ(m->devices[0].allocations[0].count, 2u);
  ASSERT_EQ(m->process.size(), 1u);
  EXPECT_EQ(m->process[0].disk_bytes, 0u);
  const ImageTotals t = Totals(*m);
  EXPECT_EQ(t.allocations, 2u);
  EXPECT_EQ(t.allocation_bytes, 8192u);
  EXPECT_EQ(t.host_bytes, 150u);
  EXPECT_EQ(t.pieces, static_cast<uint64_t>(kPieces));
}

// Every member of a manifest, given a value of a type it never has (with
// the checksum made to match), is refused as malformed; nothing throws.
TEST(ManifestTest, EveryMemberOfTheWrongTypeIsRefused) {
  const nlohmann::json good = WriteImage(TempDir());
  const nlohmann::json flat = good.flatten();
  const std::vector<nlohmann::json> wrong = {
      nullptr, 1.5, nlohmann::json::array(), nlohmann::json::object(), -7};
  int tried = 0;
  for (const auto& [pointer, value] : flat.items()) {
    if (pointer == "/checksum") continue;
    for (const nlohmann::json& w : wrong) {
      // -7 is a fine device number.
      if (pointer == "/devices/0/device" && w == -7) continue;
      nlohmann::json bad = good;
      bad[nlohmann::json::json_pointer(pointer)] = w;
      const absl::StatusOr<Manifest> m = ParseManifest(Sealed(bad), "m");
      EXPECT_FALSE(m.ok()) << pointer << " = " << w.dump();
      EXPECT_NE(m.status().code(), absl::StatusCode::kDataLoss) << pointer;
      ++tried;
    }
  }
  EXPECT_GT(tried, 80);
  // Arrays and objects themselves replaced by scalars.
  for (const char* pointer :
       {"/devices", "/process", "/devices/0", "/devices/0/files",
        "/devices/0/files/0", "/devices/0/participants",
        "/devices/0/allocations/0"}) {
    nlohmann::json bad = good;
    bad[nlohmann::json::json_pointer(pointer)] = "x";
    EXPECT_FALSE(ParseManifest(Sealed(bad), "m").ok()) << pointer;
  }
}

TEST(ManifestTest, FileNamesStayInTheImageDirectory) {
  const nlohmann::json good = WriteImage(TempDir());
  for (const char* name : {"../dev0-1.img", "/etc/passwd", "..", ".", ""}) {
    nlohmann::json bad = good;
    bad["devices"][0]["files"][0]["name"] = name;
    const absl::StatusOr<Manifest> m = ParseManifest(Sealed(bad), "m");
    EXPECT_FALSE(m.ok()) << name;
    EXPECT_THAT(m.status().message(), HasSubstr("not a file name"));
  }
}

TEST(ManifestTest, DamageIsDataLossAndForeignInputIsNot) {
  const nlohmann::json good = WriteImage(TempDir());
  nlohmann::json changed = good;
  changed["devices"][0]["files"][0]["data_bytes"] = 1;
  EXPECT_EQ(ParseManifest(changed.dump(), "m").status().code(),
            absl::StatusCode::kDataLoss);
  nlohmann::json unreadable_checksum = good;
  unreadable_checksum["checksum"] = "zz";
  EXPECT_EQ(ParseManifest(unreadable_checksum.dump(), "m").status().code(),
            absl::StatusCode::kDataLoss);
  nlohmann::json later = good;
  later["version"] = 2;
  EXPECT_EQ(ParseManifest(Sealed(later), "m").status().code(),
            absl::StatusCode::kFailedPrecondition);
  for (const std::string& text :
       {std::string(""), std::string("garbage"), std::string("[1,2]"),
        std::string("\"ascendcl-snapshot-image\""), std::string("{}"),
        std::string("{\"format\": 7}"), std::string(200, '['),
        good.dump().substr(0, 100)}) {
    const absl::StatusOr<Manifest> m = ParseManifest(text, "m");
    EXPECT_FALSE(m.ok()) << text;
    EXPECT_NE(m.status().code(), absl::StatusCode::kDataLoss) << text;
  }
}

TEST(ResolveTest, TheImageOrTheOnlyImageBelow) {
  const std::string parent = TempDir();
  EXPECT_EQ(ResolveImageDirectory(parent).status().code(),
            absl::StatusCode::kNotFound);
  const std::string image = parent + "/ascendcl-snapshot-1-2";
  ASSERT_EQ(mkdir(image.c_str(), 0700), 0);
  WriteImage(image);
  EXPECT_EQ(*ResolveImageDirectory(image), image);
  EXPECT_EQ(*ResolveImageDirectory(image + "/"), image);
  EXPECT_EQ(*ResolveImageDirectory(parent), image);
  const std::string other = parent + "/ascendcl-snapshot-3-4";
  ASSERT_EQ(mkdir(other.c_str(), 0700), 0);
  EXPECT_EQ(*ResolveImageDirectory(parent), image);  // no image.json there
  WriteImage(other);
  const absl::StatusOr<std::string> two = ResolveImageDirectory(parent);
  EXPECT_FALSE(two.ok());
  EXPECT_THAT(two.status().message(), HasSubstr("holds 2 snapshot images"));
  EXPECT_FALSE(ResolveImageDirectory(parent + "/nothing").ok());
  EXPECT_FALSE(ResolveImageDirectory(image + "/image.json").ok());
}

class VerifyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = TempDir();
    WriteImage(dir_);
    file_ = dir_ + "/dev0-1.img";
  }
  std::vector<Damage> Damaged() {
    const absl::StatusOr<Manifest> m = ReadManifest(dir_);
    EXPECT_TRUE(m.ok()) << m.status();
    if (!m.ok()) return {};
    return VerifyImage(dir_, *m).damage;
  }
  void Flip(uint64_t offset) {
    std::string bytes = ReadText(file_);
    ASSERT_LT(offset, bytes.size());
    bytes[offset] ^= 0x20;
    WriteText(file_, bytes);
  }
  std::string dir_;
  std::string file_;
};

TEST_F(VerifyTest, AnIntactImageHasNoDamage) {
  const absl::StatusOr<Manifest> m = ReadManifest(dir_);
  ASSERT_TRUE(m.ok());
  const VerifyResult r = VerifyImage(dir_, *m);
  EXPECT_TRUE(r.damage.empty());
  EXPECT_EQ(r.files, 1u);
  EXPECT_EQ(r.pieces, static_cast<uint64_t>(kPieces));
  EXPECT_EQ(r.data_bytes, kPieces * kPieceBytes);
  // Files it does not list are none of its business.
  WriteText(dir_ + "/dev0-9.img", "junk");
  EXPECT_TRUE(Damaged().empty());
}

TEST_F(VerifyTest, AFlippedDataByteNamesItsPiece) {
  Flip(internal::kImageHeaderBytes + 2 * kPieceBytes + 5);
  const std::vector<Damage> d = Damaged();
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].file, "dev0-1.img");
  EXPECT_THAT(d[0].what, HasSubstr("piece 2 of 4"));
  EXPECT_THAT(d[0].what, HasSubstr("fails its checksum"));
}

TEST_F(VerifyTest, EachPartOfTheFileIsChecked) {
  Flip(offsetof(ImageHeader, backup));
  ASSERT_EQ(Damaged().size(), 1u);
  EXPECT_THAT(Damaged()[0].what, HasSubstr("header checksum"));
  SetUp();
  Flip(internal::kImageHeaderBytes + kPieces * kPieceBytes + 9);
  ASSERT_EQ(Damaged().size(), 1u);
  EXPECT_THAT(Damaged()[0].what, HasSubstr("piece table checksum"));
  SetUp();
  ASSERT_EQ(truncate(file_.c_str(), 5000), 0);
  ASSERT_EQ(Damaged().size(), 1u);
  EXPECT_THAT(Damaged()[0].what, HasSubstr("truncated"));
  SetUp();
  ASSERT_EQ(unlink(file_.c_str()), 0);
  ASSERT_EQ(Damaged().size(), 1u);
  EXPECT_THAT(Damaged()[0].what, HasSubstr("missing"));
}

TEST_F(VerifyTest, AFileOfAnotherImageIsNotTheOneListed) {
  nlohmann::json m = nlohmann::json::parse(ReadText(dir_ + "/image.json"));
  m["pid"] = kPid + 1;
  m["devices"][0]["files"][0]["backup"] = 2;
  WriteText(dir_ + "/image.json", Sealed(m));
  const std::vector<Damage> d = Damaged();
  ASSERT_EQ(d.size(), 1u);
  EXPECT_THAT(d[0].what, HasSubstr("pid 4242 (image.json: 4243)"));
  EXPECT_THAT(d[0].what, HasSubstr("backup 1 (image.json: 2)"));
}

// The command in this process: argument handling and exit status.
struct Ran {
  int status;
  std::string out;
  std::string err;
};
Ran RunCli(std::vector<std::string> args) {
  args.insert(args.begin(), "ascendcl-snapshot");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::ostringstream out;
  std::ostringstream err;
  const int status =
      RunCommand(static_cast<int>(args.size()), argv.data(), out, err);
  return {status, out.str(), err.str()};
}

TEST(CommandTest, UsageAndExitStatus) {
  const std::string dir = TempDir();
  WriteImage(dir);
  Ran r = RunCli({"--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_THAT(r.out, HasSubstr("usage: ascendcl-snapshot inspect"));
  for (const std::vector<std::string>& bad :
       std::vector<std::vector<std::string>>{{},
                                             {"inspect"},
                                             {"frob", dir},
                                             {"verify", dir, dir},
                                             {"--frob", "verify", dir},
                                             {"--json=maybe", "inspect", dir},
                                             {"--nojson=1", "inspect", dir},
                                             {"verify", "--json", dir}}) {
    r = RunCli(bad);
    EXPECT_EQ(r.status, 2) << ::testing::PrintToString(bad);
    EXPECT_THAT(r.err, HasSubstr("usage:")) << ::testing::PrintToString(bad);
  }
  r = RunCli({"verify", dir});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("is intact"));
  // Flags go anywhere; each run starts from their defaults.
  r = RunCli({"inspect", dir, "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["totals"]["pieces"], kPieces);
  r = RunCli({"inspect", dir});
  EXPECT_EQ(r.status, 0);
  EXPECT_THAT(r.out, HasSubstr("Device 0"));
  EXPECT_THAT(r.out, HasSubstr("(no longer running)"));
  r = RunCli({"--", "verify", dir});
  EXPECT_EQ(r.status, 0) << r.err;
  r = RunCli({"verify", dir + "/nothing"});
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("nothing"));
}

TEST(InspectTest, BytesReadably) {
  EXPECT_EQ(Bytes(1), "1 byte");
  EXPECT_EQ(Bytes(1000), "1000 bytes");
  EXPECT_EQ(Bytes(8 << 20), "8388608 bytes (8.0 MiB)");
  EXPECT_EQ(Bytes(1536), "1536 bytes (1.5 KiB)");
}

}  // namespace
}  // namespace ascend::snapshot::cli
