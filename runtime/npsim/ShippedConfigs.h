//===- ShippedConfigs.h - the configurations built into npsim ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The files of runtime/npsim/configs, compiled in (ShippedConfigs.cpp is
// generated from them), so that a program built for the simulator needs no
// data files beside it.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_RUNTIME_NPSIM_SHIPPEDCONFIGS_H
#define NPCC_RUNTIME_NPSIM_SHIPPEDCONFIGS_H

#include <string>

namespace npcc::npsim {

/// The text of shipped configuration `name`, or nullptr.
const char *shippedConfigText(const std::string &name);

} // namespace npcc::npsim

#endif // NPCC_RUNTIME_NPSIM_SHIPPEDCONFIGS_H
