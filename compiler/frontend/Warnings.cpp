//===- Warnings.cpp - front-end warnings and their -W flags ---------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// Each warning has a stable name used by -W<name>, -Wno-<name> and
// -Werror=<name>, and printed after its message.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/Sema.h"

using namespace npcc;
using namespace npcc::ast;

const char *WarningOptions::name(Warning w) {
  switch (w) {
  case Warning::UnusedVariable:
    return "unused-variable";
  case Warning::UnreachableCode:
    return "unreachable-code";
  case Warning::ChannelDepth:
    return "channel-depth";
  case Warning::ShadowLibrary:
    return "shadow-library";
  case Warning::Count:
    break;
  }
  return "";
}

const char *WarningOptions::mode(Warning w) const {
  unsigned i = (unsigned)w;
  if (!enabled[i])
    return "ignore";
  return allAsErrors || asError[i] ? "error" : "warn";
}

bool WarningOptions::apply(llvm::StringRef flag) {
  bool negated = flag.consume_front("no-");
  if (flag == "error") {
    allAsErrors = !negated;
    return true;
  }
  bool error = flag.consume_front("error=");
  for (unsigned i = 0; i < (unsigned)Warning::Count; ++i) {
    if (flag != name((Warning)i))
      continue;
    if (error) {
      asError[i] = !negated;
      if (!negated)
        enabled[i] = true;
    } else {
      enabled[i] = !negated;
    }
    return true;
  }
  return false;
}

void Sema::warn(const Loc &l, Warning w, const llvm::Twine &msg,
                const Loc *noteLoc, const llvm::Twine &note) {
  unsigned i = (unsigned)w;
  if (!warnings.enabled[i])
    return;
  std::string flag = std::string("-W") + WarningOptions::name(w);
  bool asError = warnings.allAsErrors || warnings.asError[i];
  mlir::InFlightDiagnostic d =
      asError ? error(l) : mlir::emitWarning(toLoc(ctx, l));
  d << msg << (asError ? " [-Werror," : " [") << flag << "]";
  if (noteLoc)
    d.attachNote(toLoc(ctx, *noteLoc)) << note;
}

void Sema::warnShadowed() {
  for (const ShadowedDecl &s : module.shadowed)
    warn(s.program, Warning::ShadowLibrary,
         "'" + s.name + "' shadows the library's '" + s.name + "'", &s.library,
         "the library's '" + s.name + "' is here");
}
