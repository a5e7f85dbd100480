#include "runtime/dump/dump_reader.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>

namespace ascend::rt::dump {
namespace {

// A cursor over protocol-buffer bytes.
class Reader {
 public:
  explicit Reader(const std::string& bytes) : bytes_(bytes) {}
  bool done() const { return at_ >= bytes_.size(); }
  bool Varint(uint64_t* v) {
    *v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at_ >= bytes_.size()) return false;
      const uint8_t b = static_cast<uint8_t>(bytes_[at_++]);
      *v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) return true;
    }
    return false;
  }
  bool Bytes(std::string* out) {
    uint64_t n = 0;
    if (!Varint(&n) || n > bytes_.size() - at_) return false;
    *out = bytes_.substr(at_, n);
    at_ += n;
    return true;
  }
  // Reads one field: its number, wire type, and value (varint or bytes).
  bool Field(uint32_t* field, uint64_t* value, std::string* bytes) {
    uint64_t key = 0;
    if (!Varint(&key)) return false;
    *field = static_cast<uint32_t>(key >> 3);
    switch (key & 7) {
      case 0:
        return Varint(value);
      case 2:
        return Bytes(bytes);
      default:
        return false;
    }
  }

 private:
  const std::string& bytes_;
  size_t at_ = 0;
};

bool Dims(const std::string& shape, std::vector<uint64_t>* dims) {
  Reader r(shape);
  while (!r.done()) {
    uint32_t field;
    uint64_t value;
    std::string packed;
    if (!r.Field(&field, &value, &packed)) return false;
    if (field != 1) continue;
    Reader p(packed);
    while (!p.done()) {
      uint64_t d;
      if (!p.Varint(&d)) return false;
      dims->push_back(d);
    }
  }
  return true;
}

// Field numbers of OpInput / OpOutput / Workspace.
struct Layout {
  uint32_t data_type, format, shape, size, origin_shape, address, arg_index,
      input_type;
};
constexpr Layout kInput = {1, 2, 3, 5, 6, 8, 10, 11};
constexpr Layout kOutput = {1, 2, 3, 6, 7, 9, 12, 0};
constexpr Layout kWorkspace = {0, 0, 0, 3, 0, 0, 4, 0};

bool Tensor(const std::string& bytes, const Layout& layout, ReadTensor* t) {
  Reader r(bytes);
  while (!r.done()) {
    uint32_t field;
    uint64_t value = 0;
    std::string sub;
    if (!r.Field(&field, &value, &sub)) return false;
    if (field == 0) return false;
    if (field == layout.data_type) t->data_type = value;
    if (field == layout.format) t->format = value;
    if (field == layout.shape && !Dims(sub, &t->shape)) return false;
    if (field == layout.origin_shape && !Dims(sub, &t->origin_shape)) {
      return false;
    }
    if (field == layout.size) t->size = value;
    if (field == layout.address) t->address = value;
    if (field == layout.arg_index) t->arg_index = value;
    if (field == layout.input_type) t->input_type = value;
  }
  return true;
}

}  // namespace

std::optional<ReadDump> ParseDump(const std::string& bytes) {
  if (bytes.size() < 8) return std::nullopt;
  uint64_t length = 0;
  for (int i = 0; i < 8; ++i) {
    length |= static_cast<uint64_t>(static_cast<uint8_t>(bytes[i])) << (8 * i);
  }
  if (length > bytes.size() - 8) return std::nullopt;
  const std::string header = bytes.substr(8, length);
  ReadDump dump;
  Reader r(header);
  while (!r.done()) {
    uint32_t field;
    uint64_t value = 0;
    std::string sub;
    if (!r.Field(&field, &value, &sub)) return std::nullopt;
    ReadTensor t;
    switch (field) {
      case 1:
        dump.version = sub;
        break;
      case 2:
        dump.dump_time = value;
        break;
      case 3:
        if (!Tensor(sub, kOutput, &t)) return std::nullopt;
        dump.outputs.push_back(std::move(t));
        break;
      case 4:
        if (!Tensor(sub, kInput, &t)) return std::nullopt;
        dump.inputs.push_back(std::move(t));
        break;
      case 6:
        dump.op_name = sub;
        break;
      case 7: {
        Reader a(sub);
        std::string name, text;
        while (!a.done()) {
          uint32_t f;
          uint64_t v;
          std::string s;
          if (!a.Field(&f, &v, &s)) return std::nullopt;
          (f == 1 ? name : text) = s;
        }
        dump.attrs.emplace_back(name, text);
        break;
      }
      case 8:
        if (!Tensor(sub, kWorkspace, &t)) return std::nullopt;
        dump.workspaces.push_back(std::move(t));
        break;
      case 9:
        dump.dfx_message = sub;
        break;
      default:
        break;
    }
  }
  size_t at = 8 + length;
  for (auto* list : {&dump.inputs, &dump.outputs, &dump.workspaces}) {
    for (ReadTensor& t : *list) {
      if (t.size > bytes.size() - at) return std::nullopt;
      t.data = bytes.substr(at, t.size);
      at += t.size;
    }
  }
  if (at != bytes.size()) return std::nullopt;
  return dump;
}

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<std::string> ListFiles(const std::string& directory) {
  std::vector<std::string> files;
  DIR* dir = opendir(directory.c_str());
  if (dir == nullptr) return files;
  while (dirent* entry = readdir(dir)) {
    const std::string name = entry->d_name;
    if (name == "." || name == "..") continue;
    const std::string path = directory + "/" + name;
    struct stat st;
    if (stat(path.c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      for (std::string& f : ListFiles(path)) files.push_back(std::move(f));
    } else if (S_ISREG(st.st_mode)) {
      files.push_back(path);
    }
  }
  closedir(dir);
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace ascend::rt::dump
