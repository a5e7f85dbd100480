// The dump section of a config file (acl/dump/dump_config.h): every rule
// CANN's dump library checks, each refused with ACL_ERROR_INVALID_DUMP_CONFIG
// (100009), and what a valid section asks for
// (docs/zh/api_ref/18_dump_configuration.md, aclmdlSetDump;
// 02_initialization_and_deinitialization.md, aclInit).
#include "acl/dump/dump_config.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "acl/acl_base.h"
#include "gtest/gtest.h"
#include "runtime/base/error.h"
#include "testing/status_matchers.h"

namespace ascend::acl::dump {
namespace {

class DumpConfigTest : public ::testing::Test {
 protected:
  static std::string Tmp() {
    const char* tmp = std::getenv("TEST_TMPDIR");
    return tmp != nullptr ? tmp : "/tmp";
  }
  // A dump section with $P standing for a valid dump_path.
  static std::string Dump(const std::string& members) {
    return absl::StrCat(R"({"dump": {)",
                        absl::StrReplaceAll(members, {{"$P", Tmp()}}), "}}");
  }
  static void ExpectInvalid(const std::string& members) {
    absl::StatusOr<DumpConfig> parsed = ParseDumpConfig(Dump(members));
    ASSERT_FALSE(parsed.ok()) << members;
    EXPECT_EQ(rt::ErrorCode(parsed.status()), ACL_ERROR_INVALID_DUMP_CONFIG)
        << members;
  }
  static DumpConfig Valid(const std::string& members) {
    absl::StatusOr<DumpConfig> parsed = ParseDumpConfig(Dump(members));
    EXPECT_TRUE(parsed.ok()) << members << ": " << parsed.status();
    return parsed.ok() ? *parsed : DumpConfig{};
  }
};

TEST_F(DumpConfigTest, NoDumpAsksForNothing) {
  ASSERT_OK_AND_ASSIGN(DumpConfig none, ParseDumpConfig("{}"));
  EXPECT_EQ(none.kind, DumpConfig::Kind::kNone);
  ASSERT_OK_AND_ASSIGN(none, ParseDumpConfig(""));
  EXPECT_EQ(none.kind, DumpConfig::Kind::kNone);  // an empty file
  ASSERT_OK_AND_ASSIGN(none, ParseDumpConfig(R"({"dump": {}})"));
  EXPECT_EQ(none.kind, DumpConfig::Kind::kNone);
  // A path alone, or an empty list with the switch off, dumps nothing.
  EXPECT_EQ(Valid(R"("dump_path": "$P")").kind, DumpConfig::Kind::kNone);
  EXPECT_EQ(Valid(R"("dump_path": "$P", "dump_list": [])").kind,
            DumpConfig::Kind::kNone);
}

TEST_F(DumpConfigTest, DumpMustBeAnObjectOfJson) {
  EXPECT_EQ(rt::ErrorCode(ParseDumpConfig("{\"dump\":").status()),
            ACL_ERROR_INVALID_DUMP_CONFIG);
  EXPECT_EQ(rt::ErrorCode(ParseDumpConfig(R"({"dump": 5})").status()),
            ACL_ERROR_INVALID_DUMP_CONFIG);
  EXPECT_EQ(rt::ErrorCode(ParseDumpConfig(R"({"dump": []})").status()),
            ACL_ERROR_INVALID_DUMP_CONFIG);
}

TEST_F(DumpConfigTest, MembersHaveTheirTypes) {
  for (const char* key :
       {"dump_path", "dump_mode", "dump_op_switch", "dump_level", "dump_scene",
        "dump_data", "dump_debug", "dump_kernel_data", "dump_step"}) {
    ExpectInvalid(absl::StrCat("\"", key, "\": 1"));
  }
  ExpectInvalid(R"("dump_stats": "Max")");
  ExpectInvalid(R"("dump_stats": [1])");
  ExpectInvalid(R"("dump_list": {})");
  ExpectInvalid(R"("dump_list": [1])");
  ExpectInvalid(R"("dump_list": [{"model_name": 1}])");
  ExpectInvalid(R"("dump_list": [{"layer": "a"}])");
  ExpectInvalid(R"("dump_list": [{"layer": [1]}])");
  ExpectInvalid(R"("dump_list": [{"watcher_nodes": [{}]}])");
  ExpectInvalid(R"("dump_list": [{"optype_blacklist": ["a"]}])");
  ExpectInvalid(R"("dump_list": [{"opname_blacklist": [{"name": 1}]}])");
  ExpectInvalid(R"("dump_list": [{"opname_blacklist": [{"pos": [1]}]}])");
  ExpectInvalid(R"("dump_list": [{"opname_range": [{"begin": 1}]}])");
}

TEST_F(DumpConfigTest, EnumeratedValues) {
  ExpectInvalid(
      R"("dump_path": "$P", "dump_op_switch": "on", "dump_mode": "x")");
  ExpectInvalid(R"("dump_mode": "")");
  ExpectInvalid(R"("dump_data": "bytes")");
  ExpectInvalid(R"("dump_op_switch": "ON")");
  ExpectInvalid(R"("dump_level": "graph")");
  ExpectInvalid(R"("dump_debug": "yes")");
  ExpectInvalid(R"("dump_scene": "everything")");
  ExpectInvalid(R"("dump_kernel_data": "printf,bad")");
  ExpectInvalid(R"("dump_kernel_data": "")");
  ExpectInvalid(R"("dump_stats": ["Max", "Median"])");
}

TEST_F(DumpConfigTest, ExceptionScenesNeedNoPathAndRefuseDataDumps) {
  DumpConfig c = Valid(R"("dump_scene": "aic_err_brief_dump")");
  EXPECT_EQ(c.kind, DumpConfig::Kind::kException);
  EXPECT_EQ(c.exception, rt::DumpSettings::Exception::kBrief);
  EXPECT_EQ(Valid(R"("dump_scene": "lite_exception")").exception,
            rt::DumpSettings::Exception::kBrief);
  EXPECT_EQ(Valid(R"("dump_scene": "aic_err_norm_dump")").exception,
            rt::DumpSettings::Exception::kNormal);
  c = Valid(R"("dump_scene": "aic_err_detail_dump", "dump_path": "out")");
  EXPECT_EQ(c.exception, rt::DumpSettings::Exception::kDetail);
  EXPECT_EQ(c.dump_path, "out");  // need not exist
  ExpectInvalid(
      R"("dump_scene": "aic_err_brief_dump", "dump_op_switch": "on")");
  ExpectInvalid(R"("dump_scene": "aic_err_norm_dump", "dump_debug": "on")");
}

TEST_F(DumpConfigTest, WatcherRules) {
  EXPECT_EQ(Valid(R"("dump_scene": "watcher", "dump_path": "$P",
                     "dump_list": [{"layer": ["A"], "watcher_nodes": ["C"]}])")
                .kind,
            DumpConfig::Kind::kWatcher);
  ExpectInvalid(R"("dump_scene": "watcher", "dump_path": "$P",
                   "dump_mode": "input")");
  ExpectInvalid(R"("dump_scene": "watcher", "dump_debug": "on")");
  ExpectInvalid(R"("dump_scene": "watcher", "dump_op_switch": "on")");
  ExpectInvalid(R"("dump_scene": "watcher", "dump_path": "$P",
                   "dump_list": [{"layer": ["A"]}])");
  ExpectInvalid(R"("dump_scene": "watcher", "dump_path": "$P",
                   "dump_list": [{"model_name": "m", "watcher_nodes": ["C"]}])");
  ExpectInvalid(R"("dump_path": "$P", "dump_op_switch": "on",
                   "dump_list": [{"watcher_nodes": ["C"]}])");
}

TEST_F(DumpConfigTest, DataDumpsNeedAWritableDirectory) {
  ExpectInvalid(R"("dump_op_switch": "on")");
  ExpectInvalid(R"("dump_path": "", "dump_op_switch": "on")");
  ExpectInvalid(absl::StrCat(R"("dump_path": ")", std::string(513, 'a'),
                             R"(", "dump_op_switch": "on")"));
  ExpectInvalid(R"("dump_path": "$P/missing", "dump_op_switch": "on")");
  const std::string file = Tmp() + "/a_file";
  std::ofstream(file) << "x";
  ExpectInvalid(
      absl::StrCat(R"("dump_path": ")", file, R"(", "dump_op_switch": "on")"));
  if (geteuid() != 0) {  // root may write anywhere
    const std::string locked = Tmp() + "/locked";
    ASSERT_EQ(mkdir(locked.c_str(), 0500), 0);
    ExpectInvalid(absl::StrCat(R"("dump_path": ")", locked,
                               R"(", "dump_op_switch": "on")"));
  }
  const DumpConfig c = Valid(R"("dump_path": "$P/.", "dump_op_switch": "on")");
  EXPECT_EQ(c.absolute_path, Tmp());
}

TEST_F(DumpConfigTest, OverflowDump) {
  const DumpConfig c = Valid(R"("dump_path": "$P", "dump_debug": "on")");
  EXPECT_EQ(c.kind, DumpConfig::Kind::kOverflow);
  ExpectInvalid(R"("dump_path": "$P", "dump_debug": "on",
                   "dump_op_switch": "on")");
  ExpectInvalid(R"("dump_debug": "on")");  // needs a path
  // dump_debug "off" is no overflow dump.
  EXPECT_EQ(Valid(R"("dump_path": "$P", "dump_debug": "off")").kind,
            DumpConfig::Kind::kNone);
}

TEST_F(DumpConfigTest, Steps) {
  Valid(
      R"("dump_path": "$P", "dump_op_switch": "on", "dump_step": "0|5|10-20")");
  ExpectInvalid(
      R"("dump_path": "$P", "dump_op_switch": "on", "dump_step": "a")");
  ExpectInvalid(
      R"("dump_path": "$P", "dump_op_switch": "on", "dump_step": "5-3")");
  ExpectInvalid(
      R"("dump_path": "$P", "dump_op_switch": "on", "dump_step": "1-2-3")");
  ExpectInvalid(
      R"("dump_path": "$P", "dump_op_switch": "on", "dump_step": "1|")");
  std::string many = "0";
  for (int i = 1; i <= 100; ++i) absl::StrAppend(&many, "|", i);
  ExpectInvalid(absl::StrCat(R"("dump_path": "$P", "dump_op_switch": "on",
                                "dump_step": ")",
                             many, "\""));
}

TEST_F(DumpConfigTest, ListRules) {
  ExpectInvalid(R"("dump_path": "$P", "dump_list": [{"model_name": ""}])");
  ExpectInvalid(R"("dump_path": "$P", "dump_list": [{"layer": []}])");
  // With the switch on, an empty name or layer list is allowed.
  Valid(R"("dump_path": "$P", "dump_op_switch": "on",
           "dump_list": [{"model_name": ""}])");
  std::string big = "[";
  for (int i = 0; i <= 100; ++i) absl::StrAppend(&big, i ? "," : "", "{}");
  big += "]";
  ExpectInvalid(absl::StrCat(R"("dump_path": "$P", "dump_level": "op",
                                "dump_list": [{"optype_blacklist": )",
                             big, "}]"));
  ExpectInvalid(R"("dump_path": "$P",
                   "dump_list": [{"opname_blacklist": [{"name": "x"}]}])");
  Valid(R"("dump_path": "$P", "dump_level": "op",
           "dump_list": [{"opname_blacklist": [{"name": "x"}]}])");
  ExpectInvalid(R"("dump_path": "$P", "dump_list": [{"model_name": "m",
                   "opname_range": [{"begin": "a", "end": "b"}]}])");
  ExpectInvalid(R"("dump_path": "$P", "dump_level": "op",
                   "dump_list": [{"opname_range": [{"begin": "a", "end": "b"}]}])");
  ExpectInvalid(R"("dump_path": "$P", "dump_level": "op",
                   "dump_list": [{"model_name": "m",
                   "opname_range": [{"begin": "a"}]}])");
  Valid(R"("dump_path": "$P", "dump_level": "op", "dump_list": [{
           "model_name": "m", "opname_range": [{"begin": "a", "end": "b"}]}])");
}

