// Test helpers for tests that look at files the logging writes: read a
// file whole, list a directory, test for a path. Header-only, testonly.
#ifndef ASCENDCL_RUNTIME_BASE_FILE_TEST_UTIL_H_
#define ASCENDCL_RUNTIME_BASE_FILE_TEST_UTIL_H_

#include <dirent.h>
#include <sys/stat.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace ascend::rt::testing {

// The whole file ("" when it cannot be read).
inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The names in `dir`, without "." and ".." (none when it cannot be read).
inline std::vector<std::string> ListDir(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      if (name != "." && name != "..") names.push_back(name);
    }
    closedir(d);
  }
  return names;
}

inline bool Exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

}  // namespace ascend::rt::testing

#endif  // ASCENDCL_RUNTIME_BASE_FILE_TEST_UTIL_H_
