//===- Observer.cpp - cycle-by-cycle trace and VCD output -----------------===//
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
#include "runtime/musim/Observer.h"
#include "runtime/musim/MachineStep.h"
#include "runtime/musim/Run.h"

#include <cstdio>

namespace npcc::musim {

namespace {

std::string hex(uint64_t v) {
  char buf[24];
  snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)v);
  return buf;
}

std::string reg(char file, unsigned n) { return file + std::to_string(n); }

enum Signal { PC, STALL, R0 = 2, T0 = 18, P0 = 34, IN_DEPTH = 50, OUT_DEPTH };
constexpr unsigned NUM_SIGNALS = OUT_DEPTH + 1;

} // namespace

std::string Observer::traceLine(const Machine &m, const CycleEvent &ev) {
  std::string line = std::to_string(ev.cycle) + " pc=" + std::to_string(ev.pc);
  if (ev.stall)
    return line + " stall";
  const MicroOp &o = m.prog->ops[ev.pc];
  const mu::Word &w = m.prog->words[ev.pc];
  std::string parts;
  auto part = [&](const std::string &s) {
    parts += parts.empty() ? " " : "; ";
    parts += s;
  };
  if (o.inOp) {
    std::string s = "in";
    if (o.inOp & 1)
      s += " " + reg('r', w.IN_RD) + "=" + hex(ev.inVal);
    if (o.inOp & 2)
      s += " " + reg('t', w.IN_TD) + "=" + hex(detail::tpermute(o, ev.inVal));
    if (ev.inEnd)
      s += " END";
    if (w.IN_ENDP)
      s += " " + reg('p', w.IN_ENDP) + "=" + (ev.inEnd ? "1" : "0");
    part(s);
  }
  if (o.cpOp == mu::CP_TERN)
    part(ev.cpDone ? "cp " + reg('t', w.CP_TD) + "=" + hex(ev.cpVal)
                   : "cp skipped");
  else if (o.cpOp == mu::CP_OUT)
    part(ev.cpDone
             ? std::string("out ") + tagName(o.cpTag) + " " + hex(ev.cpVal)
             : "out skipped");
  if (o.aluOp >= mu::ALU_EQ)
    part("alu " + reg('p', o.aluP) + "=" + (ev.aluCmp ? "1" : "0"));
  else if (o.aluOp != mu::ALU_NOP)
    part(ev.aluDone ? "alu " + reg('r', w.ALU_RD) + "=" + hex(ev.aluVal)
                    : "alu " + reg('r', w.ALU_RD) + " skipped");
  if (o.ternOp)
    part("tern " + reg('p', o.ternP) + "=" + (ev.ternCmp ? "1" : "0"));
  if (o.slots >> SLOT_PRED & 1) {
    std::string s = "pred";
    if (w.PRED_DST0)
      s += " " + reg('p', w.PRED_DST0) + "=" + (ev.pred0 ? "1" : "0");
    if (w.PRED_DST1)
      s += " " + reg('p', w.PRED_DST1) + "=" + (ev.pred1 ? "1" : "0");
    part(s);
  }
  bool halt = o.brOp == mu::BR_HALT;
  switch (ev.branch) {
  case CycleEvent::TAKEN:
    part("br taken->" + std::to_string(o.target));
    break;
  case CycleEvent::NOT_TAKEN:
    part("br not-taken");
    break;
  case CycleEvent::CANCELLED:
    part(halt ? "halt cancelled" : "br cancelled");
    break;
  case CycleEvent::HALT:
    part("halt");
    break;
  case CycleEvent::NONE:
    break;
  }
  return line + (parts.empty() ? " nop" : parts);
}

void Observer::cycle(const Machine &m, const CycleEvent &ev, size_t inDepth,
                     size_t outDepth) {
  if (trace)
    *trace << traceLine(m, ev) << '\n';
  if (!vcd)
    return;
  if (!started)
    vcdHeader();
  *vcd << '#' << ev.cycle << '\n';
  vcdValue(PC, ev.pc, 10);
  vcdValue(STALL, ev.stall, 1);
  for (unsigned i = 0; i < 16; ++i) {
    vcdValue(R0 + i, m.r[i], 64);
    vcdValue(T0 + i, m.t[i], 64);
    vcdValue(P0 + i, m.p[i], 1);
  }
  vcdValue(IN_DEPTH, inDepth, 16);
  vcdValue(OUT_DEPTH, outDepth, 16);
}

void Observer::finish(uint64_t cycles) {
  if (vcd && started)
    *vcd << '#' << cycles << '\n';
}

void Observer::vcdHeader() {
  started = true;
  *vcd << "$timescale 1ns $end\n$scope module match_unit $end\n";
  auto var = [&](unsigned id, unsigned width, const std::string &name) {
    *vcd << "$var wire " << width << ' ' << char('!' + id) << ' ' << name
         << " $end\n";
  };
  var(PC, 10, "pc");
  var(STALL, 1, "stall");
  for (unsigned i = 0; i < 16; ++i)
    var(R0 + i, 64, reg('r', i));
  for (unsigned i = 0; i < 16; ++i)
    var(T0 + i, 64, reg('t', i));
  for (unsigned i = 0; i < 16; ++i)
    var(P0 + i, 1, reg('p', i));
  var(IN_DEPTH, 16, "in_depth");
  var(OUT_DEPTH, 16, "out_depth");
  *vcd << "$upscope $end\n$enddefinitions $end\n";
  for (unsigned i = 0; i < NUM_SIGNALS; ++i)
    last[i] = ~0ull - 1; // forces the first dump
}

void Observer::vcdValue(unsigned id, uint64_t value, unsigned width) {
  if (last[id] == value)
    return;
  last[id] = value;
  char code = '!' + id;
  if (width == 1) {
    *vcd << (value ? '1' : '0') << code << '\n';
    return;
  }
  std::string bits;
  for (int b = width - 1; b >= 0; --b)
    if (!bits.empty() || (value >> b & 1) || b == 0)
      bits += (value >> b & 1) ? '1' : '0';
  *vcd << 'b' << bits << ' ' << code << '\n';
}

} // namespace npcc::musim
