// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <string>
#include <string_view>

namespace xenon::genomics {

// The assembler's reading of IUPAC ambiguity codes in reads. R, Y, K, M, S, W (two bases) and
// B, D, H, V (three) each stand for one base the sample held. Read as a break, as k-mers read
// them (kBaseCodes, as in Jellyfish), a code that a reference passed on to every read of its
// place (read simulators copy them) cuts the genome there; read as one of its bases, the same
// one in every read of the place, it does not. N (no call) and every other byte stay as they
// are, so they still break k-mers.
//
// The same one whichever strand a read holds: the code and up to kAmbiguityContext bases either
// side of it (as many each side, within the bases given) are read in the orientation whose
// spelling is the smaller, the given one or its reverse complement, and the code becomes the
// first base it allows there, in the order A, C, G, T. A read that ends closer to the code sees
// less of it and may choose otherwise, as a read error would. Where that stretch is its own
// reverse complement (an S or a W between mirrored bases), no base is the same from both
// strands, and the code stays a break. The case is kept.
//
// The stretch ends where the bases given end: a FASTA record over several lines is read line
// by line, and a record longer than a block of input (256 KiB by default) is cut, so a code
// within 10 bases of a line end or a cut sees less of its neighbours there.
inline constexpr std::size_t kAmbiguityContext = 10;

// Whether `base` is one of the ten ambiguity codes, in either case.
bool is_ambiguity_code(char base);

// Whether `bases` holds an ambiguity code.
bool has_ambiguity_code(std::string_view bases);

// Appends `bases` to `out`, each ambiguity code as the base it stands for.
void append_resolving_ambiguity(std::string& out, std::string_view bases);

}  // namespace xenon::genomics
