// Reads a dump file back (tests): the DumpData header's fields and the
// tensors' bytes, split by the sizes the header gives.
#ifndef ASCENDCL_RUNTIME_DUMP_DUMP_READER_H_
#define ASCENDCL_RUNTIME_DUMP_DUMP_READER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ascend::rt::dump {

struct ReadTensor {
  uint64_t data_type = 0;  // toolkit.dump.OutputDataType
  uint64_t format = 0;
  std::vector<uint64_t> shape;
  std::vector<uint64_t> origin_shape;
  uint64_t size = 0;
  uint64_t address = 0;
  uint64_t arg_index = 0;
  uint64_t input_type = 0;
  std::string data;
};

struct ReadDump {
  std::string version;
  uint64_t dump_time = 0;
  std::string op_name;
  std::vector<std::pair<std::string, std::string>> attrs;
  std::vector<ReadTensor> inputs;
  std::vector<ReadTensor> outputs;
  std::vector<ReadTensor> workspaces;
  std::string dfx_message;
};

// nullopt when `bytes` is not a well-formed dump file.
std::optional<ReadDump> ParseDump(const std::string& bytes);
// The file's bytes ("" when it cannot be read).
std::string ReadWholeFile(const std::string& path);
// The regular files under `directory`, recursively, sorted.
std::vector<std::string> ListFiles(const std::string& directory);

}  // namespace ascend::rt::dump

#endif  // ASCENDCL_RUNTIME_DUMP_DUMP_READER_H_
