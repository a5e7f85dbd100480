// The data dump's files (DESIGN.md §5.25): CANN's layout and format, and
// how they reach the disk or the application's chunk callback.
//
// A dump file is what CANN's tools read: an 8-byte little-endian length, a
// serialized toolkit.dump.DumpData message (version, time, operator name,
// attributes, each tensor's type, format, shape and size, a text note),
// then the tensors' bytes: inputs, outputs, workspaces, in that order.
//
//   DumpRecord record;
//   record.op_name = "Add";
//   record.tensors.push_back(...);  // with their bytes
//   ASCEND_RETURN_IF_ERROR(WriteDumpFile(path, Serialize(record), 0640));
#ifndef ASCENDCL_RUNTIME_DUMP_DUMP_FILE_H_
#define ASCENDCL_RUNTIME_DUMP_DUMP_FILE_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "acl/acl_dump.h"

namespace ascend::rt::dump {

enum class TensorRole { kInput, kOutput, kWorkspace };

// OpInput.input_type values CANN's tools know.
inline constexpr uint32_t kGeneralTensor = 1;
inline constexpr uint32_t kInputTensor = 2;
inline constexpr uint32_t kArgsBuffer = 101;

// One tensor of a dump, with its bytes as read from the device.
struct DumpTensor {
  TensorRole role = TensorRole::kInput;
  int32_t data_type = -1;  // aclDataType; -1 (ACL_DT_UNDEFINED): raw bytes
  int32_t format = 2;      // aclFormat (ACL_FORMAT_ND)
  std::vector<uint64_t> shape;
  std::vector<uint64_t> origin_shape;
  uint64_t address = 0;  // where the bytes lived on the device (0: host)
  uint32_t arg_index = 0;
  uint32_t input_type = kInputTensor;  // inputs only
  std::vector<uint8_t> data;
};

struct DumpRecord {
  std::string op_name;
  uint64_t dump_time_us = 0;
  std::vector<std::pair<std::string, std::string>> attrs;
  std::vector<DumpTensor> tensors;
  std::string dfx_message;
};

// toolkit.dump.OutputDataType of an aclDataType (DT_UNDEFINED, 0, for one it
// has no counterpart for).
uint32_t ProtoDataType(int32_t acl_data_type);

// The DumpData message of `record` (tensor sizes, no bytes).
std::string EncodeHeader(const DumpRecord& record);

// The whole file: the header's length, the header, the tensors' bytes.
std::string Serialize(const DumpRecord& record);

// Statistics of the record's tensors as CSV (dump_data "stats"): one line
// per tensor with the `items` CANN names ("Max", "Min", "Avg", "Nan",
// "Negative Inf", "Positive Inf", "L2norm"); "N/A" for data types that are
// not numbers.
std::string StatsCsv(const DumpRecord& record, absl::string_view op_type,
                     uint32_t task_id, uint32_t stream_id,
                     const std::vector<std::string>& items);

// `name` with every character outside [A-Za-z0-9_-] replaced by '_' (the
// characters CANN's tools accept in a file name's fields).
std::string SafeName(absl::string_view name);

// Local time as YYYYmmddHHMMSS, and with milliseconds (YYYYmmddHHMMSSmmm);
// microseconds since the epoch.
std::string TimeSeconds();
std::string TimeMilliseconds();
uint64_t NowMicros();

// Creates `path` and its missing parents (mode 0750).
absl::Status MakeDirectories(const std::string& path);

// Writes `bytes` to `path` (parents created), then sets `mode`; on failure
// no file is left. kUnavailable for an I/O error.
absl::Status WriteDumpFile(const std::string& path, absl::string_view bytes,
                           unsigned mode);

// The chunk callback of acldumpRegCallback.
using ChunkCallback = int32_t (*)(const acldumpChunk*, int32_t);
// Hands `bytes` to `callback` in chunks of at most kChunkBytes, named
// `path`, with their offsets; the last has isLastChunk 1. Stops at a
// callback that answers non-zero (kUnavailable).
inline constexpr uint32_t kChunkBytes = 1u << 20;
absl::Status DeliverChunks(ChunkCallback callback, const std::string& path,
                           absl::string_view bytes);

}  // namespace ascend::rt::dump

#endif  // ASCENDCL_RUNTIME_DUMP_DUMP_FILE_H_
