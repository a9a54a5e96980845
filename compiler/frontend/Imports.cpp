//===- Imports.cpp - what the files of a program bring in -----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Runs on the whole module before Sema, so that every later stage (Sema,
// elaboration, the Click lowering, every target) sees ordinary elements:
// an alias is a copy, a name left out of a selective import or shadowed by
// the program is simply not there.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/Imports.h"
#include "compiler/frontend/Sema.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <functional>
#include <optional>

using namespace npcc;
using namespace npcc::ast;

//===----------------------------------------------------------------------===//
// Element aliases
//===----------------------------------------------------------------------===//

namespace {
/// Resolves the aliases of a module into copies of their elements.
class AliasResolver {
public:
  AliasResolver(mlir::MLIRContext *ctx, Module &m)
      : ctx(ctx), m(m), aliases(std::move(m.aliases)),
        state(aliases.size(), Todo), copies(aliases.size()) {
    m.aliases.clear();
    for (size_t i = 0; i < aliases.size(); ++i)
      byName.try_emplace(aliases[i].name, i);
  }

  bool run() {
    bool ok = true;
    for (size_t i = 0; i < aliases.size(); ++i)
      ok &= resolve(i) != nullptr;
    if (!ok)
      return false;
    // Each copy stands where its alias stood among the elements.
    std::vector<size_t> order(aliases.size());
    for (size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    llvm::stable_sort(order, [&](size_t a, size_t b) {
      return aliases[a].position < aliases[b].position;
    });
    size_t inserted = 0;
    for (size_t i : order) {
      auto at = m.elements.begin() + aliases[i].position + inserted++;
      m.elements.insert(at, std::move(*copies[i]));
    }
    return true;
  }

private:
  enum State { Todo, Active, Done, Failed };

  mlir::InFlightDiagnostic error(const Loc &l) {
    return mlir::emitError(toLoc(ctx, l));
  }

  /// The element `name` as the alias `a` sees it: of two (a program's that
  /// shadows a library's), the one on the alias's side.
  const ElementDecl *findElement(llvm::StringRef name, const Loc &from) {
    const ElementDecl *any = nullptr;
    for (const ElementDecl &e : m.elements) {
      if (e.name != name)
        continue;
      if (m.isLibrary(e.loc) == m.isLibrary(from))
        return &e;
      any = any ? any : &e;
    }
    return any;
  }

  /// The copy alias `i` stands for, or null after reporting why not.
  const ElementDecl *resolve(size_t i) {
    if (state[i] == Done)
      return &*copies[i];
    if (state[i] == Failed)
      return nullptr;
    const ElementAlias &a = aliases[i];
    if (state[i] == Active) {
      reportCycle(i);
      return nullptr;
    }
    state[i] = Active;
    active.push_back(i);
    const ElementDecl *target = findElement(a.target, a.loc);
    if (!target) {
      auto it = byName.find(a.target);
      if (it != byName.end())
        target = resolve(it->second);
      else if (llvm::any_of(m.graphs, [&](const GraphDecl &g) {
                 return g.name == a.target;
               }))
        error(a.targetLoc) << "'" << a.target
                           << "' is a graph; an alias names an element";
      else
        error(a.targetLoc) << "unknown element '" << a.target << "'";
    }
    active.pop_back();
    if (state[i] == Failed) // on a cycle, reported
      return nullptr;
    if (!target || !copyWithout(*target, a, copies[i])) {
      state[i] = Failed;
      return nullptr;
    }
    state[i] = Done;
    return &*copies[i];
  }

  bool copyWithout(const ElementDecl &target, const ElementAlias &a,
                   std::optional<ElementDecl> &copy) {
    bool ok = true;
    for (const NameRef &h : a.without)
      if (llvm::none_of(target.controls, [&](const ControlDecl &c) {
            return c.name == h.name;
          })) {
        error(h.loc) << "'" << a.target << "' has no handler '" << h.name
                     << "'";
        ok = false;
      }
    if (!ok)
      return false;
    copy = cloneElement(target);
    copy->name = a.name;
    copy->loc = a.loc;
    llvm::erase_if(copy->controls, [&](const ControlDecl &c) {
      return llvm::any_of(a.without,
                          [&](const NameRef &h) { return h.name == c.name; });
    });
    return true;
  }

  /// Alias `i` is reached again while resolving it: reports the cycle once
  /// at `i`, and marks every alias on it as failed.
  void reportCycle(size_t i) {
    auto start = llvm::find(active, i);
    std::string path;
    for (auto it = start; it != active.end(); ++it) {
      path += "'" + aliases[*it].name + "' -> ";
      state[*it] = Failed;
    }
    error(aliases[i].loc) << "cycle of element aliases: " << path << "'"
                          << aliases[i].name << "'";
  }

  mlir::MLIRContext *ctx;
  Module &m;
  std::vector<ElementAlias> aliases;
  std::vector<State> state;
  std::vector<std::optional<ElementDecl>> copies;
  llvm::StringMap<size_t> byName;
  std::vector<size_t> active; // the aliases being resolved, outermost first
};
} // namespace

bool npcc::resolveAliases(mlir::MLIRContext *ctx, Module &m) {
  if (m.aliases.empty())
    return true;
  return AliasResolver(ctx, m).run();
}

//===----------------------------------------------------------------------===//
// Selective imports
//===----------------------------------------------------------------------===//

/// Erases the elements and graphs of `m` for which `drop(name, loc)`.
static void
eraseDecls(Module &m,
           llvm::function_ref<bool(const std::string &, const Loc &)> drop) {
  llvm::erase_if(m.elements,
                 [&](const ElementDecl &e) { return drop(e.name, e.loc); });
  llvm::erase_if(m.graphs,
                 [&](const GraphDecl &g) { return drop(g.name, g.loc); });
}

bool npcc::applySelections(mlir::MLIRContext *ctx,
                           llvm::ArrayRef<ImportSelection> selections,
                           Module &m) {
  bool ok = true;
  // The names each loading selection keeps, with those of the selective
  // imports of the same file after it.
  std::vector<llvm::StringSet<>> keep(selections.size());
  for (const ImportSelection &s : selections) {
    size_t owner = s.sharesWith >= 0 ? s.sharesWith : &s - selections.data();
    const auto &files = selections[owner].files;
    // A file loaded whole before has no selection: any declaration counts.
    auto declared = [&](const Loc &l) {
      return files.empty() || llvm::is_contained(files, l.file);
    };
    for (const NameRef &n : s.names) {
      bool found = llvm::any_of(m.elements,
                                [&](const ElementDecl &e) {
                                  return e.name == n.name && declared(e.loc);
                                }) ||
                   llvm::any_of(m.graphs, [&](const GraphDecl &g) {
                     return g.name == n.name && declared(g.loc);
                   });
      if (!found) {
        mlir::emitError(toLoc(ctx, n.loc))
            << "'" << n.name << "' is not an element or graph of '" << s.path
            << "'";
        ok = false;
      }
      keep[owner].insert(n.name);
    }
  }
  for (size_t k = 0; k < selections.size(); ++k) {
    const ImportSelection &s = selections[k];
    if (s.whole || s.sharesWith >= 0 || s.files.empty())
      continue;
    auto inFiles = [&](const Loc &l) {
      return llvm::is_contained(s.files, l.file);
    };
    // A graph kept keeps the elements and graphs it instantiates.
    for (bool grew = true; grew;) {
      grew = false;
      for (const GraphDecl &g : m.graphs)
        if (inFiles(g.loc) && keep[k].contains(g.name))
          for (const InstanceDecl &i : g.instances)
            grew |= keep[k].insert(i.callee).second;
    }
    eraseDecls(m, [&](const std::string &name, const Loc &l) {
      return inFiles(l) && !keep[k].contains(name);
    });
  }
  return ok;
}

//===----------------------------------------------------------------------===//
// Shadowing
//===----------------------------------------------------------------------===//

void npcc::shadowLibrary(Module &m) {
  if (m.libraryFiles.empty())
    return;
  llvm::StringMap<Loc> own; // the program's elements and graphs
  for (const ElementDecl &e : m.elements)
    if (!m.isLibrary(e.loc))
      own.try_emplace(e.name, e.loc);
  for (const GraphDecl &g : m.graphs)
    if (!m.isLibrary(g.loc))
      own.try_emplace(g.name, g.loc);
  eraseDecls(m, [&](const std::string &name, const Loc &l) {
    auto it = own.find(name);
    if (it == own.end() || !m.isLibrary(l))
      return false;
    m.shadowed.push_back({name, it->second, l});
    return true;
  });
}
