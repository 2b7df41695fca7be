# Sourced (.ci/run, scripts/build-ahead.sh): cpu_now sets CPU_NOW to the CPU seconds (user + system) of
# every command the sourcing shell has run and waited for. `times` runs in that shell, into a file: in a
# pipe or $(...) it would count a subshell's children. The file is CPU_TMP (removed by the caller).
CPU_TMP=$(mktemp)
cpu_now() {
  times >"$CPU_TMP"
  CPU_NOW=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%d", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$CPU_TMP")
}
