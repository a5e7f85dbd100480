// Ranks in separate processes on this host: the bytes move over Gloo's TCP
// transport. Each rank is an hccl_rank process (hccl/testing/rank_main.cc);
// this test process is the root (it called HcclGetRootInfo and serves the
// rendezvous) and never a rank. Every job has a deadline; ranks left at it
// are killed.
#include <fstream>
#include <iostream>
#include <string>

#include "gtest/gtest.h"
#include "hccl/hccl.h"
#include "hccl/testing/job.h"

namespace ascend::hccl::testing {
namespace {

std::string RootHex() {
  HcclRootInfo root;
  EXPECT_EQ(HCCL_SUCCESS, HcclGetRootInfo(&root));
  return Hex(root);
}

void ExpectAllOk(const JobResult& job, const std::string& scenario) {
  ASSERT_FALSE(job.timed_out);
  for (size_t i = 0; i < job.ranks.size(); ++i) {
    EXPECT_EQ(0, job.ranks[i].exit_code) << job.ranks[i].output;
    EXPECT_NE(std::string::npos,
              job.ranks[i].output.find("RANK " + std::to_string(i) + " " +
                                       scenario + " OK"))
        << job.ranks[i].output;
  }
}

TEST(MultiProcess, FourProcessesRunEveryOperation) {
  ExpectAllOk(RunJob(4, {"--scenario=collectives", "--root=" + RootHex()},
                     std::chrono::seconds(90)),
              "collectives");
}

TEST(MultiProcess, ARankTableJobOfTwoProcesses) {
  const std::string path = ::testing::TempDir() + "/two_processes.json";
  std::ofstream(path) << R"({"status":"completed","version":"1.0",
    "server_count":"2","server_list":[
      {"server_id":"node_0","device":[{"device_id":"0",
        "device_ip":"127.0.0.1","device_port":")" +
                             std::to_string(FreePort()) + R"(","rank_id":"0"}]},
      {"server_id":"node_1","device":[{"device_id":"0",
        "device_ip":"127.0.0.1","rank_id":"1"}]}]})";
  ExpectAllOk(RunJob(2, {"--scenario=collectives", "--table=" + path},
                     std::chrono::seconds(90)),
              "collectives");
}

TEST(MultiProcess, ALostPeerFailsTheOthersWithinTheTimeout) {
  setenv("HCCL_EXEC_TIMEOUT", "10", 1);
  const JobResult job =
      RunJob(3, {"--scenario=peer_lost", "--root=" + RootHex()},
             std::chrono::seconds(60));
  unsetenv("HCCL_EXEC_TIMEOUT");
  ASSERT_FALSE(job.timed_out);
  EXPECT_NE(std::string::npos, job.ranks[2].output.find("EXITING"));
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(0, job.ranks[i].exit_code)
        << "signal " << job.ranks[i].signal << ": " << job.ranks[i].output;
    EXPECT_NE(std::string::npos, job.ranks[i].output.find("peer lost"))
        << job.ranks[i].output;
    std::cout << job.ranks[i].output;
  }
}

TEST(MultiProcess, AStalledPeerTimesTheOthersOut) {
  setenv("HCCL_EXEC_TIMEOUT", "1", 1);
  const JobResult job = RunJob(3, {"--scenario=stall", "--root=" + RootHex()},
                               std::chrono::seconds(60));
  unsetenv("HCCL_EXEC_TIMEOUT");
  ASSERT_FALSE(job.timed_out);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(0, job.ranks[i].exit_code) << job.ranks[i].output;
    std::cout << job.ranks[i].output;
  }
}

TEST(MultiProcess, ARankThatNeverStartsTimesTheOthersOut) {
  setenv("HCCL_CONNECT_TIMEOUT", "2", 1);
  // Three ranks of a job of four: the creation times out in every one.
  HcclRootInfo root;
  ASSERT_EQ(HCCL_SUCCESS, HcclGetRootInfo(&root));
  std::vector<std::string> args = {"--scenario=collectives", "--nranks=4",
                                   "--root=" + Hex(root)};
  const JobResult job = RunJob(3, args, std::chrono::seconds(30));
  unsetenv("HCCL_CONNECT_TIMEOUT");
  ASSERT_FALSE(job.timed_out);
  for (const RankResult& r : job.ranks) {
    EXPECT_EQ(1, r.exit_code) << r.output;
    EXPECT_NE(std::string::npos, r.output.find("HcclCommInitRootInfo"))
        << r.output;
  }
}

TEST(MultiProcess, ASnapshotOfAFourProcessJobRoundTrips) {
  ExpectAllOk(RunJob(4, {"--scenario=snapshot", "--root=" + RootHex()},
                     std::chrono::seconds(90)),
              "snapshot");
}

}  // namespace
}  // namespace ascend::hccl::testing
