//===- Run.cpp - run a match-unit program against its input --------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#include "runtime/musim/Run.h"
#include "runtime/musim/Simulate.h"

namespace npcc::musim {

const char *tagName(unsigned tag) {
  static const char *const Names[] = {"fail", "off", "len", "data"};
  return Names[tag & 3];
}

bool runList(const Program &prog, const std::vector<Item> &list,
             const std::vector<Item> &headers, const RunConfig &config,
             RunResult &result, Observer *observer) {
  result = RunResult();
  result.headers.assign(headers.size(), HeaderResult());
  Context c(prog, config, result);
  ListManager lm(list, headers, config.list);
  c.lm = &lm;
  c.observer = observer;
  return simulate(c);
}

bool runRaw(const Program &prog, const std::vector<InputWord> &input,
            const RunConfig &config, RunResult &result, Observer *observer) {
  result = RunResult();
  Context c(prog, config, result);
  c.input = &input;
  c.m.lastPopEnd = input.empty();
  c.observer = observer;
  return simulate(c);
}

} // namespace npcc::musim
