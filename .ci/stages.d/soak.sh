# SPDX-License-Identifier: BSD-3-Clause
# The soak (mk/soak.mk): 100,000,000 messages in one process (2 workers) and
# 100,000,000 across two processes under mpiexec, every count exact; about 80 s on 2 cores.
run_stage soak make soak
