// How the two processes of a CANN-style sharing example hand each other
// small values: the writer writes `path`, then creates `path`.done; the
// reader waits (up to 30 s) for the .done file before reading. As in CANN's
// sharing examples, the files live in ./file, which run.sh empties first.
#ifndef ASCENDCL_TESTING_CANN_STYLE_EXAMPLES_COMMON_FILE_HANDSHAKE_H_
#define ASCENDCL_TESTING_CANN_STYLE_EXAMPLES_COMMON_FILE_HANDSHAKE_H_

#include <unistd.h>

#include <cstdio>
#include <string>

inline bool HandOver(const std::string& path, const void* data, size_t size) {
  FILE* out = std::fopen(path.c_str(), "wb");
  if (out == nullptr) return false;
  const bool written = std::fwrite(data, 1, size, out) == size;
  if (std::fclose(out) != 0 || !written) return false;
  FILE* done = std::fopen((path + ".done").c_str(), "wb");
  return done != nullptr && std::fclose(done) == 0;
}

inline bool TakeOver(const std::string& path, void* data, size_t size) {
  const std::string done = path + ".done";
  for (int i = 0; i < 3000 && access(done.c_str(), F_OK) != 0; ++i) {
    usleep(10000);
  }
  FILE* in = std::fopen(path.c_str(), "rb");
  if (in == nullptr) return false;
  const size_t got = std::fread(data, 1, size, in);
  std::fclose(in);
  return got > 0;
}

#endif  // ASCENDCL_TESTING_CANN_STYLE_EXAMPLES_COMMON_FILE_HANDSHAKE_H_
