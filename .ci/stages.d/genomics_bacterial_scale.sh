# SPDX-License-Identifier: BSD-3-Clause
# k-mer counting at bacterial scale: performance/kmer_bench/kmer_bench.sh simulates 40x E. coli reads
# with ART (about a minute), then counts them with kmer_counter, Jellyfish and KMC and across
# 2 and 4 MPI processes; it fails unless every histogram is identical to Jellyfish's and KMC's
# and the multi-process outputs are byte-identical to the single-process one (13.7 M distinct
# k-mers: table growth in every part, thousands of blocks). Its times, on a CI machine
# running nothing else, are printed but not judged.
run_stage kmer-bench-ecoli performance/kmer_bench/kmer_bench.sh

# Assembly at bacterial scale: the assembler at its defaults on the lambda ART reads, the
# Shigella reads and the same 40x E. coli reads, judged by genomics/evaluate_assembly.sh
# against the references; it fails unless the quality targets hold (lambda >= 99.5% genome
# fraction, Shigella >= 87.5%, E. coli >= 98.7%, no misassembly) and the contigs of 2 MPI
# processes are byte-identical to one process's. The peers (SPAdes, MEGAHIT, Minia, Velvet,
# Ray: tens of minutes) run only from the README's command.
run_stage assembly-bench-ecoli env TOOLS=xenon performance/assembly_bench/assembly_bench.sh
