// The dump file format and its helpers (runtime/dump/dump_file.h, DESIGN.md
// §5.25): CANN's DumpData header read back field by field, the order of the
// tensors' bytes, statistics, names, directories and chunks.
#include "runtime/dump/dump_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "acl/acl_base.h"
#include "gtest/gtest.h"
#include "runtime/dump/dump_reader.h"

namespace ascend::rt::dump {
namespace {

class DumpFileTest : public ::testing::Test {
 protected:
  static std::string Dir(const std::string& name) {
    const char* tmp = std::getenv("TEST_TMPDIR");
    return std::string(tmp != nullptr ? tmp : "/tmp") + "/dump_file_" + name;
  }
  static DumpTensor Tensor(TensorRole role, int32_t type,
                           std::vector<uint8_t> data) {
    DumpTensor t;
    t.role = role;
    t.data_type = type;
    t.data = std::move(data);
    return t;
  }
};

TEST_F(DumpFileTest, HeaderAndBytesReadBack) {
  DumpRecord record;
  record.op_name = "Add_1";
  record.dump_time_us = 1234567890123456ULL;
  record.attrs.emplace_back("user_tag", "tag");
  record.dfx_message = "note";
  DumpTensor out = Tensor(TensorRole::kOutput, ACL_FLOAT, {1, 2, 3, 4});
  out.shape = {1};
  out.origin_shape = {1, 1};
  out.format = ACL_FORMAT_NCHW;
  out.address = 0x1000;
  out.arg_index = 2;
  record.tensors.push_back(out);
  DumpTensor in = Tensor(TensorRole::kInput, ACL_FLOAT16, {9, 9});
  in.shape = {1, 1};
  in.arg_index = 1;
  record.tensors.push_back(in);
  record.tensors.push_back(Tensor(TensorRole::kWorkspace, -1, {7, 7, 7}));
  DumpTensor args = Tensor(TensorRole::kInput, -1, {5});
  args.input_type = kArgsBuffer;
  record.tensors.push_back(args);

  const std::string bytes = Serialize(record);
  std::optional<ReadDump> read = ParseDump(bytes);
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->version, "2.0");
  EXPECT_EQ(read->dump_time, 1234567890123456ULL);
  EXPECT_EQ(read->op_name, "Add_1");
  ASSERT_EQ(read->attrs.size(), 1u);
  EXPECT_EQ(read->attrs[0].first, "user_tag");
  EXPECT_EQ(read->attrs[0].second, "tag");
  EXPECT_EQ(read->dfx_message, "note");
  ASSERT_EQ(read->outputs.size(), 1u);
  EXPECT_EQ(read->outputs[0].data_type, 1u);  // DT_FLOAT
  EXPECT_EQ(read->outputs[0].format, 0u);     // FORMAT_NCHW
  EXPECT_EQ(read->outputs[0].shape, std::vector<uint64_t>{1});
  EXPECT_EQ(read->outputs[0].origin_shape, (std::vector<uint64_t>{1, 1}));
  EXPECT_EQ(read->outputs[0].address, 0x1000u);
  EXPECT_EQ(read->outputs[0].arg_index, 2u);
  EXPECT_EQ(read->outputs[0].data, std::string("\1\2\3\4", 4));
  ASSERT_EQ(read->inputs.size(), 2u);
  EXPECT_EQ(read->inputs[0].data_type, 2u);  // DT_FLOAT16
  EXPECT_EQ(read->inputs[0].format, 2u);     // FORMAT_ND
  EXPECT_EQ(read->inputs[0].input_type, kInputTensor);
  EXPECT_EQ(read->inputs[0].data, std::string("\x09\x09", 2));
  EXPECT_EQ(read->inputs[1].input_type, kArgsBuffer);
  EXPECT_EQ(read->inputs[1].data_type, 0u);  // raw bytes: DT_UNDEFINED
  ASSERT_EQ(read->workspaces.size(), 1u);
  EXPECT_EQ(read->workspaces[0].data, std::string("\7\7\7", 3));
  // The bytes follow the header: inputs, outputs, workspaces.
  EXPECT_EQ(bytes.substr(bytes.size() - 10),
            std::string("\x09\x09\x05\x01\x02\x03\x04\x07\x07\x07", 10));
}

TEST_F(DumpFileTest, DataTypesMapToTheToolsNumbers) {
  EXPECT_EQ(ProtoDataType(ACL_FLOAT), 1u);
  EXPECT_EQ(ProtoDataType(ACL_INT32), 7u);
  EXPECT_EQ(ProtoDataType(ACL_INT64), 8u);
  EXPECT_EQ(ProtoDataType(ACL_UINT32), 9u);
  EXPECT_EQ(ProtoDataType(ACL_BOOL), 11u);
  EXPECT_EQ(ProtoDataType(ACL_BF16), 27u);
  EXPECT_EQ(ProtoDataType(ACL_INT4), 28u);
  EXPECT_EQ(ProtoDataType(ACL_DT_UNDEFINED), 0u);
  EXPECT_EQ(ProtoDataType(12345), 0u);
}

TEST_F(DumpFileTest, StatisticsPerTensor) {
  DumpRecord record;
  record.op_name = "op";
  std::vector<float> values = {1.0f, -3.0f, NAN, INFINITY, -INFINITY, 2.0f};
  std::vector<uint8_t> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  DumpTensor t = Tensor(TensorRole::kOutput, ACL_FLOAT, bytes);
  t.shape = {2, 3};
  record.tensors.push_back(t);
  record.tensors.push_back(Tensor(TensorRole::kInput, ACL_STRING, {1}));
  const std::string csv = StatsCsv(
      record, "Type", 5, 3,
      {"Max", "Min", "Avg", "Nan", "Negative Inf", "Positive Inf", "L2norm"});
  std::vector<std::string> lines = absl::StrSplit(csv, '\n');
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[0],
            "Op Type,Op Name,Task ID,Stream ID,Timestamp,Input/Output,Slot,"
            "Data Size,Data Type,Format,Shape,Max,Min,Avg,Nan,Negative Inf,"
            "Positive Inf,L2norm");
  // Inputs first: a string tensor has no statistics.
  EXPECT_EQ(lines[1],
            "Type,op,5,3,0,Input,0,1,13,2,\"\",N/A,N/A,N/A,N/A,N/A,"
            "N/A,N/A");
  EXPECT_EQ(lines[2],
            "Type,op,5,3,0,Output,0,24,0,2,\"2,3\",2,-3,0,1,1,1,"
            "3.74166");
}

