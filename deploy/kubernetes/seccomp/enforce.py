#!/usr/bin/python3
"""Runs a command under a seccomp profile in the JSON form Kubernetes reads (Localhost profiles:
the OCI runtime's format), the way the container runtime would load it: libseccomp, the default
action, then each rule with its argument comparisons; names this architecture does not know are
skipped, as runc skips them. For checking a profile on a machine without a container runtime:

    /usr/bin/python3 enforce.py platform-runtime.json -- node --no-node-snapshot runtime/src/main.ts

Needs Debian's python3-seccomp (the libseccomp bindings)."""
import json
import os
import sys

import seccomp

OPS = {
    "SCMP_CMP_NE": seccomp.NE, "SCMP_CMP_LT": seccomp.LT, "SCMP_CMP_LE": seccomp.LE, "SCMP_CMP_EQ": seccomp.EQ,
    "SCMP_CMP_GE": seccomp.GE, "SCMP_CMP_GT": seccomp.GT, "SCMP_CMP_MASKED_EQ": seccomp.MASKED_EQ,
}


def action(name, errno):
    if name == "SCMP_ACT_ALLOW":
        return seccomp.ALLOW
    if name == "SCMP_ACT_ERRNO":
        return seccomp.ERRNO(errno)
    if name == "SCMP_ACT_LOG":
        return seccomp.LOG
    raise SystemExit(f"enforce.py: action {name} is not supported here")


def arg(a):
    if a["op"] == "SCMP_CMP_MASKED_EQ":
        return seccomp.Arg(a["index"], seccomp.MASKED_EQ, a["value"], a.get("valueTwo", 0))
    return seccomp.Arg(a["index"], OPS[a["op"]], a["value"])


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        raise SystemExit("usage: enforce.py PROFILE.json -- COMMAND [ARG...]")
    with open(sys.argv[1]) as f:
        profile = json.load(f)
    default_errno = profile.get("defaultErrnoRet", 1)
    flt = seccomp.SyscallFilter(action(profile["defaultAction"], default_errno))
    for rule in profile["syscalls"]:
        act = action(rule["action"], rule.get("errnoRet", default_errno))
        for name in rule["names"]:
            try:
                flt.add_rule(act, name, *[arg(a) for a in rule.get("args", [])])
            except (RuntimeError, ValueError):
                pass  # not a system call of this architecture
    flt.load()
    os.execvp(sys.argv[3], sys.argv[3:])


main()
