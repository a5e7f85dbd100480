#include "runtime/dump/dump_file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <ctime>
#include <limits>
#include <memory>
#include <new>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "acl/acl_base.h"

namespace ascend::rt::dump {
namespace {

// --- A minimal protocol-buffer writer (the wire format of proto3) ---------
class ProtoWriter {
 public:
  void Varint(uint32_t field, uint64_t value) {
    if (value == 0) return;  // proto3 leaves defaults out
    Key(field, 0);
    Raw(value);
  }
  void Bytes(uint32_t field, absl::string_view bytes) {
    if (bytes.empty()) return;
    Key(field, 2);
    Raw(bytes.size());
    out_.append(bytes.data(), bytes.size());
  }
  void Message(uint32_t field, const ProtoWriter& message) {
    Key(field, 2);
    Raw(message.out_.size());
    out_ += message.out_;
  }
  // A packed repeated uint64 (proto3's default for repeated scalars).
  void Packed(uint32_t field, const std::vector<uint64_t>& values) {
    if (values.empty()) return;
    ProtoWriter body;
    for (uint64_t v : values) body.Raw(v);
    Bytes(field, body.out_);
  }
  const std::string& bytes() const { return out_; }

 private:
  void Key(uint32_t field, uint32_t wire_type) {
    Raw((static_cast<uint64_t>(field) << 3) | wire_type);
  }
  void Raw(uint64_t value) {
    while (value >= 0x80) {
      out_.push_back(static_cast<char>((value & 0x7f) | 0x80));
      value >>= 7;
    }
    out_.push_back(static_cast<char>(value));
  }
  std::string out_;
};

// toolkit.dump.Shape: repeated uint64 dim = 1.
ProtoWriter ShapeMessage(const std::vector<uint64_t>& dims) {
  ProtoWriter shape;
  shape.Packed(1, dims);
  return shape;
}

// aclFormat values are the tools' OutputFormat values; an undefined format
// (-1) becomes FORMAT_RESERVED.
uint64_t ProtoFormat(int32_t format) {
  constexpr uint64_t kFormatReserved = 40;
  return format < 0 ? kFormatReserved : static_cast<uint64_t>(format);
}

ProtoWriter InputMessage(const DumpTensor& t) {
  // OpInput: data_type 1, format 2, shape 3, size 5, original_shape 6,
  // address 8, arg_index 10, input_type 11.
  ProtoWriter m;
  m.Varint(1, ProtoDataType(t.data_type));
  m.Varint(2, ProtoFormat(t.format));
  if (!t.shape.empty()) m.Message(3, ShapeMessage(t.shape));
  m.Varint(5, t.data.size());
  if (!t.origin_shape.empty()) m.Message(6, ShapeMessage(t.origin_shape));
  m.Varint(8, t.address);
  m.Varint(10, t.arg_index);
  m.Varint(11, t.input_type);
  return m;
}

ProtoWriter OutputMessage(const DumpTensor& t) {
  // OpOutput: data_type 1, format 2, shape 3, size 6, original_shape 7,
  // address 9, arg_index 12.
  ProtoWriter m;
  m.Varint(1, ProtoDataType(t.data_type));
  m.Varint(2, ProtoFormat(t.format));
  if (!t.shape.empty()) m.Message(3, ShapeMessage(t.shape));
  m.Varint(6, t.data.size());
  if (!t.origin_shape.empty()) m.Message(7, ShapeMessage(t.origin_shape));
  m.Varint(9, t.address);
  m.Varint(12, t.arg_index);
  return m;
}

ProtoWriter WorkspaceMessage(const DumpTensor& t) {
  // Workspace: type 1 (LOG = 0), size 3, arg_index 4.
  ProtoWriter m;
  m.Varint(3, t.data.size());
  m.Varint(4, t.arg_index);
  return m;
}

template <typename Visit>
void ForEachInOrder(const DumpRecord& record, Visit visit) {
  for (TensorRole role :
       {TensorRole::kInput, TensorRole::kOutput, TensorRole::kWorkspace}) {
    for (const DumpTensor& t : record.tensors) {
      if (t.role == role) visit(t);
    }
  }
}

// --- Statistics ------------------------------------------------------------

float HalfToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  uint32_t exponent = (h >> 10) & 0x1f;
  uint32_t mantissa = h & 0x3ff;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000 | (mantissa << 13);
  } else if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else {  // subnormal: normalise
      exponent = 127 - 15 + 1;
      while ((mantissa & 0x400) == 0) {
        mantissa <<= 1;
        --exponent;
      }
      bits = sign | (exponent << 23) | ((mantissa & 0x3ff) << 13);
    }
  } else {
    bits = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

template <typename T>
T Load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// The element size of a numeric aclDataType and a reader of one element as
// double; false for others.
bool NumericReader(int32_t type, size_t* size,
                   double (**read)(const uint8_t*)) {
  switch (type) {
    case ACL_FLOAT:
      *size = 4;
      *read = [](const uint8_t* p) {
        return static_cast<double>(Load<float>(p));
      };
      return true;
    case ACL_FLOAT16:
      *size = 2;
      *read = [](const uint8_t* p) {
        return static_cast<double>(HalfToFloat(Load<uint16_t>(p)));
      };
      return true;
    case ACL_BF16:
      *size = 2;
      *read = [](const uint8_t* p) {
        const uint32_t bits = static_cast<uint32_t>(Load<uint16_t>(p)) << 16;
        float f;
        std::memcpy(&f, &bits, sizeof f);
        return static_cast<double>(f);
      };
      return true;
    case ACL_DOUBLE:
      *size = 8;
      *read = [](const uint8_t* p) { return Load<double>(p); };
      return true;
    case ACL_INT8:
      *size = 1;
      *read = [](const uint8_t* p) {
        return static_cast<double>(Load<int8_t>(p));
      };
      return true;
    case ACL_UINT8:
    case ACL_BOOL:
      *size = 1;
      *read = [](const uint8_t* p) {
        return static_cast<double>(Load<uint8_t>(p));
      };
      return true;
    case ACL_INT16:
      *size = 2;
      *read = [](const uint8_t* p) {
        return static_cast<double>(Load<int16_t>(p));
      };
      return true;
    case ACL_UINT16:
      *size = 2;
      *read = [](const uint8_t* p) {
        return static_cast<double>(Load<uint16_t>(p));
      };
      return true;
    case ACL_INT32:
      *size = 4;
      *read = [](const uint8_t* p) {
        return static_cast<double>(Load<int32_t>(p));
      };
      return true;
    case ACL_UINT32:
      *size = 4;
      *read = [](const uint8_t* p) {
        return static_cast<double>(Load<uint32_t>(p));
      };
      return true;
    case ACL_INT64:
      *size = 8;
      *read = [](const uint8_t* p) {
        return static_cast<double>(Load<int64_t>(p));
      };
      return true;
    case ACL_UINT64:
      *size = 8;
      *read = [](const uint8_t* p) {
        return static_cast<double>(Load<uint64_t>(p));
      };
      return true;
    default:
      return false;
  }
}

struct Stats {
  double max = -std::numeric_limits<double>::infinity();
  double min = std::numeric_limits<double>::infinity();
  double sum = 0;
  double squares = 0;
  uint64_t count = 0;  // finite elements
  uint64_t nan = 0;
  uint64_t negative_inf = 0;
  uint64_t positive_inf = 0;
};

std::string Number(double v) { return absl::StrCat(v); }

}  // namespace

