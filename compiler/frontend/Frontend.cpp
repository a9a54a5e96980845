//===- Frontend.cpp - load an NPL program with its imports ----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/Frontend.h"
#include "compiler/frontend/Imports.h"
#include "compiler/frontend/Limits.h"
#include "compiler/frontend/Parser.h"
#include "compiler/frontend/Sema.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringSet.h"

#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <cstdio>
#include <cstring>
#include <functional>

using namespace npcc;

/// Rejects input that is not text before the parser sees it: a binary file
/// would otherwise produce an unreadable token error.
static bool checkText(mlir::MLIRContext *ctx, const std::string &name,
                      llvm::StringRef text) {
  const char *nul =
      static_cast<const char *>(std::memchr(text.data(), 0, text.size()));
  const llvm::UTF8 *p = reinterpret_cast<const llvm::UTF8 *>(text.begin());
  const llvm::UTF8 *end = reinterpret_cast<const llvm::UTF8 *>(text.end());
  bool legal = llvm::isLegalUTF8String(&p, end);
  if (!nul && legal)
    return true;
  size_t off = nul ? (size_t)(nul - text.data())
                   : (size_t)(reinterpret_cast<const char *>(p) - text.data());
  unsigned line = 1 + std::count(text.begin(), text.begin() + off, '\n');
  size_t lineStart = text.rfind('\n', off ? off - 1 : 0);
  unsigned col = lineStart == llvm::StringRef::npos || off == 0
                     ? off + 1
                     : off - lineStart;
  mlir::emitError(mlir::FileLineColLoc::get(ctx, name, line, col))
      << "input is not a text file ("
      << (nul ? "contains a NUL byte" : "invalid UTF-8") << ")";
  return false;
}

/// Reads a source file: a regular file, or standard input for "-", of at
/// most limits::kMaxInputBytes. Devices, FIFOs and directories are refused
/// before anything is read (`npcc /dev/zero` would never end).
static std::unique_ptr<llvm::MemoryBuffer> readSource(const std::string &file,
                                                      std::string &error) {
  const uint64_t max = limits::kMaxInputBytes;
  auto tooBig = [&] {
    error = "file is larger than " + std::to_string(max >> 20) +
            " MiB, the limit for one source file";
  };
  if (file == "-") {
    // Read in chunks and stop one byte past the limit.
    std::string text;
    char chunk[65536];
    while (text.size() <= max) {
      size_t n = std::fread(chunk, 1, sizeof chunk, stdin);
      text.append(chunk, n);
      if (n < sizeof chunk) {
        if (std::ferror(stdin)) {
          error = "cannot read standard input";
          return nullptr;
        }
        break;
      }
    }
    if (text.size() > max) {
      tooBig();
      return nullptr;
    }
    return llvm::MemoryBuffer::getMemBufferCopy(text, "<stdin>");
  }
  llvm::sys::fs::file_status st;
  if (std::error_code ec = llvm::sys::fs::status(file, st)) {
    error = ec.message();
    return nullptr;
  }
  if (st.type() != llvm::sys::fs::file_type::regular_file) {
    error = st.type() == llvm::sys::fs::file_type::directory_file
                ? "is a directory"
                : "not a regular file (npcc reads regular files, or '-' for "
                  "standard input)";
    return nullptr;
  }
  if (st.getSize() > max) {
    tooBig();
    return nullptr;
  }
  auto buf = llvm::MemoryBuffer::getFile(file, /*IsText=*/true);
  if (!buf) {
    error = buf.getError().message();
    return nullptr;
  }
  if ((*buf)->getBufferSize() > max) { // it grew meanwhile
    tooBig();
    return nullptr;
  }
  return std::move(*buf);
}

/// A file loaded before is imported again. A selective import asks for
/// names of the selection that loaded the file; a whole import by a file
/// outside any selection makes that selection keep everything.
static void noteLoadedAgain(std::vector<ImportSelection> &selections,
                            int loadedBy, int selection, bool selective) {
  if (loadedBy < 0 || loadedBy == selection)
    return;
  if (selective)
    selections[selection].sharesWith = loadedBy;
  else if (selection < 0)
    selections[loadedBy].whole = true;
}

