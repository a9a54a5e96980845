//===- AST.h - NPL abstract syntax tree --------------------------*- C++
//-*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The AST is produced by the ANTLR-based parser and consumed by Sema and
// MLIRGen. It has no ANTLR or MLIR dependency so that code built without
// exceptions can use it. Nodes are deliberately plain: one struct per
// syntactic category with a kind tag, owned through unique_ptr.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_FRONTEND_AST_H
#define NPCC_FRONTEND_AST_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace npcc::ast {

struct Loc {
  const std::string *file = nullptr;
  unsigned line = 0, col = 0;
};

struct Expr;
struct Stmt;
struct RecordDecl;
struct TypeRef;
using ExprPtr = std::unique_ptr<Expr>;
using StmtPtr = std::unique_ptr<Stmt>;
using TypeRefPtr = std::unique_ptr<TypeRef>;
using Block = std::vector<StmtPtr>;

/// A type as written: a name (`u16`, `pkt`, `IPv4`) or `[elem; size]`.
struct TypeRef {
  // Queue: a container in state, name<elem, size> or name<key, elem, size>
  enum Kind { Named, Array, Queue } kind = Named;
  Loc loc;
  std::string name;
  TypeRefPtr key, elem;
  ExprPtr size;
};

/// A semantic type, computed by Sema and attached to every expression.
struct Ty {
  enum Kind : uint8_t {
    Error, // already diagnosed; suppresses follow-on errors
    Void,
    Bool,
    Int,    // width, isSigned
    IntLit, // an integer literal not yet given a width by its context
    Pkt,
    Str,
    Header, // a view of a header at an offset in a packet: record
    Record, // a struct value: record
    Array,  // elem[len]; len 0 while it depends on a parameter
    Port,   // a port (or port array when len != 0) carrying elem
    Queue,  // a FIFO of elem (packets) in state; len 0 until elaborated
    Prefix, // an IPv4 prefix: an i64 holding len << 32 | addr
    Lpm,    // longest-prefix-match table in state: prefix -> elem, len slots
    Hash,   // exact-match table in state: key -> elem, len entries
  } kind = Error;
  bool isSigned = false;
  unsigned width = 0;
  uint64_t len = 0;
  const RecordDecl *record = nullptr;
  std::shared_ptr<Ty> elem;
  std::shared_ptr<Ty> key; // Hash

  static Ty integer(unsigned w, bool s) {
    Ty t;
    t.kind = Int;
    t.width = w;
    t.isSigned = s;
    return t;
  }
  static Ty of(Kind k) {
    Ty t;
    t.kind = k;
    return t;
  }
  bool isInt() const { return kind == Int || kind == IntLit; }
  bool isSignedInt() const { return kind == Int && isSigned; }
  bool operator==(const Ty &o) const;
  bool operator!=(const Ty &o) const { return !(*this == o); }
  std::string str() const;
};

struct Expr {
  enum Kind {
    IntLit,     // value
    BoolLit,    // value
    StrLit,     // text
    Name,       // text
    Unary,      // text=op, args[0]
    Binary,     // text=op, args[0..1]
    Cond,       // args[0] ? args[1] : args[2]
    Call,       // text=callee, args
    Recv,       // args (port reference)
    Field,      // args[0].text
    Index,      // args[0][args[1]]
    Cast,       // args[0] as type
    HeaderView, // header<text>(args)
    ArrayLit,   // [args]
  } kind;
  Loc loc;
  std::string text;
  uint64_t value = 0;
  std::vector<ExprPtr> args;
  TypeRefPtr type;
  Ty ty;                // set by Sema
  bool checked = false; // Sema visited it (errors are reported once)
  // A string argument of a Click configuration that is a `$NAME` define:
  // NAME (without '$'), so that it can be overridden at run time.
  std::string define;
};

struct SelectCase {
  Loc loc;
  std::string var;
  ExprPtr port; // a Name, or an Index into a port array
  Block body;
  Loc bodyEnd; // its closing brace
};

struct Stmt {
  enum Kind {
    Let,      // name (: type)? = init
    Var,      // name (: type)? (= init)?
    Assign,   // target op value   (op is "=", "+=", ...)
    If,       // cond, body, elseBody
    IfLet,    // name = init (try_recv), body, elseBody
    For,      // name in lo..hi body
    Unroll,   // name in lo..hi max bound body
    While,    // cond max bound body
    Select,   // cases
    Return,   // init: the result of a function, if any
    Break,    // leaves the innermost loop
    Continue, // ends the iteration of the innermost loop
    Fail,     // match programs: the item does not match
    ExprStmt,
    Nested, // { body }
  } kind;
  Loc loc;
  std::string name, op;
  TypeRefPtr type;
  ExprPtr init, target, cond, lo, hi, bound;
  Block body, elseBody;
  Loc bodyEnd, elseEnd; // closing braces (elseEnd unset without else)
  std::vector<SelectCase> cases;
};

struct Param {
  Loc loc;
  std::string name;
  TypeRefPtr type;
  bool variadic = false;
  ExprPtr defaultValue;
};

struct Field {
  Loc loc;
  std::string name;
  TypeRefPtr type;
  ExprPtr defaultValue; // structs only: used when a constructor omits it
};

struct PortDecl {
  Loc loc;
  bool isInput = true;
  std::string name;
  ExprPtr arraySize; // null for a single port
  TypeRefPtr type;
};

