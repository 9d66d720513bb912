// SPDX-License-Identifier: BSD-3-Clause
#include "genomics/kmer/ambiguity_codes.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace xenon::genomics {
namespace {

struct CodeTables {
  std::array<char, 256> first_allowed{};  // a code's first base (upper case), either case; 0 for other bytes
  std::array<char, 256> complement{};     // upper case: ACGT, the codes (R with Y...), N; else '?'
};

constexpr CodeTables make_code_tables() {
  constexpr char kCodes[] = "RYKMSWBDHV";
  constexpr char kFirstAllowed[] = "ACGACACAAA";  // R: A/G, Y: C/T, K: G/T, ...
  constexpr char kComplements[] = "YRMKSWVHDB";   // Y: C/T pairs R: A/G, ...
  CodeTables tables;
  tables.complement.fill('?');
  for (std::size_t i = 0; kCodes[i] != '\0'; ++i) {
    const auto code = static_cast<unsigned char>(kCodes[i]);
    tables.first_allowed[code] = kFirstAllowed[i];
    tables.first_allowed[code - 'A' + 'a'] = kFirstAllowed[i];
    tables.complement[code] = kComplements[i];
  }
  tables.complement['A'] = 'T';
  tables.complement['C'] = 'G';
  tables.complement['G'] = 'C';
  tables.complement['T'] = 'A';
  tables.complement['N'] = 'N';
  return tables;
}

constexpr CodeTables kTables = make_code_tables();

char upper(char base) { return static_cast<char>(std::toupper(static_cast<unsigned char>(base))); }

char complement_of(char upper_base) { return kTables.complement[static_cast<unsigned char>(upper_base)]; }

// How the reverse complement of `window` (upper-cased) spells against it: below 0 smaller,
// 0 the same (the window is its own reverse complement), above 0 larger.
int reverse_against_forward(std::string_view window) {
  for (std::size_t i = 0, j = window.size(); i < window.size(); ++i) {
    const char forward = upper(window[i]);
    const char reverse = complement_of(upper(window[--j]));
    if (forward != reverse) return reverse < forward ? -1 : 1;
  }
  return 0;
}

// The base the code at `at` of `bases` stands for, in the case it is written in; the code
// itself where its window is its own reverse complement (an S or a W at the middle), as reads
// of both strands then spell the same and no base could be the same one from each.
char resolved(std::string_view bases, std::size_t at) {
  const std::size_t side = std::min({kAmbiguityContext, at, bases.size() - 1 - at});
  const char code = upper(bases[at]);
  const int reverse = reverse_against_forward(bases.substr(at - side, 2 * side + 1));
  if (reverse == 0) return bases[at];
  char base = kTables.first_allowed[static_cast<unsigned char>(code)];
  if (reverse < 0) base = complement_of(kTables.first_allowed[static_cast<unsigned char>(complement_of(code))]);
  return std::islower(static_cast<unsigned char>(bases[at])) != 0
             ? static_cast<char>(std::tolower(static_cast<unsigned char>(base)))
             : base;
}

}  // namespace

bool is_ambiguity_code(char base) { return kTables.first_allowed[static_cast<unsigned char>(base)] != 0; }

bool has_ambiguity_code(std::string_view bases) {
  return std::any_of(bases.begin(), bases.end(), is_ambiguity_code);
}

void append_resolving_ambiguity(std::string& out, std::string_view bases) {
  const std::size_t start = out.size();
  out.append(bases);
  for (std::size_t i = 0; i < bases.size(); ++i) {
    if (is_ambiguity_code(bases[i])) out[start + i] = resolved(bases, i);
  }
}

}  // namespace xenon::genomics
