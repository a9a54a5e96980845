//===- RunStatusTest.cpp - how a run ends ----------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0
//
// nprt_run_status (runtime/nprt/run_status.h): the exit code's precedence
// (an error, then the signal, then what the scheduler returned), when
// ingress counts as stopping, that only the first stop signal is the
// run's, and how a multicore run merges its cores' statuses.
//
//===----------------------------------------------------------------------===//
#include "runtime/nprt/run_status.h"

#include <gtest/gtest.h>

#include <csignal>

namespace {

/// Each test starts and ends with no stop signal seen.
class RunStatus : public ::testing::Test {
protected:
  void SetUp() override { nprt_stop_signal = 0; }
  void TearDown() override { nprt_stop_signal = 0; }
  nprt_run_status s{};
};

TEST_F(RunStatus, ExitCodeIsTheSchedulersWithoutErrorOrSignal) {
  EXPECT_EQ(nprt_status_exit_code(&s, NPRT_EXIT_OK), NPRT_EXIT_OK);
  EXPECT_EQ(nprt_status_exit_code(&s, NPRT_EXIT_DEADLOCK), NPRT_EXIT_DEADLOCK);
  EXPECT_EQ(nprt_status_exit_code(&s, NPRT_EXIT_ERROR), NPRT_EXIT_ERROR);
}

TEST_F(RunStatus, ErrorBeatsSignalWhichBeatsDeadlock) {
  s.signo = SIGTERM;
  EXPECT_EQ(nprt_status_exit_code(&s, NPRT_EXIT_DEADLOCK), 128 + SIGTERM);
  EXPECT_EQ(nprt_status_exit_code(&s, NPRT_EXIT_ERROR), NPRT_EXIT_ERROR);
  nprt_status_failed(&s, false);
  EXPECT_EQ(nprt_status_exit_code(&s, NPRT_EXIT_OK), NPRT_EXIT_ERROR);
}

TEST_F(RunStatus, FailureStopsIngressOnlyWhenAsked) {
  nprt_status_failed(&s, false);
  EXPECT_TRUE(s.io_error);
  EXPECT_FALSE(nprt_status_stopping(&s));
  nprt_status_failed(&s, true);
  EXPECT_TRUE(nprt_status_stopping(&s));
}

TEST_F(RunStatus, RequestedStopIsANormalEnd) {
  nprt_status_stop(&s);
  EXPECT_TRUE(nprt_status_stopping(&s));
  EXPECT_EQ(nprt_status_exit_code(&s, NPRT_EXIT_OK), NPRT_EXIT_OK);
}

TEST_F(RunStatus, ASignalStopsBeforeTheSchedulerTakesIt) {
  nprt_status_take_signal(&s);
  EXPECT_FALSE(nprt_status_stopping(&s));
  EXPECT_EQ(s.signo, 0);
  nprt_stop_signal = SIGINT;
  EXPECT_TRUE(nprt_status_stopping(&s));
  nprt_status_take_signal(&s);
  EXPECT_TRUE(s.stop);
  EXPECT_EQ(s.signo, SIGINT);
  // A later signal does not replace the first.
  nprt_stop_signal = SIGTERM;
  nprt_status_take_signal(&s);
  EXPECT_EQ(s.signo, SIGINT);
}

TEST_F(RunStatus, MergeKeepsEveryFailureAndTheFirstSignal) {
  nprt_run_status core0{}, core1{}, core2{};
  core0.deadlock = true;
  core1.signo = SIGTERM;
  core1.stop = true;
  core2.signo = SIGINT;
  core2.io_error = true;
  core2.init_failed = true;
  for (const nprt_run_status *c : {&core0, &core1, &core2})
    nprt_status_merge(&s, c);
  EXPECT_TRUE(s.deadlock);
  EXPECT_TRUE(s.io_error);
  EXPECT_TRUE(s.init_failed);
  EXPECT_TRUE(s.stop);
  EXPECT_EQ(s.signo, SIGTERM);
}

} // namespace
