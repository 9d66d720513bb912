// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include <xenon/xenon.hpp>
#include "genomics/io/read_pairing.hpp"

namespace xenon::genomics {

// The inputs as SPAdes and MEGAHIT take them (-1/-2, --12, -s) beside the positional FILES,
// into `options`. `use` says what the tool does with mates (the help of each option ends with
// it).
inline void add_input_options(CommandLine& command_line, InputOptions& options, const std::string& use) {
  command_line.add_string_list("1", &options.first_mates,
                               "file of first mates; may be given several times: the n-th -1 pairs with the n-th -2, "
                               "record by record (both must hold as many records)" + use);
  command_line.add_string_list("2", &options.second_mates, "file of second mates (see -1)");
  command_line.add_string_list("12", &options.interleaved,
                               "file of interleaved pairs: records 1 and 2, 3 and 4, ... are mates (an even number "
                               "of records); may be given several times" + use);
  command_line.add_string_list("s", &options.single, "file of unpaired reads; may be given several times");
  command_line.allow_positional("[FILES]", &options.positional);
}

// After the parse: every input, in reading order, with its role (gather_inputs); a usage
// error (-1 and -2 given unequally, no input at all) as CommandLineError.
inline void resolve_inputs(const InputOptions& options, std::vector<std::string>& files,
                           std::vector<InputRole>& roles) {
  try {
    gather_inputs(options, files, roles);
  } catch (const std::invalid_argument& error) {
    throw CommandLineError(error.what());
  }
  if (files.empty()) throw CommandLineError("no input files (FASTA or FASTQ, plain or gzip)");
}

}  // namespace xenon::genomics
