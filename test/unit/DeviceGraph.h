//===- DeviceGraph.h - a FromDevice -> ToDevice test graph ------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// The two-instance graph the pcap and output tests run through the
// executor: src (FromDevice, its handler chosen by the test) -> sink
// (ToDevice), with the command line given per test.
//
//===----------------------------------------------------------------------===//
#ifndef NPCC_TEST_UNIT_DEVICEGRAPH_H
#define NPCC_TEST_UNIT_DEVICEGRAPH_H

#include "test/unit/Handlers.h"
#include "test/unit/TestUtil.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace nprt_test {

class DeviceGraph : public ::testing::Test {
protected:
  void build(nprt_fn source) {
    resetState();
    g = nprt_test_graph_create();
    uint32_t src = nprt_graph_add_instance(g, "src", "FromDevice", "", "o",
                                           nullptr, source, nullptr, "host");
    uint32_t sink = nprt_graph_add_instance(g, "sink", "ToDevice", "i", "",
                                            nullptr, toDevice, nullptr, "host");
    nprt_graph_connect(g, src, 0, sink, 0, 8, false);
    nprt_options_init(&opts, "prog", "passthrough");
  }
  void TearDown() override {
    nprt_options_free(&opts);
    nprt_test_graph_destroy(g);
  }
  RunResult runWith(std::vector<std::string> args) {
    std::vector<char *> argv;
    static char prog[] = "prog";
    argv.push_back(prog);
    for (std::string &a : args)
      argv.push_back(&a[0]);
    EXPECT_EQ(nprt_options_parse(&opts, (int)argv.size(), argv.data()),
              NPRT_PARSE_RUN);
    return run(g, opts);
  }
  nprt_graph *g = nullptr;
  nprt_options opts;
};

} // namespace nprt_test

#endif // NPCC_TEST_UNIT_DEVICEGRAPH_H