TEST_F(DumpConfigTest, Statistics) {
  ExpectInvalid(R"("dump_path": "$P", "dump_op_switch": "on",
                   "dump_stats": ["Max"])");  // dump_data tensor
  ExpectInvalid(R"("dump_path": "$P", "dump_op_switch": "on",
                   "dump_data": "stats", "dump_stats": [])");
  DumpConfig c =
      Valid(R"("dump_path": "$P", "dump_op_switch": "on", "dump_data": "stats",
               "dump_stats": ["L2norm", "Max"])");
  EXPECT_TRUE(c.stats);
  EXPECT_EQ(c.stats_items, (std::vector<std::string>{"L2norm", "Max"}));
  c = Valid(
      R"("dump_path": "$P", "dump_op_switch": "on", "dump_data": "stats")");
  EXPECT_EQ(c.stats_items,
            (std::vector<std::string>{"Max", "Min", "Avg", "Nan",
                                      "Negative Inf", "Positive Inf"}));
}

TEST_F(DumpConfigTest, WhatADataDumpAsksFor) {
  DumpConfig c = Valid(R"("dump_path": "$P", "dump_op_switch": "on",
                          "dump_list": [])");
  EXPECT_EQ(c.kind, DumpConfig::Kind::kData);
  EXPECT_TRUE(c.op_switch);
  EXPECT_EQ(c.mode, "output");  // CANN's defaults
  EXPECT_EQ(c.level, "all");
  EXPECT_FALSE(c.stats);
  c = Valid(R"("dump_path": "$P", "dump_mode": "all", "dump_level": "kernel",
               "dump_kernel_data": "printf,assert",
               "dump_list": [{"model_name": "m", "layer": ["a", "b"]},
                             {"layer": ["c"]}])");
  EXPECT_EQ(c.kind, DumpConfig::Kind::kData);
  EXPECT_FALSE(c.op_switch);
  EXPECT_TRUE(c.model_entries);
  EXPECT_EQ(c.layers, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(c.mode, "all");
  EXPECT_EQ(c.level, "kernel");
  EXPECT_EQ(c.kernel_data, (std::vector<std::string>{"printf", "assert"}));
}

TEST_F(DumpConfigTest, ScenesByName) {
  EXPECT_EQ(SceneOf("aic_err_brief_dump"), rt::DumpSettings::Exception::kBrief);
  EXPECT_EQ(SceneOf("lite_exception"), rt::DumpSettings::Exception::kBrief);
  EXPECT_EQ(SceneOf("aic_err_norm_dump"), rt::DumpSettings::Exception::kNormal);
  EXPECT_EQ(SceneOf("aic_err_detail_dump"),
            rt::DumpSettings::Exception::kDetail);
  EXPECT_EQ(SceneOf("watcher"), rt::DumpSettings::Exception::kOff);
}

}  // namespace
}  // namespace ascend::acl::dump
