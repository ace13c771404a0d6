#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The Debian package as users get it: cpack -G DEB from the build tree, then lintian with no error
# and no warning, and the files Debian policy asks for. Exit 77 (skipped) where the tools are missing.
# usage: check_package.sh BUILD_DIR CPACK
set -euo pipefail
build_dir=$1
cpack=$2
for tool in dpkg-deb dpkg-shlibdeps lintian; do
  if ! command -v "$tool" > /dev/null; then
    echo "SKIP: $tool is not installed (installer/debian-packages.txt)"
    exit 77
  fi
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$build_dir"
if ! "$cpack" -G DEB -B "$work" > "$work/cpack.log" 2>&1; then
  cat "$work/cpack.log"
  exit 1
fi
deb=$(ls "$work"/*.deb)
echo "package: $(basename "$deb")"

# lintian as root says so on stderr; its tags go to stdout
lintian --info --display-info --fail-on error,warning "$deb" 2> /dev/null | tee "$work/lintian.txt"
if grep -q '^[EW]: ' "$work/lintian.txt"; then
  echo "FAIL: lintian reports errors or warnings"
  exit 1
fi

contents=$(dpkg-deb -c "$deb")
for path in usr/bin/kinetree usr/bin/kinetree-cli usr/share/doc/kinetree/copyright \
            usr/share/doc/kinetree/changelog.gz usr/share/man/man1/kinetree.1.gz \
            usr/share/man/man1/kinetree-cli.1.gz usr/share/applications/io.github.kinetree.Kinetree.desktop \
            usr/share/metainfo/io.github.kinetree.Kinetree.metainfo.xml \
            usr/share/bash-completion/completions/kinetree-cli; do
  if ! grep -q " \./$path\$" <<< "$contents"; then
    echo "FAIL: $path is not in the package"
    exit 1
  fi
done
echo "ok: lintian clean, policy files present"
