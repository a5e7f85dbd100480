// docs/snapshot.md's list of snapshot participants, between the markers
// `<!-- participants -->` and `<!-- /participants -->`, names the
// participants RegisterBuiltinParticipants registers, in registration (that
// is restore) order (DESIGN.md §4.12). A participant added, removed or moved
// without docs/snapshot.md following fails here.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/private_runtime.h"
#include "snapshot/builtin_participants.h"
#include "snapshot/participant_registry.h"
#include "testing/status_matchers.h"

namespace ascend::snapshot {
namespace {

constexpr char kBegin[] = "<!-- participants -->";
constexpr char kEnd[] = "<!-- /participants -->";

std::vector<std::string> RegisteredNames() {
  rt::PrivateRuntime runtime;
  ParticipantRegistry registry;
  EXPECT_OK(RegisterBuiltinParticipants(registry, *runtime, MemoryOptions{}));
  std::vector<std::string> names;
  for (rt::SnapshotParticipant* p : registry.participants()) {
    names.emplace_back(p->name());
  }
  return names;
}

// The first `code span` of every table row, numbered or bulleted item
// between the markers; empty when the markers are missing.
std::vector<std::string> ReadmeNames(const std::string& readme) {
  std::vector<std::string> names;
  const size_t begin = readme.find(kBegin);
  const size_t end = readme.find(kEnd);
  if (begin == std::string::npos || end == std::string::npos || end < begin) {
    return names;
  }
  std::istringstream lines(readme.substr(begin, end - begin));
  std::string line;
  while (std::getline(lines, line)) {
    const size_t tick = line.find('`');
    if (tick == std::string::npos) continue;
    const size_t close = line.find('`', tick + 1);
    if (close == std::string::npos) continue;
    const std::string first = line.substr(0, line.find_first_not_of(" \t"));
    const char lead = line[first.size()];
    const bool item = lead == '|' || lead == '-' || lead == '*' ||
                      (lead >= '0' && lead <= '9');
    if (!item) continue;
    names.push_back(line.substr(tick + 1, close - tick - 1));
  }
  return names;
}

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

TEST(ParticipantsReadmeTest, ReadmeListsTheRegisteredParticipantsInOrder) {
  std::ifstream file("docs/snapshot.md");
  ASSERT_TRUE(file.good()) << "docs/snapshot.md is not in the test's runfiles";
  std::stringstream text;
  text << file.rdbuf();
  const std::string readme = text.str();
  ASSERT_NE(readme.find(kBegin), std::string::npos)
      << "docs/snapshot.md has no " << kBegin << " marker";
  ASSERT_NE(readme.find(kEnd), std::string::npos)
      << "docs/snapshot.md has no " << kEnd << " marker";

  const std::vector<std::string> registered = RegisteredNames();
  ASSERT_FALSE(registered.empty());
  EXPECT_EQ(ReadmeNames(readme), registered)
      << "docs/snapshot.md lists: " << Join(ReadmeNames(readme))
      << "\nregistered (snapshot/builtin_participants.cc): "
      << Join(registered);
}

TEST(ParticipantsReadmeTest, ExtractsTheFirstCodeSpanOfEachItem) {
  const std::string text =
      "intro `not this`\n<!-- participants -->\n| participant | what |\n"
      "| --- | --- |\n| `a` | x `y` |\n1. `b` — z\n- `c`\nprose `d`\n"
      "<!-- /participants -->\n- `e`\n";
  EXPECT_EQ(ReadmeNames(text), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(ReadmeNames("no markers\n- `a`\n").empty());
}

}  // namespace
}  // namespace ascend::snapshot