TEST_F(DumpFileTest, SafeNamesKeepTheToolsCharacters) {
  EXPECT_EQ(SafeName("Add_1-x"), "Add_1-x");
  EXPECT_EQ(SafeName("a.b/c d"), "a_b_c_d");
  EXPECT_EQ(SafeName(""), "_");
}

TEST_F(DumpFileTest, TimesHaveTheirWidths) {
  EXPECT_EQ(TimeSeconds().size(), 14u);
  EXPECT_EQ(TimeMilliseconds().size(), 17u);
  EXPECT_EQ(std::to_string(NowMicros()).size(), 16u);
}

TEST_F(DumpFileTest, WritesCreateDirectoriesAndSetTheMode) {
  const std::string path = Dir("write") + "/a/b/file";
  ASSERT_TRUE(WriteDumpFile(path, "xyz", 0400).ok());
  EXPECT_EQ(ReadWholeFile(path), "xyz");
  struct stat st;
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0400u);
  // A directory in the way: refused, nothing left.
  ASSERT_TRUE(MakeDirectories(Dir("write") + "/dir").ok());
  EXPECT_FALSE(WriteDumpFile(Dir("write") + "/dir", "x", 0600).ok());
  EXPECT_FALSE(MakeDirectories(path + "/below").ok());
  EXPECT_FALSE(MakeDirectories("").ok());
}

std::vector<std::pair<std::string, acldumpChunk>> g_chunks;
std::string g_data;
int32_t g_answer = 0;

int32_t Collect(const acldumpChunk* chunk, int32_t len) {
  EXPECT_EQ(static_cast<size_t>(len), sizeof(acldumpChunk) + chunk->bufLen);
  acldumpChunk copy;
  std::memcpy(&copy, chunk, sizeof copy);
  g_chunks.emplace_back(chunk->fileName, copy);
  g_data.append(reinterpret_cast<const char*>(chunk->dataBuf), chunk->bufLen);
  return g_answer;
}

TEST_F(DumpFileTest, ChunksCarryTheFileInPieces) {
  g_chunks.clear();
  g_data.clear();
  g_answer = 0;
  const std::string bytes(kChunkBytes * 2 + 5, 'q');
  ASSERT_TRUE(DeliverChunks(&Collect, "/x/y", bytes).ok());
  ASSERT_EQ(g_chunks.size(), 3u);
  EXPECT_EQ(g_chunks[0].first, "/x/y");
  EXPECT_EQ(g_chunks[0].second.offset, 0);
  EXPECT_EQ(g_chunks[0].second.isLastChunk, 0u);
  EXPECT_EQ(g_chunks[1].second.offset, static_cast<int64_t>(kChunkBytes));
  EXPECT_EQ(g_chunks[2].second.bufLen, 5u);
  EXPECT_EQ(g_chunks[2].second.isLastChunk, 1u);
  EXPECT_EQ(g_chunks[2].second.flag, 0);
  EXPECT_EQ(g_data, bytes);
  // A callback that refuses stops the file.
  g_chunks.clear();
  g_answer = -1;
  EXPECT_FALSE(DeliverChunks(&Collect, "/x/y", bytes).ok());
  EXPECT_EQ(g_chunks.size(), 1u);
  // An empty file is one empty last chunk.
  g_chunks.clear();
  g_answer = 0;
  ASSERT_TRUE(DeliverChunks(&Collect, "/x/z", "").ok());
  ASSERT_EQ(g_chunks.size(), 1u);
  EXPECT_EQ(g_chunks[0].second.isLastChunk, 1u);
}

}  // namespace
}  // namespace ascend::rt::dump