uint32_t ProtoDataType(int32_t acl_data_type) {
  // aclDataType → toolkit.dump.OutputDataType.
  switch (acl_data_type) {
    case ACL_FLOAT:
      return 1;
    case ACL_FLOAT16:
      return 2;
    case ACL_INT8:
      return 3;
    case ACL_UINT8:
      return 4;
    case ACL_INT16:
      return 5;
    case ACL_UINT16:
      return 6;
    case ACL_INT32:
      return 7;
    case ACL_INT64:
      return 8;
    case ACL_UINT32:
      return 9;
    case ACL_UINT64:
      return 10;
    case ACL_BOOL:
      return 11;
    case ACL_DOUBLE:
      return 12;
    case ACL_STRING:
      return 13;
    case ACL_COMPLEX64:
      return 16;
    case ACL_COMPLEX128:
      return 17;
    case ACL_BF16:
      return 27;
    case ACL_INT4:
      return 28;
    case ACL_UINT1:
      return 29;
    case ACL_COMPLEX32:
      return 32;
    default:
      return 0;
  }
}

std::string EncodeHeader(const DumpRecord& record) {
  // DumpData: version 1, dump_time 2, output 3, input 4, op_name 6, attr 7,
  // space 8, dfx_message 9.
  ProtoWriter data;
  data.Bytes(1, "2.0");
  data.Varint(2, record.dump_time_us);
  for (const DumpTensor& t : record.tensors) {
    if (t.role == TensorRole::kOutput) data.Message(3, OutputMessage(t));
  }
  for (const DumpTensor& t : record.tensors) {
    if (t.role == TensorRole::kInput) data.Message(4, InputMessage(t));
  }
  data.Bytes(6, record.op_name);
  for (const auto& [name, value] : record.attrs) {
    ProtoWriter attr;
    attr.Bytes(1, name);
    attr.Bytes(2, value);
    data.Message(7, attr);
  }
  for (const DumpTensor& t : record.tensors) {
    if (t.role == TensorRole::kWorkspace) data.Message(8, WorkspaceMessage(t));
  }
  data.Bytes(9, record.dfx_message);
  return data.bytes();
}

