#include "snapshot/cli/command.h"

#include <mutex>
#include <string>
#include <vector>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/reflection.h"
#include "absl/flags/usage.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "snapshot/cli/image_reader.h"
#include "snapshot/cli/inspect.h"
#include "snapshot/cli/verify.h"
#include "snapshot/image_file.h"

ABSL_FLAG(bool, json, false,
          "inspect: print the image's facts as one JSON object");

namespace ascend::snapshot::cli {

namespace {

constexpr absl::string_view kProgram = "ascendcl-snapshot";

// The flags this command defines; absl's own (--flagfile, --helpfull, ...)
// are not offered.
constexpr absl::string_view kOwnFlags[] = {"json"};

bool IsOwnFlag(absl::string_view name) {
  for (absl::string_view own : kOwnFlags) {
    if (name == own) return true;
  }
  return false;
}

enum class Precheck { kRun, kHelp, kBadUsage };

// absl::ParseCommandLine ends the process with status 1 on an unknown flag
// or a bad value, and prints absl's own help for --help. Checking the
// arguments first keeps both cases ours: --help prints our usage and exits
// 0, a flag error exits 2 like any other bad usage. Only what passes here
// reaches absl, whose parse then cannot fail.
Precheck CheckFlags(int argc, char** argv, std::string* error) {
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    if (arg == "--") break;
    if (arg.size() < 2 || arg[0] != '-') continue;  // positional
    arg.remove_prefix(arg[1] == '-' ? 2 : 1);
    const size_t eq = arg.find('=');
    const absl::string_view name = arg.substr(0, eq);
    const bool has_value = eq != absl::string_view::npos;
    if (name == "help" || name == "h" || name == "?") return Precheck::kHelp;
    absl::string_view flag_name = name;
    bool negated = false;
    if (!IsOwnFlag(flag_name) && absl::StartsWith(flag_name, "no") &&
        IsOwnFlag(flag_name.substr(2))) {
      flag_name.remove_prefix(2);
      negated = true;
    }
    absl::CommandLineFlag* flag =
        IsOwnFlag(flag_name) ? absl::FindCommandLineFlag(flag_name) : nullptr;
    if (flag == nullptr) {
      *error = absl::StrCat("unknown flag ", argv[i]);
      return Precheck::kBadUsage;
    }
    const bool boolean = flag->IsOfType<bool>();
    if (negated && (!boolean || has_value)) {
      *error = absl::StrCat("unknown flag ", argv[i]);
      return Precheck::kBadUsage;
    }
    std::string value;
    if (has_value) {
      value = std::string(arg.substr(eq + 1));
    } else if (boolean) {
      value = negated ? "false" : "true";
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      *error = absl::StrCat("flag --", name, " needs a value");
      return Precheck::kBadUsage;
    }
    std::string why;
    if (!flag->ParseFrom(value, &why)) {
      *error = absl::StrCat("flag --", flag_name, ": ", why);
      return Precheck::kBadUsage;
    }
  }
  return Precheck::kRun;
}

int BadUsage(std::ostream& err, const std::string& what) {
  err << kProgram << ": " << what << "\n\n" << UsageText();
  return kExitBadInput;
}

int Inspect(const std::string& directory, const Manifest& manifest,
            std::ostream& out) {
  if (absl::GetFlag(FLAGS_json)) {
    out << InspectJson(directory, manifest).dump(2) << "\n";
  } else {
    out << InspectText(directory, manifest);
  }
  return kExitOk;
}

int Verify(const std::string& directory, const Manifest& manifest,
           std::ostream& out) {
  const VerifyResult result = VerifyImage(directory, manifest);
  uint64_t listed = 0;
  for (const ManifestDevice& d : manifest.devices) listed += d.files.size();
  if (result.damage.empty()) {
    out << "verify: " << directory << " is intact: manifest checksum "
        << Hex64(manifest.checksum) << ", " << listed
        << (listed == 1 ? " file, " : " files, ") << result.pieces
        << (result.pieces == 1 ? " piece, " : " pieces, ") << result.data_bytes
        << " data bytes checked\n";
    return kExitOk;
  }
  for (const Damage& d : result.damage) {
    out << "DAMAGED " << d.file << ": " << d.what << "\n";
  }
  out << "verify: " << directory << " is damaged: " << result.damage.size()
      << " of " << listed << (listed == 1 ? " file" : " files") << "\n";
  return kExitDamaged;
}

}  // namespace

