// A stand-in sample for sample_runner_test: behaves as argv[1] says.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  std::printf("starting %s\n", mode);
  if (std::strcmp(mode, "pass") == 0) {
    std::printf("VERDICT: PASS\n");
    return 0;
  }
  if (std::strcmp(mode, "pass_no_newline") == 0) {
    std::printf("VERDICT: PASS");
    return 0;
  }
  if (std::strcmp(mode, "args") == 0) {
    bool ok = argc == 4 && std::strcmp(argv[2], "a b") == 0 &&
              std::strcmp(argv[3], "c") == 0;
    std::printf("VERDICT: %s\n", ok ? "PASS" : "FAIL");
    return 0;
  }
  if (std::strcmp(mode, "fail") == 0) {
    std::printf("VERDICT: FAIL\n");
    return 0;
  }
  if (std::strcmp(mode, "exit1") == 0) {
    std::printf("VERDICT: PASS\n");
    return 1;
  }
  if (std::strcmp(mode, "prefix") == 0) {
    std::printf("VERDICT: PASSED\n  VERDICT: PASS\n");
    return 0;
  }
  if (std::strcmp(mode, "stderr") == 0) {
    std::fprintf(stderr, "VERDICT: PASS\n");
    return 0;
  }
  if (std::strcmp(mode, "hang") == 0) {
    std::printf("VERDICT: PASS\n");
    std::fflush(stdout);
    sleep(30);
    return 0;
  }
  if (std::strcmp(mode, "closed_stdout_hang") == 0) {
    std::printf("VERDICT: PASS\n");
    std::fflush(stdout);
    close(STDOUT_FILENO);
    sleep(30);
    return 0;
  }
  if (std::strcmp(mode, "abort") == 0) {
    std::printf("VERDICT: PASS\n");
    std::fflush(stdout);
    std::abort();
  }
  return 3;
}
