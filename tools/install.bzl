"""Public headers of cc_library targets, laid out for installation."""

_VIRTUAL = "/_virtual_includes/"

def _include_path(header):
    # strip_include_prefix/include_prefix make Bazel expose a header through a
    # _virtual_includes/<target>/ tree: the include path is what follows it.
    path = header.short_path
    if _VIRTUAL in path:
        rest = path.split(_VIRTUAL, 1)[1]
        return rest.split("/", 1)[1]
    return path

def _install_headers_impl(ctx):
    headers = []
    lines = []
    for dep in ctx.attr.deps:
        public = dep[CcInfo].compilation_context.direct_public_headers
        # With an include prefix, Bazel lists both the sources and their
        # _virtual_includes copies; the copies carry the include path.
        virtual = [h for h in public if _VIRTUAL in h.short_path]
        for header in virtual or public:
            headers.append(header)
            lines.append("%s %s" % (_include_path(header), header.short_path))
    manifest = ctx.actions.declare_file(ctx.label.name + ".manifest")
    ctx.actions.write(manifest, "\n".join(sorted(lines)) + "\n")
    return [DefaultInfo(
        files = depset([manifest]),
        runfiles = ctx.runfiles(files = headers + [manifest]),
    )]

install_headers = rule(
    implementation = _install_headers_impl,
    doc = """Writes <name>.manifest, one line per public header of `deps`:
    "<include path> <runfiles path>", and puts the headers in runfiles.""",
    attrs = {
        "deps": attr.label_list(providers = [CcInfo]),
    },
)
