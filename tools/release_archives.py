#!/usr/bin/env python3
"""Builds the archives a user downloads, and checks each as a user would.

    python3 tools/release_archives.py [--out dist] [--skip-build]

For the workspace's version V (Cargo.toml), in --out:

    tama-V-linux-x86_64.tar.gz     tama (static, musl), README.md, LICENSE, CHANGELOG.md
    tama-V-windows-x86_64.zip      tama.exe, README.md, LICENSE, CHANGELOG.md
    SHA256SUMS                     `sha256sum -c` checks both

Building needs the targets x86_64-unknown-linux-musl and
x86_64-pc-windows-gnu (`rustup target add`), musl-gcc and the mingw-w64
C compiler (Debian: musl-tools, gcc-mingw-w64-x86-64); checking the Windows
archive needs wine (Debian: wine64). Each archive is unpacked in an empty
directory and its binary checked there by tests/cross_smoke.py against the
native build (`cargo build --release` first): `--version` names V, perft,
UCI and Hub exchanges, a two-game match, a table built and probed, the
board's page. Exit status 1 when a check fails.
"""

import argparse
import hashlib
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ["README.md", "LICENSE", "CHANGELOG.md"]
TARGET_DIR = ROOT / os.environ.get("CARGO_TARGET_DIR", "target")
TARGETS = {
    "linux": ("x86_64-unknown-linux-musl", "tama"),
    "windows": ("x86_64-pc-windows-gnu", "tama.exe"),
}


def version():
    text = (ROOT / "Cargo.toml").read_text()
    m = re.search(r'\[workspace\.package\][^\[]*?version\s*=\s*"([^"]+)"', text, re.S)
    if not m:
        sys.exit("no [workspace.package] version in Cargo.toml")
    return m.group(1)


def build(target):
    # What users download carries no line tables (the `profiling` profile
    # is the one with them; std's own are stripped here), symbols kept so
    # that a panic's backtrace still names its functions.
    env = dict(os.environ, CARGO_PROFILE_RELEASE_DEBUG="0",
               CARGO_PROFILE_RELEASE_STRIP="debuginfo")
    subprocess.run(["cargo", "build", "--release", "--locked", "--target", target, "-p", "tama"],
                   cwd=ROOT, env=env, check=True)


def binary(kind):
    target, name = TARGETS[kind]
    return TARGET_DIR / target / "release" / name


def make_tar(path, bin_path, top):
    with tarfile.open(path, "w:gz") as tar:
        for src, name in [(bin_path, "tama")] + [(ROOT / d, d) for d in DOCS]:
            info = tar.gettarinfo(str(src), f"{top}/{name}")
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            info.mode = 0o755 if name == "tama" else 0o644
            with open(src, "rb") as f:
                tar.addfile(info, f)


def make_zip(path, bin_path, top):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.write(bin_path, f"{top}/tama.exe")
        for d in DOCS:
            z.write(ROOT / d, f"{top}/{d}")


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def check(kind, archive, v, native):
    """Unpacks `archive` in an empty directory and checks what is inside."""
    where = Path(tempfile.mkdtemp(prefix=f"tama-{kind}-unpacked-"))
    if kind == "linux":
        with tarfile.open(archive) as tar:
            tar.extractall(where, filter="data")
        exe, extra = where / f"tama-{v}-linux-x86_64" / "tama", ["--static"]
        ver = subprocess.run([str(exe), "--version"], capture_output=True, text=True).stdout
    else:
        with zipfile.ZipFile(archive) as z:
            z.extractall(where)
        exe, extra = where / f"tama-{v}-windows-x86_64" / "tama.exe", ["--wine"]
        ver = None  # read through wine by cross_smoke's runs; checked below
    for d in DOCS:
        if not (exe.parent / d).is_file():
            print(f"FAIL {archive.name}: {d} missing")
            return False
    if ver is not None and v not in ver:
        print(f"FAIL {archive.name}: --version says {ver.strip()!r}, not {v}")
        return False
    print(f"== {archive.name}: unpacked in {where}", flush=True)
    r = subprocess.run([sys.executable, str(ROOT / "tests" / "cross_smoke.py"),
                        "--native", str(native), "--exe", str(exe), "--expect-version", v]
                       + extra)
    return r.returncode == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="dist", help="where the archives go (default dist/)")
    ap.add_argument("--skip-build", action="store_true",
                    help="package the binaries already in target/")
    args = ap.parse_args()
    v = version()
    out = (ROOT / args.out) if not Path(args.out).is_absolute() else Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    native = TARGET_DIR / "release" / "tama"
    if not native.is_file():
        sys.exit(f"{native}: build the native binary first (cargo build --release)")
    archives = []
    for kind, (target, _) in TARGETS.items():
        if not args.skip_build:
            build(target)
        top = f"tama-{v}-{kind}-x86_64"
        if kind == "linux":
            path = out / f"{top}.tar.gz"
            make_tar(path, binary(kind), top)
        else:
            path = out / f"{top}.zip"
            make_zip(path, binary(kind), top)
        archives.append((kind, path))
    sums = "".join(f"{sha256(p)}  {p.name}\n" for _, p in archives)
    (out / "SHA256SUMS").write_text(sums)
    print(sums, end="")
    r = subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=out)
    ok = r.returncode == 0
    for kind, path in archives:
        ok = check(kind, path, v, native) and ok
    print("archives: " + ("all checks passed" if ok else "a check FAILED"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
