"""Builds one variant of the stand-in driver library."""

load("//tools:copts.bzl", "DEFAULT_COPTS", "DEFAULT_LINKOPTS")

def fake_hal_variant(name, library, defines = [], visibility = None):
    """A cc_library `name` (linkable into tests) and a shared `library`.

    Args:
      name: the cc_library with the stand-in's code for this variant.
      library: the file name of the shared library (a cc_binary target).
      defines: FAKE_HAL_WITHOUT_* defines that leave entry points out.
      visibility: of both targets.
    """
    native.cc_library(
        name = name,
        testonly = True,
        srcs = ["fake_hal.cc"],
        copts = DEFAULT_COPTS,
        local_defines = defines,
        linkopts = DEFAULT_LINKOPTS,
        alwayslink = True,
        visibility = visibility,
        deps = [
            ":fake_hal_control",
            "//device/npu/internal:hal_abi",
        ],
    )
    native.cc_binary(
        name = library,
        testonly = True,
        linkshared = True,
        additional_linker_inputs = [":exports.lds"],
        linkopts = ["-Wl,--version-script=$(location :exports.lds)"],
        visibility = visibility,
        deps = [":" + name],
    )
