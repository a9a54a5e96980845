//===- ClickLowerer.h - State of the Click lowering -------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The Lowerer behind lowerClick (ClickLower.h), shared by the files that
// implement it by concern: scopes and variables (ClickScopes.cpp), the
// port counts of an instance (ClickPorts.cpp), elements and connections of
// a scope (ClickElements.cpp), and the checked NPL graph they become
// (ClickGraph.cpp). Internal to the Click front end.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_CLICK_CLICKLOWERER_H
#define NPCC_CLICK_CLICKLOWERER_H

#include "compiler/click/ClickLower.h"
#include "compiler/frontend/Sema.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringMap.h"

#include <deque>
#include <map>
#include <set>

namespace npcc::click::lowering {

struct Var {
  std::string value;
  std::string origin; // the define the value came from ("" if none)
  Loc loc;
};

struct Scope;

/// An elementclass: a compound with a body, or a synonym of a class.
struct ClassDef {
  const Statement *stmt = nullptr;
  Scope *scope = nullptr;           // the scope it was defined in
  size_t visible = 0;               // classes of `scope` visible to its body
  std::string libName;              // a synonym of a library class
  const ClassDef *target = nullptr; // a synonym of another elementclass
};

struct Scope {
  Scope *parent = nullptr;
  size_t parentVisible = 0;
  bool compound = false;
  llvm::StringMap<Var> vars;
  std::vector<std::pair<std::string, std::unique_ptr<ClassDef>>> classes;
};

/// What a Click class name resolves to.
struct ClassRef {
  const ClassDef *compound = nullptr;
  std::string libName; // a library element or graph
  const std::vector<ast::Param> *params = nullptr;
  const std::vector<ast::PortDecl> *ports = nullptr;
  explicit operator bool() const { return compound || !libName.empty(); }
};

/// A Click port number's NPL port: `name` or `name[index]`.
struct PortRef {
  std::string port;
  int64_t index = -1;
};

struct Inst {
  enum Kind { Element, Input, Output, Failed } kind = Element;
  std::string name;
  bool anonymous = false;
  std::string className;
  std::string callee;
  Loc loc, calleeLoc;
  size_t ordinal = 0; // position among the scope's elements (Click@N)
  std::vector<ast::ExprPtr> args;
  std::vector<PortRef> inputs, outputs;
  ClassRef cls; // a library element's, to renumber its ports
};

struct Conn {
  size_t from;
  size_t out;
  Loc fromLoc;
  size_t to;
  size_t in;
  Loc toLoc;
  Loc arrow;
};

/// The elements and connections of one scope being lowered.
struct Body {
  Scope *scope;
  std::vector<Inst> insts;
  llvm::StringMap<size_t> byName;
  size_t pseudo[2] = {SIZE_MAX, SIZE_MAX}; // input, output
  size_t elements = 0;
  std::vector<Conn> conns;
};

/// What the connections of a body use, once checked.
struct PortUse {
  using Key = std::pair<size_t, size_t>;     // instance, port
  std::map<Key, size_t> outputs;             // its connection
  std::map<Key, std::vector<size_t>> inputs; // its connections
  std::vector<bool> valid;                   // per connection
  std::set<size_t> misconnected;             // connected to a port it lacks
  size_t nIn = 0, nOut = 0;                  // of the elementclass's boundary
};

struct Specialization {
  std::string graph;
  size_t nIn = 0, nOut = 0;
  bool ok = false;
};

constexpr size_t kNone = SIZE_MAX;

class Lowerer {
public:
  Lowerer(mlir::MLIRContext *ctx, const Program &program, ast::Module &module);

  bool run(const Defines &defines, llvm::StringRef topName);

private:
  mlir::InFlightDiagnostic error(const Loc &l) {
    ++errors;
    return mlir::emitError(toLoc(ctx, l));
  }
  Loc locAt(size_t offset) const { return program.locAt(offset); }
  Scope &newScope(Scope *parent, size_t parentVisible, bool compound);
  std::string allocName(const std::string &base);

  // Scopes: classes and variables.
  void collectDefines(const StatementList &body, Scope &scope);
  ClassRef lookupClass(llvm::StringRef name, const Scope &scope) const;
  ClassRef libraryClass(llvm::StringRef name) const;
  void defineClass(const Statement &s, Scope &scope);
  const Var *findVar(const Scope &scope, llvm::StringRef name) const;
  bool expandConfig(const Config &config, const Scope &scope,
                    std::vector<ArgText> &out);

  // Elements and connections of a scope.
  bool lowerBody(const StatementList &body, Scope &scope, ast::GraphDecl &g,
                 size_t &nIn, size_t &nOut);
  void lowerConnection(const Statement &s, Body &b);
  size_t resolveElement(const ElementRef &e, Body &b);
  size_t createInstance(const std::string &name, bool anonymous,
                        const std::string &className, const Loc &classLoc,
                        const Config &config, const Loc &loc, Body &b);
  bool portsOf(const ClassRef &cls, const std::vector<ast::ExprPtr> &args,
               const Loc &loc, llvm::StringRef className,
               std::vector<PortRef> &inputs, std::vector<PortRef> &outputs);
  Specialization specialize(const ClassDef &def, const std::string &className,
                            const std::vector<ArgText> &args, const Loc &loc);
  void nameAnonymous(Body &b);

  // The NPL graph of a scope.
  void countOutputs(Body &b);
  bool checkEnd(const Inst &inst, bool asSource, size_t port, const Loc &loc,
                PortUse &use);
  void checkConnections(Body &b, const ast::GraphDecl &g, PortUse &use);
  void buildGraph(Body &b, ast::GraphDecl &g, PortUse &use);
  bool finish(Body &b, ast::GraphDecl &g, size_t &nIn, size_t &nOut);

  mlir::MLIRContext *ctx;
  const Program &program;
  ast::Module &module;
  ModuleIndex index;
  ArgConverter converter;
  unsigned errors = 0;
  std::deque<std::unique_ptr<Scope>> scopes;
  std::set<std::string> usedNames;
  std::map<std::string, Specialization> specializations;
  std::vector<ast::GraphDecl> generated;
};

} // namespace npcc::click::lowering

#endif // NPCC_CLICK_CLICKLOWERER_H
