#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The arithmetic of genomics/evaluate_assembly.sh (standard library only).

  assembly_metrics.py prepare MIN_CONTIG CONTIGS OUTDIR REFERENCE...
      Checks the FASTA files (plain or gzip), writes OUTDIR/contigs.fa (the contigs of at
      least MIN_CONTIG bp), OUTDIR/reference.fa (every reference's sequences, decompressed)
      and OUTDIR/reference_files.tsv (which file each sequence came from), prints the contig
      metrics.
  assembly_metrics.py paf OUTDIR
      Prints genome fraction, duplication ratio, NGA50 and misassemblies from minimap2's PAF
      (OUTDIR/alignments.paf, primary alignments only), over all references and, with
      several reference files, for each.
  assembly_metrics.py dnadiff REPORT
      Prints the cross-check figures of MUMmer's dnadiff out.report.

Every metric is one line "ASSEMBLY_METRIC name = value". Bad input ends with one line
"evaluate_assembly: error: ..." on stderr and exit status 1.
"""
import dataclasses
import gzip
import re
import sys
import zlib

# Blocks of one contig whose placements on the reference disagree by more than this are a
# relocation (QUAST's extensive misassembly threshold); the same distance from the ends of a
# sequence marks a contig crossing the origin of a circular sequence.
RELOCATION_BP = 1000

# A run of this many N or more is a scaffold's gap (QUAST's threshold for its "broken" figures).
SCAFFOLD_GAP_N = 10
SCAFFOLD_GAP = re.compile(f"[Nn]{{{SCAFFOLD_GAP_N},}}")
SEQUENCE_LETTERS = re.compile(r"^[A-Za-z*.-]*$")
CIGAR_OPERATION = re.compile(r"([0-9]+)([MIDNSHP=X])")


class InputError(Exception):
    pass


def metric(name, value):
    print(f"ASSEMBLY_METRIC {name} = {value}")


def percent(part, whole):
    return f"{100.0 * part / whole:.2f} %" if whole else "0.00 %"


# ---------------------------------------------------------------------------- FASTA input

def open_text(path):
    """Opens a plain or gzip file as text, by its first two bytes rather than its name."""
    try:
        with open(path, "rb") as probe:
            magic = probe.read(2)
    except OSError as error:
        raise InputError(f"{path}: cannot read ({error.strerror})") from error
    if magic == b"\x1f\x8b":
        return gzip.open(path, "rt", encoding="latin-1")
    return open(path, "rt", encoding="latin-1")


def read_fasta(path):
    """Returns [(name, sequence)], the name being the header's first word as minimap2 has it."""
    records = []
    name, parts = None, []
    try:
        with open_text(path) as lines:
            for number, line in enumerate(lines, 1):
                line = line.rstrip("\r\n")
                if line.startswith(">"):
                    if name is not None:
                        records.append(finish_record(path, name, parts))
                    name, parts = header_name(path, number, line), []
                elif name is None:
                    if line.strip():
                        raise InputError(
                            f"{path}: not FASTA (line {number} is not a '>' header)")
                elif not SEQUENCE_LETTERS.match(line.strip()):
                    raise InputError(
                        f"{path}: not FASTA (line {number} of record '{name}' is not a sequence)")
                else:
                    parts.append(line.strip())
    except (EOFError, zlib.error, gzip.BadGzipFile) as error:
        raise InputError(f"{path}: corrupt or truncated gzip ({error})") from error
    except OSError as error:
        raise InputError(f"{path}: cannot read ({error.strerror or error})") from error
    if name is None:
        raise InputError(f"{path}: empty (no FASTA record)")
    records.append(finish_record(path, name, parts))
    check_unique_names(path, records)
    return records


def header_name(path, number, line):
    words = line[1:].split()
    if not words:
        raise InputError(f"{path}: not FASTA (line {number}: a '>' header without a name)")
    return words[0]


def finish_record(path, name, parts):
    sequence = "".join(parts)
    if not sequence:
        raise InputError(f"{path}: record '{name}' has no sequence")
    return name, sequence


def check_unique_names(path, records):
    seen = set()
    for name, _ in records:
        if name in seen:
            raise InputError(f"{path}: two records are named '{name}'")
        seen.add(name)


def write_fasta(path, records):
    with open(path, "w", encoding="latin-1") as out:
        for name, sequence in records:
            out.write(f">{name}\n")
            for start in range(0, len(sequence), 80):
                out.write(sequence[start:start + 80] + "\n")


# ---------------------------------------------------------------------------- contig metrics

def n50(lengths):
    """The length L such that contigs of L bp or more hold at least half of all bases."""
    half = sum(lengths) / 2
    running = 0
    for length in sorted(lengths, reverse=True):
        running += length
        if running >= half:
            return length
    return 0


def print_contig_metrics(lengths, min_contig):
    metric("min_contig", min_contig)
    metric("contigs", len(lengths))
    metric("total_length", sum(lengths))
    metric("largest_contig", max(lengths, default=0))
    metric("n50", n50(lengths))


def print_scaffold_metrics(kept, min_contig):
    """Scaffolds (sequences with gaps: runs of SCAFFOLD_GAP_N N or more) as QUAST reads them:
    the figures above are the whole scaffolds' (n50: the scaffold N50; misassemblies below are
    counted on whole scaffolds too), and the "broken" assembly is the scaffolds cut at their
    gaps, the pieces of at least MIN_CONTIG bp kept."""
    gaps = 0
    broken = []
    for _, sequence in kept:
        pieces = SCAFFOLD_GAP.split(sequence)
        gaps += len(pieces) - 1
        broken.extend(len(piece) for piece in pieces if len(piece) >= min_contig)
    metric("scaffold_gaps", gaps)
    metric("broken_contigs", len(broken))
    metric("broken_n50", n50(broken))


# ------------------------------------------------------------------------ scaffold gap sizes

# Each side of a gap is placed by the bases next to it, up to this many (to the next gap).
GAP_FLANK_BP = 1000


def write_gap_flanks(path, kept):
    """For each gap of each scaffold, the bases before it and after it, as records
    "gap<number>:<N>:left" and "...:right" (N: the gap's length), to align on their own."""
    records = []
    number = 0
    for _, sequence in kept:
        pieces = SCAFFOLD_GAP.split(sequence)
        gaps = [match.end() - match.start() for match in SCAFFOLD_GAP.finditer(sequence)]
        for left, gap, right in zip(pieces, gaps, pieces[1:]):
            number += 1
            records.append((f"gap{number}:{gap}:left", left[-GAP_FLANK_BP:]))
            records.append((f"gap{number}:{gap}:right", right[:GAP_FLANK_BP]))
    # A side of no bases (a run of N at a scaffold's end) places nothing.
    write_fasta(path, [(name, bases) for name, bases in records if bases])


def gap_sizes(outdir):
    """How well the gaps are sized: for each gap whose two sides align to one reference
    sequence, one way, in order, the gap's N less the bases between its sides there (each
    side's unaligned end counted as if aligned)."""
    size_of = {name: len(sequence) for name, sequence in read_fasta(f"{outdir}/gap_flanks.fa")}
    best = {}  # each flank's longest primary alignment, and the flank's length
    for block in primary_blocks(f"{outdir}/gap_flanks.paf"):
        kept = best.get(block.contig)
        if kept is None or block.contig_end - block.contig_start > kept[0].contig_end - kept[0].contig_start:
            best[block.contig] = (block, size_of[block.contig])
    gaps = {}
    for name, placed in best.items():
        gap, length, side = name.rsplit(":", 2)
        gaps.setdefault((gap, int(length)), {})[side] = placed
    errors = []
    for (_, length), sides in gaps.items():
        if "left" not in sides or "right" not in sides:
            continue
        (left, left_size), (right, right_size) = sides["left"], sides["right"]
        if left.target != right.target or left.strand != right.strand:
            continue
        if left.strand == "+":
            between = (right.target_start - right.contig_start) - (left.target_end + left_size - left.contig_end)
        else:
            between = (left.target_start - (left_size - left.contig_end)) - (right.target_end + right.contig_start)
        if abs(length - between) > RELOCATION_BP:
            continue  # placed apart: a misassembly, not a gap's size
        errors.append(length - between)
    placed = sorted(abs(error) for error in errors)
    metric("scaffold_gaps_placed", len(placed))
    metric("scaffold_gap_error_median", placed[len(placed) // 2] if placed else 0)
    metric("scaffold_gap_error_max", placed[-1] if placed else 0)


def ng50(lengths, reference_length):
    """The length L such that contigs of L bp or more hold at least half of the reference's
    bases (0 when all of them together hold less)."""
    running = 0
    for length in sorted(lengths, reverse=True):
        running += length
        if 2 * running >= reference_length:
            return length
    return 0


def prepare(min_contig, contigs_path, outdir, reference_paths):
    contigs = read_fasta(contigs_path)
    reference = []
    file_of = {}
    for path in reference_paths:
        for name, sequence in read_fasta(path):
            if name in file_of:
                raise InputError(f"{path}: a record is named '{name}' as one of {file_of[name]}: "
                                 "every reference sequence needs a name of its own")
            file_of[name] = path
            reference.append((name, sequence))
    kept = [(name, sequence) for name, sequence in contigs if len(sequence) >= min_contig]
    write_fasta(f"{outdir}/contigs.fa", kept)
    write_gap_flanks(f"{outdir}/gap_flanks.fa", kept)
    write_fasta(f"{outdir}/reference.fa", reference)
    with open(f"{outdir}/reference_files.tsv", "w", encoding="latin-1") as out:
        for name, _ in reference:
            out.write(f"{name}\t{file_of[name]}\n")
    lengths = [len(sequence) for _, sequence in kept]
    print_contig_metrics(lengths, min_contig)
    print_scaffold_metrics(kept, min_contig)
    reference_length = sum(len(sequence) for _, sequence in reference)
    metric("reference_files", len(reference_paths))
    metric("reference_sequences", len(reference))
    metric("reference_length", reference_length)
    metric("ng50", ng50(lengths, reference_length))


# ---------------------------------------------------------------------------- PAF alignments

@dataclasses.dataclass
class Block:
    """One alignment of part of a contig to a reference sequence (0-based, end exclusive)."""
    contig: str
    contig_start: int
    contig_end: int
    strand: str
    target: str
    target_length: int
    target_start: int
    target_end: int


def paf_block(fields):
    return Block(fields[0], int(fields[2]), int(fields[3]), fields[4], fields[5], int(fields[6]),
                 int(fields[7]), int(fields[8]))


def cigar_operations(fields):
    """The (length, operation) pairs of the cg:Z tag, in reference order; none without it."""
    for tag in fields[12:]:
        if tag.startswith("cg:Z:"):
            return [(int(length), op) for length, op in CIGAR_OPERATION.findall(tag[5:])]
    return []


def split_at_long_indels(block, operations):
    """Cuts an alignment where its CIGAR skips more than RELOCATION_BP of contig or reference:
    minimap2 -cx asm5 keeps going through a 20 kbp deletion, which QUAST counts as a relocation
    between two blocks (and whose skipped bases it does not count as covered)."""
    pieces = []
    target, along_contig = block.target_start, 0  # along_contig: bases from the alignment's start
    piece_target, piece_along = target, along_contig
    for length, op in operations:
        if op in "ID" and length > RELOCATION_BP:
            pieces.append(contig_piece(block, piece_target, target, piece_along, along_contig))
        if op in "MD=X":
            target += length
        if op in "MI=X":
            along_contig += length
        if op in "ID" and length > RELOCATION_BP:
            piece_target, piece_along = target, along_contig
    pieces.append(contig_piece(block, piece_target, block.target_end, piece_along,
                               block.contig_end - block.contig_start))
    return pieces


def contig_piece(block, target_start, target_end, along_start, along_end):
    """The part of a block between two points of its alignment. On the minus strand the CIGAR
    runs backwards along the contig."""
    if block.strand == "+":
        contig_start, contig_end = block.contig_start + along_start, block.contig_start + along_end
    else:
        contig_start, contig_end = block.contig_end - along_end, block.contig_end - along_start
    return dataclasses.replace(block, contig_start=contig_start, contig_end=contig_end,
                               target_start=target_start, target_end=target_end)


def primary_blocks(paf_path):
    """The PAF lines tagged tp:A:P (minimap2's primary alignments, supplementary ones included),
    cut at long indels."""
    blocks = []
    with open(paf_path, encoding="latin-1") as lines:
        for line in lines:
            fields = line.rstrip("\n").split("\t")
            if "tp:A:P" in fields[12:]:
                blocks.extend(split_at_long_indels(paf_block(fields), cigar_operations(fields)))
    return blocks


def merged_length(intervals):
    """Bases covered by a set of [start, end) intervals, overlaps counted once."""
    covered = 0
    current_start, current_end = None, None
    for start, end in sorted(intervals):
        if current_end is None or start > current_end:
            if current_end is not None:
                covered += current_end - current_start
            current_start, current_end = start, end
        else:
            current_end = max(current_end, end)
    if current_end is not None:
        covered += current_end - current_start
    return covered


def covered_bases(blocks):
    """Reference bases covered by the blocks, merged per reference sequence."""
    per_target = {}
    for block in blocks:
        per_target.setdefault(block.target, []).append((block.target_start, block.target_end))
    return sum(merged_length(intervals) for intervals in per_target.values())


def blocks_by_contig(blocks):
    """Each contig's blocks, ordered along the contig."""
    per_contig = {}
    for block in blocks:
        per_contig.setdefault(block.contig, []).append(block)
    for contig_blocks in per_contig.values():
        contig_blocks.sort(key=lambda block: (block.contig_start, block.contig_end))
    return per_contig


def reference_gap(first, second):
    """Bases between two consecutive blocks on the reference, following the contig's direction
    (negative for an overlap)."""
    if first.strand == "+":
        return second.target_start - first.target_end
    return first.target_start - second.target_end


def crosses_origin(first, second):
    """Whether the contig runs off one end of its sequence and on at the other: the origin of a
    circular sequence, not a relocation."""
    near_end = first.target_length - RELOCATION_BP
    if first.strand == "+":
        return first.target_end >= near_end and second.target_start <= RELOCATION_BP
    return first.target_start <= RELOCATION_BP and second.target_end >= near_end


def breakpoint_kind(first, second):
    """None, or the kind of misassembly between two consecutive blocks of one contig."""
    if first.target != second.target:
        return "translocations"
    if first.strand != second.strand:
        return "inversions"
    contig_gap = second.contig_start - first.contig_end
    discrepancy = abs(reference_gap(first, second) - contig_gap)
    if discrepancy > RELOCATION_BP and not crosses_origin(first, second):
        return "relocations"
    return None


def breakpoints(blocks):
    """(first, second, kind) for every misassembly: two consecutive blocks of one contig."""
    for contig_blocks in blocks_by_contig(blocks).values():
        for first, second in zip(contig_blocks, contig_blocks[1:]):
            kind = breakpoint_kind(first, second)
            if kind is not None:
                yield first, second, kind


def count_misassemblies(blocks):
    counts = {"relocations": 0, "translocations": 0, "inversions": 0}
    for _, _, kind in breakpoints(blocks):
        counts[kind] += 1
    return counts


def aligned_pieces(blocks):
    """What QUAST's NGA50 counts: each contig cut at its misassemblies, each piece as long as
    the stretch of the contig its blocks span (unaligned ends left out), with the reference
    sequence of its first block."""
    pieces = []
    for contig_blocks in blocks_by_contig(blocks).values():
        first = contig_blocks[0]
        for previous, block in zip(contig_blocks, contig_blocks[1:]):
            if breakpoint_kind(previous, block) is not None:
                pieces.append((first.target, previous.contig_end - first.contig_start))
                first = block
        pieces.append((first.target, contig_blocks[-1].contig_end - first.contig_start))
    return pieces


def duplication_ratio(blocks, covered):
    """Aligned contig bases over the reference bases they cover (QUAST's duplication ratio): a
    repeat written in two contigs counts twice above the line, once below."""
    aligned = sum(block.contig_end - block.contig_start for block in blocks)
    return f"{aligned / covered:.3f}" if covered else "0.000"


def reference_files(outdir):
    """{sequence name: reference file}, in the order of the files."""
    file_of = {}
    with open(f"{outdir}/reference_files.tsv", encoding="latin-1") as lines:
        for line in lines:
            name, path = line.rstrip("\n").split("\t")
            file_of[name] = path
    return file_of


def paf(outdir):
    reference = read_fasta(f"{outdir}/reference.fa")
    length_of = {name: len(sequence) for name, sequence in reference}
    reference_length = sum(length_of.values())
    blocks = primary_blocks(f"{outdir}/alignments.paf")
    covered = covered_bases(blocks)
    pieces = aligned_pieces(blocks)
    metric("aligned_contigs", len(blocks_by_contig(blocks)))
    metric("genome_fraction", percent(covered, reference_length))
    metric("duplication_ratio", duplication_ratio(blocks, covered))
    metric("nga50", ng50([length for _, length in pieces], reference_length))
    counts = count_misassemblies(blocks)
    metric("misassemblies", sum(counts.values()))
    for kind in ("relocations", "translocations", "inversions"):
        metric(kind, counts[kind])
    file_of = reference_files(outdir)
    files = list(dict.fromkeys(file_of.values()))
    if len(files) < 2:
        return
    # A community: each reference file (a genome) on its own; a contig's blocks on two
    # genomes are a translocation above.
    labels = [path.rsplit("/", 1)[-1] for path in files]
    if len(set(labels)) < len(labels):
        labels = files  # two files of one name in different folders
    # A misassembly within one genome is that genome's; one joining two genomes (a chimera of
    # two strains, say) is counted apart: the per-genome counts and it add up to the whole.
    own_misassemblies = dict.fromkeys(files, 0)
    between_genomes = 0
    for first, second, _ in breakpoints(blocks):
        if file_of[first.target] == file_of[second.target]:
            own_misassemblies[file_of[first.target]] += 1
        else:
            between_genomes += 1
    metric("misassemblies_between_genomes", between_genomes)
    for path, label in zip(files, labels):
        names = {name for name, file in file_of.items() if file == path}
        metric(f"misassemblies:{label}", own_misassemblies[path])
        own = [block for block in blocks if block.target in names]
        own_length = sum(length_of[name] for name in names)
        own_covered = covered_bases(own)
        metric(f"genome_fraction:{label}", percent(own_covered, own_length))
        metric(f"duplication_ratio:{label}", duplication_ratio(own, own_covered))
        metric(f"nga50:{label}", ng50([length for target, length in pieces if target in names], own_length))


# ---------------------------------------------------------------------------- dnadiff report

def report_rows(report_path):
    """out.report's rows as {name: (reference column, contigs column)}, first occurrence kept
    (TotalBases appears again under [Alignments])."""
    rows = {}
    with open(report_path, encoding="latin-1") as lines:
        for line in lines:
            fields = line.split()
            if len(fields) == 3 and fields[0] not in rows:
                rows[fields[0]] = (fields[1], fields[2])
    return rows


def dnadiff(report_path):
    rows = report_rows(report_path)
    needed = ("AlignedBases", "Breakpoints", "Relocations", "Translocations", "Inversions")
    missing = [name for name in needed if name not in rows]
    if missing:
        raise InputError(f"{report_path}: dnadiff report without {', '.join(missing)}")
    aligned = re.search(r"\(([0-9.]+)%\)", rows["AlignedBases"][0])
    metric("dnadiff_aligned_reference", f"{aligned.group(1)} %" if aligned else "0.00 %")
    # The contigs' column: breakpoints and rearrangements as seen along the contigs.
    for name in needed[1:]:
        metric(f"dnadiff_{name.lower()}", rows[name][1])


# ---------------------------------------------------------------------------- command line

def main(argv):
    commands = {"prepare": (None, lambda a: prepare(int(a[0]), a[1], a[2], a[3:])),
                "paf": (1, lambda a: paf(a[0])),
                "gaps": (1, lambda a: gap_sizes(a[0])),
                "dnadiff": (1, lambda a: dnadiff(a[0]))}
    arguments = len(argv) - 2
    if (len(argv) < 2 or argv[1] not in commands or
            arguments != (commands[argv[1]][0] or max(arguments, 4))):
        print("usage: assembly_metrics.py prepare|paf|dnadiff ...", file=sys.stderr)
        return 2
    try:
        commands[argv[1]][1](argv[2:])
    except InputError as error:
        print(f"evaluate_assembly: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
