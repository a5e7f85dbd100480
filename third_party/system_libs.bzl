"""Exposes Debian's system libraries under their usual Bazel repository names.

Each repository holds only BUILD files: headers come from the system include
path (/usr/include) and libraries from the system library path. A downstream
workspace that declares its own `com_google_absl` (etc.) before calling
`ascendcl_system_libs()` keeps its own copy: existing names are never
overridden.

Debian packages (installed by tools/setup.sh): libabsl-dev, libgtest-dev,
libgmock-dev, libbenchmark-dev, libgoogle-glog-dev, nlohmann-json3-dev,
libgloo-dev (libhccl.so's transport between processes and hosts).
"""

# package -> {target: [libraries to link]}; an empty list is header-only.
_ABSL = {
    "absl/base": {
        "core_headers": [],
        "base": ["absl_base", "absl_raw_logging_internal", "absl_spinlock_wait"],
        "log_severity": ["absl_log_severity"],
    },
    "absl/cleanup": {"cleanup": []},
    "absl/container": {
        "btree": ["absl_throw_delegate", "absl_raw_logging_internal"],
        "fixed_array": [],
        "flat_hash_map": ["absl_raw_hash_set", "absl_hash"],
        "flat_hash_set": ["absl_raw_hash_set", "absl_hash"],
        "inlined_vector": [],
        "node_hash_map": ["absl_raw_hash_set", "absl_hash"],
    },
    "absl/flags": {
        # ABSL_FLAG: a flag's storage and its registration in the registry.
        "flag": ["absl_flags_internal", "absl_flags_marshalling", "absl_flags_reflection", "absl_flags_private_handle_accessor", "absl_flags_commandlineflag", "absl_flags_commandlineflag_internal", "absl_flags_config", "absl_flags_program_name"],
        "commandlineflag": ["absl_flags_commandlineflag", "absl_flags_commandlineflag_internal"],
        "reflection": ["absl_flags_reflection", "absl_flags_private_handle_accessor", "absl_flags_commandlineflag", "absl_flags_commandlineflag_internal", "absl_flags_config"],
        "parse": ["absl_flags_parse", "absl_flags_usage", "absl_flags_usage_internal", "absl_flags_internal", "absl_flags_marshalling", "absl_flags_reflection", "absl_flags_private_handle_accessor", "absl_flags_commandlineflag", "absl_flags_commandlineflag_internal", "absl_flags_config", "absl_flags_program_name"],
        "usage": ["absl_flags_usage", "absl_flags_usage_internal", "absl_flags_program_name"],
    },
    "absl/functional": {
        "any_invocable": [],
        "bind_front": [],
        "function_ref": [],
    },
    "absl/hash": {"hash": ["absl_hash", "absl_city", "absl_low_level_hash"]},
    "absl/memory": {"memory": []},
    "absl/numeric": {"bits": [], "int128": ["absl_int128"]},
    "absl/random": {"random": ["absl_random_internal_pool_urbg", "absl_random_internal_randen", "absl_random_seed_sequences"]},
    "absl/status": {
        "status": ["absl_status", "absl_cord", "absl_cordz_info", "absl_cord_internal", "absl_cordz_functions", "absl_cordz_handle", "absl_strings"],
        "statusor": ["absl_statusor", "absl_status"],
    },
    "absl/strings": {
        "cord": ["absl_cord", "absl_cordz_info", "absl_cord_internal", "absl_cordz_functions", "absl_cordz_handle"],
        "str_format": ["absl_str_format_internal"],
        "strings": ["absl_strings", "absl_strings_internal", "absl_int128", "absl_throw_delegate"],
    },
    "absl/synchronization": {"synchronization": ["absl_synchronization", "absl_time", "absl_time_zone"]},
    "absl/time": {"time": ["absl_time", "absl_time_zone"]},
    "absl/types": {
        "optional": ["absl_bad_optional_access"],
        "span": [],
        "variant": ["absl_bad_variant_access"],
    },
}

_LIB_TEMPLATE = """
cc_library(
    name = "{name}",
    linkopts = [{linkopts}],
)
"""

def _targets(spec):
    out = ['package(default_visibility = ["//visibility:public"])\n']
    for name, libs in spec.items():
        out.append(_LIB_TEMPLATE.format(
            name = name,
            linkopts = ", ".join(['"-l%s"' % lib for lib in libs]),
        ))
    return "".join(out)

def _system_absl_impl(ctx):
    if not ctx.path("/usr/include/absl/base/config.h").exists:
        fail("abseil headers not found: run tools/setup.sh (package libabsl-dev)")
    ctx.file("WORKSPACE", 'workspace(name = "%s")\n' % ctx.name)
    ctx.file("BUILD.bazel", "")
    for package, spec in _ABSL.items():
        ctx.file(package + "/BUILD.bazel", _targets(spec))

_system_absl = repository_rule(implementation = _system_absl_impl, local = True)

def _system_lib_impl(ctx):
    for header in ctx.attr.required_headers:
        if not ctx.path("/usr/include/" + header).exists:
            fail("/usr/include/%s not found: run tools/setup.sh (package %s)" % (header, ctx.attr.package))
    ctx.file("WORKSPACE", 'workspace(name = "%s")\n' % ctx.name)
    ctx.file("BUILD.bazel", _targets(ctx.attr.targets))

_system_lib = repository_rule(
    implementation = _system_lib_impl,
    local = True,
    attrs = {
        "package": attr.string(),
        "required_headers": attr.string_list(),
        "targets": attr.string_list_dict(),
    },
)

def ascendcl_system_libs():
    """Declares every system-library repository not already declared."""
    existing = native.existing_rules()
    if "com_google_absl" not in existing:
        _system_absl(name = "com_google_absl")
    if "com_google_googletest" not in existing:
        _system_lib(
            name = "com_google_googletest",
            package = "libgtest-dev libgmock-dev",
            required_headers = ["gtest/gtest.h", "gmock/gmock.h"],
            targets = {
                "gtest": ["gmock", "gtest", "pthread"],
                "gtest_main": ["gmock", "gtest_main", "gtest", "pthread"],
            },
        )
    if "com_github_google_benchmark" not in existing:
        _system_lib(
            name = "com_github_google_benchmark",
            package = "libbenchmark-dev",
            required_headers = ["benchmark/benchmark.h"],
            targets = {
                "benchmark": ["benchmark", "pthread"],
                "benchmark_main": ["benchmark_main", "benchmark", "pthread"],
            },
        )
    if "com_github_google_glog" not in existing:
        _system_lib(
            name = "com_github_google_glog",
            package = "libgoogle-glog-dev",
            required_headers = ["glog/logging.h"],
            targets = {"glog": ["glog", "gflags"]},
        )
    if "com_github_nlohmann_json" not in existing:
        _system_lib(
            name = "com_github_nlohmann_json",
            package = "nlohmann-json3-dev",
            required_headers = ["nlohmann/json.hpp"],
            targets = {"json": []},
        )
    if "com_github_facebookincubator_gloo" not in existing:
        _system_lib(
            name = "com_github_facebookincubator_gloo",
            package = "libgloo-dev",
            required_headers = ["gloo/allreduce.h", "gloo/transport/tcp/device.h"],
            targets = {"gloo": ["gloo", "pthread"]},
        )
