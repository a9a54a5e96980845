//===- ClickAST.h - Click configuration syntax tree -------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// What the Click parser produces: statements of a configuration file, with
// element configurations kept as raw text (Click splits and converts them
// per element class, so does ClickLower). Locations are NPL AST locations
// so that diagnostics and the lowered AST share them.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_CLICK_CLICKAST_H
#define NPCC_CLICK_CLICKAST_H

#include "compiler/frontend/AST.h"

#include <memory>
#include <string>
#include <vector>

namespace npcc::click {

using ast::Loc;

/// Raw configuration text between parentheses, with the file offset of its
/// first byte so that each argument can be located.
struct Config {
  bool present = false;
  std::string text;
  size_t offset = 0;
  Loc loc; // of the opening parenthesis
};

/// One element in a connection or declaration:
/// `[in] name :: Class(config) [out]`, `[in] Class(config) [out]`, `name`.
struct ElementRef {
  Loc loc;               // of the identifier
  std::string ident;     // the name, or the class of an anonymous element
  bool declares = false; // `ident :: className`
  std::string className;
  Loc classLoc;
  Config config;
  int inPort = -1, outPort = -1; // -1: not written (port 0)
  Loc inPortLoc, outPortLoc;
};

struct Statement;
using StatementList = std::vector<std::unique_ptr<Statement>>;

/// A formal parameter of an elementclass: `$name`.
struct Formal {
  Loc loc;
  std::string name; // without '$'
};

struct Statement {
  enum Kind {
    Connection,   // sets: a chain of element sets joined by '->'
    ElementClass, // name { formals | body } or `elementclass name Other`
    Define,       // config: `define($X value, ...)`
    Require,      // config: `require(...)`
  } kind;
  Loc loc;
  // Connection: sets[k] are the elements between arrows k-1 and k (more
  // than one when separated by commas); arrowLocs[k] is arrow k.
  std::vector<std::vector<ElementRef>> sets;
  std::vector<Loc> arrowLocs;
  // ElementClass.
  std::string name;
  std::string synonymOf; // `elementclass A B`
  Loc synonymLoc;
  std::vector<Formal> formals;
  StatementList body;
  // Define, Require.
  Config config;
};

/// A parsed configuration file.
struct Program {
  const std::string *file = nullptr;
  std::string text; // the whole file, for argument locations
  std::vector<size_t> lineStarts;
  StatementList statements;

  /// The location of byte `offset` of the file.
  Loc locAt(size_t offset) const;
};

} // namespace npcc::click

#endif // NPCC_CLICK_CLICKAST_H
