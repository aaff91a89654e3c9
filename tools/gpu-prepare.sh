#!/usr/bin/env bash
# Companion of tools/gpu-run.sh, run on a machine WITH package registries (this project's
# CI machine kind, Debian 12): gathers everything except PyTorch that building trainproof
# needs on a GPU machine that has none, into DIR (default .gpu-deps, git-ignored):
#   DIR/root/   Debian dev packages unpacked (GoogleTest, RapidCheck, CLI11, nlohmann-json, and the
#               Gloo headers a PyTorch wheel may lack: its ProcessGroupGloo.hpp includes them)
#   DIR/hdf5/   HDF5 headers and the shared library with its runtime closure (no system libc)
#   DIR/wheels/ cmake and ninja wheels, used when the GPU machine lacks them: pinned, so that what
#               is carried to the device (64 MiB at most) is known: 27.8 MB and 0.4 MB
set -euo pipefail
out=$(realpath -m "${1:-.gpu-deps}")
rm -rf "$out"
mkdir -p "$out/debs" "$out/root" "$out/hdf5/include" "$out/hdf5/lib" "$out/wheels"

(cd "$out/debs" && apt-get download libgtest-dev librapidcheck-dev libcli11-dev nlohmann-json3-dev libgloo-dev)
for d in "$out"/debs/*.deb; do dpkg -x "$d" "$out/root"; done
rm -rf "$out/debs" "$out/root/usr/share/doc"

# HDF5: a plain prefix FindHDF5 understands via HDF5_ROOT (include/, lib/libhdf5.so).
cp -r /usr/include/hdf5/serial/. "$out/hdf5/include/"
lib=$(readlink -f /usr/lib/x86_64-linux-gnu/libhdf5_serial.so)
cp "$lib" "$out/hdf5/lib/"
ln -s "$(basename "$lib")" "$out/hdf5/lib/libhdf5.so"
ln -s "$(basename "$lib")" "$out/hdf5/lib/libhdf5_serial.so.103"
# Its runtime dependencies, except the C library itself (the GPU machine has its own).
ldd "$lib" | awk '/=> \// {print $3}' | while read -r dep; do
  case "$(basename "$dep")" in libc.so*|libm.so*|libdl.so*|libpthread.so*|librt.so*|libresolv.so*|ld-linux*) continue ;; esac
  cp -L "$dep" "$out/hdf5/lib/"
done

python3 -m pip download -q --no-deps --only-binary=:all: --platform manylinux_2_17_x86_64 \
  --platform manylinux2014_x86_64 --python-version 3.12 -d "$out/wheels" "cmake==3.31.6" "ninja==1.11.1.4"
du -sh "$out"