std::string Serialize(const DumpRecord& record) {
  const std::string header = EncodeHeader(record);
  size_t total = sizeof(uint64_t) + header.size();
  for (const DumpTensor& t : record.tensors) total += t.data.size();
  std::string out;
  out.reserve(total);
  uint64_t length = header.size();
  for (int i = 0; i < 8; ++i) {
    out.push_back(static_cast<char>((length >> (8 * i)) & 0xff));
  }
  out += header;
  ForEachInOrder(record, [&out](const DumpTensor& t) {
    out.append(reinterpret_cast<const char*>(t.data.data()), t.data.size());
  });
  return out;
}

std::string StatsCsv(const DumpRecord& record, absl::string_view op_type,
                     uint32_t task_id, uint32_t stream_id,
                     const std::vector<std::string>& items) {
  std::string out =
      "Op Type,Op Name,Task ID,Stream ID,Timestamp,Input/Output,Slot,"
      "Data Size,Data Type,Format,Shape";
  for (const std::string& item : items) absl::StrAppend(&out, ",", item);
  out += "\n";
  int slots[3] = {0, 0, 0};
  ForEachInOrder(record, [&](const DumpTensor& t) {
    const char* role = t.role == TensorRole::kInput    ? "Input"
                       : t.role == TensorRole::kOutput ? "Output"
                                                       : "Workspace";
    absl::StrAppend(&out, op_type, ",", record.op_name, ",", task_id, ",",
                    stream_id, ",", record.dump_time_us, ",", role, ",",
                    slots[static_cast<int>(t.role)]++, ",", t.data.size(), ",",
                    t.data_type, ",", t.format, ",\"",
                    absl::StrJoin(t.shape, ","), "\"");
    size_t size = 0;
    double (*read)(const uint8_t*) = nullptr;
    const bool numeric = NumericReader(t.data_type, &size, &read);
    Stats s;
    if (numeric) {
      for (size_t at = 0; at + size <= t.data.size(); at += size) {
        const double v = read(t.data.data() + at);
        if (std::isnan(v)) {
          ++s.nan;
        } else if (std::isinf(v)) {
          ++(v < 0 ? s.negative_inf : s.positive_inf);
        } else {
          s.max = std::max(s.max, v);
          s.min = std::min(s.min, v);
          s.sum += v;
          s.squares += v * v;
          ++s.count;
        }
      }
    }
    for (const std::string& item : items) {
      std::string value = "N/A";
      if (numeric) {
        if (item == "Max" && s.count > 0) value = Number(s.max);
        if (item == "Min" && s.count > 0) value = Number(s.min);
        if (item == "Avg" && s.count > 0) value = Number(s.sum / s.count);
        if (item == "Nan") value = absl::StrCat(s.nan);
        if (item == "Negative Inf") value = absl::StrCat(s.negative_inf);
        if (item == "Positive Inf") value = absl::StrCat(s.positive_inf);
        if (item == "L2norm") value = Number(std::sqrt(s.squares));
      }
      absl::StrAppend(&out, ",", value);
    }
    out += "\n";
  });
  return out;
}

