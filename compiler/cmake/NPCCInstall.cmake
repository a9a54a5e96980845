# What `cmake --install build --prefix P` (make install PREFIX=P) puts
# under P: a toolchain that finds its parts relative to P/bin, wherever P
# is moved (compiler/npcc/Toolchain.cpp reads the same layout):
#   bin/                  the tools of README.md's table
#   lib/libnprt.a         the runtime the C of --target=c links
#   lib/libnprt-sim.a     the same for npsim (npcc --sim), npsim included
#   include/nprt/         its headers, which that C includes
#   share/npcc/lib/       the element library (std.np, one file per element)
#   share/npcc/runtime/   the runtime files a --target=hls project copies,
#                         in the checkout's layout (hls/, include/, nprt/)
#   share/npcc/ap_types/  Xilinx's ap_types headers for the project's
#                         `make csim`, when NPCC_AP_TYPES_DIR has them
# Included by the top-level CMakeLists.txt before its subdirectories; the
# rules are added once every target exists.

# add_mlir_library installs each of npcc's internal libraries (and exports
# it to MLIR's package) unless LLVM's toolchain-only mode is on: npcc
# installs a toolchain, not a development package.
set(LLVM_INSTALL_TOOLCHAIN_ONLY ON)

set(npcc_install_tools
  npcc npcc-opt npcc-translate ucode-opt ucode-translate
  npgen npdump muasm mudis musim
  portals-diff portals-native-bench)

function(npcc_add_install_rules)
  set(src ${CMAKE_SOURCE_DIR})
  install(TARGETS ${npcc_install_tools} RUNTIME DESTINATION bin)
  install(TARGETS nprt nprt-sim ARCHIVE DESTINATION lib)
  install(DIRECTORY ${src}/runtime/include/nprt DESTINATION include
    FILES_MATCHING PATTERN "*.h" PATTERN "*.def")
  install(FILES ${CMAKE_BINARY_DIR}/runtime/include/nprt/version.h
    DESTINATION include/nprt)
  install(DIRECTORY ${src}/lib/ DESTINATION share/npcc/lib
    FILES_MATCHING PATTERN "*.np")
  # The runtime's sources whole, not the list HLSProject.cpp copies, so
  # that a file the runtime adds or moves is there too.
  install(DIRECTORY ${src}/runtime/hls ${src}/runtime/include
    ${src}/runtime/nprt DESTINATION share/npcc/runtime
    FILES_MATCHING PATTERN "*.h" PATTERN "*.c" PATTERN "*.cpp"
    PATTERN "*.def")
  if(EXISTS "${NPCC_AP_TYPES_DIR}/hls_stream.h")
    install(DIRECTORY ${NPCC_AP_TYPES_DIR}/ DESTINATION share/npcc/ap_types)
  endif()
endfunction()

cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR}
  CALL npcc_add_install_rules)
