# SPDX-License-Identifier: BSD-3-Clause
# Benchmarks (mk/bench.mk): `make bench` with tiny workloads, a seconds-long
# smoke run of every probe and of the results file, CSV and plot; it fails if any probe's
# message counts differ. Figures from it mean nothing; the full run is `make bench`.
run_stage bench-smoke make bench BENCH_QUICK=1 BENCH_RESULTS=build/bench-smoke
