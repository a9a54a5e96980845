//===- ClickFrontend.cpp - load a Click configuration ---------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/click/ClickFrontend.h"
#include "compiler/click/ClickArgs.h"
#include "compiler/click/ClickParser.h"
#include "compiler/frontend/Sema.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cctype>

using namespace npcc;
using namespace npcc::click;

/// The NPL libraries a configuration asks for with
/// `require(library "file.np")`; other requirements are accepted and
/// ignored (they name Click packages).
static bool requiredLibraries(mlir::MLIRContext *ctx, const Program &p,
                              std::vector<std::pair<std::string, Loc>> &out) {
  bool ok = true;
  for (const auto &s : p.statements) {
    if (s->kind != Statement::Require)
      continue;
    for (const WordedArgument &a :
         splitArgumentWords({s->config.text, s->config.offset})) {
      const std::vector<Piece> &words = a.words;
      if (words.size() != 2 || unquote(words[0].text) != "library")
        continue;
      std::string file = unquote(words[1].text);
      Loc loc = p.locAt(words[1].offset);
      if (!llvm::StringRef(file).ends_with(".np")) {
        mlir::emitError(toLoc(ctx, loc))
            << "'require(library ...)' names an NPL library here (a '.np' "
               "file), not '"
            << file << "'";
        ok = false;
        continue;
      }
      out.push_back({file, loc});
    }
  }
  return ok;
}

/// `file` relative to `from`'s directory, then in `dirs`; "" if absent.
static std::string findFile(llvm::StringRef file, llvm::StringRef from,
                            llvm::ArrayRef<std::string> dirs) {
  llvm::SmallString<256> c(from == "-" ? ""
                                       : llvm::sys::path::parent_path(from));
  llvm::sys::path::append(c, file);
  if (llvm::sys::fs::exists(c))
    return std::string(c);
  for (const std::string &dir : dirs) {
    llvm::SmallString<256> d(dir);
    llvm::sys::path::append(d, file);
    if (llvm::sys::fs::exists(d))
      return std::string(d);
  }
  return "";
}

const std::string *
npcc::click::loadClickProgram(mlir::MLIRContext *ctx, llvm::StringRef path,
                              llvm::ArrayRef<std::string> searchDirs,
                              const Defines &defines, FileNames &names,
                              ast::Module &out) {
  Program program;
  program.file = readSourceText(ctx, path, names, program.text);
  if (!program.file || !parseClick(ctx, program))
    return nullptr;

  std::vector<std::pair<std::string, Loc>> libs{{"std.np", Loc()}};
  if (!requiredLibraries(ctx, program, libs))
    return nullptr;
  llvm::StringSet<> loaded;
  for (const auto &[file, loc] : libs) {
    std::string found = findFile(file, loc.file ? path : "", searchDirs);
    if (found.empty()) {
      auto d = loc.file ? mlir::emitError(toLoc(ctx, loc))
                        : mlir::emitError(mlir::UnknownLoc::get(ctx));
      d << "cannot find library '" << file << "'";
      return nullptr;
    }
    llvm::SmallString<256> real;
    if (llvm::sys::fs::real_path(found, real))
      real = found;
    if (loaded.count(real))
      continue;
    if (!loadProgram(ctx, found, searchDirs, names, out, &loaded))
      return nullptr;
  }

  // The top graph is named after the file.
  std::string top = path == "-" ? "config" : llvm::sys::path::stem(path).str();
  for (char &c : top)
    if (!std::isalnum((unsigned char)c) && c != '_')
      c = '_';
  if (top.empty() || std::isdigit((unsigned char)top[0]))
    top = "config_" + top;
  if (!lowerClick(ctx, program, defines, top, out))
    return nullptr;
  return program.file;
}
