//===- Output.cpp - Checked output files for the tools --------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "tools/common/Output.h"

#include "nprt/version.h"
#include "tools/common/ArgParser.h"

#include <cerrno>
#include <cstring>

using namespace npcc::tools;

std::string npcc::tools::writeError(const std::string &Name, int Errno) {
  std::string Error =
      "cannot write '" + (Name == "-" ? "<stdout>" : Name) + "'";
  return Errno ? Error + ": " + std::strerror(Errno) : Error;
}

std::string npcc::tools::openOutput(const std::string &Name, FILE *&F) {
  F = Name == "-" ? stdout : std::fopen(Name.c_str(), "wb");
  if (!F)
    return "cannot open '" + Name + "': " + std::strerror(errno);
  return "";
}

std::string npcc::tools::closeOutput(FILE *F, const std::string &Name) {
  errno = 0;
  bool Failed = std::fflush(F) != 0 || std::ferror(F);
  int Errno = errno;
  if (F != stdout) {
    errno = 0;
    if (std::fclose(F) != 0 && !Failed) {
      Failed = true;
      Errno = errno;
    }
  }
  return Failed ? writeError(Name, Errno) : "";
}

std::string npcc::tools::writeFile(const std::string &Name, const void *Data,
                                   size_t Size) {
  FILE *F;
  std::string Error = openOutput(Name, F);
  if (!Error.empty())
    return Error;
  errno = 0;
  bool Wrote = std::fwrite(Data, 1, Size, F) == Size;
  int Errno = errno;
  Error = closeOutput(F, Name);
  if (Error.empty() && !Wrote)
    Error = writeError(Name, Errno);
  return Error;
}

std::string npcc::tools::finishStdout() {
  errno = 0;
  bool Failed = std::fflush(stdout) != 0 || std::ferror(stdout);
  int Errno = errno;
  errno = 0;
  if (std::fclose(stdout) != 0 && !Failed) {
    Failed = true;
    Errno = errno;
  }
  return Failed ? writeError("<stdout>", Errno) : "";
}

int npcc::tools::exitAfterPrinting(const char *Tool) {
  std::string Error = finishStdout();
  if (Error.empty())
    return 0;
  printError(Tool, Error);
  return 1;
}

int npcc::tools::printHelpOrVersion(const char *Tool, bool Help,
                                    const char *HelpText) {
  std::fputs(Help ? HelpText : versionText(Tool).c_str(), stdout);
  return exitAfterPrinting(Tool);
}
