//===- ClassifierPattern.cpp - Click classifier patterns ------------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The patterns of classify() and Click's Classifier: "12/0800%0fff 23/06"
// is a list of OFFSET/HEXVALUE[%HEXMASK] clauses, "-" matches every packet.
//
//===----------------------------------------------------------------------===//

#include "compiler/frontend/MLIRGenImpl.h"

using namespace npcc;
using namespace npcc::ast;

static int hexDigit(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  c = (char)std::tolower((unsigned char)c);
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

bool npcc::parseClassifierPattern(llvm::StringRef text,
                                  std::vector<PatternClause> &out,
                                  std::string &error) {
  llvm::SmallVector<llvm::StringRef> clauses;
  text.trim().split(clauses, ' ', -1, /*KeepEmpty=*/false);
  if (clauses.size() == 1 && clauses[0] == "-")
    return true;
  if (clauses.empty()) {
    error = "empty pattern; use \"-\" to match every packet";
    return false;
  }
  for (llvm::StringRef c : clauses) {
    auto [offText, rest] = c.split('/');
    auto [valText, maskText] = rest.split('%');
    PatternClause pc;
    if (offText.getAsInteger(10, pc.offset) || valText.empty()) {
      error = "clause '" + c.str() + "' is not OFFSET/HEXVALUE[%HEXMASK]";
      return false;
    }
    if (valText.size() % 2 ||
        (!maskText.empty() && maskText.size() != valText.size())) {
      error = "clause '" + c.str() +
              "' needs whole bytes, and a mask as long as its value";
      return false;
    }
    for (size_t i = 0; i < valText.size(); i += 2) {
      uint8_t v = 0, m = 0;
      for (size_t k = 0; k < 2; ++k) {
        char ch = valText[i + k];
        int d = ch == '?' ? 0 : hexDigit(ch);
        int md = ch == '?' ? 0 : 0xf;
        if (!maskText.empty()) {
          int mm = hexDigit(maskText[i + k]);
          if (mm < 0) {
            error = "bad hex digit in mask of '" + c.str() + "'";
            return false;
          }
          md &= mm;
        }
        if (d < 0) {
          error = "bad hex digit in '" + c.str() + "'";
          return false;
        }
        v = (uint8_t)(v << 4 | (d & md));
        m = (uint8_t)(m << 4 | md);
      }
      pc.value.push_back(v);
      pc.mask.push_back(m);
    }
    out.push_back(std::move(pc));
  }
  return true;
}
