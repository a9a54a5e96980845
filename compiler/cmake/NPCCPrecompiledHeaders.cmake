# One precompiled header for every C++ target of the MLIR layers (dialects/,
# targets/, compiler/). Parsing the MLIR headers and the NP dialect's
# generated op classes (NPOps.h.inc, about 450 kB) is more than half of the
# compile time of a typical pass or pattern file; with the header parsed
# once (about 22 s), those files take a third less processor time (a pass
# file: 7-10 s down to 4-6 s).
#
# The header is built once, by NPCCNPDialect, and reused by every target
# whose files compile with the same flags (LLVM's: -fno-exceptions, as
# add_mlir_library and add_llvm_executable set them). A target or file
# built with exceptions (the ANTLR parser, the Z3 validator) keeps parsing
# its headers itself. Applied after all targets exist, so a library added
# under those folders gets it without a line of its own.
option(NPCC_PRECOMPILED_HEADERS
  "Precompile the MLIR headers for the dialects, targets and compiler (GCC)" ON)

# ccache caches a compile that uses a precompiled header only with this
# sloppiness (ccache's manual, "Precompiled headers"); without it every such
# file would be compiled again on each build. Set before the targets exist,
# which take their launcher from this variable.
foreach(lang C CXX)
  set(launcher "${CMAKE_${lang}_COMPILER_LAUNCHER}")
  list(FIND launcher ccache at)
  if(NOT at EQUAL -1 AND NOT launcher MATCHES "CCACHE_SLOPPINESS")
    list(INSERT launcher ${at}
      "CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime")
    if(NOT launcher MATCHES "(^|;)env;")
      list(INSERT launcher 0 "${CMAKE_COMMAND}" -E env)
    endif()
    set(CMAKE_${lang}_COMPILER_LAUNCHER "${launcher}")
  endif()
endforeach()

# Headers most files of the MLIR layers include (directly or through the NP
# dialect); each is self-contained.
set(NPCC_PCH_HEADERS
  <mlir/Dialect/Arith/IR/Arith.h>
  <mlir/Dialect/EmitC/IR/EmitC.h>
  <mlir/Dialect/Func/IR/FuncOps.h>
  <mlir/Dialect/MemRef/IR/MemRef.h>
  <mlir/Dialect/SCF/IR/SCF.h>
  <mlir/IR/Builders.h>
  <mlir/IR/BuiltinOps.h>
  <mlir/IR/Diagnostics.h>
  <mlir/IR/Matchers.h>
  <mlir/IR/OpImplementation.h>
  <mlir/IR/PatternMatch.h>
  <mlir/IR/SymbolTable.h>
  <mlir/Interfaces/SideEffectInterfaces.h>
  <mlir/Pass/Pass.h>
  <mlir/Transforms/DialectConversion.h>
  <llvm/ADT/DenseMap.h>
  <llvm/ADT/StringExtras.h>
  <llvm/ADT/StringMap.h>
  <llvm/ADT/StringSet.h>
  <llvm/Support/raw_ostream.h>
  "${CMAKE_SOURCE_DIR}/dialects/NP/IR/NPOps.h")

# The targets defined in DIR and below.
function(npcc_targets_below dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub ${subdirs})
    npcc_targets_below(${sub} below)
    list(APPEND targets ${below})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

# True when TARGET compiles only C++, with LLVM's flags (no exceptions), so
# that the shared header fits it.
function(npcc_pch_fits target out)
  set(fits OFF)
  get_target_property(type ${target} TYPE)
  get_target_property(sources ${target} SOURCES)
  get_target_property(flags ${target} COMPILE_FLAGS)
  get_target_property(options ${target} COMPILE_OPTIONS)
  if(type MATCHES "^(OBJECT_LIBRARY|STATIC_LIBRARY|EXECUTABLE)$"
      AND "${sources}" MATCHES "\\.cpp(;|$)"
      AND NOT "${sources}" MATCHES "\\.c(;|$)"
      AND "${flags}" MATCHES "-fno-exceptions"
      AND NOT "${options}" MATCHES "-fexceptions")
    set(fits ON)
  endif()
  set(${out} ${fits} PARENT_SCOPE)
endfunction()

function(npcc_precompile_headers owner)
  if(NOT NPCC_PRECOMPILED_HEADERS OR NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    return()
  endif()
  if(TARGET obj.${owner})
    set(owner obj.${owner})
  endif()
  target_precompile_headers(${owner} PRIVATE ${NPCC_PCH_HEADERS})
  set(targets)
  foreach(dir ${ARGN})
    npcc_targets_below(${CMAKE_SOURCE_DIR}/${dir} below)
    list(APPEND targets ${below})
  endforeach()
  foreach(target ${targets})
    # add_mlir_library compiles in obj.<name> and archives in <name>.
    if(target STREQUAL owner OR TARGET obj.${target})
      continue()
    endif()
    npcc_pch_fits(${target} fits)
    if(NOT fits)
      continue()
    endif()
    target_precompile_headers(${target} REUSE_FROM ${owner})
    # A file built with exceptions (the ANTLR parser) parses its own headers.
    get_target_property(sources ${target} SOURCES)
    get_target_property(source_dir ${target} SOURCE_DIR)
    foreach(source ${sources})
      cmake_path(ABSOLUTE_PATH source BASE_DIRECTORY ${source_dir})
      get_source_file_property(options ${source}
        TARGET_DIRECTORY ${target} COMPILE_OPTIONS)
      if("${options}" MATCHES "-fexceptions")
        set_source_files_properties(${source} TARGET_DIRECTORY ${target}
          PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
      endif()
    endforeach()
  endforeach()
endfunction()