struct StateVar {
  Loc loc;
  std::string name;
  TypeRefPtr type;
  ExprPtr init;
  // Declared in `shared { ... }`: one copy for all instances of the element.
  bool shared = false;
  // `merge OP`: per-core copies combined with OP (sum, or, max, min) when
  // read; empty without.
  std::string merge;
  Loc mergeLoc;
};

/// A read handler (`read NAME -> T { ... }`) or write handler
/// (`write NAME(params) { ... }`) of an element: Click's handlers.
struct ControlDecl {
  Loc loc;
  bool isWrite = false;
  std::string name;
  std::vector<Param> params; // write
  TypeRefPtr result;         // read
  Block body;
  Loc bodyEnd;
};

/// What an element and a graph both declare: the name an instance calls,
/// the parameters it passes and the ports it connects.
struct ComponentDecl {
  Loc loc;
  std::string name;
  std::vector<Param> params;
  std::vector<PortDecl> ports;
};

struct ElementDecl : ComponentDecl {
  std::vector<StateVar> state;
  bool hasInit = false, hasHandler = false, hasSignal = false;
  bool hasTimer = false;
  Loc initLoc, handlerLoc, signalLoc, timerLoc;
  Loc initEnd, handlerEnd, signalEnd, timerEnd; // closing braces
  Block init, handler, signal, timer;
  ExprPtr timerPeriod; // nanoseconds
  std::string signalArg;
  TypeRefPtr signalType;
  std::vector<ControlDecl> controls;
};

struct InstanceDecl {
  Loc loc;
  std::string name, callee, placement;
  Loc calleeLoc, placementLoc;
  std::vector<ExprPtr> args;
};

/// One side of a connection: `inst`, `inst.port`, `inst.port[i]`, or a
/// boundary port of the enclosing graph.
struct Endpoint {
  Loc loc;
  std::string inst, port;
  ExprPtr index;
};

struct Connection {
  Loc loc;
  std::vector<Endpoint> chain;
  std::vector<bool> lossy; // per arrow, chain.size() - 1 entries
  std::vector<std::pair<std::string, ExprPtr>> attrs;
  std::vector<Loc> attrLocs;
};

struct GraphDecl : ComponentDecl {
  std::vector<InstanceDecl> instances;
  std::vector<Connection> connections;
};

struct MatchDecl {
  Loc loc;
  std::string name;
  std::vector<Param> params;
  Block body;
};

/// `fn name(params) -> type { body }`: inlined at every call; `type` is
/// null for a function without a result.
struct FnDecl {
  Loc loc;
  std::string name;
  std::vector<Param> params;
  TypeRefPtr result;
  Block body;
  Loc bodyEnd;
};

struct ConstDecl {
  Loc loc;
  std::string name;
  TypeRefPtr type;
  ExprPtr value;
};

struct RecordDecl { // struct or header
  Loc loc;
  bool isHeader = false;
  std::string name;
  std::vector<Field> fields;
};

/// `annotation NAME: T;`: a named annotation every packet carries.
struct AnnotationDecl {
  Loc loc;
  std::string name;
  TypeRefPtr type;
};

/// A name in a list: `import "f.np" { A, B }`, `without h1, h2`.
struct NameRef {
  Loc loc;
  std::string name;
};

/// `import "path";`, or `import "path" { names };` for only the named
/// elements and graphs of the file (`selective`).
struct ImportDecl {
  Loc loc;
  std::string path;
  bool selective = false;
  std::vector<NameRef> names;
};

/// `element name = target without h1, h2;`: resolved after loading into a
/// copy of the target element under the new name, less those handlers.
struct ElementAlias {
  Loc loc;
  std::string name, target;
  Loc targetLoc;
  std::vector<NameRef> without;
  size_t position = 0; // elements of the module before it: where the copy goes
};

/// A library element or graph that a program's own definition replaced
/// (reported by Sema as -Wshadow-library).
struct ShadowedDecl {
  std::string name;
  Loc program, library;
};

/// Everything parsed from one file and, after import resolution, from the
/// files it imports (in import order, each file once).
struct Module {
  std::vector<ImportDecl> imports;
  std::vector<ConstDecl> consts;
  std::vector<RecordDecl> records;
  std::vector<AnnotationDecl> annotations;
  std::vector<ElementDecl> elements;
  std::vector<GraphDecl> graphs;
  std::vector<MatchDecl> matches;
  std::vector<FnDecl> fns;
  std::vector<ElementAlias> aliases; // until loadProgram resolves them
  // Files found in a search directory (-I DIR, the standard library) and
  // the files they import: the libraries a program's definitions shadow.
  std::vector<const std::string *> libraryFiles;
  std::vector<ShadowedDecl> shadowed;

  bool isLibrary(const Loc &l) const {
    for (const std::string *f : libraryFiles)
      if (f == l.file)
        return true;
    return false;
  }
};

/// Deep copies, without Sema's annotations.
ExprPtr cloneExpr(const Expr &e);
TypeRefPtr cloneType(const TypeRef &t);
Block cloneBlock(const Block &b);
ElementDecl cloneElement(const ElementDecl &e);

/// Prints the AST as indented text (`npcc --target=ast`).
void dump(const Module &m, std::string &out);

} // namespace npcc::ast

#endif // NPCC_FRONTEND_AST_H
