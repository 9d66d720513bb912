# SPDX-License-Identifier: BSD-3-Clause
# Correctness checks beyond make test (mk/correctness.mk; sourced by .ci/run, which defines run_stage). The Relacy model checks
# run inside `make test` (build/release/bin/xenon_model_tests).
#   test-cross: three cross builds (~2 min each on 2 cores), unit tests + latency_probe under
#               qemu-user, barrier check
#   fuzz:       each fuzzer 10 s (a smoke run: longer runs by hand, make fuzz FUZZ_SECONDS=600)
#   lint:       clang-tidy + cppcheck (~3 min)
run_stage test-cross make -j2 test-cross
run_stage fuzz make fuzz FUZZ_SECONDS=10
run_stage lint make lint
