// main() for the Google Benchmark targets that print their own ratios:
// runs the benchmarks with the console reporter and exits non-zero when any
// of them reported an error (State::SkipWithError), so that a benchmark's
// smoke test fails when its measurement could not be made.
#include <vector>

#include "benchmark/benchmark.h"

namespace {

class ErrorTrackingReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) failed_ = failed_ || run.error_occurred;
    ConsoleReporter::ReportRuns(runs);
  }
  bool failed() const { return failed_; }

 private:
  bool failed_ = false;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  ErrorTrackingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return reporter.failed() ? 1 : 0;
}
