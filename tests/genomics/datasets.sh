# SPDX-License-Identifier: BSD-3-Clause
# The data sets the k-mer counter is checked on (sourced by scripts; paths relative to the
# test data folder that tools/test_data.sh names). Each line: NAME FILE...
XENON_DATASETS=(
  "lambda-reads lambda/reads_1.fq.gz lambda/reads_2.fq.gz"
  "lambda-art lambda/art_1.fq.gz lambda/art_2.fq.gz"
  "illumina-real illumina-real/SRR059298_subset.fastq.gz"
  "unicycler-sample unicycler-sample/short_reads_1.fastq.gz unicycler-sample/short_reads_2.fastq.gz"
  "lambda-reference lambda/lambda_virus.fa.gz"
  "unicycler-reference unicycler-sample/reference.fasta.gz"
)
XENON_KMER_LENGTHS=(21 31 55 99)
