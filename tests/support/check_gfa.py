#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks the assembler's graph.gfa against its contigs.fasta, as genomics/README.md
describes the file: GFA 1; every S line with ACGT bases, LN:i: their length and a KC:i: tag;
every L line between existing segments, overlapping by k-1 bases that really are the same
bases, each link once (a link and its reverse complement are one); one P line per contig,
named as in contigs.fasta, in its order, whose path follows links and spells the contig (the
segments joined on their k-1 shared bases; for a circular contig, the one segment spells it
with the k-1 bases that close the cycle once more, at the end when read +, at the start
when read -). Prints what it checked; exits 1 with the first problem.

usage: check_gfa.py graph.gfa contigs.fasta K
"""
import sys

COMPLEMENT = str.maketrans("ACGT", "TGCA")


def reverse_complement(bases):
    return bases.translate(COMPLEMENT)[::-1]


def fail(problem):
    print(f"check_gfa: {problem}")
    sys.exit(1)


def read_contigs(path):
    contigs = []  # (name, circular, bases)
    with open(path) as fasta:
        for line in fasta:
            line = line.rstrip("\n")
            if line.startswith(">"):
                words = line[1:].split()
                contigs.append([words[0], "circular" in words[1:], ""])
            elif line:
                contigs[-1][2] += line
    return contigs


def main():
    if len(sys.argv) != 4:
        fail("usage: check_gfa.py graph.gfa contigs.fasta K")
    gfa_path, fasta_path, k = sys.argv[1], sys.argv[2], int(sys.argv[3])
    overlap = f"{k - 1}M"
    segments, links, paths = {}, set(), []
    with open(gfa_path) as gfa:
        lines = gfa.read().split("\n")
    if lines[-1] != "":
        fail("the file does not end with a newline")
    if lines[0] != "H\tVN:Z:1.0":
        fail(f"the first line is not the GFA 1.0 header: {lines[0]!r}")
    for number, line in enumerate(lines[1:-1], start=2):
        fields = line.split("\t")
        kind = fields[0]
        if kind == "S":
            if len(fields) != 5:
                fail(f"line {number}: an S line of {len(fields)} fields, not 5")
            name, bases, length, count = fields[1:]
            if name in segments:
                fail(f"line {number}: segment {name} named twice")
            if not bases or bases.strip("ACGT"):
                fail(f"line {number}: segment {name} holds other letters than ACGT")
            if length != f"LN:i:{len(bases)}":
                fail(f"line {number}: segment {name} has {len(bases)} bases but {length}")
            if not count.startswith("KC:i:") or not count[5:].isdigit() or int(count[5:]) == 0:
                fail(f"line {number}: segment {name}: no k-mer count KC:i:N (N > 0): {count!r}")
            if len(bases) < k:
                fail(f"line {number}: segment {name} is shorter than k")
            segments[name] = bases
        elif kind == "L":
            if paths:
                fail(f"line {number}: an L line after the P lines")
            if len(fields) != 6:
                fail(f"line {number}: an L line of {len(fields)} fields, not 6")
            _, left, left_strand, right, right_strand, cigar = fields
            for name, strand in ((left, left_strand), (right, right_strand)):
                if name not in segments:
                    fail(f"line {number}: link to segment {name}, which no S line (before it) names")
                if strand not in "+-" or len(strand) != 1:
                    fail(f"line {number}: orientation {strand!r} is not + or -")
            if cigar != overlap:
                fail(f"line {number}: overlap {cigar}, not {overlap} (k = {k})")
            link = (left, left_strand, right, right_strand)
            flip = {"+": "-", "-": "+"}
            reverse = (right, flip[right_strand], left, flip[left_strand])
            if link in links or reverse in links:
                fail(f"line {number}: the link {link} is listed twice (or with its reverse complement)")
            if oriented(segments, left, left_strand)[-(k - 1):] != oriented(segments, right, right_strand)[:k - 1]:
                fail(f"line {number}: segments {left}{left_strand} and {right}{right_strand} do not share k-1 bases")
            links.add(link)
        elif kind == "P":
            if len(fields) != 4:
                fail(f"line {number}: a P line of {len(fields)} fields, not 4")
            paths.append((number, fields[1], fields[2].split(","), fields[3]))
        else:
            fail(f"line {number}: a line of kind {kind!r}")
    contigs = read_contigs(fasta_path)
    if len(paths) != len(contigs):
        fail(f"{len(paths)} P lines for {len(contigs)} contigs")
    for (number, name, steps, cigars), (contig_name, circular, contig) in zip(paths, contigs):
        if name != contig_name:
            fail(f"line {number}: path {name} where contigs.fasta has {contig_name}")
        expected_cigars = ",".join([overlap] * (len(steps) - 1)) if len(steps) > 1 else "*"
        if cigars != expected_cigars:
            fail(f"line {number}: overlaps {cigars!r}, not {expected_cigars!r}")
        spelled = ""
        previous = None
        for step in steps:
            segment, strand = step[:-1], step[-1]
            if segment not in segments or strand not in "+-":
                fail(f"line {number}: path {name} goes through {step!r}, which is no oriented segment")
            if previous is not None and not linked(links, previous, (segment, strand)):
                fail(f"line {number}: path {name} goes from {''.join(previous)} to {step} with no L line between")
            bases = oriented(segments, segment, strand)
            spelled += bases if not spelled else bases[k - 1:]
            previous = (segment, strand)
        if circular:
            closed = spelled[:-(k - 1)] if steps[0][-1] == "+" else spelled[k - 1:]
            if len(steps) != 1 or closed != contig or not linked(links, previous, previous):
                fail(f"line {number}: path {name} does not spell the circular contig with its closing k-1 bases")
        elif spelled != contig:
            fail(f"line {number}: path {name} spells {len(spelled)} bases that differ from the contig's {len(contig)}")
    print(f"check_gfa: {len(segments)} segments, {len(links)} links, {len(paths)} paths spelling the contigs")


def oriented(segments, name, strand):
    return segments[name] if strand == "+" else reverse_complement(segments[name])


def linked(links, left, right):
    flip = {"+": "-", "-": "+"}
    return (left + right) in links or ((right[0], flip[right[1]], left[0], flip[left[1]]) in links)


if __name__ == "__main__":
    main()
