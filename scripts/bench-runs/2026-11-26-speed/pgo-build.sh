#!/bin/bash
# Serialized experimental builds (niced; the run has the cores).
set -x
cd /work/wt-s && CARGO_TARGET_DIR=/work/main/target nice -n 15 cargo build --release --locked && cp /work/main/target/release/asalto /work/main/target/ab/code.dbg
cd /work/main && CARGO_TARGET_DIR=/work/exp/v3 RUSTFLAGS="-C target-cpu=x86-64-v3" nice -n 15 cargo build --release --locked
cd /work/main && CARGO_TARGET_DIR=/work/exp/pgo-gen RUSTFLAGS="-C target-cpu=x86-64-v2 -Cprofile-generate=/work/exp/pgo-data" nice -n 15 cargo build --release --locked
rm -rf /work/exp/pgo-data /work/exp/pgo-train; mkdir -p /work/exp/pgo-train
G=/work/exp/pgo-gen/release/asalto
nice -n 15 $G solve --threads 1 'SS1/1S1/OSS1S1O/2SSS2/3S3/1S1/3 s' > /dev/null
nice -n 15 $G build --for 'S1S/3/OSS1SO1/2SSS2/3S3/S2/3 s' --tables /work/exp/pgo-train/d --threads 1 > /dev/null 2>&1
nice -n 15 $G verify --tables /work/exp/pgo-train/d --threads 1 > /dev/null 2>&1
nice -n 15 $G build --for 'S1S/3/OSS1SO1/2SSS2/3S3/S2/3 s' --wdl-only --tables /work/exp/pgo-train/w --threads 1 > /dev/null 2>&1
nice -n 15 $G verify --tables /work/exp/pgo-train/w --threads 1 > /dev/null 2>&1
~/.rustup/toolchains/1.95.0-x86_64-unknown-linux-gnu/lib/rustlib/x86_64-unknown-linux-gnu/bin/llvm-profdata merge -o /work/exp/pgo.profdata /work/exp/pgo-data
cd /work/main && CARGO_TARGET_DIR=/work/exp/pgo RUSTFLAGS="-C target-cpu=x86-64-v2 -Cprofile-use=/work/exp/pgo.profdata" nice -n 15 cargo build --release --locked
echo done3
