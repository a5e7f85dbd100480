// Statistics over back-to-back (baseline, operation) timing pairs, shared by
// the snapshot benchmarks: each timed operation is paired with a baseline
// run just before it, and the target is judged on the median ratio, which
// this VM's drifting memory bandwidth leaves meaningful.
#ifndef ASCENDCL_SNAPSHOT_BENCHMARK_PAIRS_H_
#define ASCENDCL_SNAPSHOT_BENCHMARK_PAIRS_H_

#include <algorithm>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace ascend::snapshot {

struct PairStats {
  size_t count = 0;
  // Of baseline seconds / operation seconds over the pairs.
  double median = 0;
  double min = 0;
  double max = 0;
  double baseline_total_s = 0;
  double op_total_s = 0;
};

// nullopt for no pairs.
inline std::optional<PairStats> Summarize(
    const std::vector<std::pair<double, double>>& pairs) {
  if (pairs.empty()) return std::nullopt;
  std::vector<double> ratios;
  PairStats stats;
  for (const auto& [baseline_s, op_s] : pairs) {
    ratios.push_back(baseline_s / op_s);
    stats.baseline_total_s += baseline_s;
    stats.op_total_s += op_s;
  }
  std::sort(ratios.begin(), ratios.end());
  const size_t n = ratios.size();
  stats.count = n;
  stats.median =
      n % 2 == 1 ? ratios[n / 2] : (ratios[n / 2 - 1] + ratios[n / 2]) / 2;
  stats.min = ratios.front();
  stats.max = ratios.back();
  return stats;
}

}  // namespace ascend::snapshot

#endif  // ASCENDCL_SNAPSHOT_BENCHMARK_PAIRS_H_
