# Where the lit suite and the npcc driver find the external tools.
find_program(NPCC_FILECHECK NAMES FileCheck-19 FileCheck
  HINTS /usr/lib/llvm-19/bin REQUIRED)