std::string UsageText() {
  return absl::StrCat("usage: ", kProgram, " inspect [--json] DIR\n", "       ",
                      kProgram, " verify DIR\n",
                      R"(
Reads a snapshot image that an ascendcl process wrote to disk during a Backup
(with ASCENDCL_SNAPSHOT_IMAGE_DIR or aclInit's snapshot.image_dir set). DIR is
the image's directory, the one holding image.json, or the image directory
above it when that holds exactly one image.

commands:
  inspect DIR   print what the image holds: when and by which process it was
                written, and per device its participants, allocations by kind
                and files, with totals
  verify DIR    check the manifest (checksum, version) and every file it lists
                (header, identity, piece table, each piece's checksum); print
                each damaged file and how it is damaged

flags:
  --json        inspect: print the facts as one JSON object
  --help        print this message

exit status: 0 done (verify: the image is intact), 1 the image is damaged,
2 bad usage, or DIR is not a snapshot image this tool reads
)");
}

int RunCommand(int argc, char** argv, std::ostream& out, std::ostream& err) {
  static std::once_flag usage_set;
  std::call_once(usage_set, [] { absl::SetProgramUsageMessage(UsageText()); });
  absl::SetFlag(&FLAGS_json, false);
  std::string error;
  switch (CheckFlags(argc, argv, &error)) {
    case Precheck::kHelp:
      out << UsageText();
      return kExitOk;
    case Precheck::kBadUsage:
      return BadUsage(err, error);
    case Precheck::kRun:
      break;
  }
  const std::vector<char*> positional = absl::ParseCommandLine(argc, argv);
  const std::vector<std::string> args(positional.begin() + 1, positional.end());
  if (args.empty()) return BadUsage(err, "no command given");
  const std::string& command = args[0];
  if (command != "inspect" && command != "verify") {
    return BadUsage(err, absl::StrCat("unknown command \"", command, "\""));
  }
  if (args.size() < 2) {
    return BadUsage(err, absl::StrCat(command, ": no DIR given"));
  }
  if (args.size() > 2) {
    return BadUsage(
        err, absl::StrCat(command, ": unexpected argument \"", args[2], "\""));
  }
  if (command == "verify" && absl::GetFlag(FLAGS_json)) {
    return BadUsage(err, "--json applies to inspect only");
  }
  const absl::StatusOr<std::string> directory = ResolveImageDirectory(args[1]);
  if (!directory.ok()) {
    err << kProgram << ": " << directory.status().message() << "\n";
    return kExitBadInput;
  }
  const absl::StatusOr<Manifest> manifest = ReadManifest(*directory);
  if (!manifest.ok()) {
    if (manifest.status().code() == absl::StatusCode::kDataLoss) {
      // The manifest is the image's and is damaged: nothing it lists can
      // be trusted, so no file is checked.
      out << "DAMAGED " << internal::kManifestName << ": "
          << manifest.status().message() << "\n";
      out << command << ": " << *directory
          << " is damaged: its manifest cannot be trusted\n";
      return kExitDamaged;
    }
    err << kProgram << ": " << manifest.status().message() << "\n";
    return kExitBadInput;
  }
  return command == "inspect" ? Inspect(*directory, *manifest, out)
                              : Verify(*directory, *manifest, out);
}

}  // namespace ascend::snapshot::cli
