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
