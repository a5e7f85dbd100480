"""The one source of compiler options for this repository's targets."""

# Warnings are errors on our own code (system headers are exempt).
DEFAULT_COPTS = [
    "-Wall",
    "-Wextra",
    "-Werror",
    "-Wno-unused-parameter",
    "-Wno-missing-field-initializers",
]

# Public C headers must also compile as plain C99.
C_COPTS = [
    "-std=c99",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-pedantic-errors",
]

TEST_COPTS = DEFAULT_COPTS + [
    "-Wno-sign-compare",
]

DEFAULT_LINKOPTS = ["-pthread"]

# Link options of the shared libraries we ship (libascendcl.so, the SDK
# libraries): every symbol resolved at link time. Under --config=sanitize,
# clang links its static sanitizer runtime into executables only and leaves
# a shared library's calls into it to the executable, so that build does not
# ask for it.
SHARED_LIBRARY_LINKOPTS = select({
    str(Label("//tools:sanitize_static_runtime")): [],
    "//conditions:default": ["-Wl,--no-undefined"],
})