const std::string *npcc::loadProgram(mlir::MLIRContext *ctx,
                                     llvm::StringRef path,
                                     llvm::ArrayRef<std::string> searchDirs,
                                     FileNames &names, ast::Module &out,
                                     llvm::StringSet<> *sharedLoaded) {
  llvm::StringSet<> ownLoaded;
  llvm::StringSet<> &loaded = sharedLoaded ? *sharedLoaded : ownLoaded;
  const std::string *mainName = nullptr;
  bool ok = true;
  // Depth-first so that imported declarations come before their users.
  // A file is a library when found in a search directory, or imported by
  // a library; `selection` is the selective import that loads it, if any.
  std::vector<ImportSelection> selections;
  llvm::StringMap<int> selectionOf; // real path -> selection, or -1
  std::function<void(const std::string &, const ast::Loc *, bool, int, bool)>
      load = [&](const std::string &file, const ast::Loc *from, bool library,
                 int selection, bool selective) {
        llvm::SmallString<256> real;
        if (file == "-" || llvm::sys::fs::real_path(file, real))
          real = file;
        if (!loaded.insert(real).second) {
          auto by = selectionOf.find(real); // none if loaded by another call
          noteLoadedAgain(selections, by == selectionOf.end() ? -1 : by->second,
                          selection, selective);
          return;
        }
        selectionOf[real] = selection;
        std::string error;
        std::unique_ptr<llvm::MemoryBuffer> buf = readSource(file, error);
        if (!buf) {
          if (from)
            mlir::emitError(toLoc(ctx, *from))
                << "cannot open '" << file << "': " << error;
          else
            mlir::emitError(mlir::UnknownLoc::get(ctx))
                << "cannot open '" << file << "': " << error;
          ok = false;
          return;
        }
        names.push_back(file == "-" && !from ? "<stdin>" : file);
        const std::string *name = &names.back();
        if (library)
          out.libraryFiles.push_back(name);
        if (selection >= 0)
          selections[selection].files.push_back(name);
        if (!mainName)
          mainName = name;
        llvm::StringRef text = buf->getBuffer();
        if (!checkText(ctx, *name, text)) {
          ok = false;
          return;
        }
        ast::Module m;
        if (!parseNPL(ctx, name, text, m)) {
          ok = false;
          return;
        }
        if (!from && m.imports.empty() && m.consts.empty() &&
            m.records.empty() && m.annotations.empty() && m.elements.empty() &&
            m.graphs.empty() && m.matches.empty() && m.fns.empty() &&
            m.aliases.empty()) {
          mlir::emitError(mlir::FileLineColLoc::get(ctx, *name, 1, 1))
              << "'" << file << "' declares nothing to compile";
          ok = false;
          return;
        }
        for (const ast::ImportDecl &imp : m.imports) {
          // An absolute path names its file; path::append would put it
          // under the importing file's folder.
          llvm::SmallString<256> candidate(
              file == "-" || llvm::sys::path::is_absolute(imp.path)
                  ? ""
                  : llvm::sys::path::parent_path(file));
          llvm::sys::path::append(candidate, imp.path);
          std::string found;
          bool inLibrary = library;
          if (llvm::sys::fs::exists(candidate))
            found = std::string(candidate);
          for (const std::string &dir : searchDirs) {
            if (!found.empty())
              break;
            llvm::SmallString<256> c(dir);
            llvm::sys::path::append(c, imp.path);
            if (llvm::sys::fs::exists(c)) {
              found = std::string(c);
              inLibrary = true;
            }
          }
          if (found.empty()) {
            mlir::emitError(toLoc(ctx, imp.loc))
                << "cannot find import '" << imp.path << "'";
            ok = false;
            continue;
          }
          int importSelection = selection;
          if (imp.selective) {
            importSelection = (int)selections.size();
            selections.push_back({imp.path, imp.names});
          }
          load(found, &imp.loc, inLibrary, importSelection, imp.selective);
        }
        auto move = [](auto &to, auto &from) {
          for (auto &x : from)
            to.push_back(std::move(x));
        };
        move(out.imports, m.imports);
        move(out.consts, m.consts);
        move(out.records, m.records);
        move(out.annotations, m.annotations);
        for (ast::ElementAlias &a : m.aliases)
          a.position += out.elements.size();
        move(out.aliases, m.aliases);
        move(out.elements, m.elements);
        move(out.graphs, m.graphs);
        move(out.matches, m.matches);
        move(out.fns, m.fns);
      };
  load(path.str(), nullptr, false, -1, false);
  if (!ok || !resolveAliases(ctx, out) ||
      !applySelections(ctx, selections, out))
    return nullptr;
  shadowLibrary(out);
  return mainName;
}

const std::string *npcc::readSourceText(mlir::MLIRContext *ctx,
                                        llvm::StringRef path, FileNames &names,
                                        std::string &text) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> buf = readSource(path.str(), error);
  if (!buf) {
    mlir::emitError(mlir::UnknownLoc::get(ctx))
        << "cannot open '" << path << "': " << error;
    return nullptr;
  }
  names.push_back(path == "-" ? "<stdin>" : path.str());
  const std::string *name = &names.back();
  text = buf->getBuffer().str();
  return checkText(ctx, *name, text) ? name : nullptr;
}
