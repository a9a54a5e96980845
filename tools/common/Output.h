//===- Output.h - Checked output files for the tools ------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Every byte a tool writes is checked: the stream's error flag, the flush
// and the final close. An output that fails is an error naming the file
// ("cannot write 'x.pcap': No space left on device") and exit status 1,
// never a silently truncated file.
//
//===----------------------------------------------------------------------===//

#ifndef TOOLS_COMMON_OUTPUT_H
#define TOOLS_COMMON_OUTPUT_H

#include <cstdio>
#include <string>

namespace npcc::tools {

/// Opens \p Name for writing ("-" is stdout); "" or an error naming it.
std::string openOutput(const std::string &Name, FILE *&F);

/// "cannot write 'NAME': reason" ("<stdout>" for "-"), without the reason
/// when \p Errno is 0 (a failure seen later, through the error flag).
std::string writeError(const std::string &Name, int Errno);

/// Flushes \p F, checks for any failed write, and closes it (stdout is only
/// flushed: finishStdout closes it). Returns "" or an error naming \p Name.
std::string closeOutput(FILE *F, const std::string &Name);

/// Writes \p Size bytes to a new file \p Name ("-": stdout) and closes it.
std::string writeFile(const std::string &Name, const void *Data, size_t Size);

/// At the end of main: flushes and closes stdout. Returns "" or an error
/// about standard output, so that `tool > /dev/full` fails.
std::string finishStdout();

/// Exit status after printing help or version text: 0, or 1 with a message
/// when stdout could not take it.
int exitAfterPrinting(const char *Tool);

/// Answers --help with \p HelpText, or else --version with npcc's version
/// line for \p Tool, on stdout; the exit status as exitAfterPrinting.
int printHelpOrVersion(const char *Tool, bool Help, const char *HelpText);

} // namespace npcc::tools

#endif // TOOLS_COMMON_OUTPUT_H
