# Shared by the scripts in this folder (sourced, not run): the release
# binary and the provenance lines every run records.

TARGET="${CARGO_TARGET_DIR:-target}"

# Build the release binary and set ASALTO to its path.
build_asalto() {
  echo "== building the asalto binary (release)"
  cargo build --release --locked --quiet
  ASALTO="$TARGET/release/asalto"
}

# Print the commit, the binary's version and the machine (after the
# caller's own lines: command, date, ...).
provenance() {
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "asalto: $("$ASALTO" --version)"
  echo "machine: $(uname -srm), $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
}