std::string SafeName(absl::string_view name) {
  std::string out(name);
  for (char& c : out) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') || c == '_' || c == '-';
    if (!ok) c = '_';
  }
  return out.empty() ? "_" : out;
}

namespace {
std::string LocalTime(const char* format, int64_t* millis) {
  const int64_t now_ms = absl::ToUnixMillis(absl::Now());
  const std::time_t seconds = static_cast<std::time_t>(now_ms / 1000);
  std::tm local{};
  localtime_r(&seconds, &local);
  char text[32];
  const size_t n = std::strftime(text, sizeof text, format, &local);
  if (millis != nullptr) *millis = now_ms % 1000;
  return std::string(text, n);
}
}  // namespace

std::string TimeSeconds() { return LocalTime("%Y%m%d%H%M%S", nullptr); }

std::string TimeMilliseconds() {
  int64_t millis = 0;
  std::string text = LocalTime("%Y%m%d%H%M%S", &millis);
  char ms[8];
  std::snprintf(ms, sizeof ms, "%03d", static_cast<int>(millis));
  return text + ms;
}

uint64_t NowMicros() {
  return static_cast<uint64_t>(absl::ToUnixMicros(absl::Now()));
}

absl::Status MakeDirectories(const std::string& path) {
  if (path.empty()) return absl::InvalidArgumentError("empty path");
  size_t at = 0;
  while (at != std::string::npos) {
    at = path.find('/', at + 1);
    const std::string prefix = path.substr(0, at);
    if (prefix.empty()) continue;
    if (::mkdir(prefix.c_str(), 0750) != 0 && errno != EEXIST) {
      return absl::UnavailableError(
          absl::StrCat("cannot create ", prefix, ": ", std::strerror(errno)));
    }
  }
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return absl::UnavailableError(absl::StrCat(path, " is not a directory"));
  }
  return absl::OkStatus();
}

absl::Status WriteDumpFile(const std::string& path, absl::string_view bytes,
                           unsigned mode) {
  const size_t slash = path.rfind('/');
  if (slash != std::string::npos && slash > 0) {
    if (absl::Status made = MakeDirectories(path.substr(0, slash));
        !made.ok()) {
      return made;
    }
  }
  const int fd =
      ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot create ", path, ": ", std::strerror(errno)));
  }
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = errno;
      ::close(fd);
      ::unlink(path.c_str());
      return absl::UnavailableError(
          absl::StrCat("cannot write ", path, ": ", std::strerror(error)));
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0) {
    ::unlink(path.c_str());
    return absl::UnavailableError(absl::StrCat("cannot write ", path));
  }
  ::chmod(path.c_str(), mode);
  return absl::OkStatus();
}

absl::Status DeliverChunks(ChunkCallback callback, const std::string& path,
                           absl::string_view bytes) {
  const size_t piece = std::min<size_t>(kChunkBytes, bytes.size());
  // One buffer for every chunk of the file: the header and the largest
  // piece.
  std::unique_ptr<uint8_t[]> buffer(new (std::nothrow)
                                        uint8_t[sizeof(acldumpChunk) + piece]);
  if (buffer == nullptr) return absl::ResourceExhaustedError("no memory");
  auto* chunk = reinterpret_cast<acldumpChunk*>(buffer.get());
  size_t offset = 0;
  do {
    const size_t n = std::min(piece, bytes.size() - offset);
    std::memset(chunk, 0, sizeof(acldumpChunk));
    std::snprintf(chunk->fileName, sizeof chunk->fileName, "%s", path.c_str());
    chunk->bufLen = static_cast<uint32_t>(n);
    chunk->isLastChunk = offset + n == bytes.size() ? 1 : 0;
    chunk->offset = static_cast<int64_t>(offset);
    chunk->flag = 0;
    if (n > 0) std::memcpy(chunk->dataBuf, bytes.data() + offset, n);
    const int32_t answer =
        callback(chunk, static_cast<int32_t>(sizeof(acldumpChunk) + n));
    if (answer != 0) {
      return absl::UnavailableError(
          absl::StrCat("the dump callback answered ", answer, " for ", path,
                       " at ", offset, "; the rest of the file is dropped"));
    }
    offset += n;
  } while (offset < bytes.size());
  return absl::OkStatus();
}

}  // namespace ascend::rt::dump
